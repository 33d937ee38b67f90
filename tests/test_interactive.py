"""Interactive problems end to end: the submission and the interactor in two slots joined by
pipes, every row of the verdict table with real programs (tests/interactive_programs), the
hostile cases on both sides, a checker after the interactor, and judge run, judge eval and
/v1/grade on the pack's interactive problem."""
from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EVAL_SLOTS, PACK_SOURCES, grade_to_a_verdict, next_slot, quiet_cpu, scaled, scaled_time_factors_env
from judge import JudgeError
from judge.checkers import interactor as interactor_module
from judge.grade import Grader
from judge.problems import model
from judge.problems.model import Problem
from judge.problems.registry import resolve

pytestmark = pytest.mark.usefixtures("require_sandbox")

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = Path(__file__).parent / "interactive_programs"
ADVERSARIAL = Path(__file__).parent / "adversarial"
LANGUAGE_OF = {".cpp": "cpp", ".py": "python"}
GUESS = PACK_SOURCES / "guess-the-number"
GUESS_INTERACTOR = (GUESS / "interactor.cpp").read_text()
GAMES = b"3\n10 7\n2 2\n1000000000 123456789\n"


def guess_problem(*, checker: str = "", answer: bytes = b"", interactor: str = GUESS_INTERACTOR,
                  tests: bytes = GAMES, time_limit_ms: int = 1000) -> Problem:
    return Problem(id="test/guess", title="", statement="", time_limit_ms=scaled(time_limit_ms),
                   memory_limit_mb=256, checker=checker, tests=(model.TestCase(tests, answer),),
                   interactor=interactor)


@pytest.fixture(scope="module")
def grader():
    with Grader(slot=next_slot(), cpu=quiet_cpu()) as g:
        yield g


# Programs that are the reference with something added (a static object's constructor acts
# before it plays, a destructor after it has answered).
ADDED_TO_THE_REFERENCE = {"extra.cpp", "snoop.cpp"}


def source_of(program: Path) -> str:
    if program.parent == PROGRAMS and program.name in ADDED_TO_THE_REFERENCE:
        return (GUESS / "sol.cpp").read_text() + "\n" + program.read_text()
    return program.read_text()


def grade(grader, program: Path, problem: Problem, language: str = "cpp", **kwargs):
    """Grades to a verdict (a BUSY run is judged again); gives the result and its last test."""
    result = grade_to_a_verdict(grader, source_of(program), language, problem, **kwargs)
    assert result.compile.status == "OK", result.compile.log
    return result, result.tests[-1]


# ------------------------------------------------------------------ the verdict table, for real

@pytest.mark.parametrize("program, verdict, killed_by, words", [
    (GUESS / "sol.cpp", "AC", None, "ok 3 games guessed"),
    (GUESS / "wa.cpp", "WA", None, "more than 30 queries"),
    (PROGRAMS / "early_exit.cpp", "PE", None, "Unexpected end of file"),
    (PROGRAMS / "crash.cpp", "RE", None, "the interactor said"),
    (PROGRAMS / "spin.cpp", "TLE", "cpu-timer", ""),
    (PROGRAMS / "hog.cpp", "MLE", "memory", ""),
    (GUESS / "idle.cpp", "TLE", "idle", "flushed"),
    (PROGRAMS / "extra.cpp", "AC", None, "ok 3 games guessed"),
], ids=lambda value: value.name if isinstance(value, Path) else None)
def test_how_the_submission_ends(grader, program, verdict, killed_by, words):
    result, test = grade(grader, program, guess_problem())
    assert (result.verdict, test.run.killed_by) == (verdict, killed_by), test
    assert words in test.checker_message
    # The interactor's figures are its own, beside the submission's.
    assert test.interactor is not None and test.interactor.status in ("OK", "RE")
    data = result.to_dict()["tests"][-1]
    assert data["killed_by"] == killed_by and data["interactor"]["status"] == test.interactor.status



