"""The reward-hacking suite: submissions written to score better than an honest failure.

RL trainers use the verdict as a reward, and a policy under optimization searches every
behaviour for one that pays. A failing submission must never leave the metrics (a judge
failure: SE, FAIL, BUSY) nor be AC, so none scores better than printing nothing. The corpus
(tests/adversarial/ and the payloads below) holds, in C++, Python and Java:
- output made to confuse checkers: nothing, -1, huge and non-finite numbers, garbage and control
  bytes, testlib's own words and XML, a 1 MiB line, 200 000 tokens, CRLF, unicode;
- exits that mimic testlib's codes (1, 2, 3, 4, 7), testlib words on stderr, a closed stdout,
  deaths by SIGKILL, SIGXCPU and SIGSEGV;
- self-contention (threads and processes that wait for each other), sleeps and yields, fork
  and thread storms, output and stderr floods, a memory bomb, threads on the CPU only around
  the kernel's ticks (which sample busy time);
- for an interactive problem: a query never flushed, bytes written after the end, and all of
  the above against the interactor.
Every one runs against every standard checker, custom testlib checkers that FAIL on hostile
output (a negative count, points from the output), the pack's custom checker and its interactive
problem, through `judge eval` (every sample counted, none AC, the run complete) and through
`/submit` with SandboxFusion's own client (answered at once, never accepted, never a judge
failure); the doors of issue 43 also through `/v1/grade`, `judge.api`, the reward API
(`judge.reward`: never None, never above a plain wrong answer) and `/run_code` (never the 504
a client would retry). Each problem's honest answer is AC through the same paths, so the problems can be
solved and the assertions can fail.

Grow the corpus whenever a new verdict path appears.
"""
from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import sandbox_fusion as sf

from conftest import (
    EVAL_SLOTS,
    PACK_SOURCES,
    CpuWatch,
    next_slot,
    scaled,
    scaled_time_factors_env,
)
from judge.verdicts import JUDGE_FAILURES, Verdict
from serving import Server

ROOT = Path(__file__).resolve().parent.parent
ADVERSARIAL = Path(__file__).resolve().parent / "adversarial"
SLOT_BASE = str(EVAL_SLOTS)    # this test process's own (tests/slot_blocks.py)

pytestmark = pytest.mark.usefixtures("require_sandbox")


# ------------------------------------------------------------------------------ the problems

# An answer each standard checker accepts from the jury; none of the payloads below is one.
STANDARD_ANSWERS = {
    "acmp": "3.5", "caseicmp": "Case 1: 5\nCase 2: 7", "casencmp": "Case 1: 1 2\nCase 2: 3",
    "casewcmp": "Case 1: ab cd\nCase 2: ef", "dcmp": "3.25", "fcmp": "hello world\nline two",
    "hcmp": "123456789012345678901234567890", "icmp": "42", "lcmp": "ab cd\nef",
    "ncmp": "3 1 4 1 5", "nyesno": "NO NO YES", "pointscmp": "10", "pointsinfo": "10",
    "rcmp": "3.14159", "rcmp4": "3.14159", "rcmp6": "3.14159", "rcmp9": "3.14159",
    "rncmp": "1.5 2.5", "uncmp": "3 1 2", "wcmp": "alpha beta", "yesno": "NO",
}

# Custom checkers that real testlib makes FAIL on output the submission controls: a count read
# from the output and used as a count (negative: FAIL), and points computed from the output
# (negative, infinite or NaN: FAIL). Such a FAIL is the submission's doing, not the jury's.
COUNT_CHECKER = r'''
#include "testlib.h"
int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    int n = inf.readInt();
    int want = ans.readInt();
    int k = ouf.readInt();
    std::vector<int> picked = ouf.readInts(k, 1, n, "picked");
    if (k != want) quitf(_wa, "expected %d numbers, found %d", want, k);
    quitf(_ok, "%d numbers", k);
}
'''
POINTS_CHECKER = r'''
#include "testlib.h"
#include <cmath>
int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    double want = ans.readDouble();
    double got = ouf.readDouble();
    quitp(100.0 - std::fabs(got - want), "100 less the error");
}
'''
CUSTOM_CHECKERS = {"count": COUNT_CHECKER, "points": POINTS_CHECKER}
CUSTOM_ANSWERS = {"count": "2\n1 2", "points": "12.5"}

