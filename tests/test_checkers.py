"""testlib's standard checkers (native/checkers/checkers.c) against testlib's behaviour.

Expected messages are the ones testlib prints: its quit() prefixes ("ok ", "wrong answer ",
"wrong output format ", "FAIL ", "points "), the dirt check ("Extra information in the output
file" turns an "ok" into a presentation error), FAIL with the stream name for a bad answer, and
each checker's own text from testlib's checkers/*.cpp.
"""
from __future__ import annotations

import dataclasses
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import scaled
from judge import JudgeError
from judge.checkers import CheckResult, check, checker_names, is_checker
from judge.verdicts import CheckerVerdict

ROOT = Path(__file__).resolve().parents[1]


def run(name, output, answer, input=b""):
    return check(name, input, output, answer)


def expect(name, output, answer, verdict, message, input=b""):
    r = run(name, output, answer, input)
    assert (r.verdict, r.message) == (verdict, message), r
    assert r.exit_code == {"OK": 0, "WA": 1, "PE": 2, "FAIL": 3, "POINTS": 7}[verdict]
    return r


# ---------------------------------------------------------------- API

def test_registry():
    assert set(checker_names()) == {
        "acmp", "caseicmp", "casencmp", "casewcmp", "dcmp", "fcmp", "hcmp", "icmp", "lcmp", "ncmp", "nyesno",
        "pointscmp", "pointsinfo", "rcmp", "rcmp4", "rcmp6", "rcmp9", "rncmp", "uncmp", "wcmp", "yesno"}
    from judge import _native
    for name in checker_names():
        assert is_checker(name) and _native.lib.judge_checker_exists(name.encode()) == 1
    assert not is_checker("nope") and _native.lib.judge_checker_exists(b"nope") == 0
    with pytest.raises(JudgeError):
        check("nope", b"", b"", b"")


def test_python_and_the_docs_list_the_c_registry():
    """One list, native/checkers/checker_list.h: Python reads it from the built module (a stale
    build would differ from the header's text), and the docs' lists of checkers are the same."""
    root = Path(__file__).resolve().parents[1]
    header = root / "native" / "checkers" / "checker_list.h"
    listed = re.findall(r"X\((\w+), \w+\)", header.read_text())
    assert checker_names() == tuple(listed)
    for page in ("grading.md", "design/5-compilation-and-checkers.md"):
        documented = re.findall(r"checker of testlib's `checkers/` folder \(([^)]*)\)",
                                (root / "docs" / page).read_text(), re.I)
        assert documented, page
        assert all(re.split(r",\s+", names) == listed for names in documented), page


def test_result_type_and_buffers():
    r = run("ncmp", bytearray(b"1 2"), memoryview(b"1 2"))
    assert isinstance(r, CheckResult) and r.ok and r.points is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.verdict = "WA"
    assert run("ncmp", b"", b"").message == 'ok 0 number(s): ""'
    with pytest.raises(TypeError):
        check("ncmp", b"", 5, b"")


def test_native_unknown_name_and_small_message_buffer():
    from judge import _native
    ffi, lib = _native.ffi, _native.lib
    msg = ffi.new("char[]", 8)
    pts = ffi.new("double *")
    assert lib.judge_check(b"zzz", ffi.NULL, 0, ffi.NULL, 0, ffi.NULL, 0, msg, 8, pts) == 3
    assert ffi.string(msg) == b"FAIL Un"
    out = b"1 2 3"
    assert lib.judge_check(b"ncmp", ffi.NULL, 0, out, 5, out, 5, msg, 8, pts) == 0
    assert ffi.string(msg) == b"ok 3 nu"
    assert lib.judge_check(b"ncmp", ffi.NULL, 0, out, 5, out, 5, ffi.NULL, 0, ffi.NULL) == 0


# ---------------------------------------------------------------- ncmp and friends

def test_ncmp_messages():
    expect("ncmp", b"1 2 3\n", b"1 2 3\n", "OK", 'ok 3 number(s): "1 2 3"')
    expect("ncmp", b"1 2 3 4 5 6", b"1 2 3 4 5 6", "OK", "ok 6 numbers")
    expect("ncmp", b"1 6", b"1 5", "WA", "wrong answer 2nd numbers differ - expected: '5', found: '6'")
    expect("ncmp", b"1 2", b"1 2 3", "WA",
           "wrong answer Answer contains longer sequence [length = 3], but output contains 2 elements")
    expect("ncmp", b"1 2 3 4", b"1 2 3", "WA",
           "wrong answer Output contains longer sequence [length = 4], but answer contains 3 elements")
    expect("ncmp", b"1 x", b"1 2", "PE", 'wrong output format Expected integer, but "x" found')
    expect("ncmp", b"1 2", b"1 y", "FAIL", 'FAIL Expected integer, but "y" found (answer)')
    big = b" ".join(b"%d" % (10 ** 18 + i) for i in range(5))
    joined = big.decode()
    expect("ncmp", big, big, "OK", f'ok 5 number(s): "{joined[:30]}...{joined[-31:]}"')


