"""LeetCode-style (functional) problems as ordinary stdin/stdout programs.

LiveCodeBench's functional tests give each argument as one JSON value per line of the input and
the expected return value as JSON. LiveCodeBench itself (``grade_call_based``) executes the
model's code in-process with a fixed import prelude, instantiates ``Solution`` when the code
defines ``class Solution`` (else calls the module-level function), calls
``<func_name>(*args)``, turns a returned tuple into a list, and compares with ``==``.

Here the same happens inside the sandbox: ``wrap_source`` returns the model's code with
LiveCodeBench's prelude before it and a driver after it. The driver reads the arguments from
stdin, calls the function with anything the model prints redirected away from stdout, and
prints the result as JSON; the ``lcb-functional`` comparator then compares JSON values. So the
program is graded by ``Grader.grade`` like any other, with the same limits and figures.
"""
from __future__ import annotations

from judge import JudgeError
from judge.problems.model import Problem

HARNESS_VERSION = "1"

# LiveCodeBench's lcb_runner/evaluation/testing_util.py `import_string`, then its recursion limit.
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

DRIVER = '''

# ---- judge functional harness v{version} (appended to the submission) ----
def __judge_functional_main():
    import io as _io
    import json as _json
    import sys as _sys
    _out = _sys.stdout
    _text = _sys.stdin.read()
    _args = [_json.loads(_line) for _line in _text.split("\\n") if _line.strip()]
    _g = globals()
    if "Solution" in _g and isinstance(_g["Solution"], type):
        _fn = getattr(_g["Solution"](), {func!r})
    else:
        _fn = _g[{func!r}]
    _sys.stdout = _io.StringIO()
    try:
        _res = _fn(*_args)
    finally:
        _sys.stdout = _out
    if isinstance(_res, tuple):
        _res = list(_res)
    try:
        _data = _json.dumps(_res)
    except (TypeError, ValueError):
        _data = _json.dumps(repr(_res))
    _out.write(_data + "\\n")
    _out.flush()


__judge_functional_main()
'''

PYTHON_LANGUAGES = ("python", "pypy3")


def is_functional(problem: Problem) -> bool:
    return problem.checker == "lcb-functional" or problem.metadata.get("testtype") == "functional"


def wrap_source(code: str, problem: Problem, language: str) -> str:
    """The program to grade for ``code`` on ``problem``: the code itself for stdin problems, the
    code inside the functional harness for LeetCode-style ones."""
    if not is_functional(problem):
        return code
    if language not in PYTHON_LANGUAGES:
        raise JudgeError(f"{problem.id} is a functional (LeetCode-style) problem: only Python "
                         f"submissions can be graded, not {language}")
    func = problem.metadata.get("func_name")
    if not func or not isinstance(func, str) or not func.isidentifier():
        raise JudgeError(f"{problem.id}: functional problem without a valid func_name")
    return PRELUDE + code.rstrip("\n") + "\n" + DRIVER.format(version=HARNESS_VERSION, func=func)


__all__ = ["wrap_source", "is_functional", "PRELUDE", "HARNESS_VERSION"]
