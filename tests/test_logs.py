"""Output a person reads in a log: when stdout is not a terminal tables are printed whole (no
"0.5…"), and when stderr is not a terminal an evaluation's progress is a plain line every few
seconds and at the end of a phase, not a bar drawn once. No sandbox needed."""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from judge.evaluate.progress import EvalProgress

ROOT = Path(__file__).resolve().parent.parent


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_progress_in_a_log_is_a_line_every_interval_and_at_the_end():
    log, clock = io.StringIO(), Clock()
    with EvalProgress(True, interval_s=10, stream=log, now=clock) as progress:
        phase = progress.phase("judging (2 slots)", 4)
        for _ in range(3):
            clock.t += 1
            phase.advance()
            phase.tick()
        assert log.getvalue() == ""                       # 3 s in: nothing yet
        clock.t += 9
        phase.tick()
        phase.tick()                                      # once per interval, not per tick
        clock.t += 4
        phase.advance()
    lines = log.getvalue().splitlines()
    assert lines == [
        "judging (2 slots): 3/4 samples (75%), 15.0/min, elapsed 0:00:12, ETA 0:00:04",
        "judging (2 slots): 4/4 samples (100%), 15.0/min, elapsed 0:00:16, ETA 0:00:00"]


def test_no_progress_means_silence():
    log, clock = io.StringIO(), Clock()
    with EvalProgress(False, interval_s=1, stream=log, now=clock) as progress:
        phase = progress.phase("judging (1 slot)", 2)
        clock.t += 5
        phase.tick()
        phase.advance()
        phase.advance()
    assert log.getvalue() == ""


def judge(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    return subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", *args],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)


def test_tables_in_a_log_are_whole():
    listed = judge("problems", "list")
    assert listed.returncode == 0, listed.stderr
    assert "…" not in listed.stdout
    row = next(line for line in listed.stdout.splitlines() if "codeforces/2020A" in line)
    assert "Find Minimum Operations" in row and "1000 ms" in row and "256 MB" in row
    doctor = judge("doctor")
    assert "…" not in doctor.stdout


def test_a_progress_interval_must_be_positive(tmp_path):
    gens = tmp_path / "g.jsonl"
    gens.write_text('{"problem_id": "2020A", "language": "python", "code": "print(1)"}\n')
    done = judge("eval", str(gens), "--progress-interval", "0", "--out", str(tmp_path / "o"))
    assert done.returncode == 2 and "--progress-interval" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_verbose_logs_what_the_judge_does_and_quiet_logs_nothing(require_sandbox, tmp_path):
    source = ROOT / "problems" / "pack" / "codeforces-2020A" / "sol.py"
    quiet = judge("run", str(source), "--problem", "2020A")
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    loud = judge("--verbose", "run", str(source), "--problem", "2020A")
    assert loud.returncode == 0, loud.stderr
    lines = loud.stderr.splitlines()
    assert lines and all(line.startswith("judge: ") for line in lines), loud.stderr
    assert any("judge.compiler: python compile" in line for line in lines), loud.stderr
    assert "AC" in loud.stdout and "AC" in quiet.stdout     # stdout carries the result only


def test_a_verbose_supervisor_notes_each_step_and_a_failure_carries_them(require_sandbox, caplog):
    import logging

    from conftest import next_slot
    from judge.sandbox import Limits, Sandbox
    with caplog.at_level(logging.DEBUG, logger="judge.sandbox.slot"):
        with Sandbox(slot=next_slot()) as sandbox:
            ok = sandbox.run(["/bin/true"], Limits())
            failed = sandbox.run(["/no/such/program"], Limits())
    notes = [r.getMessage() for r in caplog.records if r.name == "judge.sandbox.slot"]
    assert ok.status == "OK" and any("ran /bin/true: exit 0" in n for n in notes), notes
    assert any(n.endswith("priority raised") or "cgroup" in n for n in notes), notes
    assert failed.status == "SE" and failed.error.startswith("cannot execute /no/such/program")
    assert "(supervisor: " in failed.error and "run /no/such/program" in failed.error


def test_a_quiet_supervisor_writes_nothing(require_sandbox):
    from conftest import next_slot
    from judge.sandbox import Limits, Sandbox
    with Sandbox(slot=next_slot()) as sandbox:
        failed = sandbox.run(["/no/such/program"], Limits())
    assert failed.error == "cannot execute /no/such/program: No such file or directory"
