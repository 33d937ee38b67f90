"""Every dataset comparator is total (docs/design/5-compilation-and-checkers.md §5.5): it runs in
the judge's own process on bytes the submission chose, so any output gets OK or WA as the benchmark
decides, never an exception (an exception is SE: the sample leaves the metrics, `judge.api.grade`
raises and the service answers 500). A seeded fuzzer feeds thousands of hostile outputs to each
comparison without its last guard (`__wrapped__`), and the crashes found once stay fixed."""
from __future__ import annotations

import json
import random
import time
import tracemalloc

import pytest

from conftest import next_slot, quiet_cpu, scaled
from judge.checkers.dataset_comparators import DATASET_COMPARATORS
from judge.harness.functional import check_tests, functional_program
from judge.problems.model import Problem
from judge.problems.model import TestCase as Case

WORDS = {"OK", "WA", "PE"}
GUARD = "the output could not be compared"
SEED = 43
CASES_PER_COMPARATOR = 3000
BIG_INT_TEXT = "1" + "0" * 5000          # str(10 ** 5000), which Python itself refuses to print


def functional_problem(tests=((b"1", b"1"),), func="f") -> Problem:
    return Problem("livecodebench/total", "t", "s", scaled(6000), 1024, "lcb-functional",
                   tuple(Case(i, o) for i, o in tests),
                   metadata={"testtype": "functional", "func_name": func})


def _driver_encoder():
    """The functional driver's own `_encode`, taken from the program it runs in the sandbox."""
    source = functional_program("def f(x):\n    return x\n", functional_problem(), "python")
    namespace: dict = {}
    exec(source.replace("\n_main()\n", "\n"), namespace)
    return namespace["_encode"]


_encode = _driver_encoder()


def driver_output(value) -> bytes:
    """What the functional driver prints for a returned `value`."""
    return ("\n" + json.dumps(_encode(value)) + "\n").encode()


def compare(name: str, output: bytes, answer: bytes) -> str:
    """The comparator's word as the judge asks for it, decided by the comparison itself."""
    word, message = DATASET_COMPARATORS[name](b"", output, answer)
    assert word in WORDS, (word, message)
    assert not message.startswith(GUARD), message
    message.encode("utf-8")
    return word


# ------------------------------------------------------------------------------ the crashes of issue 43

def test_codecontests_token_past_the_int_string_limit_is_a_double_not_a_crash():
    # Before: ValueError "Exceeds the limit (4300 digits) for integer string conversion".
    assert compare("codecontests", b"9" * 5000 + b"\n", b"1\n") == "WA"
    assert compare("codecontests", b"1 " + b"9" * 200_000, b"1 2") == "WA"
    assert compare("codecontests", b"9" * 5000, b"9" * 5000) == "OK"             # equal tokens
    assert compare("codecontests", b"-" + b"0" * 5000 + b"7", b"-7") == "OK"     # SimpleAtoi: -7
    # Tokens that differ as text are compared as doubles: both out of range, +inf, and equal
    # infinities never match in CodeContests.
    assert compare("codecontests", b"9" * 5000, b"9" * 4999 + b"8") == "WA"


def test_lcb_functional_returned_ten_to_the_5000_is_compared_exactly():
    # Before: ValueError from the message's repr of the int (WA path), so SE.
    returned = driver_output(10 ** 5000)
    assert compare("lcb-functional", returned, b"1") == "WA"
    assert compare("lcb-functional", returned, b"[10]") == "WA"
    # LiveCodeBench reads answers of up to 50000 digits and compares with ==.
    assert compare("lcb-functional", returned, BIG_INT_TEXT.encode()) == "OK"
    assert compare("lcb-functional", driver_output(10 ** 5000 + 1), BIG_INT_TEXT.encode()) == "WA"
    assert compare("lcb-functional", driver_output(float(1)), BIG_INT_TEXT.encode()) == "WA"
    assert compare("lcb-functional", driver_output([10 ** 5000, (1, 2)]),
                   b"[" + BIG_INT_TEXT.encode() + b", [1, 2]]") == "WA"     # (1, 2) != [1, 2]
    check_tests(functional_problem(tests=((b"1", BIG_INT_TEXT.encode()),)))


