"""One program compiled (unless a script) and run once, or one command run once, in a scratch
sandbox whose /box is a tmpfs holding the caller's files, with stdout, stderr and the files
asked for captured: what `Grader.run_program` and `Grader.run_command` do (SandboxFusion's
/run_code, /v1/exec).

The scratch /box is writable, bounded by the kernel (a tmpfs of `box_mb` MiB and at most 4096
files) and exists only inside the sandbox; the judge reaches it through its directory
descriptor. A tmpfs box is noexec, so a native program runs from a read-only bind of a host
staging directory at /judge/run, with /box as its working directory; scripts and class files
are copied into /box beside the caller's files, as SandboxFusion lays them out."""
from __future__ import annotations

import errno
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from judge import JudgeError
from judge.compiler import Compiler, CompileResult
from judge.exclusion import Evidence
from judge.languages import Language
from judge.run_evidence import weigh_run
from judge.sandbox import Limits, RunResult, Sandbox, box_files

# The program (another uid) may rewrite the files it was given.
GIVEN_FILE_MODE = 0o666
RUN_DIR_INSIDE = "/judge/run"
MAX_PATH_PARTS = 16
MAX_NAME_BYTES = 255


class BoxFileError(JudgeError):
    """The files cannot be laid out as asked (a bad name, too large for the box): the caller's
    fault, not the judge's."""


def file_path_parts(name: str) -> list[str]:
    """The components of a file name of `files` or `fetch`: a relative path below /box (a
    leading "/box/" or "./" is accepted), with no "..", no empty or "." component, no NUL.
    Anything else is refused, so that no name reaches outside the box."""
    text = name
    if text.startswith("/box/"):
        text = text[len("/box/"):]
    while text.startswith("./"):
        text = text[2:]
    if not text or "\0" in text or text.startswith("/"):
        raise BoxFileError(f"file name {name!r} is not a relative path inside the box")
    parts = text.split("/")
    if len(parts) > MAX_PATH_PARTS:
        raise BoxFileError(f"file name {name!r} is nested more than {MAX_PATH_PARTS} deep")
    for part in parts:
        if part in ("", ".", ".."):
            raise BoxFileError(f"file name {name!r} has a {part or 'empty'!r} component: only "
                               "plain names below the box are allowed")
        if len(part.encode()) > MAX_NAME_BYTES:
            raise BoxFileError(f"file name {name!r} has a component longer than "
                               f"{MAX_NAME_BYTES} bytes")
    return parts


@dataclass(frozen=True)
class ScratchBox:
    """The scratch sandbox's bounds: its tmpfs /box, and what `fetch` may bring back."""
    box_mb: int
    max_fetch_bytes: int


@dataclass
class Captured:
    """One sandboxed run with what it wrote."""
    run: RunResult
    stdout: bytes
    stderr: bytes
    files: dict[str, bytes] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)   # fetch names past the size budget


@dataclass
class ProgramOutcome:
    """A program run once: the compile (None for scripts) and the run (None when it did not
    compile)."""
    compile: CompileResult | None
    run: Captured | None
    language: str
    # Why the run's SE or BUSY is the judge's failure and not the program's (judge.exclusion).
    evidence: Evidence | None = None


