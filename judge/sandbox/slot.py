"""A warm sandbox slot: one long-lived C supervisor holding its namespaces and root, forking
each run inside them (docs/design/2-process-tree.md §2, process tree)."""
from __future__ import annotations

import array
import ctypes
import dataclasses
import logging
import os
import socket
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import BinaryIO

from judge import JudgeError, config
from judge.config import CGROUP_MODES
from judge.ownership import ThreadOwner
from judge.sandbox import box_files, protocol
from judge.sandbox.environment import DEFAULT_ENV
from judge.sandbox.errors import SandboxError
from judge.sandbox.policy import get_policy, policy_bpf, syscall_name
from judge.sandbox.result import Limits, RunResult
from judge.sandbox.slots import COMMAND, cpu_of
from judge.sandbox.verdict import classify

logger = logging.getLogger(__name__)
# How many of the supervisor's last lines a judge failure carries (it writes one a step with
# --verbose, which the judge passes when this logger is at DEBUG: `judge --verbose`).
FAILURE_NOTES = 6

SUPERVISOR = Path(__file__).resolve().parent.parent / "_bin" / "judge-supervisor"


def supervisor_path() -> Path:
    """The supervisor sandboxes start: $JUDGE_SUPERVISOR, else the one built with the package."""
    return config.current().supervisor or SUPERVISOR

Stdin = None | bytes | str | os.PathLike | int
Sink = None | str | os.PathLike | int | BinaryIO
MB = 1 << 20
# Output a slow reader has not taken when a run ends waits this long for it, then is dropped
# (RunResult.undelivered_bytes): a pipe or terminal nobody reads cannot hold the judge.
DELIVERY_TIMEOUT_MS = 60_000
# Beyond the limits, what a reply or the start of a slot may take on a loaded machine before
# the supervisor is taken for hung.
REPLY_SLACK_S = 60


def _become_subreaper() -> None:
    """Orphans of a dying supervisor are re-parented to the judge, not to the host's init, so
    nothing started by a sandbox outlives the judge unnoticed."""
    global _SUBREAPER
    if not _SUBREAPER:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")
        _SUBREAPER = True


PR_SET_CHILD_SUBREAPER = 36     # <linux/prctl.h>


_SUBREAPER = False
_LINGERING: list[subprocess.Popen] = []   # supervisors closed without waiting
# The slots of every thread add to and reap the one list: a supervisor added while another
# thread rebuilt the list would be dropped unreaped.
_LINGERING_LOCK = threading.Lock()


# A slot's init (its supervisor's child) as a pidfd, with the supervisor: an init outlives its
# supervisor only when the supervisor was killed, and is then re-parented to the judge (the
# subreaper), whose zombie it stays unless the judge reaps it.
_INITS: list[tuple[subprocess.Popen, int]] = []


def _linger(process: subprocess.Popen) -> None:
    with _LINGERING_LOCK:
        _LINGERING.append(process)


def _init_of(supervisor: subprocess.Popen) -> int | None:
    """A pidfd of the supervisor's only child, its init; None where /proc does not say."""
    try:
        with open(f"/proc/{supervisor.pid}/task/{supervisor.pid}/children") as children:
            return os.pidfd_open(int(children.read().split()[0]))
    except (OSError, ValueError, IndexError):
        return None


def _init_settled(supervisor: subprocess.Popen, init: int) -> bool:
    """Whether nothing is left to do for an init: its supervisor is gone, and it was reaped by
    it (not the judge's child) or is now reaped here."""
    if supervisor.poll() is None:
        return False
    try:
        settled = os.waitid(os.P_PIDFD, init, os.WEXITED | os.WNOHANG) is not None
    except ChildProcessError:
        settled = True
    if settled:
        os.close(init)
    return settled


def _reap_lingering() -> None:
    with _LINGERING_LOCK:
        _LINGERING[:] = [p for p in _LINGERING if p.poll() is None]
        _INITS[:] = [(supervisor, init) for supervisor, init in _INITS
                     if not _init_settled(supervisor, init)]


