"""The reward API (judge.reward): a row of each schema as a Problem in one call, the scores TRL's
and verl's contracts receive, partial credit and its bounds, and the same scores through a
`judge serve` as in this process. The reward-hacking suite (tests/test_ungameable.py) tries its
doors through it."""
from __future__ import annotations

import json
import time

import pytest
from lcb_eval_fixtures import FUNCTIONAL_TWO_SUM, STDIN_SUM

from judge import JudgeError
from judge.problems.rows import io_tests, problem_from_row, schema_of
from judge.reward import CodeReward, completion_text
from serving import JURY_WITHOUT_AN_ANSWER, Server

DOUBLE = {"inputs": ["1\n", "2\n", "3\n", "4\n"], "outputs": ["2\n", "4\n", "6\n", "8\n"]}


def fenced(code: str, tag: str = "python") -> str:
    return f"Here it is.\n\n```{tag}\n{code}```\n"


RIGHT = fenced("print(int(input()) * 2)\n")
HALF = fenced("n = int(input())\nprint(n * 2 if n <= 2 else n)\n")      # tests 1 and 2 only
WRONG = fenced("print(0)\n")
SPIN = fenced("while True:\n    pass\n")


# ------------------------------------------------------------------------------ rows

def test_every_plain_test_shape_is_read():
    expected = io_tests(DOUBLE)
    assert [t.output for t in expected] == [b"2\n", b"4\n", b"6\n", b"8\n"]
    assert io_tests({"input_output": json.dumps(DOUBLE)}) == expected
    listed = [{"input": {"stdin": i}, "output": {"stdout": o}}
              for i, o in zip(DOUBLE["inputs"], DOUBLE["outputs"], strict=True)]
    assert io_tests({"test": listed}) == expected
    assert io_tests({"test": json.dumps(listed)}) == expected


@pytest.mark.parametrize("row, message", [
    ({"inputs": ["1"], "outputs": []}, "same length"),
    ({"inputs": ["1"], "outputs": ["2"], "fn_name": "f"}, "harness"),
    ({"input_output": "{not json"}, "not JSON"),
    ({"test": [{"input": "1"}]}, "no input and output"),
    ({"test": [{"input": [1], "output": "2"}]}, "must be a string"),
    ({"prompt": "x"}, "no tests"),
])
def test_a_malformed_row_is_one_clear_error(row, message):
    with pytest.raises(JudgeError, match=message):
        problem_from_row(row)


def test_a_plain_row_takes_its_limits_and_checker_and_keeps_one_id():
    row = {**DOUBLE, "time_limit": 2, "memory_limit": 512, "checker": "wcmp"}
    problem = problem_from_row(row)
    assert (problem.time_limit_ms, problem.memory_limit_mb, problem.checker) == (2000, 512, "wcmp")
    assert problem_from_row(dict(row)).id == problem.id           # the same tests, the same id
    assert problem_from_row({**DOUBLE, "id": "x7"}).id == "row/x7"
    default = problem_from_row(DOUBLE)
    assert (default.time_limit_ms, default.memory_limit_mb, default.checker) == (
        10_000, 1024, "sandboxfusion")


def test_each_benchmark_schema_is_read_by_its_own_loader():
    stepfun = {"problem_id": "cf/1A", "problem_desc": "d", "time_limit_ms": 1000,
               "memory_limit_MB": 256, "checker": "wcmp",
               "test_cases": [{"input": "1\n", "output": "2\n"}]}
    lcb = dict(STDIN_SUM)
    codecontests = {"name": "1500_B. Sum", "description": "d",
                    "public_tests": {"input": ["1 2\n"], "output": ["3\n"]},
                    "private_tests": {"input": [], "output": []},
                    "generated_tests": {"input": [], "output": []},
                    "time_limit": {"seconds": 2, "nanos": 0}, "memory_limit_bytes": 256 << 20}
    assert [schema_of(r) for r in (stepfun, lcb, codecontests, DOUBLE)] == [
        "stepfun", "livecodebench", "codecontests", "plain"]
    assert problem_from_row(stepfun).id.endswith("1A")
    assert len(problem_from_row(lcb).tests) == 3
    assert problem_from_row(codecontests).time_limit_ms == 2000