@pytest.mark.parametrize("n,ending", [(1, "st"), (2, "nd"), (3, "rd"), (4, "th"), (11, "th"), (12, "th"),
                                      (13, "th"), (21, "st"), (22, "nd"), (23, "rd"), (101, "st"), (111, "th"),
                                      (112, "th")])
def test_english_ending(n, ending):
    ans = b" ".join([b"0"] * n)
    out = b" ".join([b"0"] * (n - 1) + [b"1"])
    expect("ncmp", out, ans, "WA", f"wrong answer {n}{ending} numbers differ - expected: '0', found: '1'")


@pytest.mark.parametrize("token,ok", [
    (b"0", True), (b"-0", False), (b"00", False), (b"05", False), (b"-05", False), (b"+5", False),
    (b"-", False), (b"9223372036854775807", True), (b"9223372036854775808", False),
    (b"-9223372036854775808", True), (b"-9223372036854775809", False), (b"99999999999999999999", False),
    (b"-00000000000000000001", False), (b"1e3", False), (b"1.0", False), (b"\xff", False)])
def test_int64_parsing(token, ok):
    r = run("ncmp", token, token)
    if ok:
        assert r.verdict == "OK"
    else:
        assert r.verdict == "FAIL"  # the answer is read first and is just as bad
        assert r.message == f'FAIL Expected integer, but "{token.decode("latin-1")}" found (answer)' \
            or token == b"\xff"
        assert run("ncmp", token, b"1").verdict == "PE"


def test_icmp_int32_range():
    expect("icmp", b"2147483647", b"2147483647", "OK", "ok answer is 2147483647")
    expect("icmp", b"2147483648", b"1", "PE", 'wrong output format Expected int32, but "2147483648" found')
    expect("icmp", b"-2147483648", b"-2147483648", "OK", "ok answer is -2147483648")
    expect("icmp", b"5", b"6", "WA", "wrong answer expected 6, found 5")
    expect("icmp", b"5 6", b"5", "PE", "wrong output format Extra information in the output file")
    expect("icmp", b"", b"5", "PE", "wrong output format Unexpected end of file - int32 expected")
    expect("icmp", b"5", b"", "FAIL", "FAIL Unexpected end of file - int32 expected (answer)")


def test_uncmp():
    expect("uncmp", b"3 1 2", b"1 2 3", "OK", "ok 3 numbers (in increasing order): 1 2 3")
    expect("uncmp", b"7", b"7", "OK", "ok 1 number: 7")
    expect("uncmp", b"", b"\n", "OK", "ok empty sequence")
    expect("uncmp", b"6 5 4 3 2 1", b"1 2 3 4 5 6", "OK", "ok 6 numbers (in increasing order): 1 2 ... 5 6")
    expect("uncmp", b"1 2", b"1 2 3", "WA", "wrong answer Expected 3 elements, but 2 found")
    expect("uncmp", b"1 2 2", b"1 2 3", "WA",
           "wrong answer Expected sequence and output are different (as unordered sequences) [size=3]")
    expect("uncmp", b"1 2 z", b"1 2 3", "PE", 'wrong output format Expected integer, but "z" found')


# ---------------------------------------------------------------- whitespace: wcmp, lcmp, fcmp

def test_wcmp():
    expect("wcmp", b"hello   world\n\n", b"hello\nworld", "OK", "ok 2 tokens")
    expect("wcmp", b"hello", b"hello", "OK", 'ok "hello"')
    expect("wcmp", b"a c", b"a b", "WA", "wrong answer 2nd words differ - expected: 'b', found: 'c'")
    expect("wcmp", b"a b c", b"a b", "WA", "wrong answer Participant output contains extra tokens")
    expect("wcmp", b"a", b"a b", "WA", "wrong answer Unexpected EOF in the participants output")
    expect("wcmp", b"", b"", "OK", "ok 0 tokens")
    expect("wcmp", b"A", b"a", "WA", "wrong answer 1st words differ - expected: 'a', found: 'A'")
    # only LF, CR, space and tab separate tokens; \v and \f are part of a token
    expect("wcmp", b"a\vb", b"a b", "WA", "wrong answer 1st words differ - expected: 'a', found: 'a\x0bb'")
    long = b"x" * 100
    expect("wcmp", long + b"y", long, "WA",
           "wrong answer 1st words differ - expected: '" + "x" * 30 + "..." + "x" * 31 + "', found: '"
           + "x" * 30 + "..." + "x" * 30 + "y'")


