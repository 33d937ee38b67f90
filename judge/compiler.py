"""Compiling a submission in the sandbox, with a content-addressed cache of the artifacts."""
from __future__ import annotations

import dataclasses
import enum
import errno
import fcntl
import fnmatch
import functools
import hashlib
import json
import logging
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from judge import __version__, compile_cache, config
from judge.cache import judge_cache_dir
from judge.compile_control import control_source
from judge.exclusion import Evidence, EvidenceKind
from judge.languages import Language
from judge.languages.runtime import DEBIAN_MANIFEST, NODE_MANIFEST
from judge.sandbox import Limits, RunResult, Sandbox, box_files
from judge.sandbox.result import CANNOT_EXECUTE
from judge.sandbox.slot import supervisor_path
from judge.sandbox.slots import COMMAND
from judge.sandbox.verdict import busy_evidence, describe_end
from judge.verdicts import KilledBy, Status

logger = logging.getLogger(__name__)

# bits/stdc++.h.gch takes about 120 MiB: the judge's own build, not a submission's.
PCH_FILE_SIZE_MB = 256
# How the C library words the kernel's stop of a write, in the C locale the compile runs in:
# strsignal(SIGXFSZ) for a tool killed past the file size limit, strerror(EFBIG) for one that
# ignores the signal (the JVM), strerror(ENOSPC) for a full box or /tmp.
OUT_OF_ROOM_MESSAGES = ("File size limit exceeded", "File too large", "No space left on device")


def compile_limits(file_size_limit_mb: int, time_limit_ms: int | None = None) -> Limits:
    """A compile's limits: the configured CPU time (30 s, or $JUDGE_COMPILE_TIME_LIMIT_MS on a
    slow machine), twice that of wall. `time_limit_ms`: a caller's wall-clock limit
    (SandboxFusion's compile_timeout), which shortens both and is clamped to them."""
    cpu_ms = config.current().compile_time_limit_ms
    wall_ms = 2 * cpu_ms
    if time_limit_ms is not None:
        cpu_ms, wall_ms = min(cpu_ms, time_limit_ms), min(wall_ms, time_limit_ms)
    return Limits(time_limit_ms=cpu_ms, wall_time_limit_ms=wall_ms, memory_limit_mb=2048,
                  output_limit_mb=1, processes=64, file_size_limit_mb=file_size_limit_mb,
                  stderr_limit_mb=1)


LOG_LIMIT = 64 * 1024
PCH_INSIDE = "/judge/pch"  # where the precompiled headers are seen in the compile sandbox
JAVAC_ARCHIVE = "javac.jsa"
# What javac compiles once to fill its class-data archive: the features submissions use, so that
# the compiler classes they need are in it (a class outside it is simply loaded as usual).
JAVAC_WARM_UP = """\
import java.io.*;
import java.util.*;
import java.util.function.*;
import java.util.stream.*;

public class Main {
    record Edge(int to, long weight) {}

    interface Visitor<T> { void visit(T item); }

    static final int MOD = 1_000_000_007;

    static long power(long base, long exp) {
        long result = 1;
        for (base %= MOD; exp > 0; exp >>= 1, base = base * base % MOD)
            if ((exp & 1) == 1) result = result * base % MOD;
        return result;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer tokens = new StringTokenizer(in.readLine());
        int n = Integer.parseInt(tokens.nextToken());
        List<List<Edge>> graph = new ArrayList<>();
        for (int i = 0; i < n; i++) graph.add(new ArrayList<>());
        PriorityQueue<long[]> queue = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
        Map<String, Integer> counts = new HashMap<>();
        TreeMap<Integer, Integer> ordered = new TreeMap<>();
        Deque<Integer> stack = new ArrayDeque<>();
        int[] values = Arrays.stream(in.readLine().split(" ")).mapToInt(Integer::parseInt).toArray();
        Function<Integer, Integer> twice = x -> 2 * x;
        String joined = IntStream.range(0, n).mapToObj(i -> String.valueOf(twice.apply(values[i])))
            .collect(Collectors.joining(" "));
        StringBuilder out = new StringBuilder();
        for (var entry : counts.entrySet()) out.append(entry.getKey()).append(entry.getValue());
        switch (n % 3) {
            case 0 -> out.append("zero");
            default -> out.append(String.format("%d %.3f", n, Math.sqrt(n)));
        }
        Visitor<Integer> visitor = stack::push;
        visitor.visit(n);
        try (PrintWriter writer = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)))) {
            writer.println(joined + out + power(2, n) + queue.size() + ordered.size() + graph.size());
        } catch (RuntimeException e) {
            throw new IllegalStateException(e);
        }
    }
}
"""


