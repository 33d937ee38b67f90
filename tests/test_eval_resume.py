"""judge eval survives SIGTERM and kill -9: nothing committed is lost or judged again, nothing is
duplicated, the rerun finishes the job, and the slot directories the killed run's supervisors
could not remove are swept when the rerun's slots start. Wall-clock bounds are scaled
(JUDGE_TEST_TIME_SCALE, see conftest)."""
from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from conftest import EVAL_SLOTS, PACK_SOURCES, assert_dead_supervisors_swept, is_alive, scaled, supervisor_pids_of

ROOT = Path(__file__).resolve().parent.parent
SOL = PACK_SOURCES / "codeforces-2020A" / "sol.py"
SAMPLES = 8
SLOT_BASE = str(EVAL_SLOTS + 4)    # beside test_eval.py's


def start(gens: Path, out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "from judge.cli import main; main()", "eval",
                             str(gens), "--out", str(out), "--jobs", "1", "--slot-base", SLOT_BASE,
                             "--no-progress", "--json"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def stored(out: Path) -> dict[str, tuple[int, str]]:
    """key -> (run id, verdict) of the committed results."""
    db_path = out / "results.db"
    if not db_path.exists():
        return {}
    try:
        db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=10)
        try:
            return {k: (r, v) for k, r, v in db.execute("SELECT key, run_id, verdict FROM results")}
        finally:
            db.close()
    except sqlite3.OperationalError:
        return {}


def wait_for(out: Path, proc: subprocess.Popen, at_least: int, timeout: float = 300) -> None:
    deadline = time.monotonic() + scaled(timeout * 1000) / 1000
    while len(stored(out)) < at_least:
        assert proc.poll() is None, f"eval ended early: {proc.communicate()}"
        assert time.monotonic() < deadline, "no progress"
        time.sleep(0.05)


def test_resume_after_sigterm_and_kill_9(tmp_path, audited_host):
    code = SOL.read_text()
    # distinct programs (a comment differs), all accepted; plus one duplicate of sample 0
    rows = [{"problem_id": "2020A", "language": "python", "sample_index": i,
             "code": f"{code}\n# sample {i}\n"} for i in range(SAMPLES)]
    rows.append({"problem_id": "2020A", "language": "python", "sample_index": SAMPLES,
                 "completion": f"```python\n{code}\n# sample 0\n```"})
    gens = tmp_path / "gens.jsonl"
    gens.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out"

    # 1. SIGTERM: a clean stop with exit 130, what was judged is kept
    proc = start(gens, out)
    wait_for(out, proc, 1)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=scaled(120))
    assert proc.returncode == 130, err
    assert "resume" in err and "Traceback" not in err
    after_term = stored(out)
    assert 1 <= len(after_term) < SAMPLES
    # It says what the resume takes from the store (every saved judgment here is a final AC).
    said = re.search(r"(\d+) of \d+ judgments of this run are saved, (\d+) of them final", err)
    assert said and int(said[1]) == int(said[2]) == len(after_term), err

    # 2. kill -9 mid-way
    proc = start(gens, out)
    wait_for(out, proc, len(after_term) + 1)
    supervisors = supervisor_pids_of(proc.pid)
    assert supervisors, "the eval runs no sandbox supervisor"
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=scaled(60))
    # Its supervisors die with it (they cannot outlive the thread that started them) and
    # cannot clean up after themselves.
    deadline = time.monotonic() + scaled(10000) / 1000
    while any(is_alive(pid) for pid in supervisors):
        assert time.monotonic() < deadline, f"supervisors {supervisors} outlived the eval"
        time.sleep(0.02)
    # Orphaned, they were re-parented to this process (a subreaper, as every judge is): reap
    # them as init would, or their zombies would hold their pids.
    for pid in supervisors:
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
    after_kill = stored(out)
    assert len(after_kill) < SAMPLES, "finished before the kill; nothing to test"
    for key, value in after_term.items():
        assert after_kill[key] == value                      # not judged again by run 2

    # 3. the rerun completes the job
    proc = start(gens, out)
    stdout, err = proc.communicate(timeout=scaled(600))
    assert proc.returncode == 0, err
    assert_dead_supervisors_swept(supervisors)
    summary = json.loads(stdout)
    final = stored(out)
    assert len(final) == SAMPLES
    for key, value in after_kill.items():
        assert final[key] == value                           # kept, with its original run id
    assert all(v == "AC" for _, v in final.values())
    assert summary["run"]["from_store"] == len(after_kill)
    assert summary["run"]["judged_now"] == SAMPLES - len(after_kill)
    problem = summary["problems"]["codeforces/2020A"]
    assert problem == {"n": SAMPLES + 1, "c": SAMPLES + 1, "avg": 1.0, "pass_at_k": problem["pass_at_k"]}

    db = sqlite3.connect(out / "results.db")
    judged = dict(db.execute("SELECT key, COUNT(*) FROM judgments GROUP BY key").fetchall())
    assert len(judged) == SAMPLES and set(judged.values()) == {1}     # each judged exactly once
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    records = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert sorted(r["sample_index"] for r in records) == list(range(SAMPLES + 1))
    assert records[0]["key"] == records[-1]["key"]           # the duplicate shares a judgment
