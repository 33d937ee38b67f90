"""The re-run rule: which first verdicts are confirmed by judging the program again, alone."""
from __future__ import annotations

from judge.verdicts import KilledBy, Verdict

RERUN_LOW, RERUN_HIGH = 0.8, 1.5


def needs_rerun(result: dict, slots: int) -> bool:
    """Whether a verdict must be confirmed by a serial re-run before it is final: a TLE when more
    than one slot was running (neighbours share caches and memory bandwidth), or a TLE whose CPU
    time was within [0.8, 1.5] x the limit (a noisy machine can push a close program over), and
    always a BUSY run (starved of CPU: no verdict yet); one that stays BUSY is reported. An
    interactive submission stopped for idleness waited for input that never came: no neighbour
    changes that, and it is not re-run."""
    if result.get("verdict") == Verdict.BUSY:
        return True
    if result.get("verdict") != Verdict.TLE:
        return False
    tle = [t for t in result.get("tests", []) if t.get("verdict") == Verdict.TLE]
    if tle and tle[-1].get("killed_by") == KilledBy.IDLE:
        return False
    if slots > 1:
        return True
    limit = result.get("time_limit_ms") or 0
    cpu = tle[-1]["cpu_time_ms"] if tle else result.get("max_cpu_time_ms", 0.0)
    return limit > 0 and RERUN_LOW * limit <= cpu <= RERUN_HIGH * limit
