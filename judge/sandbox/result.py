"""What goes into a run and what comes out of it: Limits in, RunResult out (DESIGN.md §2)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

from judge import JudgeError

STATUSES = ("OK", "TLE", "MLE", "OLE", "RE", "RF", "SE")


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
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
                raise JudgeError(f"{name} must be a positive number, got {value!r}")
        if self.stderr_limit_mb < 0:
            raise JudgeError("stderr limit must not be negative")

    @property
    def wall_ms(self) -> int:
        if self.wall_time_limit_ms is not None:
            return int(self.wall_time_limit_ms)
        return int(max(2 * self.time_limit_ms, self.time_limit_ms + 1000))


@dataclass(frozen=True)
class RunResult:
    status: str                      # OK | TLE | MLE | OLE | RE | RF | SE
    exit_code: int | None
    signal: int | None
    cpu_time_ms: float
    wall_time_ms: float
    memory_kb: int
    output_bytes: int
    killed_by: str | None            # "cpu-timer" | "wall-timer" | "memory" | "output" | "seccomp"
    syscall: str | None              # name of the refused syscall
    sources: dict = field(default_factory=dict)   # {"cpu": ..., "memory": ...}
    error: str | None = None         # text for SE
    # CPU the sandbox's own child spent between fork and execve (rlimits, the seccomp filter):
    # not in cpu_time_ms, but in the program's own clocks, which start at fork.
    setup_cpu_ms: float = 0.0

    def to_dict(self) -> dict:
        return asdict(self)