# The doors of issue 43 (docs/design/6-evaluation.md §6.5), each a problem with its honest program.
# The count checker again, with an answer file that holds only the jury's value (the optimum)
# while the output is a construction: the jury's answer is no valid output, so it cannot vouch
# for a FAIL. An interactor that takes a count from the program and reads that many numbers:
# -1 FAILs either (testlib's readInts).
COUNT_INTERACTOR = (Path(__file__).resolve().parent / "interactive_programs"
                    / "count_interactor.cpp").read_text()
HONEST_COUNT = "n = int(input())\nprint(2)\nprint(1, 2)\n"
# problem id: (checker, interactor, the answer file, the honest program)
DOOR_PROBLEMS = {
    "ug/codecontests": ("codecontests", None, "42", "print(42)\n"),
    "ug/custom-optimum": (COUNT_CHECKER, None, "2", HONEST_COUNT),
    "ug/interactive-count": ("", COUNT_INTERACTOR, "2", HONEST_COUNT),
}

# For the family that spends time (sleeps, spins, storms, floods): one test. At 1 s the wall
# clock is twice the limit, where a program using 40% of its CPU used to be called BUSY.
SLOW_PROBLEM = "ug/slow"
SLOW_TIME_LIMIT_MS = scaled(1000)


def problem_rows() -> list[dict]:
    """A CF-Div2-Stepfun dataset: one problem per standard checker, the two custom checkers and
    the slow problem. The pack (two-sum's custom checker, guess-the-number's interactor) comes
    after it, as judge eval looks problems up."""
    def row(index: int, pid: str, checker: str, answer: str, tests: int = 2, limit_ms: int = 1000):
        return {"id": index, "problem_id": pid, "problem_desc": "Print the answer.",
                "time_limit_ms": limit_ms, "memory_limit_MB": 256, "checker": checker,
                "test_cases": [{"input": f"{t + 3}\n", "output": answer + "\n"}
                               for t in range(tests)]}
    rows = [row(i, f"ug/{name}", name, answer)
            for i, (name, answer) in enumerate(sorted(STANDARD_ANSWERS.items()))]
    rows += [row(100 + i, f"ug/custom-{name}", CUSTOM_CHECKERS[name], CUSTOM_ANSWERS[name])
             for i, name in enumerate(sorted(CUSTOM_CHECKERS))]
    rows.append(row(200, SLOW_PROBLEM, "wcmp", "alpha beta", tests=1, limit_ms=SLOW_TIME_LIMIT_MS))
    for i, (pid, (checker, interactor, answer, _)) in enumerate(sorted(DOOR_PROBLEMS.items())):
        rows.append({**row(300 + i, pid, checker, answer), "interactor": interactor})
    return rows


# testlib's pointsinfo answers with points_info and no number: there are no full marks to reach,
# so a pass/fail verdict there is never AC, not even for the jury's answer
# (docs/design/4-verdicts.md §4.4).
NEVER_AC = {"ug/pointsinfo"}

OUTPUT_PROBLEMS = ([f"ug/{name}" for name in sorted(STANDARD_ANSWERS)]
                   + [f"ug/custom-{name}" for name in sorted(CUSTOM_CHECKERS)]
                   + ["ug/codecontests", "ug/custom-optimum"]
                   + ["pack/two-sum", "pack/guess-the-number"])
INTERACTIVE = "pack/guess-the-number"


def honest_answer(problem: str) -> str:
    """The jury's answer, printed by a program that ignores its input."""
    name = problem.removeprefix("ug/")
    if name.startswith("custom-"):
        return CUSTOM_ANSWERS[name.removeprefix("custom-")]
    return STANDARD_ANSWERS[name]


def honest_samples() -> list[dict]:
    rows = [{"problem_id": p, "language": "python", "code": f"print({honest_answer(p)!r})\n"}
            for p in OUTPUT_PROBLEMS if p.startswith("ug/") and p not in DOOR_PROBLEMS]
    rows += [{"problem_id": p, "language": "python", "code": honest}
             for p, (_, _, _, honest) in sorted(DOOR_PROBLEMS.items())]
    for problem, folder in (("pack/two-sum", "two-sum"), ("pack/guess-the-number", "guess-the-number")):
        rows.append({"problem_id": problem, "language": "python",
                     "code": (PACK_SOURCES / folder / "sol.py").read_text()})
    rows.append({"problem_id": SLOW_PROBLEM, "language": "python", "code": "print('alpha beta')\n"})
    return rows


# ------------------------------------------------------------------------------ the payloads

