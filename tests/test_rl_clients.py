"""The call shapes of the RL trainers that use the judge as their reward, replayed against a real
`judge serve` (docs/rl.md). verl's sandbox reward posts one `/run_code` per test, every test of
every sample of a step at once (up to `max_concurrent`), waits `compile_timeout + run_timeout +
10 s` for each answer, retries only a 504 (3 tries, 1 s then 2 s apart) and scores anything else
that is not a verdict as a failed test (tests/verl_shape.py, written from that description, so
the suite needs no verl; the measurement with verl's own module is in the closing note of
issue 44)."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from verl_shape import PROGRAMS, verl_test

from serving import Server

pytestmark = pytest.mark.usefixtures("require_sandbox")

TESTS = [(f"{i}\n", f"{2 * i}\n") for i in range(8)]
KINDS = ["right", "tle", "wrong", "tle", "right", "re", "right", "tle"]

def test_verl_s_request_pattern_gets_every_reward_right():
    """Twenty samples of eight tests, all 160 requests at once: a third of the samples right,
    some wrong or crashing, and three in eight spinning until their limit. Every correct sample
    scores 1.0, every other 0.0, and no quick test is ever refused. The spinners' tests take a
    slot for their whole limit, about twice as long in all as verl waits for an answer; the
    queue runs each client's quick programs first (pool.JobCosts), so the right answers are not
    held up behind them (first come first served, whole correct samples were refused here)."""
    samples = [(language, KINDS[i % len(KINDS)]) for i, language in
               enumerate(["python", "cpp"] * 10)]
    with Server(slots=2) as server, ThreadPoolExecutor(160) as pool:
        url = server.url + "/run_code"
        futures = {(index, test): pool.submit(verl_test, url, PROGRAMS[sample], sample[0],
                                              stdin, expected, 1)
                   for index, sample in enumerate(samples)
                   for test, (stdin, expected) in enumerate(TESTS)}
        outcomes = {key: future.result() for key, future in futures.items()}
    wrong, refused = [], []
    for index, (language, kind) in enumerate(samples):
        results = [outcomes[(index, test)] for test in range(len(TESTS))]
        score = results.count("passed") / len(results)
        if score != (1.0 if kind == "right" else 0.0):
            wrong.append(f"sample {index} ({language} {kind}): {results}")
        if kind != "tle":
            refused += [f"sample {index} ({language} {kind}) test {t}: {r}"
                        for t, r in enumerate(results) if r in ("api_error", "sandbox_error")]
    assert not wrong, "\n".join(wrong)
    assert not refused, "\n".join(refused)