class SingleRunner:
    """The scratch sandbox of one slot and the runs in it. Belongs to the thread of the Grader
    that made it."""

    def __init__(self, compiler: Compiler, slot: int, cpu: int, scratch: ScratchBox) -> None:
        self.compiler, self.slot, self.cpu, self.bounds = compiler, slot, cpu, scratch
        self._work = Path(tempfile.mkdtemp(prefix="judge-single-run-"))
        self._stage = self._work / "run"
        self._stage.mkdir(mode=0o755)
        os.chmod(self._stage, 0o755)
        self._sandbox: Sandbox | None = None

    def sandbox(self) -> Sandbox:
        if self._sandbox is None:
            self._sandbox = Sandbox(slot=self.slot, cpu=self.cpu, box_tmpfs_mb=self.bounds.box_mb,
                                    binds=((str(self._stage), RUN_DIR_INSIDE),))
        return self._sandbox.start()

    def close(self) -> None:
        try:
            if self._sandbox is not None:
                self._sandbox.close()
                self._sandbox = None
        finally:
            shutil.rmtree(self._work, ignore_errors=True)

    def run_program(self, code: str, language: Language, limits: Limits, *, stdin: bytes,
                    files: dict[str, bytes], fetch: list[str],
                    compile_time_limit_ms: int | None = None) -> ProgramOutcome:
        code = language.source_text(code)
        if language.script:
            # SandboxFusion runs scripts without a compile step (its compile_result is null):
            # the judge's syntax check is left to the run, which reports a SyntaxError itself.
            compiled = None
            artifacts: dict[str, bytes | Path] = {language.file_name(code): code.encode()}
        else:
            compiled = self.compiler.compile(code, language, time_limit_ms=compile_time_limit_ms)
            if compiled.status != "OK":
                return ProgramOutcome(compiled, None, language.name)
            assert compiled.artifacts is not None
            artifacts = {item.name: item for item in compiled.artifacts.iterdir()}
        argv = language.run_argv(code)
        executable = argv[0][2:] if argv[0].startswith("./") else None
        if executable is not None:
            argv = [f"{RUN_DIR_INSIDE}/{executable}", *argv[1:]]
        self._stage_executable(artifacts.get(executable) if executable else None, executable)
        in_box = {name: data for name, data in artifacts.items() if name != executable}

        def attempt() -> Captured:
            return self._run_in_box(argv, limits, stdin=stdin, files=files, fetch=fetch,
                                    policy=language.policy.name, program_files=in_box,
                                    env=dict(language.env))

        def control(command: Sequence[str]) -> RunResult:
            return self.sandbox().run(list(command), limits, policy=language.policy.name)

        captured = attempt()
        weighed = weigh_run(captured.run, argv, control, retried=False)
        if weighed is None:
            captured = attempt()
            weighed = weigh_run(captured.run, argv, control, retried=True)
        assert weighed is not None, "a retried run is always weighed"
        captured.run = weighed.run
        return ProgramOutcome(compiled, captured, language.name, weighed.evidence)

    def run_command(self, argv: list[str], limits: Limits, *, stdin: bytes,
                    files: dict[str, bytes], fetch: list[str], policy: str) -> Captured:
        self._stage_executable(None, None)
        return self._run_in_box(argv, limits, stdin=stdin, files=files, fetch=fetch,
                                policy=policy, program_files={})

    def _stage_executable(self, item: bytes | Path | None, name: str | None) -> None:
        for child in self._stage.iterdir():
            shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
        if item is None or name is None:
            return
        target = self._stage / name
        if isinstance(item, Path):
            try:
                os.link(item, target)     # a hard link into the compile cache: no copy
            except OSError:
                shutil.copy2(item, target)
        else:
            target.write_bytes(item)
        os.chmod(target, 0o755)

    def _lay_out(self, box: int, program_files: dict[str, bytes | Path],
                 files: dict[str, bytes]) -> None:
        try:
            for name, item in program_files.items():
                data = item.read_bytes() if isinstance(item, Path) else item
                box_files.write_file(box, [name], data, GIVEN_FILE_MODE)
            for name, data in files.items():
                box_files.write_file(box, file_path_parts(name), data, GIVEN_FILE_MODE)
        except OSError as exc:
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                raise BoxFileError(f"the files do not fit in the box ({self.bounds.box_mb} MiB, "
                                   "4096 files)") from None
            if exc.errno in (errno.EEXIST, errno.ENOTDIR, errno.EISDIR):
                raise BoxFileError(f"the files' names clash: {exc}") from None
            raise

    def _run_in_box(self, argv: list[str], limits: Limits, *, stdin: bytes,
                    files: dict[str, bytes], fetch: list[str], policy: str,
                    program_files: dict[str, bytes | Path],
                    env: dict[str, str] | None = None) -> Captured:
        sandbox = self.sandbox()
        box = sandbox.empty_box()
        self._lay_out(box, program_files, files)
        out = os.memfd_create("stdout", os.MFD_CLOEXEC)
        err = os.memfd_create("stderr", os.MFD_CLOEXEC)
        try:
            run = sandbox.run(argv, limits, stdin=stdin, stdout=out, stderr=err, policy=policy,
                              env=env)
            stdout, stderr = read_from_start(out), read_from_start(err)
        finally:
            os.close(out)
            os.close(err)
        captured = Captured(run, stdout, stderr)
        if fetch:
            self._fetch(box, fetch, captured)
        return captured

    def _fetch(self, box: int, names: list[str], captured: Captured) -> None:
        """The regular files among `names` after the run, read through the box's descriptor
        without following any symbolic link (a program can plant one pointing anywhere on the
        host). Missing or special files, and names of no place in the box (`/etc/passwd`,
        `../x`), are left out, as SandboxFusion leaves out a file it cannot read; files past
        the size budget are left out and named in `skipped`."""
        budget = self.bounds.max_fetch_bytes
        for name in names:
            try:
                data = _read_file(box, file_path_parts(name), budget)
            except BoxFileError:
                continue
            except _TooLarge:
                captured.skipped.append(name)
                continue
            if data is not None:
                captured.files[name] = data
                budget -= len(data)


def read_from_start(fd: int) -> bytes:
    """All a file descriptor holds (a memfd a run wrote, a fetched file), from its start."""
    os.lseek(fd, 0, os.SEEK_SET)
    chunks: list[bytes] = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _read_file(box: int, parts: list[str], budget: int) -> bytes | None:
    fd = box_files.open_regular_file(box, parts)
    if fd is None:
        return None
    try:
        if os.fstat(fd).st_size > budget:
            raise _TooLarge
        return read_from_start(fd)
    finally:
        os.close(fd)


class _TooLarge(Exception):
    pass
