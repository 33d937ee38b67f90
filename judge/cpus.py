"""The CPUs this process may use, and which of them other work leaves the most room on. Slots
pin their runs to one CPU each; on a shared machine other work often crowds some of them."""
from __future__ import annotations

import os
import time
from pathlib import Path


def usable_cpus() -> list[int]:
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return list(range(os.cpu_count() or 1))


def _cpu_ticks() -> dict[int, tuple[int, int]]:
    """cpu -> (busy, total) jiffies from /proc/stat."""
    ticks: dict[int, tuple[int, int]] = {}
    try:
        text = Path("/proc/stat").read_text()
    except OSError:
        return ticks
    for line in text.splitlines():
        name, *values = line.split()
        if name.startswith("cpu") and name[3:].isdigit():
            numbers = [int(v) for v in values[:8]]
            idle = numbers[3] + (numbers[4] if len(numbers) > 4 else 0)
            ticks[int(name[3:])] = (sum(numbers) - idle, sum(numbers))
    return ticks


def idlest_cpu(cpus: list[int], interval: float = 0.5) -> int:
    """The CPU of ``cpus`` that was the least busy over ``interval`` seconds."""
    before = _cpu_ticks()
    time.sleep(interval)
    after = _cpu_ticks()

    def busy(cpu: int) -> float:
        if cpu not in before or cpu not in after:
            return 1.0
        total = after[cpu][1] - before[cpu][1]
        return (after[cpu][0] - before[cpu][0]) / total if total > 0 else 0.0
    return min(cpus, key=lambda cpu: (busy(cpu), cpu))


__all__ = ["usable_cpus", "idlest_cpu"]
