"""The judge's own testlib.h (judge/checkers/testlib/testlib.h) and how checkers are run.

CHECKERS are checkers in the styles real problems use. CASES give, for each checker and
(input, output, answer), the exit code and message real testlib (0.9.45) gives: they were
observed by building the same checkers against a testlib checkout, outside the project (CI
has no testlib), and each case runs here through the real CheckerRunner in the sandbox with
the judge's header. Then: the header builds without warnings, custom checkers need no
checkout, --testlib changes only what custom checkers build against, and a checker is built
once per problem.
"""
from __future__ import annotations

import concurrent.futures
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import next_slot, quiet_cpu, scaled
from judge.checkers.runner import JUDGE_TESTLIB, CheckerRunner
from judge.compiler import Compiler
from judge.grade import Grader
from judge.problems.model import Problem
from judge.problems.model import TestCase as Case
from judge.verdicts import CHECKER_EXIT_VERDICTS

CHECKERS = {
    # Real numbers with an absolute or relative error of 1e-6, the way geometry problems check.
    "float_error": r'''
#include "testlib.h"
#include <bits/stdc++.h>
using namespace std;

const double EPS = 1e-6;

int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    int n = inf.readInt();
    for (int i = 1; i <= n; i++) {
        double expected = ans.readDouble();
        double found = ouf.readDouble();
        if (!doubleCompare(expected, found, EPS))
            quitf(_wa, "%d%s numbers differ - expected: '%.7f', found: '%.7f', error = '%.7f'", i,
                  englishEnding(i).c_str(), expected, found, doubleDelta(expected, found));
    }
    quitf(_ok, "%d numbers", n);
}
''',
    # Any pair of distinct indices with a[i] + a[j] = s, or -1 when the jury has none.
    "pair_sum": r'''
#include "testlib.h"
#include <bits/stdc++.h>
using namespace std;

int n;
long long s;
vector<long long> a;

// Reads and validates one answer; returns whether it found a pair.
bool readAnswer(InStream &stream) {
    int i = stream.readInt(-1, n, "i");
    if (i == -1)
        return false;
    stream.ensuref(i >= 1, "index i must be -1 or in [1, %d], found %d", n, i);
    int j = stream.readInt(1, n, "j");
    if (i == j)
        stream.quitf(_wa, "indices must differ, both are %d", i);
    if (a[i - 1] + a[j - 1] != s)
        stream.quitf(_wa, "a[%d] + a[%d] = %lld, not %lld", i, j, a[i - 1] + a[j - 1], s);
    return true;
}

int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    n = inf.readInt();
    s = inf.readLong();
    a = inf.readLongs(n);
    bool jury = readAnswer(ans);
    bool participant = readAnswer(ouf);
    if (jury && !participant)
        quitf(_wa, "the jury has a pair, the participant has none");
    if (!jury && participant)
        quitf(_fail, "the participant found a pair, the jury did not");
    quitf(_ok, participant ? "a valid pair" : "no pair");
}
''',
    # Any permutation of 1..n with no fixed point (a derangement); -1 when there is none.
    "derangement": r'''
#include "testlib.h"
#include <bits/stdc++.h>
using namespace std;

int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    int n = inf.readInt();
    int jury = ans.readInt();
    if (jury == -1) {
        int first = ouf.readInt();
        if (first != -1)
            quitf(_wa, "expected -1, found %d", first);
        quitf(_ok, "no derangement of %d", n);
    }
    vector<int> p = ouf.readInts(n, 1, n, "p");
    vector<bool> seen(n + 1);
    for (int i = 0; i < n; i++) {
        if (seen[p[i]])
            quitf(_wa, "%d occurs twice", p[i]);
        seen[p[i]] = true;
        if (p[i] == i + 1)
            quitf(_wa, "p[%d] = %d is a fixed point", i + 1, p[i]);
    }
    quitf(_ok, "n = %d", n);
}
''',
    # Several test cases in one file, each answered YES or NO in any letter case.
    "yes_no_cases": r'''
#include "testlib.h"
#include <bits/stdc++.h>
using namespace std;

int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    int t = inf.readInt();
    for (int tc = 1; tc <= t; tc++) {
        setTestCase(tc);
        string expected = upperCase(ans.readToken());
        string found = upperCase(ouf.readToken("[yY][eE][sS]|[nN][oO]", "answer"));
        if (expected != found)
            quitf(_wa, "expected %s, found %s", expected.c_str(), found.c_str());
    }
    quitf(_ok, "%d answers", t);
}
''',
    # A line in a fixed shape: a name and a number; testlib ignores the pattern's unescaped spaces.
    "line_pattern": r'''
#include "testlib.h"
#include <bits/stdc++.h>
using namespace std;

int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    string expected = ans.readLine();
    string line = ouf.readLine("[A-Z][a-z]{0,9}\\ [0-9]+", "line");
    if (line != expected)
        quitf(_wa, "expected '%s', found '%s'", compress(expected).c_str(), compress(line).c_str());
    if (!ouf.seekEof())
        quitf(_pe, "more lines after the answer");
    quitf(_ok, "'%s'", line.c_str());
}
''',
    # Everything up to the end of the output, and an exact end: one number, then EOLN and EOF.
    "sum_to_eof": r'''
#include "testlib.h"
#include <bits/stdc++.h>
using namespace std;

int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    long long expected = 0;
    while (!inf.seekEof())
        expected += inf.readLong();
    long long found = ouf.readLong();
    ouf.readEoln();
    ouf.readEof();
    if (found != expected)
        quitf(_wa, "expected %lld, found %lld", expected, found);
    quitf(_ok, "sum %lld", found);
}
''',
    # A score for partly right answers: the share of the n values that are right.
    "partial_points": r'''
#include "testlib.h"
#include <bits/stdc++.h>
using namespace std;

int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    int n = inf.readInt();
    int right = 0;
    for (int i = 0; i < n; i++)
        if (ouf.readInt() == ans.readInt())
            right++;
    if (right == n)
        quitf(_ok, "all %d right", n);
    if (right == 0)
        quitf(_wa, "none right");
    quitp(double(right) / n, "%d of %d right", right, n);
}
''',
    # A checker with a path that forgets to quit.
    "forgets_to_quit": r'''
#include "testlib.h"
#include <bits/stdc++.h>
using namespace std;

int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    int expected = ans.readInt();
    int found = ouf.readInt();
    if (found == expected)
        quitf(_ok, "%d", found);
    if (found < expected)
        quitf(_wa, "%d is too small", found);
    return 0;
}
''',
}