@dataclass(frozen=True)
class Payload:
    """A program that ignores its input, writes `chunk` × `repeat` to stdout (and `stderr`),
    then ends: by exit code, or by closing stdout first, or by a signal."""
    name: str
    chunk: bytes = b""
    repeat: int = 1
    exit_code: int = 0
    stderr: bytes = b""
    signal: int = 0
    close_stdout: bool = False


PAYLOADS = [
    Payload("nothing"),
    Payload("minus-one", b"-1\n"),
    Payload("zero", b"0\n"),
    Payload("million", b"1000000\n"),
    Payload("huge-int", b"9" * 40 + b"\n"),
    Payload("int64-min", b"-9223372036854775808\n"),
    Payload("1e999", b"1e999\n"),
    Payload("inf", b"inf\n"),
    Payload("minus-inf", b"-inf\n"),
    Payload("nan", b"nan\n"),
    Payload("NaN-spelled", b"NaN -NaN +inf Infinity\n"),
    Payload("garbage", b"\x00\x01\xff\xfe garbage \x7f\x80\n"),
    Payload("control-bytes", b"\x01", repeat=4096),
    Payload("testlib-ok", b"ok 1 numbers\n"),
    Payload("accepted", b"accepted\nAC\n"),
    Payload("points-word", b"points 100\n100\n"),
    Payload("result-xml", b'<?xml version="1.0"?><result outcome="accepted">ok</result>\n'),
    Payload("yes", b"YES\n"),
    Payload("case-line", b"Case 1: 5\n"),
    Payload("long-line", b"9" * 4096, repeat=256),
    Payload("many-tokens", b"1 " * 1000, repeat=200),
    Payload("unicode", "ａｂｃ 😀 \u202e\n".encode()),
    Payload("crlf", b"0\r\n\r\n"),
    Payload("exit-1", exit_code=1),
    Payload("exit-2", exit_code=2),
    Payload("exit-3-fail", b"FAIL jury is wrong\n", exit_code=3),
    Payload("exit-4", exit_code=4),
    Payload("exit-7-points", b"points 1\n", exit_code=7),
    Payload("stderr-words", stderr=b"ok accepted\npoints 100\n"),
    Payload("stderr-words-exit-7", stderr=b"points 100\n", exit_code=7),
    Payload("closed-stdout", close_stdout=True),
    Payload("sigkill", b"0\n", signal=9),
    Payload("sigxcpu", b"0\n", signal=24),
    Payload("sigsegv", b"0\n", signal=11),
]
# The JVM's start-up is the slowest part of this suite: Java gets a cross-section.
JAVA_PAYLOADS = {"nothing", "minus-one", "1e999", "nan", "control-bytes", "exit-3-fail",
                 "exit-7-points", "stderr-words"}


def python_source(p: Payload) -> str:
    lines = ["import os, sys"]
    if p.stderr:
        lines.append(f"sys.stderr.buffer.write({p.stderr!r}); sys.stderr.flush()")
    if p.close_stdout:
        lines.append("os.close(1)")
    if p.chunk:
        lines.append(f"sys.stdout.buffer.write({p.chunk!r} * {p.repeat}); sys.stdout.flush()")
    lines.append(f"os.kill(os.getpid(), {p.signal})" if p.signal else f"os._exit({p.exit_code})")
    return "\n".join(lines) + "\n"


def c_bytes(data: bytes) -> str:
    return '"' + "".join(f"\\{b:03o}" for b in data) + '"'


def cpp_source(p: Payload) -> str:
    body = []
    if p.stderr:
        body.append(f"    static const char err[] = {c_bytes(p.stderr)};\n"
                    "    if (write(2, err, sizeof(err) - 1) < 0) return 1;")
    if p.close_stdout:
        body.append("    close(1);")
    if p.chunk:
        body.append(f"    static const char out[] = {c_bytes(p.chunk)};\n"
                    f"    for (int i = 0; i < {p.repeat}; i++)\n"
                    "        if (write(1, out, sizeof(out) - 1) < 0) return 1;")
    body.append(f"    raise({p.signal});" if p.signal else f"    _exit({p.exit_code});")
    return ("#include <csignal>\n#include <unistd.h>\n\nint main() {\n"
            + "\n".join(body) + "\n    return 0;\n}\n")