def test_lcmp_vs_fcmp():
    expect("lcmp", b"1  2\t3 \n4\n", b"1 2 3\n4", "OK", "ok 2 lines")
    expect("fcmp", b"1  2\t3 \n4\n", b"1 2 3\n4", "WA",
           "wrong answer 1st lines differ - expected: '1 2 3', found: '1  2\t3 '")
    expect("lcmp", b"1 2\n3\n", b"1 2 3\n", "WA", "wrong answer 1st lines differ - expected: '1 2 3', found: '1 2'")
    # lcmp splits with std::isspace, so \v and \f separate words inside a line
    expect("lcmp", b"a\vb\fc", b"a b c", "OK", "ok single line: 'a\x0bb\x0cc'")
    # lcmp shows the participant's line, fcmp the jury's
    expect("lcmp", b"a  b", b"a b", "OK", "ok single line: 'a  b'")
    expect("fcmp", b"a b\r\n", b"a b\n", "OK", "ok single line: 'a b'")
    # missing lines compare with "", extra non-blank lines are dirt, blank ones are fine
    expect("lcmp", b"1\n", b"1\n2\n", "WA", "wrong answer 2nd lines differ - expected: '2', found: ''")
    expect("lcmp", b"1\n\n\n  \n", b"1\n", "OK", "ok single line: '1'")
    expect("fcmp", b"1\n2\n", b"1\n", "PE", "wrong output format Extra information in the output file")
    expect("fcmp", b"", b"", "OK", "ok 0 lines")
    # an empty line in the middle of the answer is a line; one at the end is not
    expect("fcmp", b"a\n\nb", b"a\n\nb\n", "OK", "ok 3 lines")
    expect("lcmp", b"a\nb", b"a\n\nb", "WA", "wrong answer 2nd lines differ - expected: '', found: 'b'")


def test_lone_carriage_return_follows_testlib():
    # readString drops a CR that is not followed by LF and takes the next byte as is; a CR at the
    # very end reads as char(EOF) = '\xff'
    expect("fcmp", b"ab\rcd\n", b"abcd\n", "OK", "ok single line: 'abcd'")
    r = run("fcmp", b"5\r", b"5\n")
    assert r.verdict == "WA" and r.raw_message == b"wrong answer 1st lines differ - expected: '5', found: '5\xff'"
    expect("fcmp", b"a\r\rb", b"a\rb", "WA", "wrong answer 1st lines differ - expected: 'ab', found: 'a\rb'")
    expect("fcmp", b"x\r\n", b"x", "OK", "ok single line: 'x'")


def test_output_bom_is_skipped():
    expect("wcmp", b"\xef\xbb\xbfhi", b"hi", "OK", 'ok "hi"')
    expect("wcmp", b"hi", b"\xef\xbb\xbfhi", "WA",
           "wrong answer 1st words differ - expected: '\ufeffhi', found: 'hi'")


# ---------------------------------------------------------------- real numbers

def test_rcmp_family_tolerances():
    expect("rcmp4", b"1.0001", b"1", "OK", "ok found '1.00010', expected '1.00000', error '0.00010'")
    expect("rcmp4", b"1.00011", b"1", "WA",
           "wrong answer 1st numbers differ - expected: '1.00000', found: '1.00011', error = '0.00011'")
    # relative error for big values
    expect("rcmp6", b"1000001", b"1000000", "OK",
           "ok found '1000001.0000000', expected '1000000.0000000', error '0.0000010'")
    expect("rcmp6", b"1000002", b"1000000", "WA",
           "wrong answer 1st numbers differ - expected: '1000000.0000000', found: '1000002.0000000', "
           "error = '0.0000020'")
    expect("rcmp9", b"0.000000001 5", b"0 5", "OK", "ok 2 numbers")
    expect("rcmp9", b"0.0000000011", b"0", "WA",
           "wrong answer 1st numbers differ - expected: '0.0000000000', found: '0.0000000011', error = '0.0000000011'")
    expect("rcmp9", b"1 2", b"1 2 3", "PE", "wrong output format Unexpected end of file - double expected")
    expect("rcmp9", b"1 2 3", b"1 2", "PE", "wrong output format Extra information in the output file")
    expect("rcmp6", b"", b"", "OK", "ok 0 numbers")


def test_rncmp_is_absolute_only():
    expect("rncmp", b"1000000.00001", b"1000000", "OK", "ok 1 numbers")
    expect("rncmp", b"1000000.1", b"1000000", "WA",
           "wrong answer 1st numbers differ - expected: '1000000.0000000000', found: '1000000.1000000000'")