# (checker, input, output, answer, testlib's exit code, testlib's message)
CASES = [
    ('float_error', '3\n', '1.0000001 2.5 -3\n', '1 2.5 -3\n',
     0, 'ok 3 numbers'),
    ('float_error', '2\n', '1000000.5 0.000002\n', '1000000 0.000001\n',
     0, 'ok 2 numbers'),
    ('float_error', '2\n', '1000000.5\n0.0000001\n', '1000000\n0\n',
     0, 'ok 2 numbers'),
    ('float_error', '1\n', '1.5\n', '1.5\n',
     0, 'ok 1 numbers'),
    ('float_error', '2\n', '1.5\n', '1.5 2\n',
     2, 'wrong output format Unexpected end of file - double expected'),
    ('float_error', '1\n', '1,5\n', '1.5\n',
     2, 'wrong output format Expected double, but "1,5" found'),
    ('float_error', '1\n', '1.5 7\n', '1.5\n',
     2, 'wrong output format Extra information in the output file'),
    ('float_error', '1\n', '1e\n', '1\n',
     0, 'ok 1 numbers'),
    ('float_error', '1\n', '1\n', 'one\n',
     3, 'FAIL Expected double, but "one" found (answer.txt)'),

    ('pair_sum', '4 7\n1 3 4 6\n', '2 3\n', '1 4\n',
     0, 'ok a valid pair'),
    ('pair_sum', '4 7\n1 3 4 6\n', '3 2\n', '1 4\n',
     0, 'ok a valid pair'),
    ('pair_sum', '4 7\n1 3 4 6\n', '2 2\n', '1 4\n',
     1, 'wrong answer indices must differ, both are 2'),
    ('pair_sum', '4 7\n1 3 4 6\n', '1 2\n', '1 4\n',
     1, 'wrong answer a[1] + a[2] = 4, not 7'),
    ('pair_sum', '4 7\n1 3 4 6\n', '5 1\n', '1 4\n',
     1, 'wrong answer Integer parameter [name=i] equals to 5, violates the range [-1, 4]'),
    ('pair_sum', '4 7\n1 3 4 6\n', '0 1\n', '1 4\n',
     1, 'wrong answer index i must be -1 or in [1, 4], found 0'),
    ('pair_sum', '4 7\n1 3 4 6\n', 'two four\n', '1 4\n',
     2, 'wrong output format Expected integer, but "two" found'),
    ('pair_sum', '4 7\n1 3 4 6\n', '-1\n', '1 4\n',
     1, 'wrong answer the jury has a pair, the participant has none'),
    ('pair_sum', '3 100\n1 2 3\n', '-1\n', '-1\n',
     0, 'ok no pair'),
    ('pair_sum', '3 5\n1 2 3\n', '2 3\n', '-1\n',
     3, 'FAIL the participant found a pair, the jury did not'),
    ('pair_sum', '4 7\n1 3 4 6\n', '2 3\n', '1 9\n',
     3, 'FAIL Integer parameter [name=j] equals to 9, violates the range [1, 4] (answer.txt)'),
    ('pair_sum', '4 7\n1 3 4 6\n', '2 3\n', 'x\n',
     3, 'FAIL Expected integer, but "x" found (answer.txt)'),
    ('pair_sum', '4 7\n1 3 4 6\n', '2\n', '1 4\n',
     2, 'wrong output format Unexpected end of file - int32 expected'),

    ('derangement', '4\n', '2 1 4 3\n', '2 3 4 1\n',
     0, 'ok n = 4'),
    ('derangement', '4\n', '2 1 3 4\n', '2 3 4 1\n',
     1, 'wrong answer p[3] = 3 is a fixed point'),
    ('derangement', '4\n', '2 2 4 1\n', '2 3 4 1\n',
     1, 'wrong answer 2 occurs twice'),
    ('derangement', '4\n', '2 1 5 3\n', '2 3 4 1\n',
     1, 'wrong answer Integer element p[3] equals to 5, violates the range [1, 4]'),
    ('derangement', '4\n', '2 1 4\n', '2 3 4 1\n',
     2, 'wrong output format Unexpected end of file - int32 expected'),
    ('derangement', '4\n', '2 1 4 3.0\n', '2 3 4 1\n',
     2, 'wrong output format Expected integer, but "3.0" found'),
    ('derangement', '1\n', '-1\n', '-1\n',
     0, 'ok no derangement of 1'),
    ('derangement', '1\n', '1\n', '-1\n',
     1, 'wrong answer expected -1, found 1'),
    ('derangement', '4\n', '2 1 4 3\n\n\n', '2 3 4 1\n',
     0, 'ok n = 4'),
    ('derangement', '4\n', '2 1 4 3 1\n', '2 3 4 1\n',
     2, 'wrong output format Extra information in the output file'),

    ('yes_no_cases', '3\n', 'YES\nno\nYes\n', 'YES NO YES\n',
     0, 'ok 3 answers (3 test cases)'),
    ('yes_no_cases', '3\n', 'YES\nYES\nYES\n', 'YES NO YES\n',
     1, 'wrong answer expected NO, found YES (test case 2)'),
    ('yes_no_cases', '3\n', 'YES\nNO\nmaybe\n', 'YES NO YES\n',
     1, 'wrong answer Token parameter [name=answer] equals to "maybe", doesn\'t correspond to pattern "[yY][eE][sS]|[nN][oO]" (test case 3)'),
    ('yes_no_cases', '3\n', 'YES\nNO\n', 'YES NO YES\n',
     2, 'wrong output format Unexpected end of file - token expected (test case 3)'),
    ('yes_no_cases', '1\n', 'YES\n', 'YES\n',
     0, 'ok 1 answers (1 test case)'),
    ('yes_no_cases', '2\n', 'YES NO\n', 'YES\n',
     3, 'FAIL Unexpected end of file - token expected (test case 2, answer.txt)'),

    ('line_pattern', '', 'Alice 42\n', 'Alice 42\n',
     0, "ok 'Alice 42'"),
    ('line_pattern', '', 'Alice 42\r\n', 'Alice 42\n',
     0, "ok 'Alice 42'"),
    ('line_pattern', '', 'Alice  42\n', 'Alice 42\n',
     1, 'wrong answer Line [name=line] equals to "Alice  42", doesn\'t correspond to pattern "[A-Z][a-z]{0,9}\\ [0-9]+"'),
    ('line_pattern', '', 'alice 42\n', 'alice 42\n',
     1, 'wrong answer Line [name=line] equals to "alice 42", doesn\'t correspond to pattern "[A-Z][a-z]{0,9}\\ [0-9]+"'),
    ('line_pattern', '', 'Bob 42\n', 'Alice 42\n',
     1, "wrong answer expected 'Alice 42', found 'Bob 42'"),
    ('line_pattern', '', 'Alice 42\nBob 7\n', 'Alice 42\n',
     2, 'wrong output format more lines after the answer'),
    ('line_pattern', '', '', 'Alice 42\n',
     1, 'wrong answer Line [name=line] equals to "", doesn\'t correspond to pattern "[A-Z][a-z]{0,9}\\ [0-9]+"'),

    ('sum_to_eof', '1 2\n3\n', '6\n', '6\n',
     0, 'ok sum 6'),
    ('sum_to_eof', '1 2\n3\n', '6', '6\n',
     0, 'ok sum 6'),
    ('sum_to_eof', '1 2\n3\n', '6\n\n', '6\n',
     2, 'wrong output format Expected EOF'),
    ('sum_to_eof', '1 2\n3\n', '6 \n', '6\n',
     2, 'wrong output format Expected EOLN'),
    ('sum_to_eof', '1 2\n3\n', '7\n', '6\n',
     1, 'wrong answer expected 6, found 7'),
    ('sum_to_eof', '1 2\n3\n', '', '6\n',
     2, 'wrong output format Unexpected end of file - int64 expected'),
    ('sum_to_eof', '1 2 x\n', '6\n', '6\n',
     3, 'FAIL Expected integer, but "x" found (input.txt)'),

    ('partial_points', '4\n', '1 2 3 4\n', '1 2 3 4\n',
     0, 'ok all 4 right'),
    ('partial_points', '4\n', '1 2 0 0\n', '1 2 3 4\n',
     7, 'points 0.5 2 of 4 right'),
    ('partial_points', '3\n', '1 0 0\n', '1 2 3\n',
     7, 'points 0.3333333333 1 of 3 right'),
    ('partial_points', '4\n', '0 0 0 0\n', '1 2 3 4\n',
     1, 'wrong answer none right'),
    ('partial_points', '4\n', '1 2 0 0 9\n', '1 2 3 4\n',
     2, 'wrong output format Extra information in the output file'),

    ('forgets_to_quit', '', '5\n', '5\n',
     0, 'ok 5'),
    ('forgets_to_quit', '', '4\n', '5\n',
     1, 'wrong answer 4 is too small'),
    ('forgets_to_quit', '', '6\n', '5\n',
     3, 'FAIL Checker must end with quit or quitf call.'),
]