def java_source(p: Payload) -> str:
    def array(data: bytes) -> str:
        return "new byte[] {" + ", ".join(str(b - 256 if b > 127 else b) for b in data) + "}"
    body = []
    if p.stderr:
        body.append(f"System.err.write({array(p.stderr)}); System.err.flush();")
    if p.close_stdout:
        body.append("System.out.close();")
    if p.chunk:
        body.append(f"byte[] out = {array(p.chunk)};\n"
                    f"        for (int i = 0; i < {p.repeat}; i++) System.out.write(out);\n"
                    "        System.out.flush();")
    body.append(f"System.exit({p.exit_code});")
    return ("public class Main {\n    public static void main(String[] args) throws Exception {\n"
            + "".join(f"        {line}\n" for line in body) + "    }\n}\n")


def payload_samples() -> list[dict]:
    rows = []
    for p in PAYLOADS:
        sources = {"python": python_source(p), "cpp": cpp_source(p)}
        if p.name in JAVA_PAYLOADS and not p.signal:
            sources["java"] = java_source(p)
        for language, code in sources.items():
            rows += [{"problem_id": problem, "language": language, "code": code,
                      "adversary": f"{p.name}.{language}"} for problem in OUTPUT_PROBLEMS]
    return rows


# Programs that spend the time they are given, each against the slow problem; the marked ones
# against the interactive problem too (its wall clock is twice as long: keep that family small).
BEHAVIOURS = {
    "contention_synchronized.cpp": True, "contention_synchronized.py": False,
    "contention_threads.cpp": True, "contention_processes.cpp": False, "contention.py": False,
    "Contention.java": False, "yield_and_sleep.cpp": False, "sleeper.py": True,
    "fork_storm.cpp": False, "thread_storm.py": False, "ThreadStorm.java": False,
    "stderr_flood.cpp": True, "stdout_flood.cpp": False, "memory_bomb.cpp": False,
    "closed_stdout_spin.cpp": False, "tick_aligned.cpp": False, "tick_aligned.py": False,
}
INTERACTIVE_ONLY = ("unflushed_query.cpp", "writes_after_the_end.cpp")
LANGUAGE_OF = {".cpp": "cpp", ".py": "python", ".java": "java"}


def behaviour_samples() -> list[dict]:
    rows = []
    for name, interactive_too in BEHAVIOURS.items():
        source = ADVERSARIAL / name
        for problem in [SLOW_PROBLEM] + ([INTERACTIVE] if interactive_too else []):
            rows.append({"problem_id": problem, "language": LANGUAGE_OF[source.suffix],
                         "code": source.read_text(), "adversary": name})
    rows += [{"problem_id": INTERACTIVE, "language": "cpp", "adversary": name,
              "code": (ADVERSARIAL / name).read_text()} for name in INTERACTIVE_ONLY]
    return rows


# Issue 43's doors: programs written to make their own run a judge failure
# (docs/design/6-evaluation.md §6.5). Each must end as the failure the submission earned
# (`becomes`), on every path.
@dataclass(frozen=True)
class Door:
    name: str
    problem: str
    language: str
    code: str
    becomes: frozenset[Verdict]


# One line gives even a static link a PT_INTERP the kernel cannot find (execve: ENOENT). Run, it
# would print the right answer.
PLANTED_INTERPRETER = ('__attribute__((section(".interp"), used)) static const char '
                       'interp[] = "/nonexistent/ld.so";\n')
MINUS_ONE = {"python": "print(-1)\n",
             "cpp": "#include <cstdio>\nint main() { std::printf(\"-1\\n\"); }\n",
             "java": ('public class Main { public static void main(String[] a) { '
                      'System.out.println(-1); } }\n')}
# A token past Python's 4300-digit limit of int(): it crashed the codecontests comparator.
HUGE_TOKEN = {"python": "print('4' * 5000)\n",
              "cpp": "#include <string>\n#include <cstdio>\n"
                     "int main() { std::puts(std::string(5000, '4').c_str()); }\n",
              "java": ('public class Main { public static void main(String[] a) { '
                       'System.out.println("4".repeat(5000)); } }\n')}


# A Template Haskell splice runs code inside GHC, here a socket the compile sandbox refuses; had
# the compile gone through, the program would print the right answer.
SOCKET_SPLICE = '''{-# LANGUAGE TemplateHaskell #-}
import Language.Haskell.TH
import System.Process (readProcess)

main :: IO ()
main = putStrLn $(runIO (readProcess "python3" ["-c", "import socket; socket.socket()"] ""
                         >> return "alpha beta") >>= stringE)
'''