def test_single_double_checkers():
    expect("dcmp", b"100.0001", b"100", "OK", "ok answer is 100.0000000000")  # relative 1e-6
    expect("dcmp", b"100.001", b"100", "WA", "wrong answer expected 100.0000000000, found 100.0010000000")
    for name in ("acmp", "rcmp"):
        expect(name, b"0.0000015", b"0", "OK", "ok answer is 0.0000000000")  # absolute 1.5e-6
        expect(name, b"100.0001", b"100", "WA", "wrong answer expected 100.0000000000, found 100.0001000000")
    expect("dcmp", b"1e999", b"1e999", "OK", "ok answer is inf")  # infinities compare by sign


@pytest.mark.parametrize("token,value", [
    (b"1e5", "100000"), (b".5", "0.5"), (b"5.", "5"), (b"-1.5E-3", "-0.0015"), (b"+2", "2"),
    (b"8e", "8"), (b"2e+", "2"), (b"0001.5", "1.5")])
def test_double_syntax_accepted(token, value):
    r = run("rcmp9", token, value.encode())
    assert r.verdict == "OK", r


@pytest.mark.parametrize("token", [b"nan", b"inf", b"-inf", b"0x10", b"1,5", b"e5", b"-", b".", b"1.2.3",
                                   b"--1", b"1-", b"1e5e", b"five"])
def test_double_syntax_refused(token):
    expect("rcmp9", token, b"1", "PE",
           f'wrong output format Expected double, but "{token.decode()}" found')


# ---------------------------------------------------------------- yes/no, huge integers

def test_yesno():
    for out in (b"YES", b"yes", b"Yes", b"yEs\n"):
        expect("yesno", out, b"YES", "OK", "ok answer is YES")
    expect("yesno", b"no", b"Yes", "WA", "wrong answer expected YES, found NO")
    expect("yesno", b"yeah", b"YES", "PE", "wrong output format YES or NO expected, but YEAH found")
    expect("yesno", b"YES", b"maybe", "FAIL", "FAIL YES or NO expected in answer, but MAYBE found")
    expect("yesno", b"YES NO", b"YES", "PE", "wrong output format Extra information in the output file")
    expect("yesno", b"", b"YES", "PE", "wrong output format Unexpected end of file - token expected")


def test_nyesno():
    expect("nyesno", b"yes NO yes", b"YES NO YES", "OK", "ok 3 token(s): yes count is 2, no count is 1")
    expect("nyesno", b"no", b"NO", "OK", "ok NO")
    expect("nyesno", b"", b"", "OK", "ok Empty output")
    expect("nyesno", b"YES YES", b"YES NO", "WA", "wrong answer expected NO, found YES [2nd token]")
    expect("nyesno", b"YES nope", b"YES NO", "PE", "wrong output format YES or NO expected, but NOPE found [2nd token]")
    expect("nyesno", b"YES", b"YES NO", "WA",
           "wrong answer Answer contains longer sequence [length = 2], but output contains 1 elements")
    expect("nyesno", b"YES NO NO", b"YES NO", "WA",
           "wrong answer Output contains longer sequence [length = 3], but answer contains 2 elements")


def test_hcmp():
    n = b"-123456789012345678901234567890"
    expect("hcmp", n, n, "OK", f"ok answer is '{n.decode()}'")
    expect("hcmp", b"5", b"6", "WA", "wrong answer expected '6', found '5'")
    for bad in (b"-0", b"007", b"+5", b"1e3"):
        expect("hcmp", bad, b"1", "PE", f"wrong output format {bad.decode()} is not a valid integer")
    expect("hcmp", b"1", b"x", "FAIL", "FAIL x is not a valid integer")
    expect("hcmp", b"1", b"1 2", "FAIL", "FAIL expected exactly one token in the answer file")


# ---------------------------------------------------------------- points

def test_points():
    r = expect("pointscmp", b"1.5", b"3", "POINTS", "points 1.5 ja=3.0000 pa=1.5000")
    assert r.points == 1.5
    r = expect("pointscmp", b"7", b"7", "POINTS", "points 0.0 ja=7.0000 pa=7.0000")
    assert r.points == 0.0
    r = expect("pointscmp", b"2 9", b"7", "PE", "wrong output format Extra information in the output file")
    assert r.points is None
    r = expect("pointsinfo", b"1.5", b"3", "POINTS", "points points_info=pa=1.500000,ja=3.000000 d=1.500000")
    assert r.points is None