def test_lcb_functional_crafted_line_cannot_overflow_a_float():
    # Before: OverflowError "int too large to convert to float" from complex(<huge int>, 0).
    crafted = b'{"complex": [{"int": "' + b"f" * 2000 + b'"}, 0]}'
    assert compare("lcb-functional", crafted, b"1") == "WA"
    assert compare("lcb-functional", b'{"complex": [1e999, -1e999]}', b"1") == "WA"
    assert compare("lcb-functional", driver_output(complex(1, 0)), b"1") == "OK"   # 1+0j == 1


def test_lcb_functional_hostile_lines():
    for line in (b'{"set": [[1]]}', b'{"dict": [[[1], 2]]}', b'{"dict": [1]}', b'{"dict": [[1, 2, 3]]}',
                 b'{"int": 5}', b'{"int": "zz"}', b'{"bytes": "z"}', b'{"tuple": 5}', b'{}',
                 b'{"opaque": 1, "repr": 2}', b'{"opaque": "\\ud800", "repr": "\\udfff"}',
                 b"[" * 100_000, b'{"tuple": ' * 50_000, b"9" * 60_000, b"-" + b"9" * 60_000,
                 b"1e999999999", b"NaN", b"-Infinity", b"10**10**10", b"\x00", b"\xff\xfe",
                 b'"\\ud800"', b'{"frozenset": [NaN, NaN]}'):
        assert compare("lcb-functional", line, b"[0, 1]") == "WA", line[:40]
    # A message quoting a lone surrogate (a JSON string can hold one) stays valid UTF-8.
    word, message = DATASET_COMPARATORS["lcb-functional"](b"", b'["\\ud800"]', b"[0]")
    assert word == "WA" and "\\ud800" in message
    message.encode("utf-8")


def test_a_huge_functional_line_is_not_parsed():
    """`[[],[],...]` of 15 MB would be a GB of lists in the judge: a last line far longer than
    any encoding of the answer is WA unread."""
    hostile = b"[" + b"[]," * 5_000_000 + b"[]]"
    tracemalloc.start()
    try:
        started = time.monotonic()
        assert compare("lcb-functional", hostile, b"[[], []]") == "WA"
        elapsed = time.monotonic() - started
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100 << 20, peak
    assert elapsed < scaled(10_000) / 1000
    # The bound is far above what a value equal to the answer prints (floats and booleans
    # print longer than the answer wrote them).
    answer = json.dumps([1e15] * 1000 + [0] * 1000 + ["\x7f" * 50] + [{}] * 100).encode()
    value = [1e15] * 1000 + [False] * 1000 + ["\x7f" * 50] + [{}] * 100
    assert compare("lcb-functional", driver_output(value), answer) == "OK"


@pytest.mark.parametrize("name", sorted(DATASET_COMPARATORS))
def test_every_comparator_survives_huge_and_binary_outputs_quickly(name):
    hostile = (b"9" * 10_000_000, b"9" * 10_000_000 + b"x", b"." + b"9" * 1_000_000 + b"e",
               b"-" + b"9" * 5000 + b".5e-999999999", b"1e999999999 -1e999999999",
               b"1" + b"0" * 400 + b"e" + b"9" * 30, b"10**10**10", b"[" * 1_000_000, b"]" * 1000,
               b"\x00" * 1_000_000, b"\xff" * 100_000 + b"\n1", b"\xed\xa0\x80", b"nan nan",
               b"sNaN", b"-snan\n-snan", b"inf\ninfinity", b"1_000", "\u0661\u0662".encode(),
               b"0x1p3", b"\x0b\x0c\r\n", b"", b"\n\n\n")
    answers = (b"1", b"0.5\n", b"[0, 1]", b"9" * 5000, b"nan", b"sNaN", b"YES\n")
    for output in hostile:
        for answer in answers:
            started = time.monotonic()
            compare(name, output, answer)
            assert time.monotonic() - started < scaled(10_000) / 1000, (name, output[:40])


