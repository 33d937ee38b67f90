"""LiveCodeBench stdin fixtures: programs whose verdict under LiveCodeBench's own harness
(lcb_runner/evaluation/testing_util.py, run_test through compute_code_generation_metrics'
check_correctness, timeout 6) was recorded by running that harness on them; `passes` is what it
answered. Each case names the function of testing_util.py whose behaviour it pins down.

The input of every case is INPUT and the expected output EXPECTED unless the case says
otherwise."""
from __future__ import annotations

from typing import NamedTuple

INPUT = "3\n1 2 3\n"
EXPECTED = "6\n"


class Case(NamedTuple):
    name: str
    follows: str          # the function of testing_util.py the behaviour comes from
    code: str
    passes: bool          # LiveCodeBench's answer: every test True
    input: str = INPUT
    expected: str = EXPECTED


CASES = [
    Case("plain", "grade_stdio", "n = int(input())\nprint(sum(map(int, input().split())))\n",
         True),
    Case("prelude gives accumulate", "make_function (import_string)",
         "input()\nprint(list(accumulate(map(int, input().split())))[-1])\n", True),
    Case("a top-level variable is a local of the wrapper", "make_function",
         "total = 0\ndef add(x):\n    global total\n    total += x\ninput()\n"
         "for v in input().split():\n    add(int(v))\nprint(total)\n", False),
    Case("recursion past 1000", "make_function (sys.setrecursionlimit(50000))",
         "def depth(k):\n    return 0 if k == 0 else 1 + depth(k - 1)\ndepth(20000)\n"
         "input()\nprint(sum(map(int, input().split())))\n", True),
    Case("numpy is importable", "testing_util's own `import numpy`",
         "import numpy as np\ninput()\nprint(int(np.array(input().split(), dtype=int).sum()))\n",
         True),
    Case("a module the environment lacks", "compile_code",
         "import sortedcontainers\nprint(6)\n", False),
    Case("open(0) reads the worker's empty stdin", "call_method (the prelude binds open)",
         "data = open(0).read().split()\nprint(sum(map(int, data[1:])))\n", False),
    Case("sys.stdin.read", "MockStdinWithBuffer.read",
         "import sys\ndata = sys.stdin.read().split()\nprint(sum(map(int, data[1:])))\n", True),
    Case("sys.stdin.read does not consume", "MockStdinWithBuffer.read",
         "import sys\nsys.stdin.read()\nn = int(input())\nprint(n * 2)\n", True),
    Case("iterating sys.stdin", "MockStdinWithBuffer (no __iter__)",
         "import sys\nfor line in sys.stdin:\n    pass\nprint(6)\n", False),
    Case("sys.stdin.buffer.read", "MockBuffer.read",
         "import sys\ndata = sys.stdin.buffer.read().split()\nprint(sum(map(int, data[1:])))\n",
         True),
    Case("sys.stdin.buffer.readline repeats the first line", "MockBuffer.readline",
         "import sys\nsys.stdin.buffer.readline()\nprint(sum(map(int, "
         "sys.stdin.buffer.readline().split())))\n", False),
    Case("from sys import stdin: the patched readline", "call_method (patch order)",
         "from sys import stdin\nstdin.readline()\nprint(sum(map(int, stdin.readline().split())))\n",
         True),
    Case("readlines", "call_method (sys.stdin.readlines)",
         "import sys\nlines = sys.stdin.readlines()\nprint(sum(map(int, lines[1].split())))\n",
         True),
    Case("exit() keeps the output", "call_method (SystemExit)",
         "print(6)\nexit()\nprint(7)\n", True),
    Case("sys.exit(1) is no failure", "call_method (SystemExit)",
         "import sys\nprint(6)\nsys.exit(1)\n", True),
    Case("quit() is disabled", "reliability_guard (builtins.quit = None)",
         "print(6)\nquit()\n", False),
    Case("os.getcwd() is disabled", "reliability_guard", "import os\nos.getcwd()\nprint(6)\n",
         False),
    Case("a final if __name__ block runs", "clean_if_name",
         "def main():\n    input()\n    print(sum(map(int, input().split())))\n"
         "if __name__ == '__main__':\n    main()\n", True),
    Case("an if __name__ block that is not last never runs", "clean_if_name",
         "def main():\n    input()\n    print(sum(map(int, input().split())))\n"
         "if __name__ == '__main__':\n    main()\nx = 1\n", False),
    Case("stdout.buffer does not exist", "Capturing (a StringIO)",
         "import sys\nsys.stdout.buffer.write(b'6\\n')\n", False),
    Case("writing to fd 1 is not captured", "Capturing",
         "import os\nos.write(1, b'6\\n')\n", False),
    Case("the prelude's stdout is the worker's real one", "make_function (from sys import *)",
         "stdout.write('6\\n')\n", False),
    Case("sys.stdout.write", "Capturing", "import sys\nsys.stdout.write('6\\n')\n", True),
    Case("a syntax error", "make_function / compile_code", "print(6\n", False),
    Case("class Solution in stdin code", "compile_code ('class Solution' in the text)",
         "class Solution:\n    pass\nprint(6)\n", False),
    Case("__file__ is not defined", "compile_code (module tmp_sol)", "print(__file__ and 6)\n",
         False),
    Case("integers past 4300 digits print", "compute_code_generation_metrics "
         "(sys.set_int_max_str_digits(50000))", "print(len(str(10 ** 5000)))\n", True,
         expected="5001\n"),
    Case("numbers compare as decimals", "grade_stdio (convert_line_to_decimals)",
         "print('6.000')\n", True),
    Case("lines are stripped", "grade_stdio (get_stripped_lines)", "print('  6  ')\nprint()\n",
         True),
    Case("a missing line", "grade_stdio (mismatched output length)", "print(6)\n", False,
         expected="6\n7\n"),
    Case("input() past the end", "call_method (StringIO readline)",
         "while True:\n    input()\n", False),
    Case("sleeping past 6 s", "grade_stdio (signal.alarm(timeout))",
         "import time\ntime.sleep(8)\nprint(6)\n", False),
]