def doors() -> list[Door]:
    found = [Door("planted-interpreter.c", "ug/wcmp", "c", "#include <stdio.h>\n"
                  + PLANTED_INTERPRETER + 'int main(void) { puts("alpha beta"); return 0; }\n',
                  frozenset({Verdict.RE})),
             Door("planted-interpreter.cpp", "ug/wcmp", "cpp", "#include <cstdio>\n"
                  + PLANTED_INTERPRETER + 'int main() { std::puts("alpha beta"); }\n',
                  frozenset({Verdict.RE})),
             Door("socket-splice.hs", "ug/wcmp", "haskell", SOCKET_SPLICE,
                  frozenset({Verdict.CE}))]
    for language in ("python", "cpp", "java"):
        found.append(Door(f"huge-token.{language}", "ug/codecontests", language,
                          HUGE_TOKEN[language], frozenset({Verdict.WA})))
        for problem in ("ug/custom-optimum", "ug/interactive-count"):
            found.append(Door(f"count-minus-one.{language}", problem, language,
                              MINUS_ONE[language], frozenset({Verdict.WA, Verdict.PE})))
    return found


def door_samples() -> list[dict]:
    return [{"problem_id": d.problem, "language": d.language, "code": d.code, "adversary": d.name}
            for d in doors()]


# ------------------------------------------------------------------------------ a busy machine

CONFIRMATIONS = 3
_busy_confirmed: dict[tuple[str, str, str], bool] = {}


def busy_because_the_machine_is(row: dict) -> bool:
    """Whether a sample a path answered BUSY was starved by the machine, not by itself. On a
    loaded machine (CI's other core busy, a VM beside it) BUSY is the right answer for a
    program that waits for a CPU others took, and it carries that figure as its evidence; but the
    figure is the judge's own. So the sample is judged again here, on the quietest CPU watched
    from outside (CpuWatch: the CPU's exact idle time), up to CONFIRMATIONS times: each time it
    must end as its own failure, or as BUSY while the CPU really served others for more than
    half the run. A program that makes itself BUSY fails here; one the load starved does not."""
    key = (row["problem_id"], row["language"], row["code"])
    if key not in _busy_confirmed:
        _busy_confirmed[key] = _judged_again_on_a_watched_cpu(row)
    return _busy_confirmed[key]


def _judged_again_on_a_watched_cpu(row: dict) -> bool:
    import tempfile

    from judge.cpus import idlest_cpu, usable_cpus
    from judge.grade import Grader
    from judge.problems.registry import resolve
    with tempfile.TemporaryDirectory() as tmp:
        dataset = Path(tmp) / "problems.jsonl"
        dataset.write_text("".join(json.dumps(r) + "\n" for r in problem_rows()))
        problem = resolve(row["problem_id"], str(dataset))
        cpu = idlest_cpu(usable_cpus())
        with Grader(slot=next_slot(), cpu=cpu) as grader:
            for _ in range(CONFIRMATIONS):
                with CpuWatch(cpu) as watch:
                    result = grader.grade(row["code"], row["language"], problem)
                if result.verdict == Verdict.AC or (result.verdict in JUDGE_FAILURES
                                                    and result.verdict != Verdict.BUSY):
                    return False
                run = result.tests[-1].run if result.tests else None
                if result.verdict == Verdict.BUSY and (run is None or not watch.starved(run)):
                    return False            # BUSY on a CPU others left alone: a door
    return True


# ------------------------------------------------------------------------------ judge eval

def judge_eval(tmp: Path, rows: list[dict]) -> tuple[subprocess.CompletedProcess, Path]:
    dataset = tmp / "problems.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in problem_rows()))
    generations = tmp / "generations.jsonl"
    generations.write_text("".join(
        json.dumps({k: v for k, v in r.items() if k != "adversary"}) + "\n" for r in rows))
    out = tmp / "out"
    done = subprocess.run(
        [sys.executable, "-c", "from judge.cli import main; main()", "eval", str(generations),
         "--dataset", str(dataset), "--out", str(out), "--jobs", "1", "--slot-base", SLOT_BASE,
         "--no-progress", "--json"],
        capture_output=True, text=True, cwd=ROOT, timeout=scaled(1_800_000) / 1000,
        env={**os.environ, **scaled_time_factors_env()})
    return done, out


@pytest.fixture(scope="module")
def evaluation(tmp_path_factory, audited_host):
    tmp = tmp_path_factory.mktemp("ungameable")
    honest = honest_samples()
    adversaries = payload_samples() + behaviour_samples() + door_samples()
    done, out = judge_eval(tmp, honest + adversaries)
    records = sorted((json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()),
                     key=lambda record: record["row"])
    return {"done": done, "summary": json.loads(done.stdout) if done.stdout else {},
            "honest": list(zip(honest, records[:len(honest)], strict=True)),
            "adversaries": list(zip(adversaries, records[len(honest):], strict=True))}


