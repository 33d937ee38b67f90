"""One dataset row as a Problem, whatever schema it is in: the row of a training set as an RL
trainer holds it (TRL passes every column to its reward functions; verl a row's ground truth),
so a reward needs no loader of its own. Each schema is read by its own loader's conversion; this
module only tells them apart, and reads the plain test shapes SandboxFusion-style clients send
(`test`: `[{input: {stdin}, output: {stdout}}]`, or `inputs` and `outputs`, also inside an
`input_output` JSON string as APPS-style rows carry them)."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from judge import JudgeError
from judge.problems import codecontests, livecodebench, stepfun
from judge.problems.model import Problem, TestCase

# A plain row's limits and checker when it names none: SandboxFusion's `/submit` defaults
# (docs/serve.md), since such rows are written for SandboxFusion-style graders.
PLAIN_TIME_LIMIT_MS = 10_000
PLAIN_MEMORY_LIMIT_MB = 1024
PLAIN_CHECKER = "sandboxfusion"


def _text(value: Any, what: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    raise JudgeError(f"{what} must be a string, got {type(value).__name__}")


def _json(value: Any, what: str) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        raise JudgeError(f"{what} is a string that is not JSON") from None


def io_tests(data: Mapping[str, Any]) -> tuple[TestCase, ...]:
    """The tests of a plain row (or of SandboxFusion's provided_data), in any of the shapes
    clients send: `test`/`tests`, or `inputs` and `outputs` (possibly inside `input_output`)."""
    if "test" in data or "tests" in data:
        raw = _json(data.get("test", data.get("tests")), "test")
        if not isinstance(raw, list):
            raise JudgeError("test must be a list of {input: {stdin}, output: {stdout}}")
        tests = []
        for number, case in enumerate(raw, start=1):
            if not isinstance(case, dict) or "input" not in case or "output" not in case:
                raise JudgeError(f"test[{number - 1}] has no input and output")
            given, wanted = case["input"], case["output"]
            if isinstance(given, dict):
                given = given.get("stdin", "")
            if isinstance(wanted, dict):
                wanted = wanted.get("stdout", "")
            tests.append(TestCase(_text(given, f"test {number}'s input").encode(),
                                  _text(wanted, f"test {number}'s output").encode()))
        return tuple(tests)
    pairs = _json(data.get("input_output", data), "input_output")
    if isinstance(pairs, dict) and "inputs" in pairs and "outputs" in pairs:
        if pairs.get("fn_name"):
            raise JudgeError("tests that call a function (fn_name) need their benchmark's harness: "
                             "give the benchmark's own row (e.g. LiveCodeBench's)")
        inputs, outputs = pairs["inputs"], pairs["outputs"]
        if not isinstance(inputs, list) or not isinstance(outputs, list) or len(inputs) != len(outputs):
            raise JudgeError("inputs and outputs must be lists of the same length")
        return tuple(TestCase(_text(i, "an input").encode(), _text(o, "an output").encode())
                     for i, o in zip(inputs, outputs, strict=True))
    raise JudgeError("no tests: give `test` ([{input: {stdin}, output: {stdout}}]) or `inputs` "
                     "and `outputs`")


def _number(row: Mapping[str, Any], keys: tuple[str, ...], scale: float, default: int) -> int:
    for key in keys:
        value = row.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
            return max(1, round(value * scale))
    return default


def plain_problem(row: Mapping[str, Any], index: int = 0) -> Problem:
    """A row that is only tests (and optionally `time_limit_ms` or `time_limit` in seconds,
    `memory_limit_mb` or `memory_limit` in MB, `checker`): its id is the row's `id` or
    `problem_id`, else a digest of its tests, so the same row is the same problem."""
    tests = io_tests(row)
    if not tests:
        raise JudgeError(f"row {index}: no tests")
    given_id = row.get("problem_id", row.get("id"))
    if given_id is None:
        digest = hashlib.sha256(b"".join(t.input + b"\0" + t.output + b"\0" for t in tests))
        given_id = digest.hexdigest()[:16]
    checker = row.get("checker") or PLAIN_CHECKER
    if not isinstance(checker, str):
        raise JudgeError(f"row {index}: checker must be a name or a testlib checker's source")
    return Problem(id=f"row/{given_id}", title="", statement="",
                   time_limit_ms=_number(row, ("time_limit_ms",), 1, 0)
                   or _number(row, ("time_limit",), 1000, PLAIN_TIME_LIMIT_MS),
                   memory_limit_mb=_number(row, ("memory_limit_mb", "memory_limit_MB",
                                                 "memory_limit"), 1, PLAIN_MEMORY_LIMIT_MB),
                   checker=checker, tests=tests)


def schema_of(row: Mapping[str, Any]) -> str:
    """Which loader reads the row: stepfun, codecontests, livecodebench or plain."""
    if "test_cases" in row and "problem_desc" in row:
        return "stepfun"
    if "public_test_cases" in row and "question_id" in row:
        return "livecodebench"
    if "description" in row and any(k in row for k in ("public_tests", "private_tests",
                                                        "generated_tests")):
        return "codecontests"
    return "plain"


def problem_from_row(row: Mapping[str, Any], index: int = 0) -> Problem:
    """The Problem of one dataset row of any supported schema (schema_of); JudgeError naming
    the row when it is none of them or is malformed."""
    if not isinstance(row, Mapping):
        raise JudgeError(f"row {index}: not a mapping but {type(row).__name__}")
    schema, values = schema_of(row), dict(row)
    if schema == "stepfun":
        return stepfun.row_to_problem(values, f"row {index}")
    if schema == "livecodebench":
        return livecodebench.problem_from_row(values, index)
    if schema == "codecontests":
        return codecontests.problem_from_row(values, index)
    return plain_problem(values, index)


__all__ = ["io_tests", "plain_problem", "problem_from_row", "schema_of"]
