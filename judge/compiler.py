"""Compiling a submission in the sandbox, with a content-addressed cache of the artifacts."""
from __future__ import annotations

import errno
import glob
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from judge import JudgeError, __version__
from judge.cache import usable_cache_dir
from judge.languages import Language
from judge.sandbox import Limits, Sandbox

COMPILE_TIME_ENV = "JUDGE_COMPILE_TIME_LIMIT_MS"   # for slow (e.g. emulated) machines


def compile_limits() -> Limits:
    """A compile's limits: 30 s of CPU (or $JUDGE_COMPILE_TIME_LIMIT_MS), twice that of wall."""
    text = os.environ.get(COMPILE_TIME_ENV) or "30000"
    try:
        cpu_ms = int(text)
    except ValueError:
        raise JudgeError(f"{COMPILE_TIME_ENV}={text!r} is not a number of milliseconds") from None
    return Limits(time_limit_ms=cpu_ms, wall_time_limit_ms=2 * cpu_ms, memory_limit_mb=2048,
                  output_limit_mb=1, processes=64, file_size_limit_mb=256, stderr_limit_mb=1)

LOG_LIMIT = 64 * 1024
PCH_INSIDE = "/judge/pch"  # where the precompiled headers are seen in the compile sandbox


@dataclass(frozen=True)
class CompileResult:
    status: str              # "OK", "CE" or "SE"
    log: str                 # the compiler's messages (truncated)
    artifacts: Path | None   # directory holding what the run needs
    cached: bool
    time_ms: float           # wall time of the compile (0 when cached)

    def to_dict(self) -> dict:
        return {"status": self.status, "log": self.log, "cached": self.cached,
                "time_ms": round(self.time_ms, 1)}


def cache_root() -> Path:
    root = os.environ.get("JUDGE_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "judge")
    return usable_cache_dir(Path(root) / "compile", "compile")


def cache_key(source: bytes, language: Language) -> str:
    h = hashlib.sha256()
    for part in (source, language.name.encode(), language.compile_policy.encode(),
                 json.dumps(language.compile).encode(),
                 json.dumps(language.run).encode(), language.toolchain_version.encode(),
                 __version__.encode()):
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()


def _make_world_accessible(path: Path) -> None:
    """The sandbox runs programs as an unprivileged uid: it must read (and for a build, write)."""
    os.chmod(path, 0o777 if path.is_dir() else 0o755)


def _publish(staging: Path, final: Path) -> None:
    """Moves a finished build into the cache in one step. It is staged beside its place, on the
    same file system (a rename cannot cross one); a concurrent build of the same key may have
    got there first, which is fine."""
    try:
        os.rename(staging, final)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY):
            raise


