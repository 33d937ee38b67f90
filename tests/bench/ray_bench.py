"""`judge eval --ray` against the local pool on the same machine, in the same run: samples
judged per minute on the pack with `--jobs 2` and with a local Ray instance of 2 CPUs (two
workers), both on a warm compile cache, and what Ray adds per task.

What Ray adds per task: JudgeWorker.echo, a task that grades nothing (2 KB of code, the
problem's object reference, the reply), one at a time (the round trip a worker would wait
between tasks without pipelining) and two in flight per worker, as the dispatcher keeps them
(then a worker never waits: the rate is what two workers could be handed at most). The
evaluations' own slot time outside grade() is no measure of it: it is dominated by the tail of
the phase, one worker finishing a Java TLE while the other has nothing left.
"""
from __future__ import annotations

import logging
import os
import tempfile
import time
from pathlib import Path

from rich.table import Table

from judge import config
from tests.bench.eval_bench import generations

ECHOES = 400


def _evaluate(gens: Path, out: Path, **options) -> dict:
    from judge.evaluate.runner import evaluate
    from judge.evaluate.tasks import EvalConfig
    started = time.perf_counter()
    result = evaluate(EvalConfig(generations=gens, out=out, progress=False,
                                 allow_unaudited=True, **options))
    wall = time.perf_counter() - started
    stats = result.stats
    parallel_ms = stats["phase_wall_ms"]["parallel"]
    tasks = stats.get("judged_parallel", 0)
    return {"per_min": tasks / (parallel_ms / 6e4), "judging_s": sum(stats["phase_wall_ms"].values()) / 1e3,
            "wall_s": wall, "tasks": tasks, "workers": stats["slots"]["parallel"],
            "metrics": {k: result.summary[k] for k in ("pass_at_k", "verdicts")}}


def _echo(ray) -> dict:
    """Round trip and pipelined rate of JudgeWorker.echo on two workers."""
    from judge.evaluate.ray_pool import _actor_class
    from judge.problems.registry import resolve
    problem = resolve("2020A")
    box = [ray.put(problem)]
    source = "x" * 2000
    workers = [_actor_class().options(num_cpus=1).remote({}) for _ in range(2)]
    ray.get([w.echo.remote(source, "cpp", box) for w in workers])     # started, problem cached
    started = time.perf_counter()
    for _ in range(ECHOES // 4):
        ray.get(workers[0].echo.remote(source, "cpp", box))
    round_trip_ms = (time.perf_counter() - started) * 1e3 / (ECHOES // 4)
    started = time.perf_counter()
    inflight = [w.echo.remote(source, "cpp", box) for w in workers for _ in range(2)]
    sent = len(inflight)
    while inflight:
        done, inflight = ray.wait(inflight, num_returns=1)
        if sent < ECHOES:
            inflight.append(workers[sent % 2].echo.remote(source, "cpp", box))
            sent += 1
    rate = ECHOES / (time.perf_counter() - started)
    for w in workers:
        ray.kill(w)
    return {"round_trip_ms": round_trip_ms, "per_s": rate}


def run(console) -> dict:
    console.rule("judge eval --ray vs the local pool (2 CPUs each, warm compile cache)")
    try:
        import ray
    except ImportError:
        console.print("Ray is not installed (pip install 'judge[ray]'): skipped")
        return {}
    figures: dict = {}
    with tempfile.TemporaryDirectory(prefix="ray-bench-") as tmp:
        gens = Path(tmp) / "gens.jsonl"
        n = generations(gens)
        # The driver's cache, and the workers' (a worker's cache is its node's own setting,
        # and the local cluster's workers start with this environment).
        old = os.environ.get("JUDGE_CACHE_DIR")
        os.environ["JUDGE_CACHE_DIR"] = str(Path(tmp) / "cache")
        try:
            with config.overridden(cache_dir=Path(tmp) / "cache"):
                _evaluate(gens, Path(tmp) / "warm-up", jobs=2)       # fills the cache
                figures["local"] = _evaluate(gens, Path(tmp) / "local", jobs=2)
                os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
                started = time.perf_counter()
                ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
                         logging_level=logging.WARNING, object_store_memory=100 * 1024 * 1024)
                figures["ray_start_s"] = time.perf_counter() - started
                try:
                    figures["ray"] = _evaluate(gens, Path(tmp) / "ray", ray="local")
                    figures["echo"] = _echo(ray)
                finally:
                    ray.shutdown()
        finally:
            if old is None:
                os.environ.pop("JUDGE_CACHE_DIR", None)
            else:
                os.environ["JUDGE_CACHE_DIR"] = old
    local, remote, echo = figures["local"], figures["ray"], figures["echo"]
    table = Table(title=f"{n} samples (the pack), parallel phase")
    for col in ("mode", "workers", "samples/min", "judging s", "eval wall s"):
        table.add_column(col, justify="right")
    for label, m in (("--jobs 2", local), ("--ray, 2 CPUs", remote)):
        table.add_row(label, str(m["workers"]), f"{m['per_min']:.0f}", f"{m['judging_s']:.1f}",
                      f"{m['wall_s']:.1f}")
    console.print(table)
    console.print(f"--ray / --jobs 2 = {remote['per_min'] / local['per_min']:.2f}x; starting Ray took "
                  f"{figures['ray_start_s']:.1f} s and the workers' start (node checks, warm slots) "
                  f"{remote['wall_s'] - remote['judging_s']:.1f} s of the eval's wall; load average "
                  f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    console.print(f"a task that grades nothing (JudgeWorker.echo, 2 KB of code, the problem by "
                  f"reference): {echo['round_trip_ms']:.2f} ms round trip, {echo['per_s']:.0f}/s "
                  "with two workers, two in flight each")
    same = local["metrics"] == remote["metrics"]
    console.print(f"same pass@k and verdicts: {same}")
    return figures


if __name__ == "__main__":
    from rich.console import Console
    run(Console())
