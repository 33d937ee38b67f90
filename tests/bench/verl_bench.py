"""verl's request pattern (tests/verl_shape.py) against `judge serve` with its default queue:
SAMPLES samples of TESTS tests, Python and C++, right, wrong, spinning past the limit and
crashing, every test its own /run_code, CONCURRENT at once, as verl's `max_concurrent=256`
sends them. The baseline, in the same run: the same samples through the library
(judge.reward.CodeReward in-process, every test), what verl's one HTTP request per test costs
against one call per completion. With JUDGE_BENCH_SANDBOXFUSION=URL (SandboxFusion's own
server, started beside this one), the same replay against it too.

Figures: rewards right, tests refused (api_error or sandbox_error: a quick program's refusal is
a wrong reward in waiting, a spinner's one verl scores as the failure it is anyway), samples/s,
and the server's peak RSS against its documented bound (Settings.memory_bound_bytes).

`python -m tests.bench.verl_bench` runs this section alone."""
from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from verl_shape import PROGRAMS, verl_score, verl_test  # noqa: E402

from judge.cpus import usable_cpus  # noqa: E402
from judge.languages import get_language  # noqa: E402
from judge.service.settings import Settings  # noqa: E402
from serving import rss_bytes  # noqa: E402
from tests.bench.serve_bench import server  # noqa: E402

SAMPLES, TESTS, CONCURRENT, RUN_TIMEOUT_S = 32, 10, 256, 1
KINDS = ["right", "wrong", "right", "tle", "right", "re", "wrong", "right"]
SANDBOXFUSION_ENV = "JUDGE_BENCH_SANDBOXFUSION"


def samples() -> list[tuple[str, str]]:
    return [(("python", "cpp")[i % 2], KINDS[(i // 2) % len(KINDS)]) for i in range(SAMPLES)]


def tests() -> list[tuple[str, str]]:
    return [(f"{i}\n", f"{2 * i}\n") for i in range(TESTS)]


def replay(url: str) -> dict:
    """Every test of every sample posted at once, CONCURRENT in flight, as verl does."""
    asked = samples()
    started = time.perf_counter()
    with ThreadPoolExecutor(CONCURRENT) as pool:
        futures = {(index, test): pool.submit(verl_test, url + "/run_code", PROGRAMS[sample],
                                              sample[0], stdin, expected, RUN_TIMEOUT_S)
                   for index, sample in enumerate(asked)
                   for test, (stdin, expected) in enumerate(tests())}
        outcomes = {key: future.result() for key, future in futures.items()}
    seconds = time.perf_counter() - started
    right = refused_quick = refused_spinning = 0
    for index, (_, kind) in enumerate(asked):
        results = [outcomes[(index, test)] for test in range(TESTS)]
        right += verl_score(results) == (1.0 if kind == "right" else 0.0)
        refused = sum(r in ("api_error", "sandbox_error") for r in results)
        if kind == "tle":
            refused_spinning += refused
        else:
            refused_quick += refused
    return {"seconds": seconds, "right": right, "refused_quick": refused_quick,
            "refused_spinning": refused_spinning}


def library() -> dict:
    """The same samples, each a completion of one CodeReward call, every test run."""
    from judge.reward import CodeReward
    asked = samples()
    given = tests()
    completions = [f"```{language}\n{PROGRAMS[(language, kind)]}\n```" for language, kind in asked]
    columns = {"inputs": [[t[0] for t in given]] * SAMPLES,
               "outputs": [[t[1] for t in given]] * SAMPLES,
               # /run_code's run_timeout is the CPU limit as given; a problem's limit is
               # multiplied by the language's time factor (Python's 2): the same limits.
               "time_limit_ms": [round(RUN_TIMEOUT_S * 1000 / get_language(language).time_factor)
                                 for language, _ in asked],
               "checker": ["wcmp"] * SAMPLES,
               "language": [language for language, _ in asked]}
    started = time.perf_counter()
    scores = CodeReward()(completions=completions, **columns)     # every test, as verl runs them
    seconds = time.perf_counter() - started
    right = sum((score == 1.0) == (kind == "right")
                for score, (_, kind) in zip(scores, asked, strict=True))
    return {"seconds": seconds, "right": right, "refused_quick": 0, "refused_spinning": 0}


def run(console: Console) -> None:
    slots = len(usable_cpus())
    spinning = sum(kind == "tle" for _, kind in samples())
    rows = [("library (CodeReward, one call per completion)", library())]
    process, url = server(slots, queue_size=0)
    try:
        rows.append(("judge serve, verl's pattern", replay(url)))
        peak = rss_bytes(process.pid, "VmHWM")
    finally:
        process.terminate()
        process.wait(120)
    other = os.environ.get(SANDBOXFUSION_ENV)
    if other:
        rows.append((f"SandboxFusion at {other}, verl's pattern", replay(other.rstrip("/"))))
    table = Table(title=f"verl's request pattern: {SAMPLES} samples x {TESTS} tests ({spinning} "
                        f"spinning), {CONCURRENT} concurrent /run_code, {slots} slots")
    for column in ("path", "s", "samples/s", "vs judge serve", "rewards right",
                   "refused (quick tests)", "refused (spinners' tests)"):
        table.add_column(column, justify="left" if column == "path" else "right")
    served_s = rows[1][1]["seconds"]
    for label, figures in rows:
        table.add_row(label, f"{figures['seconds']:.1f}", f"{SAMPLES / figures['seconds']:.2f}",
                      f"{served_s / figures['seconds']:.2f}x", f"{figures['right']}/{SAMPLES}",
                      str(figures["refused_quick"]), str(figures["refused_spinning"]))
    console.print(table)
    bound = Settings(slots=slots).memory_bound_bytes
    console.print(f"judge serve peak RSS {peak / 2**20:.0f} MiB, documented bound "
                  f"{bound / 2**20:.0f} MiB ({peak / bound:.0%}); set {SANDBOXFUSION_ENV}=URL "
                  "to replay against SandboxFusion's own server too")


if __name__ == "__main__":
    run(Console())