@pytest.fixture(scope="module")
def runner(require_sandbox):
    compiler = Compiler(slot=next_slot())
    checkers = CheckerRunner(compiler, slot=next_slot())
    yield checkers
    checkers.close()
    compiler.close()


@pytest.mark.parametrize("name, input, output, answer, exit_code, message", CASES,
                         ids=[f"{case[0]}-{i}" for i, case in enumerate(CASES)])
def test_checker_gives_testlibs_exit_code_and_message(runner, name, input, output, answer,
                                                      exit_code, message):
    result = runner.check(CHECKERS[name], input.encode(), output.encode(), answer.encode())
    assert (result.exit_code, result.message) == (exit_code, message)
    assert result.verdict == CHECKER_EXIT_VERDICTS[exit_code]
    if result.verdict == "POINTS":
        assert result.points == float(message.split()[1])


# Every call of the interface at least once, for the warnings test.
API_USE = r'''
#include "testlib.h"
#include <bits/stdc++.h>
using namespace std;

static int sumOf(InStream &stream, int n) {
    int sum = 0;
    for (int v : stream.readInts(n, 1, 100, "a"))
        sum += v;
    return sum;
}

int main(int argc, char *argv[]) {
    setName("every call, %d", 1);
    registerTestlibCmd(argc, argv);
    int n = inf.readInt(1, 10, "n");
    long long big = inf.readLong(-(1LL << 62), 1LL << 62, "big");
    unsigned long long u = inf.readUnsignedLong(0ULL, 5ULL, "u") + inf.readUnsignedLong();
    double d = inf.readDouble(-1e9, 1e9, "d") + inf.readReal() + inf.readStrictDouble(0, 10, 1, 3, "sd");
    string token = inf.readToken("[a-z]{1,10}", "token") + inf.readWord() + inf.readWord(pattern("x|y"));
    inf.readEoln();
    string line = inf.readLine("[A-Z\\ ]+") + inf.readString();
    vector<long long> longs = inf.readLongs(2, 0LL, 100LL, "ls");
    vector<double> doubles = inf.readDoubles(2);
    vector<string> words = inf.readTokens(2, "[a-z]+", "w");
    vector<string> lines = inf.readLines(1);
    char c = inf.readChar();
    inf.readSpace();
    inf.skipBlanks();
    if (inf.seekEoln() && inf.eoln() && inf.curChar() != ' ' && !inf.eof() && inf.seekEof())
        inf.readEof();
    ensure(n > 0);
    ensuref(big >= -(1LL << 62), "big = %lld", big);
    ouf.ensure(u < 10);
    ouf.ensuref(d < 1e10, "d = %f", d);
    setTestCase(1);
    unsetTestCase();
    bool close = doubleCompare(1.0, 1.0 + 1e-9, 1e-6) && doubleDelta(1.0, 1.5) > 0;
    string text = format("%d %s", n, token.c_str()) + vtos(big) + toString(u) + englishEnding(n) +
                  upperCase(line) + lowerCase(line) + trim("  x ") + compress(line) + join(words) +
                  join(longs.begin(), longs.end(), ',') + lines[0];
    vector<string> parts = split(text, ' ');
    vector<string> pieces = tokenize(text, " ,");
    quitif(!close, _wa, "%zu %zu %c %zu", parts.size(), pieces.size(), c, doubles.size());
    int total = sumOf(ouf, 1);
    ouf.quitif(total < 0, _wa, "negative %d", total);
    if (total == 2)
        expectedButFound(_wa, 1, total, "sum of %d", n);
    if (total == 3)
        expectedButFound(_wa, string("a"), string("b"));
    if (total == 4)
        quitp(0.5, "half of %d", total);
    if (total == 5)
        quitp(1);
    if (total == 6)
        quitpi("info");
    if (total == 7)
        ans.quitf(_fail, "%d", total);
    quitf(_ok, "%d", total);
}
'''


