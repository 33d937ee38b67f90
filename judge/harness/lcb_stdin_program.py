# judge LiveCodeBench stdin harness: runs a submission as lcb_runner/evaluation/testing_util.py's
# grade_stdio does, one test per process. This file is the program the sandbox runs; the judge
# appends the call `_grade(<submission>, <prelude>)`. Each step names the LiveCodeBench function
# it follows; the state of LiveCodeBench's worker process is rebuilt first (see _worker_state).
import ast
import builtins
import os
import sys
import traceback
from io import StringIO
from types import ModuleType
from unittest.mock import mock_open, patch

# reliability_guard() sets these to None before any submission runs.
_DISABLED_OS = ("kill", "system", "putenv", "remove", "removedirs", "rmdir", "fchdir", "setuid",
                "fork", "forkpty", "killpg", "rename", "renames", "truncate", "replace", "unlink",
                "fchmod", "fchown", "chmod", "chown", "chroot", "lchflags", "lchmod", "lchown",
                "getcwd", "chdir")
_BLOCKED_MODULES = ("ipdb", "joblib", "resource", "psutil", "tkinter")


def _worker_state():
    """The process state LiveCodeBench's check_correctness worker has when the code runs: the
    test input only through its mocks (the worker's own stdin is empty), the real stdout not the
    captured one, long int strings allowed, and reliability_guard's disabled functions."""
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)          # a multiprocessing worker's stdin: nothing to read
    os.dup2(devnull, 1)          # what reaches the real stdout is not the captured output
    os.close(devnull)
    sys.stdin = open(os.devnull)
    sys.stdout = open(1, "w", closefd=False)
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(50000)    # compute_code_generation_metrics sets it at import
    os.environ["OMP_NUM_THREADS"] = "1"
    builtins.quit = None
    builtins.help = None
    for name in _DISABLED_OS:
        if hasattr(os, name):
            setattr(os, name, None)
    import shutil
    import subprocess
    shutil.rmtree = shutil.move = shutil.chown = None
    subprocess.Popen = None
    for name in _BLOCKED_MODULES:
        sys.modules[name] = None


def _clean_if_name(code):
    """clean_if_name: a final `if __name__ == '__main__':` block is replaced by its body."""
    try:
        tree = ast.parse(code)
        last = tree.body[-1]
        if isinstance(last, ast.If) and ast.unparse(last.test).strip() == "__name__ == '__main__'":
            code = ast.unparse(tree.body[:-1]) + "\n" + ast.unparse(last.body)
    except BaseException:
        pass
    return code


def _make_function(code, prelude):
    """make_function: top-level imports stay at module level after the prelude, every other
    statement becomes the body of `wrapped_function()`; code that does not parse is left as is
    (without the prelude)."""
    try:
        imports, body = [], []
        for statement in ast.parse(code).body:
            (imports if isinstance(statement, (ast.Import, ast.ImportFrom)) else body).append(
                statement)
        function = ast.FunctionDef(
            name="wrapped_function",
            args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[],
                               defaults=[]),
            body=body, decorator_list=[], lineno=-1)
        return prelude + "\n" + ast.unparse(imports) + "\n" + ast.unparse(function)
    except Exception:
        return code


def _compile_code(code):
    """compile_code: executed as module `tmp_sol`; `Solution()` when the text holds
    'class Solution', else the module."""
    module = ModuleType("tmp_sol", "")
    exec(code, module.__dict__)
    solution = module.Solution() if "class Solution" in code else module
    assert solution is not None
    return solution


class _Capturing(list):
    """Capturing: sys.stdout is a StringIO whose close() does nothing while the code runs."""

    def __enter__(self):
        self._stdout = sys.stdout
        sys.stdout = self._stringio = StringIO()
        self._stringio.close = lambda x: 1
        return self

    def __exit__(self, *args):
        self.append(self._stringio.getvalue())
        del self._stringio
        sys.stdout = self._stdout


class _Buffer:
    """MockBuffer: read() gives every byte each time; readline() always the first line."""

    def __init__(self, inputs):
        self.inputs = inputs.encode("utf-8")

    def read(self, *args):
        return self.inputs

    def readline(self, *args):
        return self.inputs.split(b"\n")[0] + b"\n"


class _Stdin:
    """MockStdinWithBuffer: read() and readlines() give the whole input each time, readline()
    consumes it, anything else (but the dunder methods: no iteration) is a StringIO's."""

    def __init__(self, inputs):
        self.inputs = inputs
        self._stringio = StringIO(inputs)
        self.buffer = _Buffer(inputs)

    def read(self, *args):
        return self.inputs

    def readline(self, *args):
        return self._stringio.readline(*args)

    def readlines(self, *args):
        return self.inputs.split("\n")

    def __getattr__(self, name):
        return getattr(self._stringio, name)


def _call_method(method, inputs):
    """call_method: the patches in LiveCodeBench's order (mock applies stacked decorators from
    the innermost out, so read/readline/readlines land on the worker's own stdin object before
    sys.stdin is swapped); SystemExit ends the call as a return."""
    lines = iter(inputs.split("\n"))

    @patch("builtins.open", mock_open(read_data=inputs))
    @patch("sys.stdin", _Stdin(inputs))
    @patch("sys.stdin.readline", lambda *args: next(lines))
    @patch("sys.stdin.readlines", lambda *args: inputs.split("\n"))
    @patch("sys.stdin.read", lambda *args: inputs)
    def inner(method):
        try:
            return method()
        except SystemExit:
            pass

    return inner(method)


def _fail(message):
    sys.stderr.write(message)
    sys.stderr.flush()
    os._exit(1)


def _preload_numpy(submission):
    """testing_util imports numpy before reliability_guard, so a solution's `import numpy` finds
    it loaded (numpy could not load afterwards: it calls functions the guard disabled). Loaded
    here only for code that names it, which spares every other run the import's time."""
    if "numpy" in submission:
        try:
            import numpy  # noqa: F401
        except ImportError:
            pass


def _grade(submission, prelude):
    inputs = sys.stdin.buffer.read().decode("utf-8")
    answer = os.fdopen(os.dup(1), "w")
    _preload_numpy(submission)
    _worker_state()
    code = _make_function(_clean_if_name(submission), prelude)
    try:
        method = getattr(_compile_code(code), "wrapped_function", None)
    except Exception:
        _fail(traceback.format_exc())
    if method is None:
        _fail("the harness found no wrapped_function (LiveCodeBench: 'Error during testing')\n")
    with _Capturing() as captured:
        try:
            _call_method(method, inputs)
        except Exception:
            failure = traceback.format_exc()
        else:
            failure = None
    if failure is not None:
        _fail(failure)
    answer.write(captured[0])
    answer.flush()
    os._exit(0)