def test_points_testlib_cannot_print_are_fail():
    """testlib's quitp refuses infinite, NaN, negative and above-1E6 points with a FAIL, and so
    does the in-process pointscmp (it used to score 1e999 as inf points)."""
    expect("pointscmp", b"1e999", b"10", "FAIL", "FAIL Parameter 'points' can't be infinite")
    expect("pointscmp", b"1e40", b"10", "FAIL", "FAIL Parameter 'points' can't be greater than 1E6")
    r = expect("pointscmp", b"1000000", b"10", "POINTS", "points 999990.0 ja=10.0000 pa=1000000.0000")
    assert r.points == 999990.0


@pytest.mark.parametrize("output, verdict, message", [
    (b"10", "AC", "points 0.0 ja=10.0000 pa=10.0000"),          # the jury's own points: full marks
    (b"0", "WA", "points 10.0 ja=10.0000 pa=0.0000"),           # 10 points, but not the jury's
    (b"1000000", "WA", "points 999990.0 ja=10.0000 pa=1000000.0000"),
    (b"-1", "WA", "points 11.0 ja=10.0000 pa=-1.0000"),
    (b"1e999", "WA", "the checker failed on this output but accepts the jury's answer: "
                     "FAIL Parameter 'points' can't be infinite"),
    (b"nan", "PE", 'wrong output format Expected double, but "nan" found'),
])
def test_a_points_result_is_ac_only_at_the_jury_answer_s_points(output, verdict, message):
    """Points have no scale of their own: full marks are what the checker gives the jury's
    answer, and a FAIL that answer does not bring about is the output's doing (WA). Before,
    any points of 1 or more were AC (the exact answer was WA, 10**6 and 1e999 AC)."""
    from judge.checkers.runner import CheckerRunner
    said = CheckerRunner(compiler=None).check_output("pointscmp", b"", output, b"10")
    assert (said.test_verdict, said.message) == (verdict, message)


def test_a_checker_fail_the_jury_answer_also_gets_stays_fail():
    from judge.checkers.runner import CheckerRunner
    said = CheckerRunner(compiler=None).check_output("casencmp", b"", b"Case 1: 5", b"Case #1: 5")
    assert said.test_verdict == "FAIL" and said.message.startswith("FAIL Expected '1:'")
    # It stands with its evidence (judge.exclusion): the checker fails on the jury's data.
    assert said.evidence is not None and said.evidence.kind == "jury-data"
    assert said.evidence.detail.startswith("the checker fails on the jury's own answer given as "
                                           "the output too: FAIL Expected '1:'")


def _scripted_runner(words):
    """A CheckerRunner whose check() gives the words in turn (a custom checker's runs)."""
    from judge.checkers.runner import CheckerRunner
    runner = CheckerRunner(compiler=None)
    given = iter(words)
    runner.check = lambda *args: next(given)
    return runner


FAILED_RUN = CheckResult(CheckerVerdict.FAIL, 3, "checker SE: no cgroup", judge_error=True)
CHECKER_FAIL = CheckResult(CheckerVerdict.FAIL, 3, "FAIL readInts: size should be non-negative.")


@pytest.mark.parametrize("words, verdict, message, evidence", [
    # The FAIL came from the output: the jury's answer is accepted, or rejected without a FAIL.
    ([CHECKER_FAIL, CheckResult(CheckerVerdict.OK, 0, "ok 2 numbers")], "WA",
     "the checker failed on this output but accepts the jury's answer: FAIL readInts", None),
    ([CHECKER_FAIL, CheckResult(CheckerVerdict.PE, 2, "wrong output format Unexpected end of file")],
     "WA", "the checker failed on this output but not on the jury's answer (wrong output format "
     "Unexpected end of file): FAIL readInts", None),
    ([CHECKER_FAIL, CheckResult(CheckerVerdict.WA, 1, "wrong answer 15 is not 2")], "WA",
     "the checker failed on this output but not on the jury's answer (wrong answer", None),
    # It fails on the jury's answer too: the jury's data is at fault.
    ([CHECKER_FAIL, CheckResult(CheckerVerdict.FAIL, 3, "FAIL checker TLE: killed by cpu-timer")],
     "FAIL", "FAIL readInts", "jury-data"),
    # The sandbox failed to run it: asked once more, and a second failure stands.
    ([FAILED_RUN, CheckResult(CheckerVerdict.OK, 0, "ok 2 numbers")], "AC", "ok 2 numbers", None),
    ([FAILED_RUN, FAILED_RUN], "FAIL", "checker SE: no cgroup", "jury-program"),
    # The jury's answer is asked once more too, and its second failure to run stands.
    ([CHECKER_FAIL, FAILED_RUN, FAILED_RUN], "FAIL", "checker SE", "jury-program"),
])
def test_a_checker_fail_stands_only_with_evidence(words, verdict, message, evidence):
    """check_output gives the final word: a FAIL with its evidence, or the WA the output earned
    (issue 43, finding 5: a FAIL the jury's answer does not share, even when the jury's answer is
    no valid output, was the output's doing)."""
    said = _scripted_runner(words).check_output("checker source", b"20\n", b"-1\n", b"15\n")
    assert said.test_verdict == verdict and said.message.startswith(message), said
    assert (said.evidence.kind if said.evidence else None) == evidence
    expect("pointsinfo", b"x", b"3", "PE", 'wrong output format Expected double, but "x" found')