def _syntax_check(source: str, standard: str) -> str | None:
    proc = subprocess.run(["g++", f"-std={standard}", "-fsyntax-only", "-Wall", "-Wextra",
                           "-Wpedantic", "-Wshadow", "-Wconversion", "-Werror",
                           "-I", str(JUDGE_TESTLIB), "-x", "c++", "-"],
                          input=source, capture_output=True, text=True)
    return proc.stderr if proc.returncode else None


@pytest.mark.slow
def test_header_builds_without_warnings():
    """-Wall -Wextra and more as errors: the whole interface in C++17 (the judge's) and C++20
    (where std::format must not take format()'s calls), and every fixture checker."""
    jobs = [(API_USE, "c++17"), (API_USE, "c++20")] + [(s, "c++17") for s in CHECKERS.values()]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        errors = [e for e in pool.map(lambda job: _syntax_check(*job), jobs) if e]
    assert not errors, errors[0]


PAIR_SUM_SOLUTION = '''
n, s = map(int, input().split())
a = list(map(int, input().split()))
seen = {}
for j, x in enumerate(a, 1):
    if s - x in seen:
        print(seen[s - x], j)
        break
    seen.setdefault(x, j)
else:
    print(-1)
'''


def test_stepfun_problem_with_a_custom_checker_needs_no_testlib_checkout(require_sandbox, tmp_path):
    """A CF-Div2-Stepfun row whose checker includes testlib.h, graded by `judge run` with no
    JUDGE_TESTLIB: the checker builds against the judge's header and judges."""
    row = {"id": 1, "problem_id": "codeforces/1999Z", "problem_desc": "# Pair sum\n",
           "time_limit_ms": 2000, "memory_limit_MB": 256, "checker": CHECKERS["pair_sum"],
           "test_cases": [{"input": "4 7\n1 3 4 6\n", "output": "1 4\n"},
                          {"input": "3 100\n1 2 3\n", "output": "-1\n"},
                          {"input": "5 10\n5 1 5 2 8\n", "output": "1 3\n"}]}
    dataset = tmp_path / "stepfun.jsonl"
    dataset.write_text(json.dumps(row) + "\n")
    right = tmp_path / "right.py"
    right.write_text(PAIR_SUM_SOLUTION)
    wrong = tmp_path / "wrong.py"
    wrong.write_text("input()\ninput()\nprint(1, 1)\n")
    env = {k: v for k, v in os.environ.items() if k != "JUDGE_TESTLIB"}

    def judge_run(solution: Path) -> dict:
        out = subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", "run",
                              str(solution), "--problem", "codeforces/1999Z",
                              "--dataset", str(dataset), "--all-tests", "--json"],
                             capture_output=True, text=True, env=env,
                             timeout=scaled(300_000) / 1000)
        assert out.stdout, out.stderr
        return json.loads(out.stdout)

    good = judge_run(right)
    assert good["verdict"] == "AC", good
    assert [t["checker_message"] for t in good["tests"]] == ["ok a valid pair", "ok no pair",
                                                            "ok a valid pair"]
    bad = judge_run(wrong)
    assert bad["verdict"] == "WA"
    assert bad["tests"][0]["checker_message"] == "wrong answer indices must differ, both are 1"


