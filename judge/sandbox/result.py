"""What goes into a run and what comes out of it: Limits in, RunResult out
(docs/design/3-isolation.md §3 limits, §4 verdicts)."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from judge import JudgeError
from judge.verdicts import KilledBy, Status

# How the supervisor's SE message starts when execve of the program fails
# (native/supervisor/launch.c).
CANNOT_EXECUTE = "cannot execute "

DAY_MS = 86_400_000
TIB_MB = 1 << 20
# The largest value each limit may take: far past any real run, and small enough that the
# supervisor's arithmetic on it (ms to ns, MB to bytes, counts in u64) cannot wrap.
LIMIT_MAXIMA = {"time limit": DAY_MS, "wall time limit": DAY_MS, "memory limit": TIB_MB,
                "output limit": TIB_MB, "processes": 1 << 16, "file size limit": TIB_MB,
                "open files": 1 << 20, "stderr limit": TIB_MB}


@dataclass(frozen=True)
class Limits:
    time_limit_ms: int = 1000           # CPU time of every process of the run
    memory_limit_mb: int = 256          # peak memory; also the stack limit
    wall_time_limit_ms: int | None = None   # default max(2 x time, time + 1 s)
    output_limit_mb: float = 64         # stdout; past it the run is OLE
    processes: int = 64                 # processes and threads at once
    file_size_limit_mb: int = 64        # largest file the program may write (/tmp, memfd)
    open_files: int = 256
    stderr_limit_mb: float = 4          # stderr past this is dropped, not an error

    def __post_init__(self) -> None:
        checks = {
            "time limit": self.time_limit_ms, "memory limit": self.memory_limit_mb,
            "output limit": self.output_limit_mb, "processes": self.processes,
            "file size limit": self.file_size_limit_mb, "open files": self.open_files,
        }
        if self.wall_time_limit_ms is not None:
            checks["wall time limit"] = self.wall_time_limit_ms
        for name, value in checks.items():
            _check_limit(name, value, allow_zero=False)
        _check_limit("stderr limit", self.stderr_limit_mb, allow_zero=True)

    @property
    def wall_ms(self) -> int:
        if self.wall_time_limit_ms is not None:
            return int(self.wall_time_limit_ms)
        return int(max(2 * self.time_limit_ms, self.time_limit_ms + 1000))


def _check_limit(name: str, value, *, allow_zero: bool) -> None:
    kind = "a non-negative" if allow_zero else "a positive"
    if (not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value)
            or value < 0 or (value == 0 and not allow_zero)):
        raise JudgeError(f"{name} must be {kind} finite number, got {value!r}")
    if value > LIMIT_MAXIMA[name]:
        raise JudgeError(f"{name} {value!r} is above the largest the judge accepts "
                         f"({LIMIT_MAXIMA[name]})")


@dataclass(frozen=True)
class RunResult:
    status: Status
    exit_code: int | None
    signal: int | None
    cpu_time_ms: float
    wall_time_ms: float
    memory_kb: int
    output_bytes: int
    killed_by: KilledBy | None
    syscall: str | None              # name of the refused syscall
    # Where the figures come from: {"cpu": ..., "memory": ..., "busy": the clock the outside
    # work bounding waiting_ms was measured on ("none": no exact clock, never BUSY)}.
    sources: dict = field(default_factory=dict)
    error: str | None = None         # text for SE
    # CPU the sandbox's own child spent between fork and execve (rlimits, the seccomp filter):
    # not in cpu_time_ms, but in the program's own clocks, which start at fork.
    setup_cpu_ms: float = 0.0
    # Output within the limits that its reader did not take in time (a pipe or terminal nobody
    # read, a reader that closed): the figures stand, the destination misses these bytes.
    undelivered_bytes: int = 0
    # When the wall timer stopped the run: how long its threads were ready but had no CPU.
    waiting_ms: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)