class Sandbox:
    """`with Sandbox(box=DIR) as sb: sb.run(["./prog"], Limits(...), stdin=b"...")`.

    DIR is mounted read-only (or read-write with box_writable) as the working directory /box.
    With box_tmpfs_mb instead, /box is a tmpfs of that many MiB (and at most 4096 files) that
    exists only inside the sandbox: the judge reads and writes it through the directory
    descriptor `box_fd`, and the kernel bounds what the programs can leave in it.
    binds: more host directories, read-only: a path (seen at the same path inside) or a pair
    (host path, inside path). The slot is reusable: every run gets a fresh cgroup and a clean
    /tmp. The supervisor dies with the thread that started it (PR_SET_PDEATHSIG follows the
    parent thread), so a slot belongs to the thread that created it for its whole life: from
    any other thread, start, run and close raise a JudgeError.
    one_shot: the slot serves a single run (run_once, `judge exec`): its supervisor prepares
    nothing for a next run and ends with the reply, and the slot is closed without waiting for
    its clean-up; a further run starts a fresh supervisor.
    busy_clock: the best clock a starved run's outside work may be measured on (BUSY,
    docs/design/3-isolation.md §3.8): "auto" (the best the host offers), "nohz-idle", "cpuidle" or
    "none" (no run is BUSY); `sandbox.busy_clock` says which the slot took.
    """

    def __init__(self, box: str | os.PathLike | None = None, policy: str = "native", *,
                 slot: int = COMMAND.first, cpu: int | None = None, cgroup: str | None = None,
                 box_writable: bool = False, box_tmpfs_mb: int | None = None,
                 tmp_size_mb: int = 64, binds: tuple = (), env: dict[str, str] | None = None,
                 delivery_timeout_ms: int = DELIVERY_TIMEOUT_MS, one_shot: bool = False,
                 busy_clock: str = "auto") -> None:
        if box_tmpfs_mb is not None and (box is not None or box_writable):
            raise SandboxError("a tmpfs box replaces the box directory: give one or the other")
        if box is not None:
            box = Path(box).resolve()
            if not box.is_dir():
                raise SandboxError(f"box directory does not exist: {box}")
        if cgroup is None:
            cgroup = config.current().cgroup
        if cgroup not in CGROUP_MODES:
            raise SandboxError(f"unknown cgroup mode {cgroup!r} ({', '.join(CGROUP_MODES)}; "
                               "the default comes from JUDGE_CGROUP)")
        if busy_clock != "auto" and busy_clock not in protocol.definitions().busy_clocks.values():
            raise SandboxError(f"unknown busy clock {busy_clock!r}")
        policy_bpf(policy)  # validates the name early
        self.box = box
        self.policy = policy
        self.slot = slot
        self.cpu = cpu_of(slot) if cpu is None else cpu
        self.cgroup_request = cgroup
        self.box_writable = box_writable
        self.box_tmpfs_mb = box_tmpfs_mb
        self.box_fd: int | None = None
        self.tmp_size_mb = tmp_size_mb
        self.delivery_timeout_ms = delivery_timeout_ms
        self.one_shot = one_shot
        self.binds = tuple(binds)
        self.env = dict(DEFAULT_ENV if env is None else env)
        # The best clock BUSY's figure may be measured on ("auto": the best the host offers; a
        # test asks for a worse one to try it where the host has better).
        self.busy_clock_request = busy_clock
        self.cgroup: str | None = None
        self.cgroup_reason: str | None = None   # why no cgroup is used, when none is
        self.uid_mode: str | None = None
        self.priority_raised = False
        # The clock BUSY's figure is measured on (native/supervisor/starvation.c), and why no
        # better one.
        self.busy_clock: str | None = None
        self.busy_clock_reason: str | None = None
        self._process: subprocess.Popen | None = None
        self._sock: socket.socket | None = None
        self._notes: BinaryIO | None = None      # the supervisor's stderr
        self._init: int | None = None            # the init's pidfd (_INITS)
        self._notes_read = 0
        self._owner = ThreadOwner("Sandbox")
        self._pending: PendingRun | None = None

    # -- lifecycle --------------------------------------------------------------------------
    def start(self) -> Sandbox:
        self._owner.check()
        if self._process is not None:
            return self
        supervisor = supervisor_path()
        if not supervisor.exists():
            raise SandboxError(f"the supervisor is not built ({supervisor}); run `make setup`"
                               if supervisor == SUPERVISOR else
                               f"JUDGE_SUPERVISOR={supervisor} names no file")
        protocol.definitions()   # the native module is built, before anything is started
        _become_subreaper()
        _reap_lingering()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        args = [str(supervisor), "--sock", str(theirs.fileno()), "--slot", str(self.slot),
                "--cpu", str(self.cpu), "--tmp-mb", str(self.tmp_size_mb),
                "--cgroup", self.cgroup_request, "--parent-pid", str(os.getpid()),
                "--delivery-ms", str(self.delivery_timeout_ms),
                "--busy-clock", self.busy_clock_request]
        if logger.isEnabledFor(logging.DEBUG):
            args.append("--verbose")
        if self.box is not None:
            args += ["--box", str(self.box)]
        if self.box_writable:
            args.append("--box-writable")
        if self.box_tmpfs_mb is not None:
            args += ["--box-tmpfs-mb", str(self.box_tmpfs_mb)]
        if self.one_shot:
            args.append("--one-shot")
        for bind in self.binds:
            # A host path seen at the same path inside, or (host path, inside path).
            host, inside = (bind, bind) if isinstance(bind, (str, os.PathLike)) else bind
            args += ["--bind", f"{Path(host).resolve()}={inside}"]
        try:
            # A session of its own: a terminal's Ctrl-C is the judge's to handle, it must not
            # reach the supervisor and the program it is running.
            # Its stderr is a file, not a pipe: a verbose supervisor never blocks on it.
            self._notes = tempfile.TemporaryFile(prefix="judge-supervisor-")
            self._notes_read = 0
            self._process = subprocess.Popen(args, pass_fds=(theirs.fileno(),), close_fds=True,
                                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                             stderr=self._notes, start_new_session=True)
        finally:
            theirs.close()
        self._sock = ours
        try:
            message = self._receive_ready(REPLY_SLACK_S)
        except TimeoutError:
            message = f"error the supervisor did not start within {REPLY_SLACK_S} s"
        try:
            ready = protocol.parse_ready(message)
        except SandboxError:
            self.close()
            raise
        self._init = _init_of(self._process)
        self.cgroup = ready.text("cgroup")
        self.uid_mode = ready.text("uid")
        self.priority_raised = ready.text("priority") == "raised"
        self.cgroup_reason = ready.text("cgroup_reason") or None
        self.busy_clock = ready.text("busy_clock")
        self.busy_clock_reason = ready.text("busy_clock_reason") or None
        return self

    def close(self, wait: bool = True) -> None:
        """Ends the slot. With wait=False the supervisor finishes its clean-up (namespaces,
        cgroup directories) on its own while the judge goes on; it is reaped later."""
        self._owner.check()
        self._end(wait)

    def _end(self, wait: bool = True) -> None:
        self._pending = None
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if self.box_fd is not None:
            os.close(self.box_fd)
            self.box_fd = None
        if self._notes is not None:
            self._log_notes()
            self._notes.close()
            self._notes = None
        if self._process is not None:
            if wait:
                try:
                    self._process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    self._process.kill()
                    self._process.wait()
            else:
                _linger(self._process)
            if self._init is not None:
                with _LINGERING_LOCK:
                    _INITS.append((self._process, self._init))
                self._init = None
            self._process = None
        _reap_lingering()

    def empty_box(self) -> int:
        """The tmpfs box emptied of what earlier runs left, and its descriptor. A box that
        cannot be emptied, for any reason, costs a restart of the slot (a new tmpfs) here,
        before the next run, never that run's result."""
        self._owner.check()
        if self.box_tmpfs_mb is None:
            raise SandboxError("only a tmpfs box is emptied by the judge")
        self.start()
        assert self.box_fd is not None, "a started slot with a tmpfs box has its descriptor"
        try:
            box_files.empty(self.box_fd)
        except Exception as exc:
            logger.info("slot %d: the box could not be emptied (%r); restarting it", self.slot, exc)
            self.close()
            self.start()
            assert self.box_fd is not None
        return self.box_fd

    def __enter__(self) -> Sandbox:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        # From whichever thread collects it: no thread can be using the slot any more.
        try:
            self._end()
        except Exception:
            pass

    def _receive_ready(self, timeout_s: float) -> str:
        """The supervisor's first line; with a tmpfs box, the box's descriptor comes with it."""
        assert self._sock is not None
        self._sock.settimeout(timeout_s)
        received = array.array("i")
        try:
            # Not socket.recv_fds: it ignores its flags, and the descriptor must not be inherited.
            data, ancillary, _, _ = self._sock.recvmsg(
                1 << 16, socket.CMSG_SPACE(received.itemsize), socket.MSG_CMSG_CLOEXEC)
        except TimeoutError:
            raise
        except OSError:
            return ""
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                received.frombytes(payload[:len(payload) - len(payload) % received.itemsize])
        fds = list(received)
        if self.box_tmpfs_mb is not None and fds:
            self.box_fd = fds.pop()
        for fd in fds:
            os.close(fd)
        return data.decode(errors="replace")

    def _receive_reply(self, timeout_s: float | None = None) -> str:
        assert self._sock is not None
        self._sock.settimeout(timeout_s)
        try:
            data = self._sock.recv(1 << 16)
        except TimeoutError:
            raise
        except OSError:
            data = b""
        return data.decode(errors="replace")

    def _reply_timeout_s(self, limits: Limits) -> float:
        """How long a reply may take: the wall limit, then the delivery of buffered output to a
        slow reader, and room for killing and reaping on a loaded machine. Past it the
        supervisor is taken for hung."""
        wait_s = (limits.wall_ms + self.delivery_timeout_ms) / 1000 + REPLY_SLACK_S
        return min(wait_s, threading.TIMEOUT_MAX)

    # -- runs -------------------------------------------------------------------------------
    def run(self, argv: list[str], limits: Limits | None = None, *, stdin: Stdin = None,
            stdout: Sink = None, stderr: Sink = None, env: dict[str, str] | None = None,
            policy: str | None = None, cwd: str | None = None) -> RunResult:
        """Runs argv in the slot. stdin: bytes, a path or an fd; stdout/stderr: a path, an fd or
        a binary file to receive the bytes (None drops them)."""
        return self.begin(argv, limits, stdin=stdin, stdout=stdout, stderr=stderr, env=env,
                          policy=policy, cwd=cwd).wait()

    def begin(self, argv: list[str], limits: Limits | None = None, *, stdin: Stdin = None,
              stdout: Sink = None, stderr: Sink = None, env: dict[str, str] | None = None,
              policy: str | None = None, cwd: str | None = None,
              interactive: bool = False) -> PendingRun:
        """Starts a run and returns at once: its result comes from the PendingRun's wait(). Runs
        in several slots can so go on at the same time from one thread (an interaction). The
        descriptors given are the supervisor's own once begin() returns: the caller may close
        its copies. interactive: the program talks to another one through its stdin and
        stdout, and the supervisor relays its output from the slot's CPU for the run."""
        self._owner.check()
        if not argv:
            raise JudgeError("no command to run")
        if self._pending is not None:
            raise JudgeError("the slot is still running the last run begun: wait() for it first")
        limits = limits or Limits()
        if self._process is None:
            self.start()
        opened: list[int] = []
        try:
            fds = [self._stdin_fd(stdin, opened), self._sink_fd(stdout, opened),
                   self._sink_fd(stderr, opened)]
            message = self._encode(argv, limits, env, policy or self.policy, cwd, fds,
                                   interactive)
            self._send(message, [fd for fd in fds if fd is not None])
        finally:
            for fd in opened:
                os.close(fd)
        self._pending = PendingRun(self, limits, policy or self.policy)
        return self._pending

    def _finish(self, pending: PendingRun) -> RunResult:
        self._owner.check()
        if self._pending is not pending:
            raise JudgeError("this run was already waited for")
        self._pending = None
        reply = self._receive(pending.limits)
        result = self._decode(reply, pending.limits, self._process_accounting(pending.policy))
        notes = self._log_notes()
        if self.one_shot:
            self._end(wait=False)
        if result.error and notes:
            # A judge failure carries what the supervisor was doing (with --verbose, each step).
            return dataclasses.replace(result, error=f"{result.error} (supervisor: "
                                                     f"{' | '.join(notes[-FAILURE_NOTES:])})")
        return result

    def _send(self, message: bytes, fds: list[int]) -> None:
        """Sends one request with its descriptors."""
        assert self._sock is not None and self._process is not None
        try:
            socket.send_fds(self._sock, [message], fds)
        except OSError as exc:
            if isinstance(exc, ConnectionError):   # dead: the next run starts a fresh one
                self.close()
            raise SandboxError(f"the sandbox supervisor is gone: {exc}") from None

    def _receive(self, limits: Limits) -> str:
        """The supervisor's reply to the request sent last."""
        if self._sock is None or self._process is None:
            raise SandboxError("the sandbox supervisor is gone")
        try:
            reply = self._receive_reply(self._reply_timeout_s(limits))
        except TimeoutError:
            self._process.kill()
            self.close()
            raise SandboxError("the sandbox supervisor did not answer within "
                               f"{self._reply_timeout_s(limits):.0f} s") from None
        if not reply or reply.startswith("error "):   # the supervisor's last words
            try:
                self._process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
            detail = " | ".join(self._log_notes()[-FAILURE_NOTES:])
            self.close()
            raise SandboxError(f"the sandbox supervisor died{': ' + detail if detail else ''}")
        return reply

    def _log_notes(self) -> list[str]:
        """The lines the supervisor wrote since the last call, each also logged."""
        if self._notes is None:
            return []
        self._notes.seek(self._notes_read)
        data = self._notes.read()
        self._notes_read += len(data)
        lines = [line for line in data.decode(errors="replace").splitlines() if line.strip()]
        for line in lines:
            logger.debug("%s", line)
        return lines

    def _process_accounting(self, policy: str) -> str | None:
        """Without a cgroup, how the processes of a run are accounted for (RunResult.sources)."""
        if self.cgroup != "none":
            return None
        return "waited-children" if get_policy(policy).forks_without_cgroup else "threads-only"

    @staticmethod
    def _stdin_fd(stdin: Stdin, opened: list[int]) -> int | None:
        if stdin is None:
            return None
        if isinstance(stdin, int):
            return stdin
        if isinstance(stdin, (bytes, bytearray, memoryview)):
            fd = os.memfd_create("stdin", os.MFD_CLOEXEC)
            opened.append(fd)
            view = memoryview(stdin)
            while view:
                view = view[os.write(fd, view):]
            os.lseek(fd, 0, os.SEEK_SET)
            return fd
        try:
            fd = os.open(stdin, os.O_RDONLY | os.O_CLOEXEC)
        except OSError as exc:
            raise JudgeError(f"cannot open stdin file {stdin}: {exc.strerror}") from None
        opened.append(fd)
        return fd

    @staticmethod
    def _sink_fd(sink: Sink, opened: list[int]) -> int | None:
        if sink is None:
            return None
        if isinstance(sink, int):
            return sink
        if not isinstance(sink, (str, os.PathLike)):   # a binary file
            sink.flush()
            return sink.fileno()
        try:
            fd = os.open(sink, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise JudgeError(f"cannot open output file {sink}: {exc.strerror}") from None
        opened.append(fd)
        return fd

    def _encode(self, argv, limits: Limits, env, policy: str, cwd, fds,
                interactive: bool = False) -> bytes:
        environment = dict(self.env)
        if env:
            environment.update(env)
        bounds = protocol.definitions()
        if len(argv) > bounds.max_args or len(environment) > bounds.max_env:
            raise JudgeError(f"at most {bounds.max_args} arguments and {bounds.max_env} "
                             f"environment variables reach the sandbox (got {len(argv)} and "
                             f"{len(environment)})")
        if any("\0" in str(item) for item in [*argv, *environment, *environment.values(), cwd or ""]):
            raise JudgeError("a NUL byte in the command, its environment or its directory")
        parts = [protocol.text("ARG", str(a)) for a in argv]
        parts += [protocol.text("ENV", f"{k}={v}") for k, v in environment.items()]
        parts += [
            protocol.number("CPU_MS", limits.time_limit_ms),
            protocol.number("WALL_MS", limits.wall_ms),
            protocol.number("MEMORY", limits.memory_limit_mb * MB),
            protocol.number("OUTPUT", limits.output_limit_mb * MB),
            protocol.number("STDERR", limits.stderr_limit_mb * MB),
            protocol.number("FILE_SIZE", limits.file_size_limit_mb * MB),
            protocol.number("PROCESSES", limits.processes),
            protocol.number("OPEN_FILES", limits.open_files),
            protocol.record("BPF", policy_bpf(policy, without_cgroup=self.cgroup == "none")),
            protocol.number("FDS", protocol.fd_mask(*(fd is not None for fd in fds))),
        ]
        if self.cgroup == "none" and get_policy(policy).address_space_limit:
            # Without a memory cgroup the supervisor's watch of resident memory decides MLE; the
            # address-space limit is only a safety net for the host. It must leave room for a
            # stack per thread, each reserving the stack limit (= the memory limit), for as many
            # threads as the run may have. Runtimes that reserve address space up front (the
            # JVM, GHC, V8) break under any such limit (Policy.address_space_limit).
            stacks = limits.memory_limit_mb * MB * limits.processes
            parts.append(protocol.number("ADDRESS_SPACE", stacks + limits.memory_limit_mb * MB * 4
                                         + 1024 * MB))
        if cwd:
            parts.append(protocol.text("CWD", cwd))
        if interactive:
            parts.append(protocol.number("RELAY_ON_CPU", 1))
        message = b"".join(parts)
        if len(message) > bounds.request_max:
            raise JudgeError(f"the command and its environment take {len(message)} bytes; "
                             f"the sandbox takes at most {bounds.request_max}")
        return message

    @staticmethod
    def _decode(reply: str, limits: Limits, processes: str | None) -> RunResult:
        fields = protocol.parse_reply(reply)
        number = fields.number("syscall")
        return classify(
            limits=limits,
            exit_code=fields.number("exit_code"),
            signal=fields.number("signal"),
            cpu_ns=fields.number("cpu_ns"),
            setup_ns=fields.number("setup_ns"),
            wall_ns=fields.number("wall_ns"),
            memory_bytes=fields.number("memory_bytes"),
            output_bytes=fields.number("output_bytes"),
            undelivered_bytes=fields.number("undelivered_bytes"),
            waiting_ns=fields.number("waiting_ns"),
            oom_kills=fields.number("oom_kills"),
            killed_by=fields.text("killed_by") or None,
            syscall=syscall_name(number) if number >= 0 else None,
            sources={"cpu": fields.text("cpu_source"), "memory": fields.text("memory_source"),
                     "busy": fields.text("busy_clock"),
                     **({"processes": processes} if processes else {})},
            error=fields.text("error") or None,
        )


class PendingRun:
    """A run begun in a slot (Sandbox.begin): wait() blocks until it ends and gives its result."""

    def __init__(self, sandbox: Sandbox, limits: Limits, policy: str) -> None:
        self.sandbox = sandbox
        self.limits = limits
        self.policy = policy

    def wait(self) -> RunResult:
        return self.sandbox._finish(self)


def run_once(argv: list[str], limits: Limits | None = None, *, box=None, policy: str = "native",
             **kwargs) -> RunResult:
    """The cold path: a one-shot slot for a single run."""
    run_args = {k: kwargs.pop(k) for k in ("stdin", "stdout", "stderr", "env", "cwd") if k in kwargs}
    sandbox = Sandbox(box=box, policy=policy, one_shot=True, **kwargs).start()
    try:
        return sandbox.run(argv, limits, **run_args)
    finally:
        sandbox.close(wait=False)
