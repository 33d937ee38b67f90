"""What one slot of the service owns and runs: a Grader (compile, run and checker sandboxes) for
whole submissions, and a scratch sandbox whose /box is a tmpfs for single runs with files
(/run_code, /v1/exec). Everything here belongs to the worker thread that made it
(docs/design.md §2.1): the pool gives each slot its own thread.

The scratch sandbox's /box is writable, bounded by the kernel (a tmpfs of `box_mb` MiB and at
most 4096 files) and exists only inside the slot; the judge reaches it through its directory
descriptor. A tmpfs box is noexec, so a native program runs from a read-only bind of a host
staging directory at /judge/run, with /box as its working directory; scripts and class files
are copied into /box beside the request's files, as SandboxFusion lays them out."""
from __future__ import annotations

import errno
import logging
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from judge import JudgeError
from judge.compiler import CompileResult
from judge.grade import Grader, GradeResult
from judge.languages import Language, get_language
from judge.problems.model import Problem
from judge.sandbox import Limits, RunResult, Sandbox, box_files

logger = logging.getLogger(__name__)
# The program (another uid) may rewrite the files it was given.
GIVEN_FILE_MODE = 0o666

RUN_DIR_INSIDE = "/judge/run"
# Languages SandboxFusion runs without a compile step (its compile_result is null): the judge's
# syntax check of them is left to the run itself, which reports a SyntaxError as Python does.
SCRIPT_LANGUAGES = frozenset({"python", "pypy3"})
MAX_PATH_PARTS = 16
MAX_NAME_BYTES = 255


class RequestError(JudgeError):
    """The request cannot be run as asked (a bad file name, files too large for the box): the
    client's fault, answered 422."""


def file_path_parts(name: str) -> list[str]:
    """The components of a file name of `files` or `fetch_files`: a relative path below /box
    (a leading "/box/" or "./" is accepted), with no "..", no empty or "." component, no NUL.
    Anything else is refused, so that no name reaches outside the box."""
    text = name
    if text.startswith("/box/"):
        text = text[len("/box/"):]
    while text.startswith("./"):
        text = text[2:]
    if not text or "\0" in text or text.startswith("/"):
        raise RequestError(f"file name {name!r} is not a relative path inside the box")
    parts = text.split("/")
    if len(parts) > MAX_PATH_PARTS:
        raise RequestError(f"file name {name!r} is nested more than {MAX_PATH_PARTS} deep")
    for part in parts:
        if part in ("", ".", ".."):
            raise RequestError(f"file name {name!r} has a {part or 'empty'!r} component: only "
                               "plain names below the box are allowed")
        if len(part.encode()) > MAX_NAME_BYTES:
            raise RequestError(f"file name {name!r} has a component longer than "
                               f"{MAX_NAME_BYTES} bytes")
    return parts


@dataclass
class Captured:
    """One sandboxed run with what it wrote."""
    run: RunResult
    stdout: bytes
    stderr: bytes
    files: dict[str, bytes] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)   # fetch_files past the size budget


@dataclass
class ProgramOutcome:
    """/run_code: the compile (None for scripts) and the run (None when it did not compile)."""
    compile: CompileResult | None
    run: Captured | None
    language: str