def describe(row: dict, record: dict) -> str:
    tests = record.get("tests") or []
    failing = next((t for t in tests if t.get("verdict") != Verdict.AC), tests[-1] if tests else {})
    return (f"{row.get('adversary', 'honest')} on {row['problem_id']} ({row['language']}): "
            f"{record['verdict']} {failing.get('checker_message') or failing.get('killed_by') or ''!s:.160}")


def test_eval_counts_every_adversary_and_accepts_none(evaluation):
    done, summary = evaluation["done"], evaluation["summary"]
    assert "Traceback" not in done.stderr
    gamed = [describe(row, rec) for row, rec in evaluation["adversaries"]
             if rec["verdict"] == Verdict.AC or (rec["verdict"] in JUDGE_FAILURES or not rec["counted"])
             and not starved_by_the_machine(row, rec)]
    assert not gamed, f"{len(gamed)} adversarial samples scored or left the metrics:\n" + \
        "\n".join(gamed)
    starved = sum(starved_by_the_machine(row, rec) for row, rec in evaluation["adversaries"])
    assert done.returncode == (3 if starved else 0), done.stderr[-3000:]
    assert summary["complete"] is not starved and summary["excluded"]["count"] == starved, \
        summary["excluded"]


def starved_by_the_machine(row: dict, record: dict) -> bool:
    """A sample eval left BUSY, with its CPU figure as evidence, that the load of this machine
    starved (busy_because_the_machine_is)."""
    evidence = record.get("exclusion_evidence") or {}
    return (record["verdict"] == Verdict.BUSY and evidence.get("kind") == "cpu-clock"
            and busy_because_the_machine_is(row))


def test_eval_accepts_every_honest_answer(evaluation):
    """The problems can be solved: the same checkers, interactor and paths say AC to the jury's
    answer, so the suite's 'not AC' is a real assertion."""
    wrong = [describe(row, rec) for row, rec in evaluation["honest"]
             if (rec["verdict"] == Verdict.AC) == (row["problem_id"] in NEVER_AC)]
    assert not wrong, "\n".join(wrong)


def test_eval_scores_no_problem_above_printing_nothing(evaluation):
    """Per problem, the adversaries' pass count is the one of printing nothing: zero. The honest
    sample is each problem's only correct one."""
    summary = evaluation["summary"]
    counted = {p: (d["n"], d["c"]) for p, d in summary["problems"].items()}
    samples = {}
    for row, record in evaluation["honest"] + evaluation["adversaries"]:
        if not starved_by_the_machine(row, record):
            samples[row["problem_id"]] = samples.get(row["problem_id"], 0) + 1
    assert {p: c for p, (_, c) in counted.items()} == {p: int(p not in NEVER_AC) for p in samples}
    assert {p: n for p, (n, _) in counted.items()} == samples


def test_the_behaviours_end_as_the_submission_s_own_failure(evaluation):
    """Time spent by the program itself is its own: self-contention, storms and floods are TLE
    (or the limit they hit), never BUSY, whatever their pattern of threads and processes."""
    verdicts = {(row["adversary"], row["problem_id"]):
                Verdict.TLE if starved_by_the_machine(row, rec) else rec["verdict"]
                for row, rec in evaluation["adversaries"] if row["adversary"] in BEHAVIOURS
                or row["adversary"] in INTERACTIVE_ONLY}
    expected_slow = {
        "contention_synchronized.cpp": {Verdict.TLE}, "contention_synchronized.py": {Verdict.TLE},
        "contention_threads.cpp": {Verdict.TLE}, "contention_processes.cpp": {Verdict.TLE},
        "contention.py": {Verdict.TLE}, "Contention.java": {Verdict.TLE},
        "yield_and_sleep.cpp": {Verdict.TLE}, "sleeper.py": {Verdict.TLE},
        "fork_storm.cpp": {Verdict.TLE}, "thread_storm.py": {Verdict.TLE, Verdict.RE},
        "ThreadStorm.java": {Verdict.TLE, Verdict.RE, Verdict.MLE},
        "stderr_flood.cpp": {Verdict.TLE}, "stdout_flood.cpp": {Verdict.OLE},
        "memory_bomb.cpp": {Verdict.MLE}, "closed_stdout_spin.cpp": {Verdict.TLE},
        "tick_aligned.cpp": {Verdict.TLE}, "tick_aligned.py": {Verdict.TLE},
    }
    wrong = {name: verdicts[(name, SLOW_PROBLEM)] for name, allowed in expected_slow.items()
             if verdicts[(name, SLOW_PROBLEM)] not in allowed}
    assert not wrong, wrong
    assert verdicts[("unflushed_query.cpp", INTERACTIVE)] == Verdict.TLE
    assert verdicts[("writes_after_the_end.cpp", INTERACTIVE)] == Verdict.WA


