"""`make bench` is not run by CI (it takes minutes and its figures need a quiet machine), so its
sections are at least imported here: a name a refactor took away fails the suite, not the next
person who measures."""
from __future__ import annotations

import importlib

import pytest


@pytest.mark.parametrize("section", ["sandbox_bench", "grading_bench", "eval_bench",
                                     "serve_bench", "ray_bench"])
def test_bench_section_imports(section):
    module = importlib.import_module(f"tests.bench.{section}")
    assert callable(module.run)