# ---------------------------------------------------------------- Case k: checkers

def test_caseicmp():
    expect("caseicmp", b"Case 1: 5\nCase 2: 6\n", b"Case 1: 5\nCase 2: 6", "OK", "ok 2 case(s): 5 6")
    expect("caseicmp", b"Case 1: 5\nCase 2: 7\n", b"Case 1: 5\nCase 2: 6", "WA",
           "wrong answer Expected 6 found 7 [test case 2]")
    expect("caseicmp", b"Case 1: 5\n", b"Case 1: 5\nCase 2: 6", "PE",
           "wrong output format Expected 2 test case(s) but found 1")
    expect("caseicmp", b"case 1: 5\n", b"Case 1: 5", "PE",
           "wrong output format Expected 'Case' but found 'case' [test case 1]")
    expect("caseicmp", b"Case 1 5\n", b"Case 1: 5", "PE",
           "wrong output format Expected '1:' but found '1' [test case 1]")
    expect("caseicmp", b"Case 1: 5\n", b"Case 2: 5", "FAIL",
           "FAIL Expected '1:' but found '2:' [test case 1] (answer)")
    seven = b"".join(b"Case %d: %d\n" % (i, i * 10) for i in range(1, 8))
    expect("caseicmp", seven, seven, "OK", "ok 7 case(s): 10 20 30 ... 60 70")


def test_casencmp():
    ans = b"Case 1: 1 2 3\nCase 2:\nCase 3: 4"
    expect("casencmp", b"Case 1: 1 2\n3 Case 2: Case 3: 4\n", ans, "OK", "ok 3 test cases(s)")
    expect("casencmp", b"Case 1: 1 2 3\nCase 2: 9\nCase 3: 4", ans, "WA",
           'wrong answer Sequences differ: jury has "" [size=0], but participant has "9" [size=1] [test case 2]')
    ans2 = b"Case 1: 1 2 3 4 5 6 7"
    expect("casencmp", b"Case 1: 1 2 3 4 5 6 8", ans2, "WA",
           'wrong answer Sequences differ: jury has "1 2 3 ... 6 7" [size=7], but participant has '
           '"1 2 3 ... 6 8" [size=7] [test case 1]')
    expect("casencmp", b"Case 1: 1 x", b"Case 1: 1 2", "PE", 'wrong output format Expected integer, but "x" found')
    expect("casencmp", b"Case 1: 1\nCase 2: 2", b"Case 1: 1", "PE",
           "wrong output format Extra information in the output file")


def test_casewcmp():
    ans = b"Case 1: a b\nCase 2: c"
    expect("casewcmp", b"Case 1: a\nb Case 2: c", ans, "OK", "ok 2 test cases(s)")
    expect("casewcmp", b"Case 1: a b\nCase 2: d e", ans, "WA",
           'wrong answer Sequences differ: jury has "c" [size=1], but participant has "d e" [size=2] [test case 2]')
    words = [b"w%02d" % i for i in range(30)]
    ans = b"Case 1: " + b" ".join(words)
    out = b"Case 1: " + b" ".join(words[:-1])
    joined_a = " ".join(w.decode() for w in words)
    joined_p = " ".join(w.decode() for w in words[:-1])
    expect("casewcmp", out, ans, "WA",
           f'wrong answer Sequences differ: jury has "{joined_a[:30]}...{joined_a[-31:]}" [size=30], but '
           f'participant has "{joined_p[:30]}...{joined_p[-31:]}" [size=29] [test case 1]')


# ---------------------------------------------------------------- testlib's stream limits

def test_token_length_limit_is_32mb():
    limit = 32 * 1024 * 1024
    ok_token = b"7" * limit
    r = run("wcmp", ok_token, ok_token)
    assert r.verdict == "OK"
    expect("wcmp", b"8" * (limit + 1), ok_token, "PE",
           "wrong output format Length of token exceeds 33554432, token is '" + "8" * 30 + "..." + "8" * 31 + "...'")
    expect("wcmp", ok_token, b"8" * (limit + 1), "FAIL",
           "FAIL Length of token exceeds 33554432, token is '" + "8" * 30 + "..." + "8" * 31 + "...' (answer)")