def test_a_spinning_submission_is_stopped_at_its_cpu_limit_as_promptly_as_any_run(grader):
    """An interaction's relay waits without preempting the programs while its next check is
    far off; as the CPU limit nears it waits at its raised priority again, so the kill comes
    when the check is due, not a scheduler tick or slice later."""
    problem = guess_problem()
    _, test = grade(grader, PROGRAMS / "spin.cpp", problem)
    assert test.run.killed_by == "cpu-timer", test
    assert problem.time_limit_ms <= test.cpu_time_ms <= problem.time_limit_ms + scaled(20), test

def test_idleness_is_bounded_by_the_wall_limit(grader):
    problem = guess_problem()
    _, test = grade(grader, GUESS / "idle.cpp", problem)
    usual = max(2 * problem.time_limit_ms, problem.time_limit_ms + 1000)
    wall = interactor_module.INTERACTIVE_WALL_FACTOR * usual
    assert wall <= test.wall_time_ms < wall + scaled(1000)
    assert test.cpu_time_ms < scaled(50)     # it waited: nothing to do with its CPU limit
    # The interactor waited too, then read the end of its input: not charged, not failed.
    assert test.interactor.status == "RE" and test.interactor.exit_code == 2


def test_the_interactors_cpu_is_not_the_submissions(grader):
    many = b"100\n" + b"".join(b"1000000000 %d\n" % (i * 9_999_991 % 10**9 + 1) for i in range(100))
    result, test = grade(grader, GUESS / "sol.cpp", guess_problem(tests=many))
    assert result.verdict == "AC", test
    assert test.interactor.cpu_time_ms > 0 and test.cpu_time_ms > 0
    assert test.run.sources["cpu"] == test.interactor.sources["cpu"]     # both measured alike


@pytest.mark.parametrize("interactor, verdict, words", [
    ("fail_interactor.cpp", "FAIL", "interactor: FAIL the jury's data is broken"),
    ("crash_interactor.cpp", "FAIL", "interactor RE: signal 11"),
    ("big_tout_interactor.cpp", "FAIL", "interactor"),
    ("flood_interactor.cpp", "FAIL", "interactor OLE"),
])
def test_an_interactor_that_fails_is_never_the_submissions_fault(grader, interactor, verdict, words):
    """Each fails before it reads a word from the program: the header's record shows it, and the
    FAIL stands with that evidence."""
    result, test = grade(grader, GUESS / "sol.cpp",
                         guess_problem(interactor=(PROGRAMS / interactor).read_text()))
    assert result.verdict == verdict, test
    assert test.checker_message.startswith(words)
    assert_jury_data(result)


def assert_jury_data(result) -> None:
    """A FAIL that stands, with the header's record as its evidence."""
    assert result.verdict == "FAIL" and result.judge_failure, result.tests[-1]
    evidence = result.exclusion_evidence
    assert evidence is not None and evidence.kind == "jury-data", result.tests[-1]
    assert "before it read" in evidence.detail


def test_an_interactor_past_its_own_cpu_limit_is_fail(grader, monkeypatch):
    monkeypatch.setattr(interactor_module, "INTERACTOR_CPU_MS", scaled(1000))
    result, test = grade(grader, GUESS / "sol.cpp",
                         guess_problem(interactor=(PROGRAMS / "spin_interactor.cpp").read_text()))
    assert result.verdict == "FAIL", test
    assert test.interactor.status == "TLE"
    assert_jury_data(result)


# Issue 43, finding 5: an interactor's FAIL is the jury's only when it failed before it read
# anything the program wrote (the judge's testlib header records when it first did).
# Takes a count from the program and reads that many numbers: testlib's readInts FAILs on -1.
COUNT_INTERACTOR = (PROGRAMS / "count_interactor.cpp").read_text()
# Fails on its own input before it says a word, whatever the program writes meanwhile.
BROKEN_INPUT_INTERACTOR = r'''
#include "testlib.h"
#include <iostream>
int main(int argc, char *argv[]) {
    registerInteraction(argc, argv);
    int n = inf.readInt(1, 100, "n");
    std::cout << n << std::endl;
    quitf(_ok, "%d", ouf.readInt());
}
'''
# Echoes the program's first three lines to its stderr (where the header's records go), then
# reads a count and that many numbers.
ECHO_INTERACTOR = r'''
#include "testlib.h"
#include <iostream>
int main(int argc, char *argv[]) {
    registerInteraction(argc, argv);
    int n = inf.readInt();
    std::cout << n << std::endl;
    for (int i = 0; i < 3; i++)
        std::cerr << ouf.readLine() << std::endl;
    int k = ouf.readInt();
    ouf.readInts(k, 1, n, "picked");
    quitf(_ok, "%d numbers", k);
}
'''
HONEST_COUNT = "n = int(input())\nprint(2)\nprint(1, 2)\n"
DOORS = ["door_negative_count.py", "door_negative_count.cpp"]