class _NoCompiler:
    def compile(self, *args, **kwargs):
        raise AssertionError("a standard checker was compiled")


def test_standard_checker_stays_in_process_with_a_testlib_checkout(tmp_path):
    """--testlib is for custom checkers: ncmp is still the in-process C checker, with nothing
    compiled, at in-process speed."""
    checkout = tmp_path / "testlib"
    (checkout / "checkers").mkdir(parents=True)
    (checkout / "testlib.h").write_text("#error not to be built\n")
    (checkout / "checkers" / "ncmp.cpp").write_text("#error not to be built\n")
    runner = CheckerRunner(_NoCompiler(), testlib=str(checkout))
    assert runner.check("ncmp", b"", b"1 2 3\n", b"1 2 3\n").message == 'ok 3 number(s): "1 2 3"'
    started = time.perf_counter()
    for _ in range(200):
        result = runner.check("ncmp", b"", b"1 2 4\n", b"1 2 3\n")
    assert time.perf_counter() - started < scaled(1000) / 1000
    assert result.message == "wrong answer 3rd numbers differ - expected: '3', found: '4'"
    runner.close()


FAKE_TESTLIB_H = r'''
// A stand-in testlib.h: what a checker built against it prints names the header it was built with.
#include <cstdio>
#include <cstdlib>
enum TResult { _ok = 0, _wa = 1 };
inline void registerTestlibCmd(int, char **) {}
inline void quitf(TResult r, const char *msg) {
    std::fprintf(stderr, "%s %s\n", msg, VERSION);
    std::exit(r);
}
'''