def test_a_completion_is_text_or_a_conversation():
    assert completion_text("x") == "x"
    assert completion_text([{"role": "assistant", "content": "y"}]) == "y"
    assert completion_text([{"role": "assistant", "content": [{"type": "text", "text": "z"}]}]) == "z"
    with pytest.raises(JudgeError):
        completion_text(7)


def test_settings_are_checked():
    with pytest.raises(JudgeError, match="scoring"):
        CodeReward(scoring="most")
    with pytest.raises(JudgeError, match="cpu_budget_ms"):
        CodeReward(cpu_budget_ms=0)


# ------------------------------------------------------------------------------ scores

def trl_columns(count: int) -> dict:
    """TRL's reward call: every dataset column, one value per completion (a row repeated per
    generation, as GRPO's sampler does), and its own keywords."""
    return {"inputs": [DOUBLE["inputs"]] * count, "outputs": [DOUBLE["outputs"]] * count,
            "completion_ids": [[1, 2]] * count, "trainer_state": None}


COMPLETIONS = [RIGHT, HALF, WRONG, "no code here", fenced("(display 1)", "racket-ish")]


def test_trl_scores_each_completion_by_the_fraction_of_tests_it_passes(require_sandbox):
    reward = CodeReward()
    assert reward.__name__ == "code_reward"
    scores = reward(prompts=["p"] * 5, completions=COMPLETIONS, **trl_columns(5))
    assert scores == [1.0, 0.5, 0.0, 0.0, 0.0]
    conversational = [[{"role": "assistant", "content": c}] for c in COMPLETIONS[:2]]
    assert reward(prompts=None, completions=conversational, **trl_columns(2)) == [1.0, 0.5]


def test_a_step_s_repeated_completions_are_graded_once(require_sandbox, monkeypatch):
    from judge import api
    graded = []
    real = api.grade

    def counted(code, *args, **kwargs):
        graded.append(code)
        return real(code, *args, **kwargs)
    monkeypatch.setattr(api, "grade", counted)
    conversational = [[{"role": "assistant", "content": RIGHT}]]
    scores = CodeReward()(completions=[RIGHT, WRONG, RIGHT, conversational[0], WRONG],
                          **trl_columns(5))
    assert scores == [1.0, 0.0, 1.0, 1.0, 0.0]
    assert sorted(graded) == sorted(["print(int(input()) * 2)\n", "print(0)\n"]), graded
    # TRL's sampler reads a repeated row from the dataset again: equal rows, not the same.
    graded.clear()
    copies = {"inputs": [list(DOUBLE["inputs"]) for _ in range(3)],
              "outputs": [list(DOUBLE["outputs"]) for _ in range(3)]}
    assert CodeReward()(completions=[RIGHT] * 3, **copies) == [1.0] * 3
    assert graded == ["print(int(input()) * 2)\n"]


def test_pass_scoring_is_all_or_nothing(require_sandbox):
    reward = CodeReward(scoring="pass")
    assert reward(completions=COMPLETIONS[:3], **trl_columns(3)) == [1.0, 0.0, 0.0]