@dataclass(frozen=True)
class PrepareStep:
    """One command of a prepared directory's build (the precompiled headers, javac's archive):
    `argv`, run in it once `files` are written there, makes `product` (a path inside it)."""
    argv: tuple[str, ...]
    product: Path
    files: Mapping[str, str]


@dataclass(frozen=True)
class CompileResult:
    status: str              # "OK", "CE" or "SE"
    log: str                 # the compiler's messages (truncated)
    artifacts: Path | None   # directory holding what the run needs
    cached: bool
    time_ms: float           # wall time of the compile (0 when cached)
    # For an SE: why it is the judge's failure and not the source's (judge.exclusion). An SE
    # without it is graded as the source's own CE.
    evidence: Evidence | None = None

    def to_dict(self) -> dict:
        return {"status": self.status, "log": self.log, "cached": self.cached,
                "time_ms": round(self.time_ms, 1)}


def cache_root() -> Path:
    return judge_cache_dir("compile")


# What a compile can see beyond its toolchain's version: the packages installed on the host
# (headers and libraries: installing a missing one must cure an earlier "no such file" CE), the
# runtime layer's libraries (judge/languages/runtime.py), and the supervisor that builds the
# sandbox's view of the host.
HOST_STATE_FILES = (Path("/var/lib/dpkg/status"), DEBIAN_MANIFEST, NODE_MANIFEST)


def _identity(path: Path) -> tuple[int, int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_ino, stat.st_size, stat.st_mtime_ns


@functools.lru_cache(maxsize=4)
def _host_state(paths: tuple[Path, ...],
                identities: tuple[tuple[int, int, int] | None, ...]) -> bytes:
    digest = hashlib.sha256()
    for path in paths:
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"absent")
    return digest.digest()


def host_state() -> bytes:
    """A digest of what a compile sees of the host; a compile cache entry made under another is
    never served (docs/design/5-compilation-and-checkers.md §5.3). Read again whenever one of its
    files changes, so that a long-lived process (judge serve) sees an install made while it runs."""
    paths = (*HOST_STATE_FILES, supervisor_path())
    return _host_state(paths, tuple(_identity(path) for path in paths))


def cache_key(source: bytes, language: Language) -> str:
    """The compile's inputs: with the precompiled headers the compile reads (their headers and
    flags; what is in them is the toolchain's, whose version is here too)."""
    headers = language.precompiled_headers if config.current().precompiled_headers else ()
    h = hashlib.sha256()
    for part in (source, language.name.encode(), language.compile_policy.name.encode(),
                 json.dumps(language.compile).encode(),
                 json.dumps([headers, language.header_flags]).encode(),
                 json.dumps(language.run).encode(), json.dumps(sorted(language.env.items())).encode(),
                 json.dumps(sorted(language.support_files.items())).encode(),
                 language.toolchain_version.encode(), host_state(),
                 __version__.encode()):
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()


def _make_world_accessible(path: Path) -> None:
    """The sandbox runs programs as an unprivileged uid: it must read (and for a build, write)."""
    os.chmod(path, 0o777 if path.is_dir() else 0o755)


def _copy_regular_file(dir_fd: int, name: str, target: Path) -> None:
    """Copies `name` out of the box when it is a regular file. The judge resolves names on the
    host: a symbolic link the build made could point anywhere there, and a FIFO would block."""
    fd = box_files.open_regular_file(dir_fd, [name])
    if fd is None:
        return
    with open(fd, "rb") as reader, open(target, "wb") as writer:
        shutil.copyfileobj(reader, writer, 1 << 20)
    _make_world_accessible(target)


def _ran_out_of_room(run: RunResult, log: str, box_fd: int) -> bool:
    """Whether a failed compile was stopped by the kernel's bounds on what it may write."""
    box = os.fstatvfs(box_fd)
    return (run.signal == signal.SIGXFSZ or box.f_bavail == 0 or box.f_favail == 0
            or any(message in log for message in OUT_OF_ROOM_MESSAGES))


