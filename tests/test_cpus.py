"""Which CPU other work leaves the most room on: measured from /proc/stat, and what a TLE or
BUSY re-run of `judge eval` is pinned to."""
from __future__ import annotations

from judge import cpus


def test_the_idlest_cpu_is_the_least_busy_over_the_interval(monkeypatch):
    samples = iter([{0: (100, 1000), 1: (100, 1000), 2: (100, 1000)},
                    {0: (190, 1100), 1: (110, 1100), 2: (150, 1100)}])
    monkeypatch.setattr(cpus, "_cpu_ticks", lambda: next(samples))
    assert cpus.idlest_cpu([0, 1, 2], interval=0) == 1


def test_a_cpu_without_figures_counts_as_busy(monkeypatch):
    samples = iter([{0: (100, 1000)}, {0: (150, 1100)}])
    monkeypatch.setattr(cpus, "_cpu_ticks", lambda: next(samples))
    assert cpus.idlest_cpu([0, 5], interval=0) == 0