@pytest.mark.parametrize("door", DOORS)
def test_a_fail_the_program_provokes_in_the_interactor_is_wa(grader, tmp_path, door):
    """`-1` as the count: the interactor FAILs (readInts: size should be non-negative) after
    reading it. Before, that left the metrics; it is the program's WA, with the FAIL line kept."""
    problem = guess_problem(interactor=COUNT_INTERACTOR, tests=b"5\n")
    result, test = grade(grader, ADVERSARIAL / door, problem, LANGUAGE_OF[Path(door).suffix])
    assert result.verdict == "WA" and not result.judge_failure, test
    assert result.exclusion_evidence is None
    assert test.checker_message.startswith("the interactor failed after it read the program's "
                                           "output: interactor: FAIL readInts: size should be "
                                           "non-negative"), test
    honest = tmp_path / "honest.py"
    honest.write_text(HONEST_COUNT)
    result, test = grade(grader, honest, problem, "python")
    assert result.verdict == "AC", test


@pytest.mark.parametrize("door", DOORS)
def test_an_interactor_that_fails_on_its_input_before_talking_is_fail(grader, door):
    """The jury's input is broken: the interactor FAILs reading it before its first word, while
    the program writes `-1` at once. Nothing the program wrote was read: FAIL, with evidence."""
    problem = guess_problem(interactor=BROKEN_INPUT_INTERACTOR, tests=b"many\n")
    result, test = grade(grader, ADVERSARIAL / door, problem, LANGUAGE_OF[Path(door).suffix])
    assert_jury_data(result)
    assert test.checker_message == 'interactor: FAIL Expected integer, but "many" found (input.txt)'


def test_with_a_testlib_that_keeps_no_record_an_interactors_failure_is_the_programs(tmp_path):
    """A real testlib (--testlib) writes no records: an interactor that FAILs, even before it
    reads a word, has no evidence that the program did not cause it, so the program's WA.
    (Here the judge's own header with its records turned off stands in for it.)"""
    from judge.checkers.runner import JUDGE_TESTLIB
    checkout = tmp_path / "testlib"
    checkout.mkdir()
    header = (JUDGE_TESTLIB / "testlib.h").read_text()
    assert header.count('std::getenv("JUDGE_TESTLIB_MARK")') == 1
    (checkout / "testlib.h").write_text(header.replace('std::getenv("JUDGE_TESTLIB_MARK")',
                                                       "static_cast<const char *>(nullptr)"))
    for path in (tmp_path, checkout, checkout / "testlib.h"):
        path.chmod(0o755)
    with Grader(slot=next_slot(), cpu=quiet_cpu(), testlib=str(checkout)) as unrecorded:
        result, test = grade(unrecorded, ADVERSARIAL / "door_negative_count.py", guess_problem(
            interactor=(PROGRAMS / "fail_interactor.cpp").read_text()), "python")
    assert result.verdict == "WA" and result.exclusion_evidence is None, test
    assert test.checker_message.startswith("the interactor failed, with no record that it had "
                                           "not read the program's output: interactor: FAIL the "
                                           "jury's data is broken"), test