def _ending(run: RunResult, log: str) -> str:
    """How a compile that was not OK ended, in a few words: its status and why."""
    how = describe_end(run) or (log.strip().splitlines() or [""])[-1][:200]
    return f"{run.status}: {how}" if how else str(run.status)


class _Again(enum.Enum):
    """The sandbox failed on a source while its language's control program compiled: the source
    is compiled once more (a second failure is the source's doing)."""
    COMPILE = "again"


_AGAIN = _Again.COMPILE


@dataclass(frozen=True)
class _Compiled:
    """One compile that ran, with what judging its end needs."""
    run: RunResult
    log: str
    box: int
    limits: Limits
    argv: list[str]
    given: tuple
    sandbox: Sandbox
    started: float

    def elapsed_ms(self) -> float:
        return (time.perf_counter() - self.started) * 1e3


class Compiler:
    """Builds submissions in a sandbox slot whose /box is a tmpfs the size of the artifact limit
    ($JUDGE_ARTIFACT_LIMIT_MB): the kernel bounds what one compile can write, in bytes and in
    files, and no file it writes (there or in /tmp) may be larger. Finished builds land in the
    cache, which keeps to $JUDGE_COMPILE_CACHE_MB (judge/compile_cache.py); one stopped by those
    bounds is a CE that says so, and is not cached, since the limit is a setting the cache key
    does not hold."""

    def __init__(self, slot: int = COMMAND.first, cpu: int | None = None,
                 cache: Path | None = None) -> None:
        self.cache = cache or cache_root()
        self.slot = slot
        self.cpu = cpu
        settings = config.current()
        self.artifact_limit_mb = settings.artifact_limit_mb
        self.cache_cap_mb = settings.compile_cache_mb
        self._sandboxes: dict[tuple, Sandbox] = {}
        self._pch: dict[str, Path | None] = {}

    def _sandbox(self, policy: str, binds: tuple = ()) -> Sandbox:
        key = (policy, binds)
        if key not in self._sandboxes:
            self._sandboxes[key] = Sandbox(policy=policy, slot=self.slot, cpu=self.cpu,
                                           box_tmpfs_mb=self.artifact_limit_mb, tmp_size_mb=512,
                                           binds=binds)
        return self._sandboxes[key].start()

    def close(self) -> None:
        for sandbox in self._sandboxes.values():
            sandbox.close()
        self._sandboxes.clear()

    def __enter__(self) -> Compiler:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def precompiled_header(self, language: Language) -> Path | None:
        """The directory of the language's precompiled headers (bits/stdc++.h, and for
        SandboxFusion's C++ also <iostream> and the other headers code includes first), each
        built with exactly its header flags, or None.

        With a .gch found first on the include path a compile takes a fraction of the time and
        produces the same code. g++ uses one only for the first #include, and checks that the
        flags and the macros the header tests match; otherwise it silently reads the real
        header. Each is built from a one-line source that includes it, named as a submission's
        source: the header is then read as the system header it is, and a diagnostic inside it
        names the same chain of includes as without it ("from code.cpp:1")."""
        if not language.precompiled_headers or not config.current().precompiled_headers:
            return None
        assert language.compile is not None, "a header is precompiled by the compiler"
        wrapper = language.file_name("")
        steps = [PrepareStep((language.compile[0], *language.header_flags, "-x", "c++-header",
                              "-o", f"{header}.gch", wrapper),
                             Path(f"{header}.gch"), {wrapper: f"#include <{header}>\n"})
                 for header in language.precompiled_headers]
        return self._prepared(language, "headers",
                              [language.header_flags, language.precompiled_headers], steps,
                              "build")

    def compiler_archive(self, language: Language) -> Path | None:
        """A class-data archive of the compiler's own classes (javac, a Java program), made by
        compiling a typical submission once with exactly the language's compile command: every
        later javac maps the classes instead of loading them, about half its start-up. javac
        writes the same class files either way."""
        if not language.compiler_archive or not config.current().precompiled_headers:
            return None
        source = JAVAC_WARM_UP
        command = language.compile_argv(source)
        assert command is not None, "an archive is made by the compiler"
        step = PrepareStep((command[0], f"-J-XX:ArchiveClassesAtExit={JAVAC_ARCHIVE}",
                            *command[1:]), Path(JAVAC_ARCHIVE),
                           {language.file_name(source): source})
        return self._prepared(language, "archive", [command, source], [step],
                              language.compile_policy.name)

    def _prepared(self, language: Language, kind: str, key_parts: list,
                  steps: list[PrepareStep], policy: str) -> Path | None:
        """The directory holding the products of `steps`, built once per toolchain version and
        `key_parts` in the compile sandbox and kept beside the compile cache; None when none
        of them can be built (compiles then go without)."""
        key = hashlib.sha256(json.dumps([kind, key_parts, language.toolchain_version])
                             .encode()).hexdigest()[:16]
        if key in self._pch:
            return self._pch[key]
        self._pch[key] = None
        root = self.cache.parent / "pch" / key
        if not root.exists():
            root.parent.mkdir(parents=True, exist_ok=True)
            # Every slot of a server warms up at once: one builds, the others wait for it.
            lock = os.open(root.parent / f"{key}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC,
                           0o600)
            try:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if not root.exists() and not self._build_prepared(language, root, steps,
                                                                    policy):
                    return None
            finally:
                os.close(lock)
        self._pch[key] = root
        return root

    def _build_prepared(self, language: Language, root: Path, steps: list[PrepareStep],
                        policy: str) -> bool:
        """Runs `steps` in one sandbox whose box is a staging directory, keeps only their
        products, and publishes it as `root`; a step that fails is left out (and logged)."""
        staging = Path(tempfile.mkdtemp(prefix=compile_cache.STAGING_PREFIX, dir=root.parent))
        _make_world_accessible(staging)
        built: set[Path] = set()
        with Sandbox(box=staging, policy=policy, slot=self.slot, cpu=self.cpu,
                     box_writable=True, tmp_size_mb=512) as sandbox:
            for step in steps:
                for directory in reversed(step.product.parents[:-1]):
                    (staging / directory).mkdir(exist_ok=True)
                    _make_world_accessible(staging / directory)
                for name, text in step.files.items():
                    (staging / name).write_text(text)
                run = sandbox.run(list(step.argv), compile_limits(PCH_FILE_SIZE_MB))
                if run.status == Status.OK and (staging / step.product).is_file():
                    built.add(step.product)
                else:
                    logger.warning("building %s for %s failed (%s); compiles go without it",
                                   step.product, language.name, run.status)
        if not built:
            shutil.rmtree(staging, ignore_errors=True)
            return False
        for leftover in staging.rglob("*"):     # the inputs and by-products: not kept
            if leftover.is_file() and leftover.relative_to(staging) not in built:
                leftover.unlink()
        logger.info("built %s for %s into %s", ", ".join(map(str, sorted(built))),
                    language.name, root)
        compile_cache.publish(staging, root)
        return True

    def compile(self, source: str, language: Language, binds: tuple = (),
                bound_content: bytes = b"", time_limit_ms: int | None = None) -> CompileResult:
        """binds: (host directory, path inside) pairs the build may read (a testlib.h).
        bound_content: what the build reads from them; part of the cache key, since a bind
        names only a path, whose files may change. time_limit_ms: a caller's wall-clock limit
        of the compile, within the judge's own (compile_limits); a compile from the cache
        takes no time, so meets any limit."""
        data = source.encode() + json.dumps([list(map(str, b)) for b in binds]).encode()
        if bound_content:
            data += hashlib.sha256(bound_content).digest()
        key = cache_key(data, language)
        entry = self.cache / key[:2] / key
        if compile_cache.mark_used(entry):
            try:
                meta = json.loads((entry / "result.json").read_text())
            except FileNotFoundError:
                pass   # evicted since
            else:
                artifacts = entry / "artifacts" if meta["status"] == "OK" else None
                logger.debug("%s compile %s: from the cache (%s)", language.name, key[:12], meta["status"])
                return CompileResult(meta["status"], meta["log"], artifacts, True, 0.0)
        result = self._build(source, language, entry, binds, time_limit_ms)
        logger.debug("%s compile %s: %s in %.0f ms", language.name, key[:12], result.status, result.time_ms)
        return result

    def _command(self, source: str, language: Language,
                 binds: tuple) -> tuple[list[str] | None, tuple]:
        """The compile's argv for `source` and the binds it reads (with the precompiled headers
        or javac's archive, when there are)."""
        argv = language.compile_argv(source)
        pch = self.precompiled_header(language) if argv else None
        if pch is not None and argv is not None:
            argv = [argv[0], "-I", PCH_INSIDE, *argv[1:]]
            binds = (*binds, (str(pch), PCH_INSIDE))
        archive = self.compiler_archive(language) if argv else None
        if archive is not None and argv is not None:
            argv = [argv[0], f"-J-XX:SharedArchiveFile={PCH_INSIDE}/{JAVAC_ARCHIVE}", *argv[1:]]
            binds = (*binds, (str(archive), PCH_INSIDE))
        return argv, binds

    @staticmethod
    def _run(sandbox: Sandbox, argv: list[str], limits: Limits,
             language: Language) -> tuple[RunResult, str]:
        """One compile in `sandbox`, its messages (truncated) with it."""
        with tempfile.TemporaryFile() as output:
            run = sandbox.run(argv, limits, stdout=output, stderr=output, env=dict(language.env))
            output.seek(0)
            return run, output.read(LOG_LIMIT).decode(errors="replace")

    def _build(self, source: str, language: Language, entry: Path, binds: tuple,
               time_limit_ms: int | None = None, retried: bool = False) -> CompileResult:
        """Compiles `source`; a compile the sandbox stopped is CE (the source's doing) unless
        the evidence says it is the judge's (SE): the host's compiler cannot be executed, or
        the language's control program fails in the same sandbox with the same limits."""
        given = binds
        argv, binds = self._command(source, language, binds)
        sandbox = self._sandbox(language.compile_policy.name, binds)
        box = sandbox.empty_box()
        started = time.perf_counter()
        try:
            box_files.write_file(box, [language.file_name(source)], source.encode())
            for name, text in language.support_files.items():
                box_files.write_file(box, [name], text.encode())
        except OSError as exc:
            if exc.errno != errno.ENOSPC:
                raise
            return self._out_of_room("the source is larger than", started)
        status, log = "OK", ""
        if argv is not None:
            limits = compile_limits(self.artifact_limit_mb, time_limit_ms)
            run, log = self._run(sandbox, argv, limits, language)
            ended = _Compiled(run, log, box, limits, argv, given, sandbox, started)
            outcome = self._judge_compile(ended, language)
            if outcome is _AGAIN and not retried:
                return self._build(source, language, entry, given, time_limit_ms, retried=True)
            if outcome is _AGAIN:
                return CompileResult("CE", log + (
                    "\n[compilation stopped: the sandbox failed on this source twice, and "
                    f"compiled a known-good program in between: {run.error or ''}]"),
                    None, False, ended.elapsed_ms())
            if isinstance(outcome, CompileResult):
                return outcome
            status, log = outcome
        return self._publish(entry, box, language, status, log, started)

    def _judge_compile(self, ended: _Compiled, language: Language
                       ) -> CompileResult | tuple[str, str] | _Again:
        """What an ended compile means: a result to return as it is (an SE with its evidence, a
        CE the cache must not keep), the (status, log) to keep in the cache, or _AGAIN (the
        sandbox failed on this source while a control compile went through)."""
        run, log, elapsed = ended.run, ended.log, ended.elapsed_ms()
        # A stop that depends on the machine's load: never a CE kept in the cache for good.
        load_dependent = run.status == Status.BUSY
        if run.status == Status.BUSY:
            busy = busy_evidence(run)
            if busy is not None:
                # Starved of CPU by work outside it, measured on one exact clock.
                detail = describe_end(run)
                logger.warning("%s compile starved of CPU: %s (run %s)", language.name, detail, run)
                return CompileResult("SE", detail, None, False, elapsed, busy)
            # No exact clock behind the figure: the TLE its wall clock says.
            run = dataclasses.replace(run, status=Status.TLE, killed_by=KilledBy.WALL_TIMER)
        error = run.error or ""
        if run.status == Status.SE and error.startswith(CANNOT_EXECUTE):
            # The host's compiler (never anything the source built) cannot run: a host without
            # its toolchain.
            logger.warning("%s compile: %s", language.name, error)
            return CompileResult("SE", error, None, False, elapsed, Evidence(
                EvidenceKind.TOOLCHAIN, f"the host's {ended.argv[0]} could not be executed: {error}"))
        out_of_room = run.status not in (Status.SE, Status.RF) and _ran_out_of_room(run, log,
                                                                                   ended.box)
        if run.status == Status.OK:
            return "OK", log
        if run.status == Status.RE and not out_of_room:
            return "CE", log                # the compiler's own answer: the source does not build
        if run.status == Status.TLE and ended.limits != compile_limits(self.artifact_limit_mb):
            # Stopped by a caller's shorter limit (as SandboxFusion's compile_timeout stops it):
            # the judge's own would compile it, so the cache must not answer CE for it to the
            # next caller.
            log += f"\n[compilation stopped: {run.status}, {run.killed_by or ''}]"
            return CompileResult("CE", log, None, False, elapsed)
        return self._stopped_by_sandbox(ended, run, language, out_of_room, load_dependent)

    def _stopped_by_sandbox(self, ended: _Compiled, run: RunResult, language: Language,
                            out_of_room: bool, load_dependent: bool
                            ) -> CompileResult | tuple[str, str] | _Again:
        """A compile the sandbox stopped: the source's doing (CE), unless a known-good program is
        stopped too (SE with that evidence)."""
        log, elapsed = ended.log, ended.elapsed_ms()
        evidence = self._control(language, ended.given, ended.sandbox, ended.limits, run)
        if evidence is not None:
            detail = run.error or describe_end(run) or str(run.status)
            logger.warning("%s compile stopped (%s) and so was its control: %s",
                           language.name, detail, evidence)
            return CompileResult("SE", f"{detail}\n[judge: {evidence}]", None, False, elapsed,
                                 evidence)
        if run.status == Status.SE:
            # Compiled once more; a second SE is the source's doing, never cached.
            return _AGAIN
        if out_of_room:
            return self._out_of_room("the compiler wrote more than", ended.started, log)
        if run.status == Status.RF:
            log += f"\n[compilation stopped: the compiler made a refused system call: {run.syscall}]"
        else:
            log += f"\n[compilation stopped: {run.status}, {run.killed_by or ''}]"
        if load_dependent:
            return CompileResult("CE", log, None, False, elapsed)
        return "CE", log

    def _publish(self, entry: Path, box: int, language: Language, status: str, log: str,
                 started: float) -> CompileResult:
        """Keeps the compile's result (and on OK its artifacts) in the cache as `entry`."""
        elapsed = (time.perf_counter() - started) * 1e3
        entry.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=compile_cache.STAGING_PREFIX, dir=entry.parent))
        artifacts = staging / "artifacts"
        artifacts.mkdir()
        if status == "OK":
            for name in sorted(os.listdir(box)):
                if any(fnmatch.fnmatchcase(name, pattern) for pattern in language.artifacts):
                    _copy_regular_file(box, name, artifacts / name)
        _make_world_accessible(artifacts)
        (staging / "result.json").write_text(json.dumps({"status": status, "log": log}))
        compile_cache.publish_entry(self.cache, staging, entry, self.cache_cap_mb << 20)
        return CompileResult(status, log, entry / "artifacts" if status == "OK" else None,
                             False, elapsed)

    def _control(self, language: Language, binds: tuple, sandbox: Sandbox,
                 limits: Limits, stopped: RunResult) -> Evidence | None:
        """Compiles the language's known-good program (judge.compile_control) in `sandbox`
        with `limits`, as the `stopped` compile was; the evidence that the stop is
        the judge's when the control does not compile either, else None (also when the
        language has no control program: nothing shows the stop is not the source's)."""
        control = control_source(language)
        if control is None:
            return None
        argv, control_binds = self._command(control, language, binds)
        assert argv is not None, "a stopped compile has a compile command"
        assert self._sandbox(language.compile_policy.name, control_binds) is sandbox, \
            "the control compiles in the stopped compile's own sandbox"
        box = sandbox.empty_box()
        box_files.write_file(box, [language.file_name(control)], control.encode())
        run, log = self._run(sandbox, argv, limits, language)
        if run.status == Status.OK:
            return None
        return Evidence(EvidenceKind.CONTROL_RUN,
                        f"the {language.name} control program, compiled in the same sandbox "
                        f"with the same limits, failed too ({_ending(run, log)}); the source's "
                        f"compile: {_ending(stopped, '')}")

    def _out_of_room(self, what: str, started: float, log: str = "") -> CompileResult:
        limit = self.artifact_limit_mb
        log += (f"\n[compilation stopped: {what} {limit} MiB; the judge accepts a compiled "
                f"program of at most {limit} MiB]")
        return CompileResult("CE", log, None, False, (time.perf_counter() - started) * 1e3)