def test_invalid_bytes_are_not_all_one_character_to_codecontests():
    # CodeContests compares C++ bytes; decoding with replacement made b"\xff" equal b"\xfe".
    assert compare("codecontests", b"\xff\n", b"\xfe\n") == "WA"
    assert compare("codecontests", b"\xff", b"\xff") == "OK"
    assert compare("codecontests", "\u00c9".encode(), "\u00e9".encode()) == "WA"   # ASCII lower-casing
    assert compare("codecontests", b"YES", b"yes") == "OK"


# ------------------------------------------------------------------------------ the fuzzer

_NASTY = (b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbf\xbd", b"\n", b"\r", b"\x0b", b"\x0c",
          b" ", b"\t", b"[", b"]", b"{", b"}", b'"', b"\\", b",", b":", b"-", b"+", b".", b"e",
          b"E", b"nan", b"NaN", b"inf", b"Infinity", b"-Infinity", b"1e999999999", b"1e-999999999",
          b"null", b"true", b"false", b'{"int": "', b'{"tuple": [', b'{"dict": [[', b'{"set": [',
          b'{"complex": [', b'{"bytes": "', b'{"opaque": "x", "repr": "', b"\\ud800", b"\\u0000",
          b"_", "\u0661".encode(), b"0x", b"sNaN", b"10**10**10")
_LENGTHS = (1, 2, 9, 10, 11, 19, 20, 300, 4299, 4300, 4301, 5000, 20_000, 50_000, 50_001, 200_000)


_TO_DIGITS = bytes(b"0123456789"[i % 10] for i in range(256))
_TO_HEXISH = bytes(b"0123456789abcdef0123456789abcdefxz_ "[i % 36] for i in range(256))


def _digits(rng: random.Random, n: int) -> bytes:
    return rng.randbytes(n).translate(_TO_DIGITS)


def _number(rng: random.Random) -> bytes:
    n = rng.choice(_LENGTHS) if rng.random() < 0.3 else rng.randint(1, 30)
    body = _digits(rng, n)
    form = rng.randrange(8)
    if form == 1:
        body = b"0" * rng.randint(1, 50) + body
    elif form == 2:
        body = body + b"." + _digits(rng, rng.randint(0, 40))
    elif form == 3:
        body = body + rng.choice((b"e", b"E", b"e+", b"e-")) + _digits(rng, rng.choice((1, 3, 9, 12, 30, 400)))
    elif form == 4:
        body = b"." + body
    elif form == 5:
        body = rng.choice((b"nan", b"-nan", b"inf", b"-inf", b"infinity", b"NaN", b"Infinity",
                           b"nan(abc)", b"snan", b"-0", b"+0", b"0.0", b"-0.0", b"1_0", b"0x10"))
    return rng.choice((b"", b"", b"-", b"+", b"+-", b"--")) + body