def test_file_size_limit_is_128mb():
    big = b" " * (128 * 1024 * 1024 + 1)
    expect("wcmp", big, b"", "PE", "wrong output format File size exceeds 134217728 bytes, size is 134217729")
    expect("wcmp", b"", big, "FAIL", "FAIL File size exceeds 134217728 bytes, size is 134217729 (answer)")
    expect("wcmp", b"", b"", "FAIL", "FAIL File size exceeds 134217728 bytes, size is 134217729 (input)", input=big)


# ---------------------------------------------------------------- hostile output

def sane_answer(name):
    if name == "caseicmp":
        return b"Case 1: 1\nCase 2: 3\n"
    if name.startswith("case"):
        return b"Case 1: 1 2\nCase 2: 3\n"
    if "yesno" in name:
        return b"YES\n" if name == "yesno" else b"YES NO\n"
    if name in ("ncmp", "uncmp", "wcmp", "lcmp", "fcmp", "rcmp4", "rcmp6", "rcmp9", "rncmp"):
        return b"1 2\n"
    return b"1\n"


def test_huge_token_nuls_binary_finish_quickly():
    token = b"9" * 50_000_000
    for name in checker_names():
        start = time.perf_counter()
        r = run(name, token, sane_answer(name))
        assert r.verdict in ("WA", "PE"), (name, r)
        assert time.perf_counter() - start < scaled(2000) / 1000, name
    nuls = b"\0" * 1000
    expect("ncmp", nuls, b"1", "PE",
           'wrong output format Expected integer, but "' + "~" * 30 + "..." + "~" * 31 + '" found (it contains \\0)')
    expect("rcmp6", b"1\x002", b"1", "PE", 'wrong output format Expected double, but "1~2" found (it contains \\0)')
    expect("wcmp", b"a\x00b", b"a\x00b", "OK", 'ok "a~b"')
    binary = bytes(range(256)) * 4000
    for name in checker_names():
        r = run(name, binary, sane_answer(name))
        assert r.verdict in ("WA", "PE"), (name, r)


def test_truncated_output_at_every_byte_gives_a_stable_verdict():
    answers = {
        "ncmp": b"1 -2 3 40000000000\n", "wcmp": b"alpha beta\ngamma\n", "lcmp": b"a b\nc d\n",
        "fcmp": b"a b\r\nc d\n", "rcmp6": b"1.5 -2.25e3 0.000001\n", "yesno": b"YES\n", "nyesno": b"YES NO yes\n",
        "hcmp": b"-123456789012345678901234567890\n", "uncmp": b"3 1 2\n", "icmp": b"-17\n",
        "caseicmp": b"Case 1: 5\nCase 2: 6\n", "casencmp": b"Case 1: 5 6\nCase 2: 7\n",
        "casewcmp": b"Case 1: a b\nCase 2: c\n", "dcmp": b"3.25\n", "rncmp": b"1 2\n", "pointscmp": b"4\n",
    }
    for name, ans in answers.items():
        full = run(name, ans, ans)
        assert full.verdict in ("OK", "POINTS"), (name, full)
        for cut in range(len(ans)):
            r1 = run(name, ans[:cut], ans)
            r2 = run(name, ans[:cut], ans)
            assert r1 == r2 and r1.verdict in ("OK", "WA", "PE", "POINTS"), (name, cut, r1)


def test_random_garbage_never_fails_the_checker():
    rnd = random.Random(7)
    alphabet = b"0123456789-+.eE \n\r\t\x00\xffCasYESNOyn:"
    for _ in range(3000):
        out = bytes(rnd.choice(alphabet) for _ in range(rnd.randrange(40)))
        name = rnd.choice(checker_names())
        r = run(name, out, sane_answer(name))
        assert r.verdict in ("OK", "WA", "PE", "POINTS"), (name, out, r)


def test_many_tokens_throughput():
    nums = b" ".join(b"%d" % i for i in range(1_000_000))
    start = time.perf_counter()
    r = run("ncmp", nums, nums)
    assert r.message == "ok 1000000 numbers"
    assert time.perf_counter() - start < scaled(2000) / 1000


# ---------------------------------------------------------------- the judge-check binary and `judge check`