FAKE_CHECKER = r'''
#include "testlib.h"
int main(int argc, char **argv) {
    registerTestlibCmd(argc, argv);
    quitf(_ok, "fake testlib");
}
'''


def test_custom_checker_builds_against_the_given_checkout(require_sandbox, tmp_path):
    """With a checkout, a custom checker includes its testlib.h; the header's content is part of
    the build's cache key, so a changed header at the same path is built anew."""
    checkout = tmp_path / "testlib"
    checkout.mkdir()
    for path in (tmp_path, checkout):
        path.chmod(0o755)
    compiler = Compiler(slot=next_slot())
    try:
        for version in ("v1", "v2"):
            (checkout / "testlib.h").write_text(f'#define VERSION "{version}"\n{FAKE_TESTLIB_H}')
            (checkout / "testlib.h").chmod(0o644)
            runner = CheckerRunner(compiler, slot=next_slot(), testlib=str(checkout))
            try:
                assert runner.check(FAKE_CHECKER, b"", b"", b"").message == f"fake testlib {version}"
            finally:
                runner.close()
    finally:
        compiler.close()


def test_custom_checker_is_built_once_per_problem(require_sandbox, monkeypatch):
    tests = tuple(Case(f"{n}\n".encode(), " ".join(map(str, [*range(2, n + 1), 1])).encode())
                  for n in (2, 3, 4, 5))
    problem = Problem(id="test/derangement", title="Derangement", statement="", time_limit_ms=2000,
                      memory_limit_mb=256, checker=CHECKERS["derangement"], tests=tests)
    solution = "n = int(input())\nprint(*range(2, n + 1), 1)\n"
    with Grader(slot=next_slot(), cpu=quiet_cpu()) as grader:
        calls = []
        compile_once = grader.compiler.compile

        def counting(source, language, *args, **kwargs):
            calls.append(language.name)
            return compile_once(source, language, *args, **kwargs)

        monkeypatch.setattr(grader.compiler, "compile", counting)
        for _ in range(2):
            result = grader.grade(solution, "python", problem)
            assert result.verdict == "AC", [t.checker_message for t in result.tests]
    assert calls.count("checker") == 1


