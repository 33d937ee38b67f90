"""classify(), the one place that ranks what a run was: a table of raw supervisor figures and
the status and cause they must give, precedence included (a refused syscall before output,
output before memory, memory before the timers, a starved wall-timer kill before TLE)."""
from __future__ import annotations

import json
import signal

import pytest

from judge.exclusion import Evidence, EvidenceKind
from judge.sandbox.result import Limits
from judge.sandbox.verdict import busy_evidence, classify
from judge.verdicts import CHECKER_EXIT_VERDICTS, KilledBy, Status, Verdict

LIMITS = Limits(time_limit_ms=1000, memory_limit_mb=64, wall_time_limit_ms=2000)
MB = 1 << 20
CALM = {"exit_code": 0, "signal": 0, "cpu_ns": 10_000_000, "wall_ns": 20_000_000,
        "memory_bytes": 4 * MB, "oom_kills": 0, "killed_by": None, "waiting_ns": 0,
        "error": None}


@pytest.mark.parametrize("figures, status, killed_by", [
    ({}, Status.OK, None),
    ({"exit_code": 3}, Status.RE, None),
    ({"signal": signal.SIGSEGV}, Status.RE, None),
    ({"error": "cannot execute ./prog"}, Status.SE, None),
    # An error outranks everything the run may also show.
    ({"error": "x", "killed_by": "seccomp", "oom_kills": 1}, Status.SE, KilledBy.SECCOMP),
    ({"killed_by": "seccomp"}, Status.RF, KilledBy.SECCOMP),
    ({"signal": signal.SIGSYS}, Status.RF, KilledBy.SECCOMP),
    ({"killed_by": "seccomp", "memory_bytes": 100 * MB}, Status.RF, KilledBy.SECCOMP),
    ({"killed_by": "output"}, Status.OLE, KilledBy.OUTPUT),
    ({"signal": signal.SIGXFSZ}, Status.OLE, None),
    ({"killed_by": "output", "oom_kills": 1}, Status.OLE, KilledBy.OUTPUT),
    ({"oom_kills": 1, "signal": signal.SIGKILL}, Status.MLE, KilledBy.MEMORY),
    ({"memory_bytes": 64 * MB + 1}, Status.MLE, None),
    ({"memory_bytes": 64 * MB}, Status.OK, None),                # at the limit is within it
    ({"killed_by": "memory"}, Status.MLE, KilledBy.MEMORY),
    # Past its memory, a program a timer stopped is still MLE (it may have been thrashing).
    ({"memory_bytes": 65 * MB, "killed_by": "cpu-timer", "cpu_ns": 1_004_000_000},
     Status.MLE, KilledBy.CPU_TIMER),
    ({"oom_kills": 2, "killed_by": "wall-timer"}, Status.MLE, KilledBy.MEMORY),
    ({"killed_by": "cpu-timer", "cpu_ns": 1_004_000_000}, Status.TLE, KilledBy.CPU_TIMER),
    ({"signal": signal.SIGXCPU}, Status.TLE, KilledBy.CPU_RLIMIT),
    ({"cpu_ns": 1_000_000_001}, Status.TLE, None),               # over, though it exited
    ({"cpu_ns": 1_000_000_000}, Status.OK, None),
    # Stopped by the wall clock: a sleeper is TLE; one that waited for a CPU more than half
    # the time is BUSY, unless it had used its CPU limit anyway.
    ({"killed_by": "wall-timer", "wall_ns": 2_000_000_000}, Status.TLE, KilledBy.WALL_TIMER),
    ({"killed_by": "wall-timer", "wall_ns": 2_000_000_000, "cpu_ns": 400_000_000,
      "waiting_ns": 1_500_000_000}, Status.BUSY, KilledBy.WALL_TIMER),
    ({"killed_by": "wall-timer", "wall_ns": 2_000_000_000, "cpu_ns": 400_000_000,
      "waiting_ns": 1_000_000_000}, Status.TLE, KilledBy.WALL_TIMER),
    ({"killed_by": "wall-timer", "wall_ns": 2_000_000_000, "cpu_ns": 1_000_000_000,
      "waiting_ns": 1_900_000_000}, Status.TLE, KilledBy.WALL_TIMER),
])
def test_classify(figures, status, killed_by):
    raw = {**CALM, **figures}
    result = classify(limits=LIMITS, setup_ns=0, output_bytes=0, undelivered_bytes=0,
                      syscall=None, sources={}, **raw)
    assert (result.status, result.killed_by) == (status, killed_by)
    assert result.exit_code == (None if raw["signal"] else raw["exit_code"])


STARVED = {"killed_by": "wall-timer", "wall_ns": 2_000_000_000, "cpu_ns": 400_000_000,
           "waiting_ns": 1_500_000_000}


@pytest.mark.parametrize("figures, clock, evidence", [
    (STARVED, "nohz-idle", Evidence(EvidenceKind.CPU_CLOCK, "1500 ms of 2000 ms went to work "
                                    "outside the run, on nohz-idle")),
    (STARVED, "cpuidle", Evidence(EvidenceKind.CPU_CLOCK, "1500 ms of 2000 ms went to work "
                                  "outside the run, on cpuidle")),
    # Measured on no exact clock (only tick-sampled figures), or not said: no evidence, and the
    # run is the TLE its wall clock says (judge.run_evidence.weigh_busy).
    (STARVED, "none", None),
    (STARVED, None, None),
    # Not BUSY: nothing to prove.
    ({**STARVED, "waiting_ns": 0}, "nohz-idle", None),
])
def test_busy_evidence_needs_an_exact_clock(figures, clock, evidence):
    sources = {"cpu": "cgroup-v2", "memory": "cgroup-v2"} | ({"busy": clock} if clock else {})
    run = classify(limits=LIMITS, setup_ns=0, output_bytes=0, undelivered_bytes=0, syscall=None,
                   sources=sources, **{**CALM, **figures})
    assert busy_evidence(run) == evidence, run


def test_unknown_cause_from_the_supervisor_is_refused():
    with pytest.raises(ValueError):
        classify(limits=LIMITS, setup_ns=0, output_bytes=0, undelivered_bytes=0, syscall=None,
                 sources={}, **{**CALM, "killed_by": "gremlins"})


def test_the_enums_read_and_write_as_the_strings_they_replace():
    assert json.dumps({"v": Verdict.AC, "s": Status.BUSY, "k": KilledBy.WALL_TIMER}) == \
        '{"v": "AC", "s": "BUSY", "k": "wall-timer"}'
    assert f"{Verdict.NO_CODE}" == "NO_CODE" and Verdict("TLE") == "TLE"
    # Every run status is also a test verdict, by the same name.
    assert {Verdict(s) for s in Status if s != Status.OK} <= set(Verdict)
    assert CHECKER_EXIT_VERDICTS[8] == "PE" and CHECKER_EXIT_VERDICTS[3] == "FAIL"
