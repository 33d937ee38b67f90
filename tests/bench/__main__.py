"""`make bench`: every figure is measured in this run, with its baseline measured alongside
(these machines are shared and noisy; only ratios and spreads are comparable across runs)."""
from __future__ import annotations

import sys

from rich.console import Console

from tests.bench import sandbox_bench


def main() -> int:
    console = Console()
    sections = [sandbox_bench.run]
    try:
        from tests.bench import grading_bench
        sections.append(grading_bench.run)
    except ImportError:
        pass
    from tests.bench import language_bench
    sections.append(language_bench.run)
    from tests.bench import compile_bench
    sections.append(compile_bench.run)
    from tests.bench import eval_bench
    sections.append(eval_bench.run)
    from tests.bench import serve_bench
    sections.append(serve_bench.run)
    from tests.bench import reward_bench
    sections.append(reward_bench.run)
    from tests.bench import verl_bench
    sections.append(verl_bench.run)
    from tests.bench import serve_memory
    sections.append(serve_memory.run)
    from tests.bench import ray_bench
    sections.append(ray_bench.run)
    for section in sections:
        section(console)
    return 0


if __name__ == "__main__":
    sys.exit(main())
