"""Dataset comparators: the benchmarks' own output comparisons, as selectable checkers.

Each checker is ``f(input: bytes, output: bytes, answer: bytes) -> (verdict, message)`` with
verdict "OK" or "WA". Each is total: it runs in the judge's own process on bytes the submission
chose, so any output whatever gets a word, never an exception
(docs/design/5-compilation-and-checkers.md §5.5). They reproduce the published evaluation code's
behaviour:

``lcb`` -- LiveCodeBench ``testing_util.grade_stdio``:
    both texts are stripped and split on "\\n", every line stripped; the line counts must match;
    each pair of lines must be equal as strings, or else both must parse as whitespace-separated
    ``decimal.Decimal`` tokens and the two token lists must be equal (so "1.50" == "1.5",
    "1e2" == "100", but no tolerance at all: "0.333" != "0.3333"). Texts are decoded as UTF-8
    (invalid bytes replaced): LiveCodeBench compares Python ``str`` captured from stdout.

``lcb-functional`` -- LiveCodeBench ``grade_call_based`` for LeetCode-style tests:
    the answer is a JSON value; the program's output is the typed encoding the functional
    harness printed for the returned value (judge/harness/functional.py), decoded back into Python values
    and compared with ``==``: 1 == 1.0 == True, but a nested tuple is not a list and ``{1: 2}``
    is not ``{"1": 2}``, as in LiveCodeBench. Integers are exact at any size (LiveCodeBench
    reads answers of up to 50000 digits); a returned value whose encoding is many times longer
    than the answer cannot equal it and is WA unread.

``codecontests`` -- AlphaCode / CodeContests ``OutputsMatch`` (execution/tester_sandboxer.cc):
    both byte strings are split on any of " \\n\\t\\r\\v" (empty parts dropped) and their ASCII
    letters lower-cased (C++ bytes: no UTF-8 decoding, so two different invalid bytes differ); equal
    token lists pass; otherwise the counts must match and each pair must "match": if either
    token is not a number (neither a 32-bit int by ``absl::SimpleAtoi`` nor a double by
    ``absl::SimpleAtod``) the two must be equal strings; else if either parses as a double --
    which every int also does, so the integer branch of the original is never reached -- they
    match when ``|a - b| < 1e-5`` (absolute, strict; NaN and equal infinities never match);
    else as ints. Consequence kept on purpose: integers beyond 2^53 are compared as doubles, and
    a token of thousands of digits is a double (or infinity), never a Python int.

``sandboxfusion`` -- SandboxFusion's ``check_stdio_test_case`` (sandbox/utils/testing.py), what
its online judge does for stdio tests and so what `judge serve`'s /submit uses by default:
    both texts are stripped and split on "\n"; a single extra empty last line on either side is
    dropped; the line counts must match; each pair of lines, lower-cased and stripped, must be
    equal, or else both must parse as Python floats within a relative 1e-5 of the answer
    (``|a - b| / max(|b|, 1e-10) < 1e-5``; NaN never matches).
"""
from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Callable, Iterator
from decimal import Decimal, InvalidOperation
from typing import TypeVar

from judge.harness.functional import decode_result, load_answer, show

Comparison = tuple[str, str]   # ("OK" or "WA", message)


def _text(b: bytes) -> str:
    return b.decode("utf-8", errors="replace")


