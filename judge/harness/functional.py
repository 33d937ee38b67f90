"""LeetCode-style (functional) problems as ordinary stdin/stdout programs, graded as
LiveCodeBench grades them.

LiveCodeBench's ``grade_call_based`` (lcb_runner/evaluation/testing_util.py) puts its import
prelude before the code, executes it as a fresh module named ``tmp_sol`` (so an
``if __name__ == "__main__":`` block does not run), instantiates ``Solution`` when the code
contains the text ``class Solution`` (else uses the module itself), reads each argument as
``json.loads`` of one line of the test input (``input.split("\\n")``), calls
``<func_name>(*args)``, turns a returned tuple (only the outermost) into a list, and compares it
with ``json.loads(expected)`` by Python ``==``.

Here the same steps run inside the sandbox: ``wrap_source`` returns a driver program holding the
submission as a string. The driver reads the arguments from stdin before the submission runs,
executes and calls it with ``sys.stdout`` sent to /dev/null, and prints the returned value in a
typed JSON encoding (tuples, dicts with any keys, sets, big integers, NaN kept apart) as its last
line. The ``lcb-functional`` checker decodes that line back into Python values and compares with
``==`` on the judge's side, so ``[(1, 2)] != [[1, 2]]`` and ``{1: 2} != {"1": 2}`` exactly as in
LiveCodeBench, while the expected answer never enters the sandbox.

One deliberate difference: a returned object of a class the submission defines (or any type
outside the builtin values) never equals an answer. LiveCodeBench would call that object's own
``__eq__``, which lets the graded code decide its own verdict.
"""
from __future__ import annotations

import json

from judge import JudgeError
from judge.languages import LANGUAGES
from judge.problems.model import Problem

HARNESS_VERSION = "2"
FUNCTIONAL_CHECKER = "lcb-functional"
# The languages LiveCodeBench's functional harness wraps: the competitive ones that run under the
# Python policy (CPython and PyPy).
PYTHON_LANGUAGES = tuple(name for name, language in LANGUAGES.items()
                         if language.policy.name == "python" and not language.compatible_only)

# LiveCodeBench's `import_string`, which it puts before every functional submission.
PRELUDE = (
    "from string import *\nfrom re import *\nfrom datetime import *\nfrom collections import *\n"
    "from heapq import *\nfrom bisect import *\nfrom copy import *\nfrom math import *\n"
    "from random import *\nfrom statistics import *\nfrom itertools import *\n"
    "from functools import *\nfrom operator import *\nfrom io import *\nfrom sys import *\n"
    "from json import *\nfrom builtins import *\nfrom typing import *\nimport string\nimport re\n"
    "import datetime\nimport collections\nimport heapq\nimport bisect\nimport copy\nimport math\n"
    "import random\nimport statistics\nimport itertools\nimport functools\nimport operator\n"
    "import io\nimport sys\nimport json\nsys.setrecursionlimit(50000)\n"
)

# Integers longer than this many bits travel as hex: Python refuses to print or parse decimal
# integers of more than 4300 digits, and LiveCodeBench's `==` has no such limit.
_BIG_INT_BITS = 4000

