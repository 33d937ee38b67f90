"""Turns the supervisor's raw figures into a run status. One place decides what a run was."""
from __future__ import annotations

import signal as signals

from judge.sandbox.result import Limits, RunResult


def classify(*, limits: Limits, exit_code: int, signal: int, cpu_ns: int, setup_ns: int,
             wall_ns: int, memory_bytes: int, output_bytes: int, undelivered_bytes: int, waiting_ns: int,
             oom_kills: int, killed_by: str | None,
             syscall: str | None, sources: dict, error: str | None) -> RunResult:
    cpu_ms = cpu_ns / 1e6
    memory_kb = memory_bytes // 1024
    over_memory = memory_bytes > limits.memory_limit_mb * (1 << 20)
    if error:
        status = "SE"
    elif killed_by == "seccomp" or signal == signals.SIGSYS:
        status, killed_by = "RF", "seccomp"
    elif killed_by == "output" or signal == signals.SIGXFSZ:
        status = "OLE"
    elif oom_kills > 0 or over_memory or killed_by == "memory":
        # Before the timers: a program past its memory limit is MLE even when a timer stopped
        # it, since it may only have been slow because it was swapping, thrashing or waiting
        # for the kernel's OOM killer.
        status = "MLE"
        killed_by = "memory" if oom_kills or killed_by == "memory" else killed_by
    elif killed_by == "wall-timer" and cpu_ms < limits.time_limit_ms and 2 * waiting_ns > wall_ns:
        # Stopped by the wall clock while it waited for a CPU more than half the time: the
        # machine was too busy to tell whether the program fits its limit. Not a verdict.
        status = "BUSY"
    elif killed_by in ("cpu-timer", "wall-timer") or signal == signals.SIGXCPU:
        status = "TLE"
        killed_by = killed_by or "cpu-rlimit"
    elif cpu_ms > limits.time_limit_ms:
        status = "TLE"
    elif signal or exit_code != 0:
        status = "RE"
    else:
        status = "OK"
    return RunResult(
        status=status,
        exit_code=None if signal or exit_code < 0 else exit_code,
        signal=signal or None,
        cpu_time_ms=round(cpu_ms, 3),
        wall_time_ms=round(wall_ns / 1e6, 3),
        memory_kb=memory_kb,
        output_bytes=output_bytes,
        undelivered_bytes=undelivered_bytes,
        waiting_ms=round(waiting_ns / 1e6, 3),
        killed_by=killed_by,
        syscall=syscall,
        sources=sources,
        error=error,
        setup_cpu_ms=round(setup_ns / 1e6, 3),
    )
