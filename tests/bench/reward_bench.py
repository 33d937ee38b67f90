"""The TRL-shaped reward (judge.reward.CodeReward) on one generation step: 64 completions of a
10-test problem, a quarter of them infinite loops, the rest right or wrong, against the reward
a TRL user writes without a judge, measured in the same run: each completion's tests run by
`subprocess.run` with the same time limit, as many completions at once as there are CPUs.
Completions per second of each, and the ratio (target: >= 3x with stop_at_first_failure); and
the same reward on a Ray instance started here (judge.evaluate.ray_gradings), warm."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from rich.table import Table

COMPLETIONS = 64
TESTS = 10
# The judge's Python time factor is 2: a 500 ms problem limit is 1 s of CPU for a Python
# program, the bare reward's timeout.
TIME_LIMIT_MS = 500
BARE_TIMEOUT_S = 1.0
PROGRAMS = {"right": "print(int(input()) * 2)\n", "wrong": "print(int(input()) * 2 + 1)\n",
            "loop": "while True:\n    pass\n"}
KINDS = ["right", "wrong", "loop", "right"]          # a quarter infinite loops


def step() -> tuple[list[str], dict]:
    # Each completion its own program (a reward grades a step's repeats once).
    completions = [f"```python\n# completion {i}\n{PROGRAMS[KINDS[i % len(KINDS)]]}```"
                   for i in range(COMPLETIONS)]
    columns = {"inputs": [[f"{t}\n" for t in range(TESTS)]] * COMPLETIONS,
               "outputs": [[f"{2 * t}\n" for t in range(TESTS)]] * COMPLETIONS,
               "time_limit_ms": [TIME_LIMIT_MS] * COMPLETIONS, "checker": ["wcmp"] * COMPLETIONS}
    return completions, columns


def bare_reward(completions: list[str], columns: dict) -> list[float]:
    """A reward written without a judge: every test by subprocess, no sandbox."""
    def one(index: int) -> float:
        code = completions[index].split("\n", 1)[1].rsplit("```", 1)[0]
        passed = 0
        for given, wanted in zip(columns["inputs"][index], columns["outputs"][index], strict=True):
            try:
                done = subprocess.run([sys.executable, "-c", code], input=given, text=True,
                                      capture_output=True, timeout=BARE_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                continue
            passed += done.stdout.split() == wanted.split()
        return passed / len(columns["inputs"][index])
    with ThreadPoolExecutor(len(os.sched_getaffinity(0))) as pool:
        return list(pool.map(one, range(len(completions))))


def _on_ray() -> tuple[float, list[float | None]]:
    """The same step on a Ray instance started here, its workers warmed by a first step (a
    trainer's later steps find them so)."""
    from judge.reward import CodeReward
    completions, columns = step()
    with CodeReward(ray="local", stop_at_first_failure=True) as reward:
        reward(completions=completions[:4], **{k: v[:4] for k, v in columns.items()})
        started = time.perf_counter()
        scores = reward(completions=completions, **columns)
        return time.perf_counter() - started, scores


def run(console) -> None:
    from judge.reward import CodeReward
    completions, columns = step()
    rows = []
    started = time.perf_counter()
    bare = bare_reward(completions, columns)
    bare_s = time.perf_counter() - started
    rows.append(("bare subprocess reward", bare_s, bare))
    for label, reward in (("CodeReward, every test", CodeReward()),
                          ("CodeReward, stop_at_first_failure", CodeReward(stop_at_first_failure=True))):
        started = time.perf_counter()
        scores = reward(completions=completions, **columns)
        rows.append((label, time.perf_counter() - started, scores))
    rows.append(("CodeReward on Ray (local, warm workers), stop_at_first_failure", *_on_ray()))
    table = Table(title=f"TRL-shaped reward: {COMPLETIONS} completions x {TESTS} tests, a quarter "
                  "infinite loops")
    for column in ("reward", "s", "completions/s", "vs bare", "scores right"):
        table.add_column(column)
    expected = [{"right": 1.0, "wrong": 0.0, "loop": 0.0}[KINDS[i % len(KINDS)]]
                for i in range(COMPLETIONS)]
    for label, seconds, scores in rows:
        right = sum(1 for s, e in zip(scores, expected, strict=True) if s == e)
        table.add_row(label, f"{seconds:.1f}", f"{COMPLETIONS / seconds:.2f}",
                      f"{bare_s / seconds:.2f}x", f"{right}/{COMPLETIONS}")
    console.print(table)


if __name__ == "__main__":
    from rich.console import Console
    run(Console())