DRIVER = '''\
# judge functional harness v{version}: runs the submission as LiveCodeBench's grade_call_based
import json as _json
import os as _os
import sys as _sys
import types as _types

_SUBMISSION = {submission!r}
_FUNC = {func!r}


def _encode(value):
    if value is None or isinstance(value, bool):
        return None if value is None else bool(value)
    if isinstance(value, int):
        value = int(value)
        return {{"int": format(value, "x")}} if value.bit_length() > {big_int_bits} else value
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, list):
        return [_encode(item) for item in value]
    if isinstance(value, tuple):
        return {{"tuple": [_encode(item) for item in value]}}
    if isinstance(value, dict):
        return {{"dict": [[_encode(k), _encode(v)] for k, v in value.items()]}}
    if isinstance(value, frozenset):
        return {{"frozenset": [_encode(item) for item in value]}}
    if isinstance(value, set):
        return {{"set": [_encode(item) for item in value]}}
    if isinstance(value, complex):
        return {{"complex": [value.real, value.imag]}}
    if isinstance(value, (bytes, bytearray)):
        return {{"bytes": bytes(value).hex()}}
    if type(value).__module__ == "numpy" and getattr(value, "shape", None) == ():
        return _encode(value.item())
    try:
        shown = repr(value)[:200]
    except Exception:
        shown = "?"
    return {{"opaque": type(value).__qualname__, "repr": shown}}


def _main():
    args = [_json.loads(line) for line in _sys.stdin.read().split("\\n")]
    answer_stream = _sys.stdout
    _sys.stdout = open(_os.devnull, "w")
    module = _types.ModuleType("tmp_sol", "")
    exec(_SUBMISSION, module.__dict__)
    solution = module.Solution() if "class Solution" in _SUBMISSION else module
    result = getattr(solution, _FUNC)(*args)
    if isinstance(result, tuple):
        result = list(result)
    encoded = _json.dumps(_encode(result))
    answer_stream.write("\\n" + encoded + "\\n")
    answer_stream.flush()


_main()
'''


def is_functional(problem: Problem) -> bool:
    return problem.checker == FUNCTIONAL_CHECKER or problem.metadata.get("testtype") == "functional"


def function_name(problem: Problem, language: str) -> str:
    """The function a submission in `language` must define for functional `problem`. Raises
    JudgeError when the submission cannot be graded: the harness only drives Python."""
    if language not in PYTHON_LANGUAGES:
        raise JudgeError(f"{problem.id} is a functional (LeetCode-style) problem: only Python "
                         f"submissions can be graded, not {language}")
    func = problem.metadata.get("func_name")
    if not func or not isinstance(func, str) or not func.isidentifier():
        raise JudgeError(f"{problem.id}: functional problem without a valid func_name")
    return func


def functional_program(code: str, problem: Problem, language: str) -> str:
    """The driver holding ``code`` for functional ``problem``."""
    func = function_name(problem, language)
    return DRIVER.format(version=HARNESS_VERSION, submission=PRELUDE + "\n\n" + code,
                         func=func, big_int_bits=_BIG_INT_BITS)


def check_tests(problem: Problem) -> None:
    """Raises JudgeError when a functional test is not what the driver reads: every input line a
    JSON value, the output one JSON value. Bad test data is the dataset's failure, never a
    failed sample."""
    for index, test in enumerate(problem.tests, start=1):
        try:
            for line in test.input.decode("utf-8").split("\n"):
                json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise JudgeError(f"{problem.id} test {index}: an input line is not a JSON value "
                             f"({exc})") from None
        try:
            load_answer(test.output.decode("utf-8"))
        except ValueError as exc:
            raise JudgeError(f"{problem.id} test {index}: the expected output is not a JSON "
                             f"value ({exc})") from None


# ----------------------------------------------------------------------------- decoding
#
# Everything below runs in the judge's own process on bytes a submission chose (it can write to
# fd 1 itself and end before the driver does), so every function here gives a value or raises
# ValueError, whatever the text: never another exception, never a parse that grows without
# bound.

# LiveCodeBench's evaluation raises Python's integer-string limit to 50000 digits
# (`sys.set_int_max_str_digits(50000)` in compute_code_generation_metrics), so its
# `json.loads(expected)` reads integers up to that many digits. The judge reads them the same
# way without touching the process-wide limit (other threads parse at the same time).
LCB_INT_DIGITS = 50_000
_SAFE_INT_DIGITS = 4_000        # below CPython's default limit of 4300


def _digits_to_int(digits: str) -> int:
    if len(digits) <= _SAFE_INT_DIGITS:
        return int(digits)
    low = len(digits) // 2
    return _digits_to_int(digits[:-low]) * 10 ** low + _digits_to_int(digits[-low:])