def test_the_doors_end_as_the_submission_s_own_failure(evaluation):
    """Each door of docs/design/6-evaluation.md §6.5 ends as the failure the program earned, with no
    evidence."""
    expected = {(d.name, d.problem): d.becomes for d in doors()}
    got = {(row["adversary"], row["problem_id"]): rec for row, rec in evaluation["adversaries"]
           if (row["adversary"], row["problem_id"]) in expected}
    assert got.keys() == expected.keys()
    wrong = {door: (rec["verdict"], rec.get("exclusion_evidence")) for door, rec in got.items()
             if rec["verdict"] not in expected[door] or rec.get("exclusion_evidence")}
    assert not wrong, wrong


# ------------------------------------------------------------------------------ /submit

def submit_request(row: dict) -> sf.SubmitRequest:
    fence = {"python": "python", "cpp": "cpp", "java": "java"}[row["language"]]
    completion = f"```{fence}\n{row['code']}```"
    problem = row["problem_id"]
    if problem.startswith("pack/"):
        return sf.SubmitRequest(dataset="pack", id=problem.removeprefix("pack/"),
                                completion=completion, config=sf.TestConfig(language=fence))
    spec = next(r for r in problem_rows() if r["problem_id"] == problem)
    data = {"test": [{"input": {"stdin": t["input"]}, "output": {"stdout": t["output"]}}
                     for t in spec["test_cases"]],
            "checker": spec["checker"], "time_limit_ms": spec["time_limit_ms"],
            "memory_limit_mb": spec["memory_limit_MB"]}
    return sf.SubmitRequest(dataset="ungameable", id=problem, completion=completion,
                            config=sf.TestConfig(language=fence, provided_data=data))


@pytest.fixture(scope="module")
def submissions(require_sandbox):
    # SandboxFusion's provided_data carries no interactor, and its client names no C or Haskell:
    # those doors are tried through judge eval, /v1/grade and judge.api.
    rows = [row for row in honest_samples() + payload_samples() + behaviour_samples()
            + door_samples() if not DOOR_PROBLEMS.get(row["problem_id"], (None, None))[1]
            and row["language"] in ("python", "cpp", "java")]

    async def submit_all():
        limit = asyncio.Semaphore(4)

        async def one(row):
            async with limit:
                try:
                    # The client's own retries, as a trainer meets them: a BUSY the machine's
                    # load caused (with its evidence) passes on a busy CI machine, while a door
                    # that buys one is refused on every attempt and still fails here.
                    return await sf.submit_async(submit_request(row))
                except Exception as exc:   # the client raises what it would retry
                    return exc
        return await asyncio.gather(*(one(r) for r in rows))

    with pytest.MonkeyPatch.context() as env:
        for name, value in scaled_time_factors_env().items():
            env.setenv(name, value)     # the server's time factors, stretched as eval's
        with Server(slots=2) as server:
            sf.set_endpoint(server.url)
            results = asyncio.run(submit_all())
    return list(zip(rows, results, strict=True))


def test_submit_answers_every_adversary_and_accepts_none(submissions):
    failures = []
    for row, result in submissions:
        who = f"{row.get('adversary', 'honest')} on {row['problem_id']} ({row['language']})"
        if isinstance(result, Exception):
            refused_as_busy = "(BUSY:" in str(result) and "[evidence: cpu-clock" in str(result)
            if not (refused_as_busy and busy_because_the_machine_is(row)):
                failures.append(f"{who}: the client raised {result!r}"[:300])
            continue
        verdict = result.extra.get("verdict")
        honest = "adversary" not in row
        if honest and result.accepted == (row["problem_id"] in NEVER_AC):
            failures.append(f"{who}: the honest answer got {verdict}")
        if not honest and (result.accepted or verdict == Verdict.AC or verdict in JUDGE_FAILURES):
            failures.append(f"{who}: accepted={result.accepted} verdict={verdict}")
    assert not failures, f"{len(failures)} of {len(submissions)}:\n" + "\n".join(failures)


# ------------------------------------------------------------------------------ /v1/grade, judge.api