def _header_path(header: str, flags: tuple[str, ...]) -> str | None:
    """Where g++ finds `header` (e.g. bits/stdc++.h) with these flags."""
    try:
        out = subprocess.run(["g++", *flags, "-x", "c++", "-H", "-E", "-o", "/dev/null", "-"],
                             input=f"#include <{header}>\n", capture_output=True, text=True,
                             timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    for line in out.stderr.splitlines():
        if line.startswith(". ") and line.endswith(header):
            return line[2:].strip()
    return None


class Compiler:
    """Builds submissions in a writable sandbox slot; finished builds land in the cache."""

    def __init__(self, slot: int = 0, cpu: int | None = None, cache: Path | None = None) -> None:
        self.cache = cache or cache_root()
        self.slot = slot
        self.cpu = cpu
        self._work = Path(tempfile.mkdtemp(prefix="judge-build-"))
        self._box = self._work / "box"
        self._box.mkdir()
        _make_world_accessible(self._box)
        self._sandboxes: dict[tuple, Sandbox] = {}
        self._pch: dict[str, Path | None] = {}

    def _sandbox(self, policy: str, binds: tuple = ()) -> Sandbox:
        key = (policy, binds)
        if key not in self._sandboxes:
            self._sandboxes[key] = Sandbox(box=self._box, policy=policy, slot=self.slot,
                                           cpu=self.cpu, box_writable=True, tmp_size_mb=512,
                                           binds=binds).start()
        return self._sandboxes[key]

    def close(self) -> None:
        for sandbox in self._sandboxes.values():
            sandbox.close()
        self._sandboxes.clear()
        shutil.rmtree(self._work, ignore_errors=True)

    def __enter__(self) -> "Compiler":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def precompiled_header(self, language: Language) -> Path | None:
        """A precompiled bits/stdc++.h built with exactly the language's flags, or None.

        Most model-written C++ includes it; with the .gch found first on the include path a
        compile takes a fraction of the time and produces the same code. g++ checks that the
        flags match and silently falls back to the real header when they do not."""
        if language.name not in ("cpp",) or os.environ.get("JUDGE_NO_PCH"):
            return None
        if language.name in self._pch:
            return self._pch[language.name]
        self._pch[language.name] = None
        flags = tuple(f for f in language.compile[1:] if f not in ("-static",) and not f.endswith(".cpp")
                      and f not in ("-o", "code.exe"))
        key = hashlib.sha256(json.dumps([flags, language.toolchain_version]).encode()).hexdigest()[:16]
        root = self.cache.parent / "pch" / key
        gch = root / "bits" / "stdc++.h.gch"
        if not gch.exists():
            header = _header_path("bits/stdc++.h", flags)
            if header is None:
                return None
            root.parent.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=root.parent))
            (staging / "bits").mkdir()
            for d in (staging, staging / "bits"):
                _make_world_accessible(d)
            with Sandbox(box=staging / "bits", policy="build", slot=self.slot, cpu=self.cpu,
                         box_writable=True, tmp_size_mb=512) as sandbox:
                run = sandbox.run(["g++", *flags, "-x", "c++-header", "-o", "stdc++.h.gch", header],
                                  compile_limits())
            if run.status != "OK" or not (staging / "bits" / "stdc++.h.gch").exists():
                shutil.rmtree(staging, ignore_errors=True)
                return None
            _publish(staging, root)
        self._pch[language.name] = root
        return root

    def compile(self, source: str, language: Language, binds: tuple = ()) -> CompileResult:
        """binds: (host directory, path inside) pairs the build may read (a testlib checkout)."""
        data = source.encode()
        key = cache_key(data + json.dumps([list(map(str, b)) for b in binds]).encode(), language)
        entry = self.cache / key[:2] / key
        done = entry / "result.json"
        if done.exists():
            meta = json.loads(done.read_text())
            artifacts = entry / "artifacts" if meta["status"] == "OK" else None
            return CompileResult(meta["status"], meta["log"], artifacts, True, 0.0)
        return self._build(source, language, entry, binds)

    def _build(self, source: str, language: Language, entry: Path, binds: tuple) -> CompileResult:
        for child in self._box.iterdir():
            shutil.rmtree(child) if child.is_dir() else child.unlink()
        name = language.file_name(source)
        (self._box / name).write_text(source)
        _make_world_accessible(self._box / name)
        argv = language.compile_argv(source)
        pch = self.precompiled_header(language) if argv else None
        if pch is not None:
            argv = [argv[0], "-I", PCH_INSIDE, *argv[1:]]
            binds = (*binds, (str(pch), PCH_INSIDE))
        started = time.perf_counter()
        log = ""
        if argv is None:
            status = "OK"
        else:
            with tempfile.TemporaryFile() as output:
                run = self._sandbox(language.compile_policy, binds).run(
                    argv, compile_limits(), stdout=output, stderr=output)
                output.seek(0)
                log = output.read(LOG_LIMIT).decode(errors="replace")
            if run.status in ("SE", "RF"):
                # The toolchain itself was stopped by the sandbox: a judge failure, not cached.
                detail = run.error or f"the compiler made a refused syscall: {run.syscall}"
                return CompileResult("SE", detail, None, False, (time.perf_counter() - started) * 1e3)
            if run.status != "OK":
                status = "CE"
                if run.status != "RE":
                    log += f"\n[compilation stopped: {run.status}, {run.killed_by or ''}]"
            else:
                status = "OK"
        elapsed = (time.perf_counter() - started) * 1e3
        entry.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=entry.parent))
        artifacts = staging / "artifacts"
        artifacts.mkdir()
        if status == "OK":
            for pattern in language.artifacts:
                for found in glob.glob(str(self._box / pattern)):
                    shutil.copy2(found, artifacts)
                    _make_world_accessible(artifacts / Path(found).name)
        _make_world_accessible(artifacts)
        (staging / "result.json").write_text(json.dumps({"status": status, "log": log}))
        _publish(staging, entry)
        return CompileResult(status, log, entry / "artifacts" if status == "OK" else None,
                             False, elapsed)
