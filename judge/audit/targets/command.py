"""A command-line sandbox: `PREFIX python3 -c PROBE MARKER`, with the limits said by the adapter
of the prefix's first word (bwrap, firejail, nsjail, docker, podman, systemd-run; `none` for no
sandbox: rlimits alone). The figures are what its user has: the exit status, and the rusage of
the prefix's process as the audit's wait4 returns it (CPU of every process it reaped, the
largest one's peak memory)."""
from __future__ import annotations

import contextlib
import os
import resource
import select
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
from judge.audit.targets.base import Answer, Said, Target, TargetLimits, answer_cap_bytes, clock
from judge.audit.targets.http import KEEP_BYTES
from judge.audit.targets.wrapping import Wrapping

PLAIN = "none"
ADAPTERS: dict[str, Callable[[list[str], TargetLimits], Wrapping]] = {
    PLAIN: rlimits.wrap, "bwrap": bwrap.wrap, "firejail": firejail.wrap, "nsjail": nsjail.wrap,
    "docker": container.wrap, "podman": container.wrap, "systemd-run": systemd.wrap}
# Past this, beyond the wall limit the probe expects, the audit stops a run itself (its whole
# process group): the bound on a probe against a target with no wall clock.
GRACE_S = 8.0
# How long, after the run's process is reaped, the audit reads its pipes: a process that
# outlives the run and holds them open (or writes to them for ever) is not waited for past this.
DRAIN_GRACE_S = 5.0
POLL_S = 0.1                # how often a pipe's reader looks whether it is asked to stop


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
        cap = answer_cap_bytes(limits)
        out, err = _Drain(process.stdout, cap), _Drain(process.stderr, cap)
        status, usage, killed = _wait(process, started + wrapping.said.wall_s * 2 + GRACE_S,
                                      (out, err))
        elapsed = clock() - started
        process.returncode = code_ = os.waitstatus_to_exitcode(status)
        drained_by = clock() + DRAIN_GRACE_S
        out.finish(drained_by)
        err.finish(drained_by)
        over = out.over or err.over
        status_text = (f"stopped by the audit after {elapsed:.1f} s" if killed else
                       f"exit {code_}" if code_ >= 0 else f"signal {signal.Signals(-code_).name}")
        if over:
            status_text = "stopped by the audit: output over its cap"
        return Answer(completed=code_ == 0 and not killed, status=status_text, stdout=out.text(),
                      stdout_bytes=out.count, stderr=err.text()[-2000:],
                      cpu_s=usage.ru_utime + usage.ru_stime, memory_mb=usage.ru_maxrss / 1024,
                      wall_s=None, request_s=elapsed, received_bytes=out.count + err.count,
                      error=(f"the target wrote more than the audit's cap of {cap} bytes on "
                             f"{'stdout' if out.over else 'stderr'}; the audit stopped reading "
                             "there and stopped the run") if over else "")


def _wait(process: subprocess.Popen, deadline: float,
          drains: tuple[_Drain, ...]) -> tuple[int, resource.struct_rusage, bool]:
    """Reaps the run's process, and kills its whole process group past the deadline or once it
    has written more than the cap: its wait status, its rusage, and whether the audit killed it."""
    killed = False
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            return status, usage, killed
        if not killed and (clock() > deadline or any(drain.over for drain in drains)):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            killed = True
        time.sleep(0.01)


class _Drain:
    """Reads a pipe on a thread until its end, until it is told to stop, or until more than
    `cap` bytes have come (then it stops reading: `over`); it counts every byte it read and keeps
    the head and the tail. A process that outlives the run and holds the pipe is not waited for
    past the time `finish` is given: the pipe is closed on it."""

    def __init__(self, pipe, cap: int) -> None:
        self.pipe, self.cap, self.count, self.head, self.tail = pipe, cap, 0, bytearray(), bytearray()
        self.over = False
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        fd = self.pipe.fileno()
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        while not self.stop.is_set():
            if not poller.poll(POLL_S * 1000):
                continue
            chunk = os.read(fd, min(1 << 16, self.cap + 1 - self.count))
            if not chunk:
                return
            self.keep(chunk)
            if self.count > self.cap:
                self.over = True
                return

    def keep(self, chunk: bytes) -> None:
        self.count += len(chunk)
        if len(self.head) < KEEP_BYTES:
            self.head += chunk[:KEEP_BYTES - len(self.head)]
        self.tail = (self.tail + chunk)[-KEEP_BYTES:]

    def finish(self, by: float) -> None:
        """Reads on until the pipe's end or the time `by`, then stops and closes the pipe (a
        writer still holding it gets EPIPE)."""
        self.thread.join(timeout=max(0.0, by - clock()))
        self.stop.set()
        self.thread.join(timeout=POLL_S * 20)
        if not self.thread.is_alive():
            self.pipe.close()

    def text(self) -> str:
        data = bytes(self.head) if self.count <= KEEP_BYTES else bytes(self.head) + b"\n" + bytes(self.tail)
        return data.decode(errors="replace")
