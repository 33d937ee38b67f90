"""judge.api as another evaluator embeds it: a separate program that loads problems, extracts
code from model text, grades from many threads at once and from asyncio, sees the functional
harness, and evaluates rows in memory; plus the slot hand-out that keeps concurrent calls apart
and the thread rule of a Grader."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
import time
import warnings
from pathlib import Path

import pytest

from conftest import EVAL_SLOTS, PACK_SOURCES, next_slot, scaled
from judge import JudgeError, api
from judge.sandbox.slot import SUPERVISOR

ROOT = Path(__file__).resolve().parent.parent
PACK = PACK_SOURCES / "codeforces-2020A"

EMBEDDER = textwrap.dedent('''
    import asyncio, json, sys, threading
    from pathlib import Path
    from judge import api
    from judge.harness.functional import FUNCTIONAL_CHECKER

    pack = Path(sys.argv[1])
    right, wrong = (pack / "sol.py").read_text(), (pack / "wa.py").read_text()
    cpp = (pack / "sol.cpp").read_text()
    problem = api.load_problem("2020A")
    out = {"problems": len(api.load_problems()), "id": problem.id}

    text = "Here it is:\\n```cpp\\n" + cpp + "```\\nIt is O(log n)."
    block = api.extract_code(text)
    out["extracted"] = [block.language, block.code == cpp, api.extract_code("no code") is None]
    out["cpp"] = api.grade(block.code, block.language, problem).verdict

    verdicts = {}
    def grade(name, code):
        verdicts[name] = api.grade(code, "python", "2020A").verdict   # an id, looked up
    threads = [threading.Thread(target=grade, args=(f"t{i}", right if i % 2 else wrong))
               for i in range(6)]
    for t in threads: t.start()
    for t in threads: t.join()
    out["threads"] = verdicts

    async def main():
        return [r.verdict for r in await asyncio.gather(
            *(api.grade_async(right if i % 2 else wrong, "python", problem) for i in range(4)))]
    out["async"] = asyncio.run(main())

    two_sum = api.Problem(
        id="lc/two-sum", title="Two Sum", statement="", time_limit_ms=2000, memory_limit_mb=256,
        checker=FUNCTIONAL_CHECKER, metadata={"func_name": "twoSum"},
        tests=(api.TestCase(b"[2, 7, 11, 15]\\n9", b"[0, 1]"), api.TestCase(b"[3, 3]\\n6", b"[0, 1]")))
    solution = ("class Solution:\\n    def twoSum(self, nums, target):\\n"
                "        seen = {}\\n        for i, x in enumerate(nums):\\n"
                "            if target - x in seen: return [seen[target - x], i]\\n"
                "            seen[x] = i\\n"
                "if __name__ == '__main__':\\n    print(Solution().twoSum([1], 1))\\n")
    out["functional"] = api.grade(solution, "python", two_sum).verdict
    out["harness"] = "tmp_sol" in api.functional_program(solution, two_sum)

    rows = [{"problem_id": "2020A", "language": "python", "code": right},
            {"problem_id": "2020A", "completion": "```python\\n" + wrong + "```"},
            {"problem_id": "2020A", "completion": "I cannot solve this."}]
    result = api.evaluate(rows, jobs=2, warn=lambda m: print("warn:", m, file=sys.stderr))
    summary = result.summary
    out["evaluate"] = [summary["problems"]["codeforces/2020A"]["n"],
                       summary["problems"]["codeforces/2020A"]["c"],
                       summary["verdicts"], summary["provenance"]["audit"]["status"]]
    out["verdict_types"] = sorted({type(r["verdict"]).__name__ for r in result.samples})
    try:
        api.grade(right, "cobol", problem)
    except api.JudgeError as exc:
        out["error"] = str(exc)
    print(json.dumps(out))
''')


def test_an_evaluator_embeds_the_api(tmp_path, audited_host):
    script = tmp_path / "embedder.py"
    script.write_text(EMBEDDER)
    done = subprocess.run([sys.executable, str(script), str(PACK)], capture_output=True,
                          text=True, cwd=tmp_path, timeout=scaled(600_000) / 1000,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                               "HOME": str(Path.home())})
    assert done.returncode == 0, done.stderr[-4000:]
    out = json.loads(done.stdout)
    assert out["problems"] >= 7 and out["id"] == "codeforces/2020A"
    assert out["extracted"] == ["cpp", True, True] and out["cpp"] == "AC"
    assert out["threads"] == {f"t{i}": "AC" if i % 2 else "WA" for i in range(6)}
    assert out["async"] == ["WA", "AC", "WA", "AC"]
    # LiveCodeBench runs the code as module tmp_sol: its __main__ block does not run.
    assert out["functional"] == "AC" and out["harness"]
    n, c, verdicts, audit = out["evaluate"]
    assert (n, c) == (3, 1) and verdicts == {"AC": 1, "WA": 1, "NO_CODE": 1}
    assert audit in ("PASS", "INCONCLUSIVE")
    assert out["verdict_types"] == ["str"]         # graded and NO_CODE rows alike
    assert "unknown language 'cobol'" in out["error"]
    assert "Traceback" not in done.stderr


def test_an_incomplete_evaluation_says_so(tmp_path, audited_host, monkeypatch, configure):
    """Samples the judge could not grade are left out of the metrics, as `judge eval` leaves them
    out and exits 3: here an unknown problem, and samples whose run slot cannot start (a
    supervisor that dies at once, so every run is the judge's failure, SE). The result says
    incomplete, lists every sample left out, and a warning of its own category is emitted (it
    used to return the metrics of the rest and say nothing)."""
    monkeypatch.setattr(api, "_evaluate_slots", api._Handout(range(EVAL_SLOTS + 8, EVAL_SLOTS + 9)))
    failing = tmp_path / "supervisor"
    failing.write_text(f'#!/bin/sh\ncase " $* " in *" --box "*) exit 1;; esac\n'
                       f'exec "{SUPERVISOR}" "$@"\n')
    failing.chmod(0o755)
    configure(supervisor=failing)     # run sandboxes only: --box DIR
    right = (PACK / "sol.py").read_text()
    rows = [{"problem_id": "2020A", "language": "python", "code": right},
            {"problem_id": "2020A", "completion": "I cannot solve this."},
            {"problem_id": "pack/no-such-problem", "language": "python", "code": right}]
    with pytest.warns(api.IncompleteEvaluation, match="2 of 3 samples") as caught:
        result = api.evaluate(rows, jobs=1)
    assert len(caught) == 1
    assert result.complete is False and result.summary["complete"] is False
    assert [line.split(":")[0] for line in result.incomplete] == [
        "row 1 (codeforces/2020A)", "row 3 (pack/no-such-problem)"]
    assert "SE" in result.incomplete[0] and "SKIPPED" in result.incomplete[1]
    assert result.summary["problems"]["codeforces/2020A"]["n"] == 1     # the NO_CODE row
    configure(supervisor=None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert api.evaluate(rows[:2], jobs=1).complete is True


def test_concurrent_calls_hold_different_slots_and_wait_for_a_free_one():
    slots = api._Handout(range(50, 53))
    with slots.hold(1) as a, slots.hold(2) as b:
        assert (a, b) == (50, 51)
        got: list[int] = []

        def waiter() -> None:
            with slots.hold(1) as c:
                got.append(c)
        thread = threading.Thread(target=waiter)
        thread.start()
        time.sleep(0.2)
        assert got == []                      # every slot is held: it waits
    thread.join(timeout=10)
    assert got == [50]
    with pytest.raises(JudgeError, match="between 1 and 3"):
        with slots.hold(4):
            pass


def test_a_grader_used_from_another_thread_raises(require_sandbox):
    errors: list[Exception] = []
    with api.Grader(slot=next_slot()) as grader:
        def use() -> None:
            try:
                grader.grade("print(1)", "python", api.load_problem("2020A"))
            except JudgeError as exc:
                errors.append(exc)
        thread = threading.Thread(target=use, name="intruder")
        thread.start()
        thread.join()
    assert len(errors) == 1 and "belongs to the thread that created it" in str(errors[0])


@pytest.mark.parametrize("call, message", [
    (lambda: api.load_problem("no-such-problem"), "unknown problem"),
    (lambda: api.evaluate([]), "no samples"),
    (lambda: api.evaluate([{"language": "python", "code": "x"}]), "sample 1: no 'problem_id'"),
    (lambda: api.functional_program("x", api.load_problem("2020A")), "not a functional problem"),
    (lambda: api.load_problems("nosuch:x"), "unknown kind"),
])
def test_bad_input_is_a_judge_error(call, message):
    with pytest.raises(JudgeError, match=message):
        call()


def documented_library_example() -> str:
    """The first Python block of the `judge.api` page (docs/api.md)."""
    section = (ROOT / "docs" / "api.md").read_text()
    return section.split("```python\n", 1)[1].split("\n```\n", 1)[0]


@pytest.mark.parametrize("fence", ["```python", "```", "(no code)"])
def test_the_documented_library_example_gives_judge_eval_s_verdict(fence, tmp_path, audited_host,
                                                               monkeypatch):
    monkeypatch.setattr(api, "_evaluate_slots", api._Handout(range(EVAL_SLOTS + 8, EVAL_SLOTS + 9)))
    example = documented_library_example()
    text = (f"My answer:\n{fence}\n{(PACK / 'sol.py').read_text()}```\nDone."
            if fence != "(no code)" else "I cannot solve this.")
    namespace: dict = {}
    exec(example.replace('model_text = "', 'model_text = MODEL_TEXT  # "', 1),
         {"MODEL_TEXT": text, **namespace}, namespace)
    evaluated = api.evaluate([{"problem_id": "2020A", "completion": text}], jobs=1)
    assert namespace["verdict"] == evaluated.samples[0]["verdict"]
    assert namespace["verdict"] == {"```python": "AC", "```": "UNGRADABLE",
                                    "(no code)": "NO_CODE"}[fence]