@pytest.mark.parametrize("door", ["door_forged_marks.py", "door_forged_marks.cpp"])
def test_records_the_program_writes_are_not_the_judges(grader, door):
    """The program writes the header's records itself, and the interactor echoes them to its
    stderr before it FAILs on the program's -1: without the secret the judge gave the
    interactor, they are the interactor's text, and the FAIL is the program's WA."""
    problem = guess_problem(interactor=ECHO_INTERACTOR, tests=b"5\n")
    result, test = grade(grader, ADVERSARIAL / door, problem, LANGUAGE_OF[Path(door).suffix])
    assert result.verdict == "WA" and result.exclusion_evidence is None, test
    assert "JUDGE-MARK 00000000000000000000000000000000 begin" in test.checker_message
    assert "readInts: size should be non-negative" in test.checker_message


@pytest.mark.parametrize("score, verdict", [("1", "AC"), ("0.5", "WA")])
def test_points_from_the_interactor(grader, tmp_path, score, verdict):
    program = tmp_path / "score.py"
    program.write_text(f"input()\nprint({score}, flush=True)\n")
    result, test = grade(grader, program, guess_problem(
        interactor=(PROGRAMS / "points_interactor.cpp").read_text()), "python")
    # testlib prints points with at least one decimal: "points 1.0".
    assert result.verdict == verdict, test
    assert test.checker_message == f"points {float(score)} as asked"


# The interactor's exit code and line as real testlib (0.9.45) gives them for the same programs:
# observed outside the project (CI has no testlib), with both interactors built from the same
# source and run with SIGPIPE ignored, as the relaying supervisors make it here.
EOF_LINE = "wrong output format Unexpected end of file - token expected"
TESTLIB_CASES = [
    (GUESS / "sol.cpp", "interactor.cpp", 0, "ok 3 games guessed with 33 queries"),
    (GUESS / "wa.cpp", "interactor.cpp", 1, "wrong answer game 2: more than 30 queries"),
    (PROGRAMS / "early_exit.cpp", "interactor.cpp", 2, EOF_LINE),
    (PROGRAMS / "crash.cpp", "interactor.cpp", 2, EOF_LINE),
    (PROGRAMS / "close_stdin.cpp", "interactor.cpp", 1,
     "wrong answer game 1: guessed 5, the number was 7"),
    (PROGRAMS / "extra.cpp", "interactor.cpp", 0, "ok 3 games guessed with 33 queries"),
    ("0.25", "points_interactor.cpp", 7, "points 0.25 as asked"),
    ("abc", "points_interactor.cpp", 2, 'wrong output format Expected double, but "abc" found'),
    ("2", "points_interactor.cpp", 1,
     "wrong answer Double parameter [name=score] equals to 2, violates the range [0, 1]"),
]


@pytest.mark.parametrize("program, interactor, exit_code, line", TESTLIB_CASES,
                         ids=[f"{case[1]}-{getattr(case[0], 'name', case[0])}"
                              for case in TESTLIB_CASES])
def test_interactors_give_testlibs_exit_code_and_line(grader, tmp_path, program, interactor,
                                                      exit_code, line):
    source = GUESS / interactor if interactor == "interactor.cpp" else PROGRAMS / interactor
    language = "cpp"
    if isinstance(program, str):
        language, answer = "python", program
        program = tmp_path / "answer.py"
        program.write_text(f"input()\nprint({answer!r}, flush=True)\n")
    _, test = grade(grader, program, guess_problem(interactor=source.read_text()), language)
    assert test.interactor.exit_code == exit_code, test
    assert line in test.checker_message


def test_a_checker_reads_the_interactors_output_file(grader):
    """The checker runs after an accepting interactor, on its output file (testlib's tout): here
    the number of questions asked, held against the answer 3 with wcmp."""
    problem = guess_problem(checker="wcmp", answer=b"3\n", tests=b"1\n10 7\n")
    result, test = grade(grader, GUESS / "sol.cpp", problem, keep_output=True)
    assert result.verdict == "AC" and test.output == b"3\n", test
    result, test = grade(grader, GUESS / "wa.py", problem, "python")
    assert result.verdict == "WA" and "expected: '3', found: '7'" in test.checker_message, test


# --------------------------------------------------------------------------------- hostile

def test_a_submission_that_floods_the_pipe_is_stopped_at_its_output_limit(grader):
    result, test = grade(grader, PROGRAMS / "flood.cpp", guess_problem())
    assert result.verdict == "OLE" and test.run.killed_by == "output", test