def _lcb_int(text: str) -> int:
    """A JSON integer literal (json's grammar: -?(0|[1-9][0-9]*)) as LiveCodeBench reads it."""
    negative = text.startswith("-")
    digits = text[1:] if negative else text
    if len(digits) > LCB_INT_DIGITS:
        raise ValueError(f"an integer of {len(digits)} digits: past LiveCodeBench's limit of "
                         f"{LCB_INT_DIGITS}")
    value = _digits_to_int(digits)
    return -value if negative else value


def _json(text: str, **hooks):
    try:
        return json.loads(text, parse_int=_lcb_int, **hooks)
    except (TypeError, RecursionError, AttributeError, OverflowError) as exc:
        raise ValueError(str(exc) or type(exc).__name__) from None


def load_answer(text: str):
    """The expected value of a functional test, read as LiveCodeBench's `json.loads(expected)`
    reads it. Raises ValueError for text that is not one JSON value."""
    return _json(text)


class Opaque:
    """A returned value of a type outside the builtin values: equal to nothing."""

    def __init__(self, type_name: str, shown: str) -> None:
        self.type_name = type_name
        self.shown = shown

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"<{self.type_name} {self.shown}>"


def _items(value, tag: str) -> list:
    if not isinstance(value, list):
        raise ValueError(f"a {tag} that is not a list")
    return value


def _decode_tagged(obj: dict):
    """One object of the driver's encoding; anything the driver does not write is ValueError."""
    if len(obj) == 2 and isinstance(obj.get("opaque"), str) and isinstance(obj.get("repr"), str):
        return Opaque(obj["opaque"], obj["repr"])
    if len(obj) != 1:
        raise ValueError("an object that is no tagged value")
    (tag, value), = obj.items()
    try:
        if tag == "tuple":
            return tuple(_items(value, tag))
        if tag == "dict":
            pairs = _items(value, tag)
            if not all(isinstance(pair, list) and len(pair) == 2 for pair in pairs):
                raise ValueError("a dict item that is not a [key, value] pair")
            return {key: item for key, item in pairs}
        if tag == "set":
            return set(_items(value, tag))
        if tag == "frozenset":
            return frozenset(_items(value, tag))
        if tag == "int":
            if not isinstance(value, str):
                raise ValueError("a big integer that is not a hex string")
            return int(value, 16)     # base 16: no integer-string limit, linear in the length
        if tag == "complex":
            parts = _items(value, tag)
            if len(parts) != 2 or not all(type(part) is float for part in parts):
                raise ValueError("a complex number that is not two floats")
            return complex(*parts)
        if tag == "bytes":
            if not isinstance(value, str):
                raise ValueError("bytes that are not a hex string")
            return bytes.fromhex(value)
    except TypeError as exc:          # an unhashable set member or dict key
        raise ValueError(str(exc)) from None
    raise ValueError(f"unknown tag {_short_repr(tag)}")


def _short_repr(text: str) -> str:
    shown = repr(text)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def decode_result(output: str, max_chars: int | None = None):
    """The value the driver printed as the last line of `output`. Raises ValueError for output
    the driver did not write (the submission can write to fd 1 itself), and for a last line
    longer than `max_chars`, which is not parsed at all."""
    lines = [line for line in output.split("\n") if line.strip()]
    if not lines:
        raise ValueError("no output")
    last = lines[-1]
    if max_chars is not None and len(last) > max_chars:
        raise ValueError(f"a returned value of {len(last)} characters, past {max_chars}")
    return _json(last, object_hook=_decode_tagged)


def show(value) -> str:
    """A short readable form of a value for a checker message; never raises."""
    try:
        text = repr(value)
    except RecursionError:
        text = "<too deeply nested>"
    except ValueError:                # an int past the integer-string limit, somewhere inside
        text = (f"<an integer of {value.bit_length()} bits>" if isinstance(value, int)
                else f"<a {type(value).__name__} holding an integer too long to print>")
    return text if len(text) <= 80 else text[:40] + "..." + text[-40:]


__all__ = ["functional_program", "is_functional", "function_name", "check_tests",
           "decode_result", "load_answer", "show", "Opaque", "LCB_INT_DIGITS", "PRELUDE",
           "HARNESS_VERSION", "FUNCTIONAL_CHECKER"]