def inline_problem(problem: str) -> dict:
    spec = next(r for r in problem_rows() if r["problem_id"] == problem)
    return {"id": problem, "time_limit_ms": spec["time_limit_ms"],
            "memory_limit_mb": spec["memory_limit_MB"], "checker": spec["checker"],
            "interactor": spec.get("interactor"),
            "tests": [{"input": t["input"], "output": t["output"]} for t in spec["test_cases"]]}


@pytest.fixture(scope="module")
def door_gradings(tmp_path_factory, require_sandbox):
    """Every door, and each door problem's honest program, through /v1/grade and judge.api."""
    from judge import api
    dataset = tmp_path_factory.mktemp("doors") / "problems.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in problem_rows()))
    honest = [Door("honest", p, "python", code, frozenset({Verdict.AC}))
              for p, (_, _, _, code) in sorted(DOOR_PROBLEMS.items())]
    tried = honest + doors()
    with pytest.MonkeyPatch.context() as env:
        for name, value in scaled_time_factors_env().items():
            env.setenv(name, value)
        with Server(slots=1) as server:
            served = [server.post("/v1/grade", {"code": d.code, "language": d.language,
                                                "problem": inline_problem(d.problem)})
                      for d in tried]
        graded = [api.grade(d.code, d.language, d.problem, dataset=str(dataset)).to_dict()
                  for d in tried]
    return list(zip(tried, served, graded, strict=True))


def test_v1_grade_and_the_api_end_every_door_as_the_submission_s_failure(door_gradings):
    wrong = []
    for door, served, graded in door_gradings:
        for path, answer in (("/v1/grade", served), ("judge.api.grade", graded)):
            if path == "/v1/grade" and served.status_code != 200:
                wrong.append(f"{door.name} on {door.problem}: {path} answered "
                             f"{served.status_code} {served.text[:200]}")
                continue
            result = answer.json() if path == "/v1/grade" else answer
            if (result["verdict"] not in door.becomes or result["judge_failure"]
                    or result["exclusion_evidence"] is not None):
                wrong.append(f"{door.name} on {door.problem}: {path} gave {result['verdict']} "
                             f"(judge_failure {result['judge_failure']}, evidence "
                             f"{result['exclusion_evidence']})")
    assert not wrong, "\n".join(wrong)


# ------------------------------------------------------------------------------ judge.reward, /run_code

@pytest.fixture(scope="module")
def door_rewards(tmp_path_factory, require_sandbox):
    """Every door through the reward API a trainer calls (judge.reward.CodeReward), each as the
    model's completion, and the doors of a run's own (a planted interpreter) through /run_code
    (verl's path), whose judge failure is a 504 the client retries: a door that bought one
    would be retried, not scored, and so must not exist."""
    from judge.reward import CodeReward
    dataset = tmp_path_factory.mktemp("reward-doors") / "problems.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in problem_rows()))
    tried = doors()
    completions = [f"```{d.language}\n{d.code}```\n" for d in tried]
    nothing = [f"```{d.language}\n{MINUS_ONE[d.language] if d.language in MINUS_ONE else ''}```"
               for d in tried]
    columns = {"problem_id": [d.problem for d in tried], "language": [d.language for d in tried]}
    with pytest.MonkeyPatch.context() as env:
        for name, value in scaled_time_factors_env().items():
            env.setenv(name, value)
        reward = CodeReward(dataset=str(dataset))
        scores = reward(completions=completions, **columns)
        baseline = reward(completions=nothing, **columns)
        with Server(slots=1) as server:
            runs = [(d, server.post("/run_code", {"code": d.code, "language": d.language,
                                                  "run_timeout": 2}))
                    for d in tried if Verdict.RE in d.becomes]
    return list(zip(tried, scores, baseline, strict=True)), runs


def test_no_door_is_a_reward_above_its_failure_nor_no_reward(door_rewards):
    rewarded, _ = door_rewards
    wrong = [f"{door.name} on {door.problem}: reward {score} (a plain wrong answer: {base})"
             for door, score, base in rewarded
             if score is None or base is None or score > base or score == 1.0]
    assert not wrong, "\n".join(wrong)


def test_no_door_makes_run_code_answer_a_judge_failure(door_rewards):
    _, runs = door_rewards
    wrong = [f"{door.name}: /run_code answered {answer.status_code} {answer.text[:200]}"
             for door, answer in runs
             if answer.status_code != 200 or answer.json()["status"] != "Failed"
             or answer.json()["verdict"] != Verdict.RE]
    assert not wrong, "\n".join(wrong)