def _tagged(rng: random.Random, depth: int = 0) -> str:
    """A JSON text in (and around) the functional driver's encoding."""
    pick = rng.randrange(16 if depth < 6 else 5)
    if pick == 0:
        return _number(rng).decode()
    if pick == 1:
        return rng.choice(('"a"', '"\\ud800"', '"\\u0000"', '""', '"\\"', '"x\\ny"'))
    if pick == 2:
        return rng.choice(("null", "true", "false", "NaN", "Infinity", "-Infinity", "1e999", "-0.0"))
    if pick == 3:
        hexish = rng.randbytes(rng.choice(_LENGTHS)).translate(_TO_HEXISH).decode()
        return '{"int": "' + rng.choice(("-", "")) + hexish + '"}'
    if pick == 4:
        return '{"bytes": "' + rng.choice(("00ff", "z", "0", "")) + '"}'
    inner = ", ".join(_tagged(rng, depth + 1) for _ in range(rng.randint(0, 4)))
    if pick in (5, 6):
        return "[" + inner + "]"
    if pick == 7:
        return '{"tuple": [' + inner + "]}"
    if pick == 8:
        return '{"set": [' + inner + "]}"
    if pick == 9:
        return '{"frozenset": [' + inner + "]}"
    if pick == 10:
        pairs = ", ".join(f"[{_tagged(rng, depth + 1)}, {_tagged(rng, depth + 1)}]"
                          for _ in range(rng.randint(0, 3)))
        return '{"dict": [' + rng.choice((pairs, inner)) + "]}"
    if pick == 11:
        return '{"complex": [' + inner + "]}"
    if pick == 12:
        return '{"opaque": ' + _tagged(rng, depth + 1) + ', "repr": ' + _tagged(rng, depth + 1) + "}"
    if pick == 13:
        return '{"' + rng.choice(("evil", "int", "tuple", "")) + '": ' + _tagged(rng, depth + 1) + "}"
    if pick == 14:
        return "[" * rng.choice((10, 900, 1000, 5000, 100_000)) + inner
    return '{"tuple": ' * rng.choice((10, 900, 5000)) + "[]" + "}" * rng.choice((0, 10, 900, 5000))


