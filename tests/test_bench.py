"""`make bench` is not run by CI (it takes minutes and its figures need a quiet machine), so its
sections are at least imported here: a name a refactor took away fails the suite, not the next
person who measures."""
from __future__ import annotations

import importlib
import os

import pytest


@pytest.mark.parametrize("section", ["sandbox_bench", "grading_bench", "eval_bench",
                                     "serve_bench", "reward_bench", "ray_bench"])
def test_bench_section_imports(section):
    module = importlib.import_module(f"tests.bench.{section}")
    assert callable(module.run)


def test_eval_cpu_split_keeps_the_programs_apart_from_the_judge():
    from tests.bench.eval_bench import cpu_split
    spent = {"programs_ms": 600.0, "tests": 40, "compile_ms": 100.0, "runs_ms": 760.0,
             "setup_ms": 20.0, "supervisors_ms": 80.0, "supervised_ms": 800.0}
    split = cpu_split(10, python_ms=200.0, children_ms=900.0, spent=spent)
    assert split["programs_ms"] == 60.0 and split["compile_ms"] == 10.0
    assert split["jury_ms"] == 6.0          # the runs neither tests nor compiles
    assert split["unreported_ms"] == 2.0    # reaped beyond the runs' figures and set-up
    assert split["probes_ms"] == 2.0        # children that are no supervisor's
    assert split["judge_ms"] == 20.0 + 8.0 + 2.0 + 6.0 + 2.0
    assert split["judge_per_test_ms"] == split["judge_ms"] * 10 / 40


def test_supervisor_cpu_is_read_from_a_live_process():
    from tests.bench.eval_bench import _supervisor_ms
    own, reaped = _supervisor_ms(os.getpid())
    assert own > 0 and reaped >= 0
