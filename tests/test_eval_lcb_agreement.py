"""`judge eval` on LiveCodeBench-schema data reports what LiveCodeBench's own pipeline reports
on the same generations (tests/lcb_eval_fixtures.py: its extraction, its stdin and functional
harnesses, its pass@1, each answer recorded from LiveCodeBench's code)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lcb_eval_fixtures import GENERATIONS, PROBLEMS

from conftest import EVAL_SLOTS, scaled

ROOT = Path(__file__).resolve().parent.parent
# compute_metrics_from_results on the fixtures: per problem 4/7, 2/4, 2/3, averaged.
LCB_PASS_AT_1 = (4 / 7 + 2 / 4 + 2 / 3) / 3


def test_judge_eval_reports_livecodebench_s_own_verdicts_and_pass_at_1(tmp_path, audited_host):
    data = tmp_path / "lcb.jsonl"
    data.write_text("".join(json.dumps(p) + "\n" for p in PROBLEMS))
    gens = tmp_path / "gens.jsonl"
    gens.write_text("".join(json.dumps({"problem_id": qid, "completion": text}) + "\n"
                            for qid, text, _ in GENERATIONS))
    done = subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", "eval",
                           str(gens), "--dataset", f"livecodebench:{data}",
                           "--out", str(tmp_path / "out"), "--jobs", "2",
                           "--slot-base", str(EVAL_SLOTS + 14), "--no-progress", "--json"],
                          capture_output=True, text=True, cwd=ROOT, env=dict(os.environ),
                          timeout=scaled(900_000) / 1000)
    assert done.returncode == 0, done.stderr[-3000:]
    records = [json.loads(line)
               for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    disagree = [(i, qid, record["verdict"], record["tests"][-1]["stderr_tail"][-200:]
                 if record.get("tests") else record.get("reason"))
                for i, ((qid, _, passes), record) in enumerate(zip(GENERATIONS, records,
                                                                    strict=True))
                if (record["verdict"] == "AC") is not passes]
    assert not disagree, disagree
    summary = json.loads(done.stdout)
    assert summary["pass_at_k"]["1"] == pytest.approx(LCB_PASS_AT_1, abs=1e-9)
    assert summary["complete"] is True