def _hashable(value) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _value(rng: random.Random, depth: int = 0):
    """A Python value a submission could return."""
    pick = rng.randrange(12 if depth < 4 else 6)
    if pick == 0:
        return rng.choice((0, 1, -1, 2 ** 31, 2 ** 53 + 1, 10 ** rng.choice((20, 1300, 5000, 20_000))))
    if pick == 1:
        return rng.choice((0.5, -0.0, 1e15, 1e308, float("inf"), float("nan"), 0.1 + 0.2))
    if pick == 2:
        return rng.choice((True, False, None))
    if pick == 3:
        return rng.choice(("", "a", "\x7f", "\u00e9", "\ud800", "\x00"))
    if pick == 4:
        return rng.choice((b"", b"\xff", bytearray(b"a")))
    if pick == 5:
        return complex(rng.random(), rng.choice((0.0, 1.0)))
    items = [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if pick in (6, 7):
        return items
    if pick == 8:
        return tuple(items)
    hashable = [x for x in items if _hashable(x)]
    if pick == 9:
        return set(hashable)
    if pick == 10:
        return frozenset(hashable)
    return {k: rng.choice(items) if items else None for k in hashable}


def _random_bytes(rng: random.Random) -> bytes:
    n = rng.choice((0, 1, 2, 5, 20, 100, 1000, 5000))
    if rng.random() < 0.5:
        return rng.randbytes(n)
    return b"".join(rng.choice(_NASTY + (_number(rng),)) for _ in range(max(1, n // 4)))


def _mutate(rng: random.Random, data: bytes) -> bytes:
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(6)
        at = rng.randint(0, len(data))
        if op == 0 and data:
            i = rng.randrange(len(data))
            data = data[:i] + bytes([rng.randrange(256)]) + data[i + 1:]
        elif op == 1:
            data = data[:at] + rng.choice(_NASTY) + data[at:]
        elif op == 2:
            data = data[:at] + _number(rng) + data[at:]
        elif op == 3:
            data = data[:at] + data[rng.randint(at, len(data)):]
        elif op == 4:
            data = data[:at] * rng.randint(1, 3) + data[at:]
        else:
            data = data[:at]
    return data


_ANSWERS = {
    "text": (b"3\n1 2 3\n", b"0.5\n", b"YES\n", b"-7", b"1 " + BIG_INT_TEXT.encode(), b"abc def\n",
             b"1.000001 2e5\n", b"\n", b"nan", b"inf"),
    "lcb-functional": (b"[0, 1]", b"1", b'"abc"', b"[[1, 2], [3]]", b'{"a": [1, 2]}', b"null", b"true",
                       b"1.5", BIG_INT_TEXT.encode(), b"NaN", b"[]", b"-1e999", b'{"1": {"2": []}}'),
}


def _output(rng: random.Random, name: str, answer: bytes) -> bytes:
    kind = rng.randrange(6)
    if kind == 0:
        return _random_bytes(rng)
    if kind == 1:
        return b" ".join(_number(rng) for _ in range(rng.randint(1, 4)))
    if kind == 2:
        return _mutate(rng, answer)
    if name == "lcb-functional":
        if kind == 3:
            return _tagged(rng).encode()
        line = driver_output(_value(rng))
        return _mutate(rng, line) if kind == 4 else line
    if kind == 3:
        return rng.choice((b"[", b"(", b"{")) * rng.choice((10, 1000, 100_000))
    return _mutate(rng, answer) + b"\n" + _random_bytes(rng)


@pytest.mark.parametrize("name", sorted(DATASET_COMPARATORS))
def test_fuzz_every_comparison_gives_a_word_for_any_output(name):
    """Thousands of seeded hostile outputs (random bytes, numbers of every length and syntax,
    nested brackets and tags, mutated right answers), and some hostile answers, through the
    comparison itself, without the guard: a word each time, never an exception, each quickly."""
    compare_raw = DATASET_COMPARATORS[name].__wrapped__
    rng = random.Random(f"{SEED}:{name}")
    answers = _ANSWERS.get(name, _ANSWERS["text"])
    seen: dict[str, int] = {}
    slowest = 0.0
    for case in range(CASES_PER_COMPARATOR):
        answer = rng.choice(answers) if rng.random() < 0.9 else _output(rng, name, rng.choice(answers))
        output = _output(rng, name, answer)
        started = time.monotonic()
        try:
            word, message = compare_raw(b"", output, answer)
        except Exception as exc:    # noqa: BLE001 -- the failure this test exists to report
            pytest.fail(f"{name} case {case} raised {type(exc).__name__}: {exc!s:.200}\n"
                        f"output {output[:200]!r}\nanswer {answer[:200]!r}")
        slowest = max(slowest, time.monotonic() - started)
        assert word in WORDS and isinstance(message, str), (case, word, message)
        seen[word] = seen.get(word, 0) + 1
        if name != "lcb-functional":     # the same text is always its own right answer
            assert compare_raw(b"", output, output)[0] == "OK", (case, output[:200])
    assert seen.get("WA", 0) > CASES_PER_COMPARATOR // 2 and seen.get("OK", 0) > 0, seen
    assert slowest < scaled(5_000) / 1000, slowest


# ------------------------------------------------------------------------------ through the grader

def test_grading_a_huge_wrong_answer_is_wa_not_se(require_sandbox):
    from judge.grade import Grader
    huge_token = Problem("codecontests/total", "t", "s", scaled(6000), 256, "codecontests",
                         (Case(b"", b"1\n"),))
    functional = functional_problem(tests=((b"1", b"1"),))
    exact = functional_problem(tests=((b"1", BIG_INT_TEXT.encode()),))
    with Grader(slot=next_slot(), cpu=quiet_cpu()) as grader:
        printed = grader.grade("print('9' * 5000)\n", "python", huge_token)
        assert printed.verdict == "WA", printed.to_dict()
        returned = grader.grade("def f(x):\n    return 10 ** 5000 * x\n", "python", functional)
        assert returned.verdict == "WA", returned.to_dict()
        assert "integer of 16610 bits" in returned.tests[0].checker_message
        right = grader.grade("def f(x):\n    return 10 ** 5000 * x\n", "python", exact)
        assert right.verdict == "AC", right.to_dict()


# ------------------------------------------------------------------------------ streaming, same words

def _reference_lcb(output: bytes, answer: bytes) -> str:
    """The comparisons as they were written over whole lists (the benchmarks' own shape), the
    oracle the streaming ones are held to."""
    from judge.checkers.dataset_comparators import _decimal_lists_equal, _decimals
    out = [line.strip() for line in output.decode("utf-8", "replace").strip().split("\n")]
    ans = [line.strip() for line in answer.decode("utf-8", "replace").strip().split("\n")]
    if len(out) != len(ans):
        return "WA"
    for o, a in zip(out, ans, strict=True):
        do, da = _decimals(o), _decimals(a)
        if o != a and not (do is not None and da is not None and _decimal_lists_equal(do, da)):
            return "WA"
    return "OK"


def _reference_codecontests(output: bytes, answer: bytes) -> str:
    import re

    from judge.checkers.dataset_comparators import _cc_values_match
    out = [t.lower() for t in re.split(rb"[ \n\t\r\v]+", output) if t]
    ans = [t.lower() for t in re.split(rb"[ \n\t\r\v]+", answer) if t]
    if out == ans:
        return "OK"
    if len(out) != len(ans):
        return "WA"
    return "OK" if all(_cc_values_match(o, a) for o, a in zip(out, ans, strict=True)) else "WA"


def _reference_sandboxfusion(output: bytes, answer: bytes) -> str:
    from judge.checkers.dataset_comparators import _python_float
    out = output.decode("utf-8", "replace").strip().split("\n")
    ans = answer.decode("utf-8", "replace").strip().split("\n")
    if len(out) - len(ans) == 1 and out[-1] == "":
        out = out[:-1]
    if len(ans) - len(out) == 1 and ans[-1] == "":
        ans = ans[:-1]
    if len(out) != len(ans):
        return "WA"
    for o, a in zip(out, ans, strict=True):
        got, wanted = o.lower().strip(), a.lower().strip()
        x, y = _python_float(wanted), _python_float(got)
        if got != wanted and not (x is not None and y is not None
                                  and abs(y - x) / max(abs(x), 1e-10) < 1e-5):
            return "WA"
    return "OK"


REFERENCES = {"lcb": _reference_lcb, "codecontests": _reference_codecontests,
              "sandboxfusion": _reference_sandboxfusion}
_SPACING = (b"\n", b"\r\n", b" \n", b"\n\n", b"\t", b"\x85", "\u2028".encode(), b"\x0b", b"")


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_the_streaming_comparisons_give_the_whole_list_words(name):
    """A line or a token at a time (so an output of millions of lines costs one copy), with the
    same word as the comparison over whole lists for the fuzzer's outputs and for right answers
    spaced every way (line ends, blank lines, Unicode spaces the text's strip takes and a
    split on newlines does not)."""
    rng = random.Random(f"{SEED}:stream:{name}")
    streaming, reference = DATASET_COMPARATORS[name].__wrapped__, REFERENCES[name]
    for case in range(CASES_PER_COMPARATOR):
        answer = rng.choice(_ANSWERS["text"])
        if case % 2:
            output = _output(rng, name, answer)
        else:
            parts = answer.split()
            output = b"".join(p + rng.choice(_SPACING) for p in parts) + rng.choice(_SPACING)
        assert streaming(b"", output, answer)[0] == reference(output, answer), (output, answer)


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_checking_millions_of_lines_takes_about_one_copy_of_the_output(name):
    """Two-byte lines were 25 to 50 times their size in the judge's memory once split into
    lists; now a wrong line count costs the decoded and stripped copies of the output, and a
    right one (as many lines as the answer) those of both texts, and a window's parts (about
    2 MiB at most) besides."""
    output = b"1\n" * (1 << 20)
    window = 2 << 20
    for answer, bound in ((b"1\n", 3 * len(output) + window), (output, 6 * len(output) + window)):
        tracemalloc.start()
        try:
            DATASET_COMPARATORS[name](b"", output, answer)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < bound, (name, len(answer), peak)