def test_a_submission_that_closes_stdin_gets_the_interactors_word(grader):
    # The interactor writes its answers into a pipe nobody reads: its supervisor absorbs them,
    # so it is not killed by SIGPIPE and gives its own verdict.
    result, test = grade(grader, PROGRAMS / "close_stdin.cpp", guess_problem())
    assert result.verdict == "WA" and "guessed 5, the number was 7" in test.checker_message, test
    assert test.interactor.status == "RE" and test.interactor.exit_code == 1


def test_a_submission_cannot_see_or_signal_the_interactor(grader):
    result, test = grade(grader, PROGRAMS / "snoop.cpp", guess_problem())
    assert result.verdict == "AC", test
    assert test.interactor.status == "OK" and test.interactor.signal is None


def test_a_hostile_interactor_is_contained(grader):
    result, test = grade(grader, GUESS / "sol.cpp", guess_problem(
        interactor=(PROGRAMS / "hostile_interactor.cpp").read_text(), tests=b"1\n1 1\n"),
        keep_output=True)
    assert test.checker_message == "ok contained", test
    assert result.verdict == "AC"
    assert not Path("/etc/judge-escape").exists() and not Path("/usr/judge-escape").exists()


def test_the_output_file_is_read_without_following_links(tmp_path):
    (tmp_path / "secret").write_bytes(b"host data")
    (tmp_path / "tout.txt").symlink_to(tmp_path / "secret")
    (tmp_path / "directory").mkdir()
    os.mkfifo(tmp_path / "fifo")
    box = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        assert interactor_module._read_regular_file(box, "tout.txt", 1 << 20) == b""
        assert interactor_module._read_regular_file(box, "fifo", 1 << 20) == b""
        assert interactor_module._read_regular_file(box, "directory", 1 << 20) == b""
        assert interactor_module._read_regular_file(box, "secret", 4) == b"host"
    finally:
        os.close(box)


@pytest.mark.parametrize("attempt, syscall", [
    ("socket(AF_INET, SOCK_STREAM, 0);", "socket"),
    # Its output file swapped for a link to a host file (the judge reads it without following
    # links, too: tests/test_interactive.py::test_the_output_file_is_read_without_following_links).
    ("unlink(argv[2]); symlink(\"/etc/hostname\", argv[2]);", "symlink"),
])
def test_an_interactor_that_makes_a_refused_call_is_fail(grader, attempt, syscall):
    source = ("#include \"testlib.h\"\n#include <sys/socket.h>\n#include <unistd.h>\n"
              "int main(int argc, char *argv[]) {\n    registerInteraction(argc, argv);\n"
              f"    {attempt}\n    quitf(_ok, \"got away\");\n}}\n")
    result, test = grade(grader, GUESS / "sol.cpp", guess_problem(interactor=source))
    assert result.verdict == "FAIL" and test.interactor.status == "RF", test
    assert test.interactor.syscall == syscall
    assert_jury_data(result)      # refused before it read a word from the program


def test_a_slot_that_dies_mid_interaction_is_a_judge_error_and_the_grader_goes_on(grader):
    """The submission's supervisor killed while both programs wait: the grading raises a
    SandboxError (SE for an evaluation), the interactor's run is still waited for, and the next
    grading works."""
    import signal
    import threading

    from judge.sandbox import SandboxError
    grader.sandbox.start()
    supervisor = grader.sandbox._process.pid
    killer = threading.Timer(0.5, os.kill, (supervisor, signal.SIGKILL))
    killer.start()
    try:
        with pytest.raises(SandboxError):
            grader.grade((GUESS / "idle.cpp").read_text(), "cpp", guess_problem())
    finally:
        killer.cancel()
    result, test = grade(grader, GUESS / "sol.cpp", guess_problem())
    assert result.verdict == "AC", test


