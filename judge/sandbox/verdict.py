"""Turns the supervisor's raw figures into a run status. One place decides what a run was."""
from __future__ import annotations

import signal as signals

from judge.exclusion import Evidence, EvidenceKind
from judge.sandbox.policy import describe_refusal
from judge.sandbox.result import Limits, RunResult
from judge.verdicts import KilledBy, Status

# sources["busy"] of a run whose outside work could not be measured on an exact clock (the host
# offers only tick-sampled figures, or a read failed): no such run is BUSY
# (native/supervisor/starvation.c).
NO_BUSY_CLOCK = "none"


def classify(*, limits: Limits, exit_code: int, signal: int, cpu_ns: int, setup_ns: int,
             wall_ns: int, memory_bytes: int, output_bytes: int, undelivered_bytes: int, waiting_ns: int,
             oom_kills: int, killed_by: str | None,
             syscall: str | None, sources: dict, error: str | None) -> RunResult:
    cpu_ms = cpu_ns / 1e6
    memory_kb = memory_bytes // 1024
    over_memory = memory_bytes > limits.memory_limit_mb * (1 << 20)
    stopped_by = KilledBy(killed_by) if killed_by else None
    if error:
        status = Status.SE
    elif stopped_by == KilledBy.SECCOMP or signal == signals.SIGSYS:
        status, stopped_by = Status.RF, KilledBy.SECCOMP
    elif stopped_by == KilledBy.OUTPUT or signal == signals.SIGXFSZ:
        status = Status.OLE
    elif oom_kills > 0 or over_memory or stopped_by == KilledBy.MEMORY:
        # Before the timers: a program past its memory limit is MLE even when a timer stopped
        # it, since it may only have been slow because it was swapping, thrashing or waiting
        # for the kernel's OOM killer.
        status = Status.MLE
        if oom_kills:
            stopped_by = KilledBy.MEMORY
    elif (stopped_by == KilledBy.WALL_TIMER and cpu_ms < limits.time_limit_ms
          and 2 * waiting_ns > wall_ns):
        # Stopped by the wall clock having waited for a CPU that work outside the run took more
        # than half the time: the machine was too busy to tell whether the program fits its limit. Not a
        # verdict. (The figure cannot be raised by the run itself: native/supervisor/starvation.c.)
        status = Status.BUSY
    elif stopped_by in (KilledBy.CPU_TIMER, KilledBy.WALL_TIMER) or signal == signals.SIGXCPU:
        status = Status.TLE
        stopped_by = stopped_by or KilledBy.CPU_RLIMIT
    elif cpu_ms > limits.time_limit_ms:
        status = Status.TLE
    elif signal or exit_code != 0:
        status = Status.RE
    else:
        status = Status.OK
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
        killed_by=stopped_by,
        syscall=syscall,
        sources=sources,
        error=error,
        setup_cpu_ms=round(setup_ns / 1e6, 3),
    )


def busy_evidence(run: RunResult) -> Evidence | None:
    """The evidence that a BUSY run was starved by work outside it: its CPU's busy time and the
    run's own CPU time measured on one exact clock (sources["busy"]). None for any other run,
    and for a BUSY figure no exact clock stands behind: that run is the TLE its wall clock says
    (judge.exclusion)."""
    clock = run.sources.get("busy")
    if run.status != Status.BUSY or not clock or clock == NO_BUSY_CLOCK:
        return None
    return Evidence(EvidenceKind.CPU_CLOCK,
                    f"{run.waiting_ms:.0f} ms of {run.wall_time_ms:.0f} ms went to work outside "
                    f"the run, on {clock}")


def describe_end(run: RunResult) -> str:
    """One line on how a run that was not OK ended, for a test's message."""
    if run.status == Status.BUSY:
        return (f"stopped by the wall clock after {run.cpu_time_ms:.0f} ms of CPU, having "
                f"waited {run.waiting_ms:.0f} ms for a CPU other work took: the machine is too "
                "busy to judge this")
    if run.syscall:
        return describe_refusal(run.syscall)
    return run.error or (f"killed by {run.killed_by}" if run.killed_by else "")