def test_stop_at_first_failure_and_the_cpu_budget_bound_a_completion_s_cost(require_sandbox):
    columns = trl_columns(1)
    full = CodeReward().grade_batch([HALF], columns)[0]
    assert (full.passed, full.ran, full.tests) == (2, 4, 4)
    stopped = CodeReward(stop_at_first_failure=True).grade_batch([HALF], columns)[0]
    assert (stopped.score, stopped.passed, stopped.ran) == (0.5, 2, 3)
    # An infinite loop: one time limit, not one per test.
    spin = {**DOUBLE, "time_limit_ms": 200}
    loops = CodeReward(stop_at_first_failure=True).grade_batch(
        [SPIN], {k: [v] for k, v in spin.items()})[0]
    assert (loops.score, loops.verdict, loops.ran) == (0.0, "TLE", 1)
    # A program slower than the budget allows: the tests past the budget are not run.
    slow = fenced("import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3:\n"
                  "    pass\nprint(int(input()) * 2)\n")
    budget = CodeReward(cpu_budget_ms=500).grade_batch([slow], trl_columns(1))[0]
    assert budget.verdict == "TLE" and budget.ran == 2 and budget.score == 0.5, budget


def test_a_judge_failure_is_no_reward(require_sandbox):
    """A checker that FAILs on the jury's own data (input 7) is the jury's failure: None, never a
    zero the trainer would count against the model."""
    row = {"inputs": ["7\n"], "outputs": ["14\n"], "checker": JURY_WITHOUT_AN_ANSWER}
    assert CodeReward()(completions=[RIGHT], **{k: [v] for k, v in row.items()}) == [None]


def test_verl_s_compute_score_contract(require_sandbox):
    reward = CodeReward()
    scored = reward.compute_score("codecontests", RIGHT, json.dumps(DOUBLE), {"split": "train"})
    assert scored["score"] == 1.0 and scored["judge_failure"] == 0 and scored["verdict"] == "AC"
    batch = reward.compute_score_batch(["a", "b"], [HALF, WRONG], [DOUBLE, DOUBLE], [None, None])
    assert [b["score"] for b in batch] == [0.5, 0.0]
    failed = reward.compute_score("x", RIGHT, {"inputs": ["7\n"], "outputs": ["14\n"]},
                                  {"checker": JURY_WITHOUT_AN_ANSWER})
    assert failed["score"] == 0.0 and failed["judge_failure"] == 1


def test_a_benchmark_row_is_graded_by_its_own_rules(require_sandbox):
    """LiveCodeBench's functional row runs in its harness (in-process), and its stdin row as
    LiveCodeBench compares."""
    two_sum = fenced("class Solution:\n    def twoSum(self, nums, target):\n"
                     "        seen = {}\n        for i, x in enumerate(nums):\n"
                     "            if target - x in seen:\n                return [seen[target - x], i]\n"
                     "            seen[x] = i\n")
    columns = {k: [FUNCTIONAL_TWO_SUM[k], STDIN_SUM[k]] for k in FUNCTIONAL_TWO_SUM}
    summed = fenced("input()\nprint(sum(map(int, input().split())))\n")
    assert CodeReward()(completions=[two_sum, summed], **columns) == [1.0, 1.0]


def test_a_judge_serve_gives_the_same_scores(require_sandbox):
    completions = COMPLETIONS + [SPIN]
    columns = {**trl_columns(len(completions)), "time_limit_ms": [500] * len(completions)}
    local = CodeReward(stop_at_first_failure=False)(completions=completions, **columns)
    with Server(slots=2) as server:
        started = time.monotonic()
        served = CodeReward(url=server.url)(completions=completions, **columns)
        assert time.monotonic() - started < 300
        with pytest.raises(JudgeError, match="harness"):
            CodeReward(url=server.url)(completions=[RIGHT], **{
                k: [v] for k, v in FUNCTIONAL_TWO_SUM.items()})
    assert served == local == [1.0, 0.5, 0.0, 0.0, 0.0, 0.0]


def test_a_row_json_cannot_order_is_still_graded(require_sandbox):
    """A column holding a mapping with keys of mixed types cannot be sorted into a content key:
    its row shares no problem with another, and is graded all the same."""
    columns = {**trl_columns(2), "meta": [{1: "one", "two": 2}, {1: "one", "two": 2}]}
    assert CodeReward()(completions=[RIGHT, WRONG], **columns) == [1.0, 0.0]