# Issue 43, finding 5: a checker's FAIL stands only when the checker fails on the jury's own
# answer given as the output too; any other FAIL came from the output and is WA.
ADVERSARIAL = Path(__file__).parent / "adversarial"
DOORS = {"door_negative_count.py": "python", "door_negative_count.cpp": "cpp"}
# The answer file holds only the jury's value (the optimum), the output is a construction: the
# jury's answer given as the output is no valid output (PE), so it never vouched for a FAIL.
OPTIMUM_CHECKER = r'''
#include "testlib.h"
int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    int n = inf.readInt();
    int best = ans.readInt();
    int k = ouf.readInt();
    std::vector<int> picked = ouf.readInts(k, 1, n, "picked");
    if (k != best)
        quitf(_wa, "expected %d numbers, found %d", best, k);
    quitf(_ok, "%d numbers", k);
}
'''
# Broken on the jury's data: its answer file is no number, so it FAILs whatever the output.
BROKEN_ANSWER_CHECKER = r'''
#include "testlib.h"
int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    int best = ans.readInt();
    int k = ouf.readInt();
    quitf(k == best ? _ok : _wa, "%d", k);
}
'''


def door_problem(checker: str, answer: bytes) -> Problem:
    return Problem(id="test/door", title="", statement="", time_limit_ms=scaled(2000),
                   memory_limit_mb=256, checker=checker, tests=(Case(b"20\n", answer),))


@pytest.fixture(scope="module")
def grader(require_sandbox):
    with Grader(slot=next_slot(), cpu=quiet_cpu()) as g:
        yield g


@pytest.mark.parametrize("door", DOORS)
def test_a_fail_the_output_provokes_is_wa_when_the_jury_answer_is_no_output(grader, door):
    """`-1` as the count: readInts(-1, 1, n) FAILs. The jury's answer `15` given as the output is
    PE (15 numbers expected after it), not FAIL, so the FAIL was the output's: WA, the checker's
    FAIL line kept. (It was FAIL, left out of the metrics: the jury's answer was no valid
    output, so it could not vouch for the FAIL, and the FAIL stood.)"""
    problem = door_problem(OPTIMUM_CHECKER, b"15\n")
    result = grader.grade((ADVERSARIAL / door).read_text(), DOORS[door], problem)
    test = result.tests[-1]
    assert result.verdict == "WA" and not result.judge_failure, test
    assert result.exclusion_evidence is None
    assert test.checker_message.startswith("the checker failed on this output but not on the "
                                           "jury's answer (wrong output format Unexpected end of "
                                           "file"), test
    assert test.checker_message.endswith("FAIL readInts: size should be non-negative."), test
    honest = "n = int(input())\nprint(15)\nprint(*range(1, 16))\n"
    assert grader.grade(honest, "python", problem).verdict == "AC"


