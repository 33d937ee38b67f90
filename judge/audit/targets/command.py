"""A command-line sandbox: `PREFIX python3 -c PROBE MARKER`, with the limits said by the adapter
of the prefix's first word (bwrap, firejail, nsjail, docker, podman, systemd-run; `none` for no
sandbox: rlimits alone). The figures are what its user has: the exit status, and the rusage of
the prefix's process as the audit's wait4 returns it (CPU of every process it reaped, the
largest one's peak memory)."""
from __future__ import annotations

import os
import resource
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from judge import JudgeError
from judge.audit.targets import bwrap, container, firejail, nsjail, rlimits, systemd
from judge.audit.targets.base import Answer, Said, Target, TargetLimits, clock
from judge.audit.targets.http import KEEP_BYTES
from judge.audit.targets.wrapping import Wrapping

PLAIN = "none"
ADAPTERS: dict[str, Callable[[list[str], TargetLimits], Wrapping]] = {
    PLAIN: rlimits.wrap, "bwrap": bwrap.wrap, "firejail": firejail.wrap, "nsjail": nsjail.wrap,
    "docker": container.wrap, "podman": container.wrap, "systemd-run": systemd.wrap}
# Past this, beyond the wall limit the probe expects, the audit stops a run itself (its whole
# process group): the bound on a probe against a target with no wall clock.
GRACE_S = 8.0


def unknown(prefix: list[str], limits: TargetLimits) -> Wrapping:
    """A prefix without an adapter: run as given, every limit unsaid."""
    return Wrapping(list(prefix), {}, Said({}, wall_s=limits.wall_s))


@dataclass
class CommandTarget(Target):
    prefix: list[str] = field(default_factory=list)
    interpreter: str = "python3"

    def __post_init__(self) -> None:
        if self.prefix and self.prefix[0] == PLAIN:
            self.prefix = self.prefix[1:]
        self.kind = Path(self.prefix[0]).name if self.prefix else PLAIN
        if self.prefix and shutil.which(self.prefix[0]) is None:
            raise JudgeError(f"{self.prefix[0]!r} (the first word of --target-cmd) is not installed")
        if self.kind == "systemd-run" and not Path("/run/systemd/system").is_dir():
            raise JudgeError("systemd-run needs systemd as this host's init, and it is not")
        if self.kind not in ADAPTERS:
            self.notes.append(f"no adapter for {self.kind!r}: the limits are not said to it")

    @classmethod
    def parse(cls, spec: str, interpreter: str = "python3") -> CommandTarget:
        words = shlex.split(spec) or [PLAIN]
        return cls(name=spec.strip() or PLAIN, prefix=words, interpreter=interpreter)

    def wrapping(self, limits: TargetLimits) -> Wrapping:
        return ADAPTERS.get(self.kind, unknown)(self.prefix, self.asked(limits))

    def say(self, limits: TargetLimits) -> Said:
        return self.wrapping(limits).said

    def run(self, source: str, argv: list[str], limits: TargetLimits) -> Answer:
        wrapping = self.wrapping(limits)
        code = source.replace("ARGS = None", f"ARGS = {argv!r}", 1)
        command = [*wrapping.prefix, self.interpreter, "-c", code, *argv[:1]]

        def limit() -> None:
            for which, value in wrapping.rlimits.items():
                resource.setrlimit(which, value)

        started = clock()
        try:
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, preexec_fn=limit,
                                       start_new_session=True, cwd=self.workdir)
        except OSError as exc:
            return Answer(False, "not started", "", 0, error=f"{type(exc).__name__}: {exc}")
        out, err = _Drain(process.stdout), _Drain(process.stderr)
        deadline = started + wrapping.said.wall_s * 2 + GRACE_S
        killed = False
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if clock() > deadline and not killed:
                os.killpg(process.pid, signal.SIGKILL)
                killed = True
            time.sleep(0.01)
        elapsed = clock() - started
        process.returncode = code_ = os.waitstatus_to_exitcode(status)
        out.join()
        err.join()
        status_text = (f"stopped by the audit after {elapsed:.1f} s" if killed else
                       f"exit {code_}" if code_ >= 0 else f"signal {signal.Signals(-code_).name}")
        return Answer(completed=code_ == 0 and not killed, status=status_text, stdout=out.text(),
                      stdout_bytes=out.count, stderr=err.text()[-2000:],
                      cpu_s=usage.ru_utime + usage.ru_stime, memory_mb=usage.ru_maxrss / 1024,
                      wall_s=None, request_s=elapsed)


class _Drain:
    """Reads a pipe to its end on a thread: counts every byte, keeps the head and the tail. A
    process that outlives the run and holds the pipe is not waited for past a few seconds."""

    def __init__(self, pipe) -> None:
        self.pipe, self.count, self.head, self.tail = pipe, 0, bytearray(), bytearray()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while chunk := self.pipe.read1(1 << 16):
            self.count += len(chunk)
            if len(self.head) < KEEP_BYTES:
                self.head += chunk[:KEEP_BYTES - len(self.head)]
            self.tail = (self.tail + chunk)[-KEEP_BYTES:]

    def join(self) -> None:
        self.thread.join(timeout=5)

    def text(self) -> str:
        data = bytes(self.head) if self.count <= KEEP_BYTES else bytes(self.head) + b"\n" + bytes(self.tail)
        return data.decode(errors="replace")