def test_an_interactor_that_does_not_compile_is_a_judge_error(grader):
    with pytest.raises(JudgeError, match="the interactor does not compile") as err:
        grader.grade((GUESS / "sol.cpp").read_text(), "cpp",
                     guess_problem(interactor="#include <testlib.h>\nint main( {\n"))
    assert "\n" not in str(err.value) and "error" in str(err.value)   # one line: the first error


def test_a_problem_needs_an_interactor_or_a_checker():
    with pytest.raises(JudgeError, match="needs a checker"):
        dataclasses.replace(guess_problem(), interactor=None)
    with pytest.raises(JudgeError, match="testlib program's source"):
        dataclasses.replace(guess_problem(), interactor="wcmp")


# -------------------------------------------------------------- judge run, judge eval, /v1

def judge_cli(*args: str, timeout_s: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=scaled(timeout_s * 1000) / 1000,
                          env={**os.environ, **scaled_time_factors_env()})


def test_judge_run_on_the_pack_problem():
    assert resolve("guess-the-number").is_interactive
    done = judge_cli("run", str(GUESS / "idle.cpp"), "--problem", "guess-the-number", "--json")
    assert done.returncode == 1, done.stderr
    data = json.loads(done.stdout)
    assert data["verdict"] == "TLE" and data["tests"][0]["killed_by"] == "idle"
    assert set(data["tests"][0]["interactor"]) == {"status", "exit_code", "signal", "cpu_time_ms",
                                                   "wall_time_ms", "memory_kb"}
    done = judge_cli("run", str(GUESS / "sol.py"), "--problem", "pack/guess-the-number")
    assert done.returncode == 0 and "AC" in done.stdout, done.stdout + done.stderr
    shown = json.loads(judge_cli("problems", "show", "guess-the-number", "--json").stdout)
    assert shown["checker"] == "interactor" and "registerInteraction" in shown["interactor_source"]


def test_judge_eval_on_the_pack_problem(tmp_path, audited_host):
    rows = [{"problem_id": "guess-the-number", "language": language, "code": (GUESS / name).read_text()}
            for language, name in (("python", "sol.py"), ("cpp", "wa.cpp"), ("java", "Main.java"),
                                   ("cpp", "idle.cpp"))]
    generations = tmp_path / "generations.jsonl"
    generations.write_text("".join(json.dumps(row) + "\n" for row in rows))
    done = judge_cli("eval", str(generations), "--out", str(tmp_path / "out"), "--jobs", "2",
                     "--slot-base", str(EVAL_SLOTS + 12), "--no-progress")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["problems"]["pack/guess-the-number"] == {**summary["problems"]["pack/guess-the-number"],
                                                            "n": 4, "c": 2}
    assert summary["verdicts"] == {"AC": 2, "WA": 1, "TLE": 1}
    records = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    idle = next(r for r in records if r["verdict"] == "TLE")
    assert idle["tests"][-1]["killed_by"] == "idle" and idle["tests"][-1]["interactor"]["status"]


def test_v1_grade_with_a_pack_problem_and_an_inline_interactor():
    from serving import Server
    with Server(slots=1) as server:
        code = (GUESS / "sol.cpp").read_text()
        served = server.post("/v1/grade", {"code": code, "language": "cpp",
                                           "problem_id": "guess-the-number"})
        assert served.status_code == 200, served.text
        assert served.json()["verdict"] == "AC"
        assert served.json()["tests"][0]["interactor"]["status"] == "OK"
        inline = {"id": "guess", "checker": "", "interactor": GUESS_INTERACTOR,
                  "tests": [{"input": GAMES.decode(), "output": ""}]}
        answer = server.post("/v1/grade", {"code": (GUESS / "idle.cpp").read_text(),
                                           "language": "cpp", "problem": inline}).json()
        assert answer["verdict"] == "TLE" and answer["tests"][0]["killed_by"] == "idle", answer
        refused = server.post("/v1/grade", {"code": code, "language": "cpp",
                                            "problem": {**inline, "interactor": "wcmp"}})
        assert refused.status_code == 422 and "interactor" in refused.json()["message"]
        refused = server.post("/v1/grade", {"code": code, "language": "cpp",
                                            "problem": {**inline, "interactor": None}})
        assert refused.status_code == 422, refused.text