@pytest.fixture(scope="module")
def judge_check_bin(tmp_path_factory) -> Path:
    """The judge-check under test: JUDGE_CHECK (a sanitizer build, `make sanitize`), else the
    built one, else one compiled here."""
    if os.environ.get("JUDGE_CHECK"):
        return Path(os.environ["JUDGE_CHECK"])
    built = ROOT / "judge" / "_bin" / "judge-check"
    if built.exists():
        return built
    sys.path.insert(0, str(ROOT / "native"))
    try:
        import build_native
    finally:
        sys.path.pop(0)
    out = tmp_path_factory.mktemp("bin") / "judge-check"
    build_native._compile(build_native.JUDGE_CHECK_SOURCES, out, libraries=["m"])
    return out


AGREEMENT_TABLE = [
    ("ncmp", b"1 2 3\n", b"1 2 3\n"), ("ncmp", b"1 2 4", b"1 2 3"), ("ncmp", b"1 x", b"1 2"),
    ("ncmp", b"1 2", b"1 y"), ("wcmp", b"a b", b"a b c"), ("lcmp", b"a  b\n", b"a b\n"),
    ("fcmp", b"a\rb", b"ab"), ("rcmp4", b"1.00001", b"1"), ("rcmp9", b"", b"1"), ("dcmp", b"2", b"1"),
    ("yesno", b"yes", b"YES"), ("nyesno", b"NO no", b"NO YES"), ("hcmp", b"007", b"7"), ("icmp", b"1 2", b"1"),
    ("uncmp", b"2 1", b"1 2"), ("pointscmp", b"1", b"3.25"), ("pointsinfo", b"1", b"3"),
    ("caseicmp", b"Case 1: 2", b"Case 1: 3"), ("casencmp", b"Case 1: 1 2", b"Case 1: 1 2"),
    ("casewcmp", b"Case 1: a", b"Case 2: a"), ("acmp", b"\xef\xbb\xbf1", b"1"), ("rncmp", b"1\x00", b"1"),
]


@pytest.mark.parametrize("name,output,answer", AGREEMENT_TABLE)
def test_binary_agrees_with_in_process(judge_check_bin, tmp_path, name, output, answer):
    (tmp_path / "input").write_bytes(b"")
    (tmp_path / "output").write_bytes(output)
    (tmp_path / "answer").write_bytes(answer)
    proc = subprocess.run([str(judge_check_bin), name, "input", "output", "answer"], cwd=tmp_path,
                          capture_output=True, timeout=30)
    r = run(name, output, answer)
    assert proc.returncode == r.exit_code
    assert proc.stderr == r.raw_message + b"\n"
    assert proc.stdout == b""


def test_binary_files_and_usage(judge_check_bin, tmp_path):
    (tmp_path / "a").write_bytes(b"5\n")
    def go(*args):
        p = subprocess.run([str(judge_check_bin), *args], cwd=tmp_path, capture_output=True, timeout=30)
        return p.returncode, p.stderr.decode()
    assert go("icmp", "nope", "a", "a") == (0, "ok answer is 5\n")  # testlib never reads the input
    assert go("icmp", "a", "missing", "a") == (2, 'wrong output format Output file not found: "missing"\n')
    assert go("icmp", "a", "a", "missing") == (3, 'FAIL Answer file not found: "missing"\n')
    code, err = go("icmp", "a", "a")
    assert code == 3 and err.startswith("FAIL Program must be run with the following arguments")
    assert go("bogus", "a", "a", "a") == (3, "FAIL Unknown checker 'bogus'\n")
    code, err = go("ncmp", "a", str(tmp_path), "a")  # a directory cannot be read
    assert code == 3 and err.startswith("FAIL")


def test_cli_check(tmp_path):
    (tmp_path / "in").write_bytes(b"")
    (tmp_path / "out").write_bytes(b"1 2 4\n")
    (tmp_path / "ans").write_bytes(b"1 2 3\n")
    cmd = [sys.executable, "-c", "from judge.cli import main; main()", "check"]
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run(cmd + ["ncmp", "in", "out", "ans"], cwd=tmp_path, capture_output=True, env=env, timeout=60)
    assert p.returncode == 1
    assert p.stderr == b"wrong answer 3rd numbers differ - expected: '3', found: '4'\n"
    p = subprocess.run(cmd + ["ncmp", "in", "ans", "ans"], cwd=tmp_path, capture_output=True, env=env, timeout=60)
    assert (p.returncode, p.stderr) == (0, b'ok 3 number(s): "1 2 3"\n')
    p = subprocess.run(cmd + ["ncmp", "in", "nope", "ans"], cwd=tmp_path, capture_output=True, env=env, timeout=60)
    assert p.returncode == 3 and len(p.stderr.decode().strip().splitlines()) == 1
    p = subprocess.run(cmd + ["xcmp", "in", "out", "ans"], cwd=tmp_path, capture_output=True, env=env, timeout=60)
    assert p.returncode == 3