@pytest.mark.parametrize("door", DOORS)
def test_a_checker_broken_on_the_jurys_data_is_fail_with_evidence(grader, door):
    """It FAILs on every output, the jury's answer included: the FAIL stands, with that as its
    evidence."""
    result = grader.grade((ADVERSARIAL / door).read_text(), DOORS[door],
                          door_problem(BROKEN_ANSWER_CHECKER, b"fifteen\n"))
    test = result.tests[-1]
    assert result.verdict == "FAIL" and result.judge_failure, test
    assert test.checker_message == 'FAIL Expected integer, but "fifteen" found (answer.txt)'
    evidence = result.exclusion_evidence
    assert evidence is not None and evidence.kind == "jury-data", test
    assert evidence.detail == ("the checker fails on the jury's own answer given as the output "
                               'too: FAIL Expected integer, but "fifteen" found (answer.txt)')


# The header's records of when a program first read the submission's output
# (docs/design/4-verdicts.md §4.5), from a program built and run on the host: what it writes to
# stderr, as the judge reads it.
RECORDING_INTERACTOR = r'''
#include "testlib.h"
int main(int argc, char *argv[]) {
    registerInteraction(argc, argv);
    std::string mode = inf.readToken();
    if (mode == "secret")
        quitf(_ok, "%s", std::getenv("JUDGE_TESTLIB_MARK") ? "inherited" : "taken");
    if (mode == "broken")
        inf.readInt();                 // the jury's input ends here: FAIL before reading ouf
    if (mode == "closed")
        close(2);                      // the records go on, to the header's own copy
    if (mode == "eof")
        ouf.eof();                     // a mere look is a read
    int k = ouf.readInt();
    ouf.readInts(k);                   // -1: FAIL after reading
    quitf(_ok, "%d", k);
}
'''


@pytest.fixture(scope="module")
def recording_interactor(tmp_path_factory):
    build = tmp_path_factory.mktemp("records")
    (build / "interactor.cpp").write_text(RECORDING_INTERACTOR)
    subprocess.run(["g++", "-std=c++17", "-O2", "-I", str(JUDGE_TESTLIB), "-o",
                    str(build / "interactor"), str(build / "interactor.cpp")], check=True)
    return build


@pytest.mark.parametrize("mode, program_wrote, exit_code, output_read, message", [
    ("secret", b"", 0, False, "ok taken"),
    ("broken", b"-1\n", 3, False, "FAIL Unexpected end of file - int32 expected (input.txt)"),
    ("read", b"-1\n", 3, True, "FAIL readInts: size should be non-negative."),
    ("closed", b"-1\n", 3, True, ""),
    ("eof", b"", 2, True, "wrong output format Unexpected end of file - int32 expected"),
])
def test_the_header_records_when_the_output_is_first_read(recording_interactor, mode,
                                                         program_wrote, exit_code, output_read,
                                                         message):
    from judge.checkers.stream_marks import MARK_ENV, new_secret, take_marks
    build = recording_interactor
    (build / "input.txt").write_text(mode + "\n")
    secret = new_secret()
    done = subprocess.run([str(build / "interactor"), "input.txt", "tout.txt"], cwd=build,
                          input=program_wrote, capture_output=True,
                          env={**os.environ, MARK_ENV: secret}, timeout=60)
    assert done.returncode == exit_code, done.stderr
    marks, rest = take_marks(done.stderr, secret, 1 << 20)
    assert marks is not None and marks.output_read == output_read, done.stderr
    assert (marks.cpu_ms_before_output is not None) == output_read
    assert rest.decode().strip() == message
    # Without the judge's secret the header writes no record at all.
    done = subprocess.run([str(build / "interactor"), "input.txt", "tout.txt"], cwd=build,
                          input=program_wrote, capture_output=True, timeout=60)
    assert b"JUDGE-MARK" not in done.stderr and done.returncode == exit_code