class Slot:
    def __init__(self, number: int, cpu: int, *, box_mb: int, testlib: str | None = None,
                 stderr_limit_mb: float = 1, max_fetch_bytes: int = 16 << 20) -> None:
        self.number, self.cpu = number, cpu
        self.box_mb = box_mb
        self.stderr_limit_mb = stderr_limit_mb
        self.max_fetch_bytes = max_fetch_bytes
        self.grader = Grader(slot=number, cpu=cpu, testlib=testlib)
        self._work = Path(tempfile.mkdtemp(prefix="judge-serve-"))
        self._stage = self._work / "run"
        self._stage.mkdir(mode=0o755)
        os.chmod(self._stage, 0o755)
        self._scratch: Sandbox | None = None
        self.runs = 0

    # -- lifecycle ------------------------------------------------------------------------
    def scratch(self) -> Sandbox:
        if self._scratch is None:
            self._scratch = Sandbox(slot=self.number, cpu=self.cpu, box_tmpfs_mb=self.box_mb,
                                    binds=((str(self._stage), RUN_DIR_INSIDE),))
        return self._scratch.start()

    def warm(self) -> None:
        """Starts the slot's sandboxes and runs a trivial program in each, so that the first
        request finds them ready."""
        sandbox = self.scratch()
        result = sandbox.run(["/bin/true"], Limits(time_limit_ms=5000))
        if result.status != "OK":
            raise JudgeError(f"the slot's sandbox cannot run /bin/true: {result}")
        self.grader.sandbox.run(["/bin/true"], Limits(time_limit_ms=5000))
        cpp = get_language("cpp")
        if cpp.available:
            self.grader.compiler.precompiled_header(cpp)   # built once per machine, then cached

    def close(self) -> None:
        for closer in (self._close_scratch, self.grader.close):
            try:
                closer()
            except Exception:   # a broken slot is closed as far as it goes
                logger.exception("slot %d: closing failed", self.number)
        shutil.rmtree(self._work, ignore_errors=True)

    def _close_scratch(self) -> None:
        if self._scratch is not None:
            self._scratch.close()
            self._scratch = None

    # -- grading --------------------------------------------------------------------------
    def grade(self, code: str, language: Language, problem: Problem, *, all_tests: bool,
              keep_output: bool = False, kept_output_limit: int | None = None) -> GradeResult:
        self.runs += 1
        return self.grader.grade(code, language, problem, all_tests=all_tests,
                                 keep_output=keep_output, kept_output_limit=kept_output_limit)

    # -- single runs ----------------------------------------------------------------------
    def run_program(self, code: str, language: Language, limits: Limits, *, stdin: bytes,
                    files: dict[str, bytes], fetch: list[str]) -> ProgramOutcome:
        """Compiles (unless a script) and runs `code` once in the scratch box with `files`."""
        self.runs += 1
        if language.name in SCRIPT_LANGUAGES:
            compiled = None
            artifacts: dict[str, bytes | Path] = {language.file_name(code): code.encode()}
        else:
            compiled = self.grader.compiler.compile(code, language)
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
        captured = self._run_in_box(argv, limits, stdin=stdin, files=files, fetch=fetch,
                                    policy=language.policy, program_files=in_box)
        return ProgramOutcome(compiled, captured, language.name)

    def exec(self, argv: list[str], limits: Limits, *, stdin: bytes, files: dict[str, bytes],
             fetch: list[str], policy: str) -> Captured:
        """`judge exec` in the scratch box: any command of the sandbox's read-only root."""
        self.runs += 1
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

    def _run_in_box(self, argv: list[str], limits: Limits, *, stdin: bytes,
                    files: dict[str, bytes], fetch: list[str], policy: str,
                    program_files: dict[str, bytes | Path]) -> Captured:
        sandbox = self.scratch()
        box = sandbox.empty_box()
        try:
            for name, item in program_files.items():
                data = item.read_bytes() if isinstance(item, Path) else item
                box_files.write_file(box, [name], data, GIVEN_FILE_MODE)
            for name, data in files.items():
                box_files.write_file(box, file_path_parts(name), data, GIVEN_FILE_MODE)
        except OSError as exc:
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                raise RequestError(f"the files do not fit in the box ({self.box_mb} MiB, "
                                   "4096 files)") from None
            if exc.errno in (errno.EEXIST, errno.ENOTDIR, errno.EISDIR):
                raise RequestError(f"the files' names clash: {exc}") from None
            raise
        out = os.memfd_create("stdout", os.MFD_CLOEXEC)
        err = os.memfd_create("stderr", os.MFD_CLOEXEC)
        try:
            run = sandbox.run(argv, limits, stdin=stdin, stdout=out, stderr=err, policy=policy)
            stdout, stderr = _read_from_start(out), _read_from_start(err)
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
        host). Missing or special files are left out, as SandboxFusion leaves out missing ones;
        files past the size budget are left out and named in `skipped`."""
        budget = self.max_fetch_bytes
        for name in names:
            try:
                data = _read_file(box, file_path_parts(name), budget)
            except _TooLarge:
                captured.skipped.append(name)
                continue
            if data is not None:
                captured.files[name] = data
                budget -= len(data)


def _read_from_start(fd: int) -> bytes:
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
        chunks: list[bytes] = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


class _TooLarge(Exception):
    pass