def _short(s: str, n: int = 60) -> str:
    return s if len(s) <= n else s[: n // 2] + "..." + s[-n // 2:]


def _total(compare: Callable[[bytes, bytes, bytes], Comparison]) -> Callable[[bytes, bytes, bytes], Comparison]:
    """The comparator as the judge calls it. Each comparator handles every output itself (a
    test feeds them random and hostile bytes); this is the last guard that an output can never
    crash the judge's process, turn into SE and leave the metrics: what the comparison cannot
    digest is not the benchmark's accepted answer, so WA. The message is made UTF-8-safe
    (a JSON string can hold a lone surrogate) for the reports and HTTP answers it reaches."""
    @functools.wraps(compare)
    def total(input: bytes, output: bytes, answer: bytes) -> Comparison:
        try:
            word, message = compare(input, output, answer)
        except Exception as exc:    # noqa: BLE001 -- any output gets a word, never an exception
            word, message = "WA", f"the output could not be compared ({type(exc).__name__})"
        return word, message.encode("utf-8", "backslashreplace").decode("utf-8")
    return total


# ----------------------------------------------------------------------------- LiveCodeBench

# The comparisons walk the texts a line or a token at a time and count before they walk: an
# output of millions of short lines (which `split` turned into millions of objects, 25 to 50
# times the output's size) costs one decoded copy of the output, whatever its shape
# (docs/design/9-service.md §9.1).

# The texts are cut into windows of about this many characters, each split at C speed.
_WINDOW = 1 << 16

AnyStr = TypeVar("AnyStr", str, bytes)


def _split(s: AnyStr, separator: AnyStr) -> Iterator[AnyStr]:
    """s.split(separator), a window of parts at a time."""
    start = 0
    while (end := s.find(separator, start + _WINDOW)) >= 0:
        yield from s[start:end].split(separator)
        start = end + 1
    yield from s[start:].split(separator)


def _lines(s: str) -> Iterator[str]:
    return _split(s, "\n")


def _line_count(s: str) -> int:
    return s.count("\n") + 1


def _last_line(s: str) -> str:
    return s[s.rfind("\n") + 1:]


def _decimals(line: str) -> list[Decimal] | None:
    try:
        return [Decimal(tok) for tok in line.split()]
    except (InvalidOperation, ValueError, TypeError):
        return None


def _decimal_lists_equal(a: list[Decimal], b: list[Decimal]) -> bool:
    if len(a) != len(b):
        return False
    try:
        return all(x == y for x, y in zip(a, b, strict=True))
    except InvalidOperation:          # signalling NaN compared: not equal, as in Python's list ==
        return False


def _check_lcb(input: bytes, output: bytes, answer: bytes) -> Comparison:
    out_text, ans_text = _text(output).strip(), _text(answer).strip()
    out_count, ans_count = _line_count(out_text), _line_count(ans_text)
    if out_count != ans_count:
        return "WA", (f"Wrong answer: mismatched output length: {out_count} lines, "
                      f"expected {ans_count}")
    for i, (o, a) in enumerate(zip(_lines(out_text), _lines(ans_text), strict=True)):
        o, a = o.strip(), a.strip()
        if o == a:
            continue
        do = _decimals(o)
        da = _decimals(a)
        if do is not None and da is not None and _decimal_lists_equal(do, da):
            continue
        return "WA", f"Wrong answer at line {i + 1}: {_short(o)!r} != {_short(a)!r}"
    return "OK", f"{ans_count} lines match"


# The driver's encoding of a value equal to the answer is at most a few times the answer's JSON
# (a float 1e15 prints as 1000000000000000.0, 0 can be `false`, "\x7f" is "\u007f", {} is
# {"dict": []}); a last line far longer is WA without being parsed, which bounds the memory a
# crafted output (a few MB of `[[],[],...]` becomes a GB of lists) can take in the judge.
_FUNCTIONAL_RATIO = 16
_FUNCTIONAL_SLACK = 1 << 20


def _check_lcb_functional(input: bytes, output: bytes, answer: bytes) -> Comparison:
    try:
        expected = load_answer(_text(answer))
    except ValueError as e:
        return "WA", f"answer is not JSON: {e}"   # the grade layer reports bad data separately
    text = _text(output)
    try:
        got = decode_result(text, max_chars=_FUNCTIONAL_RATIO * len(answer) + _FUNCTIONAL_SLACK)
    except ValueError as e:
        return "WA", (f"output is not the harness's return value ({_short(str(e), 120)}): "
                      f"{_short(text.strip())!r}")
    try:
        equal = got == expected
    except (RecursionError, TypeError, ValueError, OverflowError):
        equal = False
    if equal:
        return "OK", "return value matches"
    return "WA", f"Wrong Answer: {show(got)} != {show(expected)}"


# ----------------------------------------------------------------------------- CodeContests

_INT = re.compile(rb"[+-]?[0-9]++")
# Possessive quantifiers: a run of digits is never given back, so a token of millions of digits
# that fails at its last byte costs one pass ("[0-9]+\.?[0-9]*" tried every split of the run:
# quadratic, 26 s for 40000 digits and an "x").
_FLOAT = re.compile(rb"[+-]?(?:[0-9]++(?:\.[0-9]*+)?|\.[0-9]++)(?:e[+-]?[0-9]++)?")
_SPECIAL = re.compile(rb"-?(?:inf|infinity|nan(?:\([0-9a-z_]*\))?)")
_I32_MIN, _I32_MAX = -(2 ** 31), 2 ** 31 - 1
_I32_DIGITS = 10


_CC_SPLIT = re.compile(rb"[ \n\t\r\v]+")


_CC_SEPARATOR = re.compile(rb"[ \n\t\r\v]")


def _cc_normal(b: bytes) -> bytes:
    """b's tokens (split on " \n\t\r\v", empty ones dropped), lower-cased (bytes.lower: ASCII
    letters only), joined by single spaces: equal token lists have equal normal forms. Built a
    window at a time (each cut at a separator), so no list of all the tokens is ever held."""
    normal, start = bytearray(), 0
    while start < len(b):
        cut = _CC_SEPARATOR.search(b, start + _WINDOW)
        end = cut.start() if cut else len(b)
        tokens = [t for t in _CC_SPLIT.split(b[start:end].lower()) if t]
        if tokens:
            normal += (b" " if normal else b"") + b" ".join(tokens)
        start = end + 1
    return bytes(normal)


def _cc_count(normal: bytes) -> int:
    return normal.count(b" ") + 1 if normal else 0


def _simple_atoi(t: bytes) -> int | None:
    if not _INT.fullmatch(t):
        return None
    # More significant digits than 2^31 has overflow SimpleAtoi: never converted, so a token of
    # any length costs nothing (Python's int() refuses more than 4300 digits, leading zeros too).
    sign = t[:1] if t[:1] in (b"+", b"-") else b""
    digits = t[len(sign):].lstrip(b"0") or b"0"
    if len(digits) > _I32_DIGITS:
        return None
    v = int(sign + digits)
    return v if _I32_MIN <= v <= _I32_MAX else None


def _simple_atod(t: bytes) -> float | None:
    # absl::SimpleAtod: optional '+' (not followed by '-'), then absl::from_chars general format;
    # out-of-range values become +-inf. Tokens arrive lower-cased.
    body = t[1:] if t.startswith(b"+") and not t.startswith(b"+-") else t
    if _FLOAT.fullmatch(body):
        return float(body)          # 1e999 -> inf, like SimpleAtod's out-of-range handling
    if _SPECIAL.fullmatch(body):
        neg = body.startswith(b"-")
        if b"nan" in body:
            return math.nan
        return -math.inf if neg else math.inf
    return None


def _shown(token: bytes) -> str:
    return repr(_short(token.decode("utf-8", errors="backslashreplace")))


def _cc_values_match(a: bytes, b: bytes) -> bool:
    ai, bi = _simple_atoi(a), _simple_atoi(b)
    ad, bd = _simple_atod(a), _simple_atod(b)
    a_str = ai is None and ad is None
    b_str = bi is None and bd is None
    if a_str or b_str:
        return a == b
    if ad is not None or bd is not None:
        if ad is None or bd is None:   # unreachable: an int always parses as a double
            return False
        return abs(ad - bd) < 1e-5
    return ai == bi


def _check_codecontests(input: bytes, output: bytes, answer: bytes) -> Comparison:
    out, ans = _cc_normal(output), _cc_normal(answer)
    # Equal token lists pass as a whole (two "nan"s included) before any pair is matched.
    if out == ans:
        return "OK", f"{_cc_count(ans)} tokens match"
    if _cc_count(out) != _cc_count(ans):
        return "WA", f"{_cc_count(out)} tokens, expected {_cc_count(ans)}"
    for i, (o, a) in enumerate(zip(_split(out, b" "), _split(ans, b" "), strict=True)):
        if not _cc_values_match(o, a):
            return "WA", f"token {i + 1} differs: {_shown(o)} != {_shown(a)}"
    return "OK", f"{_cc_count(ans)} tokens match"


def _python_float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _check_sandboxfusion(input: bytes, output: bytes, answer: bytes) -> Comparison:
    out_text, ans_text = _text(output).strip(), _text(answer).strip()
    out_count, ans_count = _line_count(out_text), _line_count(ans_text)
    if out_count - ans_count == 1 and _last_line(out_text) == "":
        out_count -= 1
    if ans_count - out_count == 1 and _last_line(ans_text) == "":
        ans_count -= 1
    if out_count != ans_count:
        return "WA", f"{out_count} lines, expected {ans_count}"
    pairs = zip(itertools.islice(_lines(out_text), out_count),
                itertools.islice(_lines(ans_text), ans_count), strict=True)
    for i, (o, a) in enumerate(pairs):
        got, wanted = o.lower().strip(), a.lower().strip()
        if got == wanted:
            continue
        x, y = _python_float(wanted), _python_float(got)
        if x is not None and y is not None and abs(y - x) / max(abs(x), 1e-10) < 1e-5:
            continue
        return "WA", f"line {i + 1} differs: {_short(got)!r} != {_short(wanted)!r}"
    return "OK", f"{ans_count} lines match"


check_lcb = _total(_check_lcb)
check_lcb_functional = _total(_check_lcb_functional)
check_codecontests = _total(_check_codecontests)
check_sandboxfusion = _total(_check_sandboxfusion)

# Every entry is total (`_total`); `.__wrapped__` is the comparison itself, which the fuzz test
# (tests/test_comparators_total.py) holds to the same promise without the guard.
DATASET_COMPARATORS: dict[str, Callable[[bytes, bytes, bytes], Comparison]] = {
    "lcb": check_lcb,
    "lcb-functional": check_lcb_functional,
    "codecontests": check_codecontests,
    "sandboxfusion": check_sandboxfusion,
}


def compare_as_dataset(name: str, input: bytes, output: bytes, answer: bytes) -> Comparison:
    try:
        fn = DATASET_COMPARATORS[name]
    except KeyError:
        from judge import JudgeError
        raise JudgeError(f"unknown dataset comparator {name!r}; known: {sorted(DATASET_COMPARATORS)}") from None
    return fn(input, output, answer)


__all__ = ["DATASET_COMPARATORS", "compare_as_dataset", "check_lcb", "check_lcb_functional",
           "check_codecontests", "check_sandboxfusion"]
