"""Grading over the embedded pack: for every problem, AC, WA, TLE, MLE, RE and CE solutions in
C++, Python and Java get their verdicts, in the cgroup mode JUDGE_CGROUP names (`make test` runs
this file with the default mode and again with "none").

With JUDGE_TEST_TIME_SCALE (see conftest) the problems' time limits are stretched by it, for the
grader (`scaled_problem`) and for `judge run` (JUDGE_TIME_FACTORS): the TLE programs never end, so
every verdict stays what it must be."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from conftest import (
    PACK_SOURCES,
    SUITE_CGROUP,
    grade_to_a_verdict,
    next_slot,
    quiet_cpu,
    scaled,
    scaled_problem,
    scaled_time_factors_env,
)
from judge import JudgeError
from judge.grade import Grader
from judge.languages import java_class_name
from judge.problems.registry import list_problems

ROOT = Path(__file__).resolve().parents[1]
GENERIC = Path(__file__).parent / "grading_programs"
LANG_FILES = {  # kind -> file per language; generic failures apply to every problem
    "AC": {"cpp": "sol.cpp", "python": "sol.py", "java": "Main.java"},
    "WA": {"cpp": "wa.cpp", "python": "wa.py", "java": "WA.java"},
    "TLE": {"cpp": "tle.cpp", "python": "tle.py", "java": "TimeLimit.java"},
    "MLE": {"cpp": "mle.cpp", "python": "mle.py", "java": "MemoryLimit.java"},
    "RE": {"cpp": "re.cpp", "python": "re.py", "java": "RuntimeError.java"},
    "CE": {"cpp": "ce.cpp", "python": "ce.py", "java": "CompileError.java"},
}
PROBLEMS = sorted(p.id for p in list_problems())


def source_dir(problem_id: str) -> Path:
    return PACK_SOURCES / problem_id.split("/", 1)[1] if problem_id.startswith("pack/") \
        else PACK_SOURCES / problem_id.replace("/", "-")


def solution(problem_id: str, kind: str, lang: str) -> Path:
    name = LANG_FILES[kind]["python" if lang == "pypy3" else lang]
    specific = source_dir(problem_id) / name
    return specific if kind in ("AC", "WA") else GENERIC / name


@pytest.fixture(scope="module")
def grader(require_sandbox):
    with Grader(slot=next_slot(), cpu=quiet_cpu()) as g:
        yield g


def test_the_pack_is_there():
    assert "codeforces/2020A" in PROBLEMS
    assert len([p for p in PROBLEMS if p.startswith("pack/")]) >= 6


LANGS = ("cpp", "python", "java")
# Right and wrong answers are problem-specific: every problem, every language. TLE, MLE, RE and
# CE programs ignore the problem (they spin, allocate, crash, do not compile): once per
# language, on one problem.
GENERIC_PROBLEM = "codeforces/2020A"
CASES = ([(p, kind, lang) for p in PROBLEMS for kind in ("AC", "WA") for lang in LANGS] +
         [(GENERIC_PROBLEM, kind, lang) for kind in ("TLE", "MLE", "RE", "CE") for lang in LANGS] +
         # pypy3 (make setup installs it) runs the python programs, on one problem.
         [(GENERIC_PROBLEM, kind, "pypy3") for kind in ("AC", "WA", "TLE", "MLE", "RE", "CE")])


@pytest.mark.parametrize("problem_id, kind, lang", CASES)
def test_verdicts(grader, problem_id, kind, lang):
    path = solution(problem_id, kind, lang)
    assert path.is_file(), f"missing {path}"
    result = grade_to_a_verdict(grader, path.read_text(), lang, scaled_problem(problem_id))
    last = result.tests[-1] if result.tests else None
    assert result.verdict == kind, (result.verdict, last and last.checker_message,
                                    last and last.run, result.compile.log[-500:])
    # The runs were made in the suite's mode.
    sources = [t.run.sources for t in result.tests if t.run is not None]
    if SUITE_CGROUP == "none":
        assert all(s == {"cpu": "rusage", "memory": "rusage+tmpfs", "processes": "threads-only",
                         "busy": s["busy"]} for s in sources), sources
    elif SUITE_CGROUP in ("v1", "v2"):
        assert all(s["cpu"] == f"cgroup-{SUITE_CGROUP}" for s in sources), sources
    if kind == "AC":
        assert len(result.tests) == len(scaled_problem(problem_id).tests)
        assert all(t.verdict == "AC" for t in result.tests)
    elif kind == "CE":
        assert result.tests == [] and result.compile.log.strip()
    else:
        assert result.tests[-1].verdict == kind
        assert all(t.verdict == "AC" for t in result.tests[:-1])


def test_all_tests_runs_past_the_first_failure(grader):
    problem = scaled_problem("2020A")
    source = (source_dir("codeforces/2020A") / "wa.py").read_text()
    result = grader.grade(source, "python", problem, all_tests=True)
    assert result.verdict == "WA" and len(result.tests) == len(problem.tests)
    assert [t.verdict for t in result.tests].count("AC") < len(problem.tests) - 1


def test_time_limit_is_scaled_per_language(grader):
    problem = scaled_problem("2020A")
    source = (GENERIC / "tle.py").read_text()
    result = grade_to_a_verdict(grader, source, "python", problem)
    assert result.time_limit_ms == 2 * problem.time_limit_ms
    assert result.verdict == "TLE", (result.verdict, result.tests[-1].checker_message)
    # Killed by the CPU limit at twice the problem's limit (or by the wall clock on a loaded
    # machine, which is later still): never at the unscaled limit.
    assert result.tests[-1].cpu_time_ms >= 2 * problem.time_limit_ms or \
        result.tests[-1].checker_message == "killed by wall-timer"


def test_compile_cache_hits_the_second_time(grader):
    problem = scaled_problem("2020A")
    # A source no earlier run can have built: the cache is shared across runs of the suite.
    source = (source_dir("codeforces/2020A") / "sol.cpp").read_text() + f"\n// {uuid.uuid4()}\n"
    first = grader.grade(source, "cpp", problem)
    second = grader.grade(source, "cpp", problem)
    assert first.verdict == second.verdict == "AC"
    assert not first.compile.cached and second.compile.cached


def test_unknown_language_is_a_judge_error(grader):
    with pytest.raises(JudgeError):
        grader.grade("x", "cobol", scaled_problem("2020A"))


@pytest.mark.parametrize("source, expected", [
    ("public class Solution { public static void main(String[] a) {} }", "Solution"),
    ("import java.util.*;\nclass Helper {}\npublic final class Answer {\n"
     "  public static void main(String[] a) {}\n}", "Answer"),
    ("class A {}\nclass B { public static void main(String[] args) {} }", "B"),
    ("// public class Fake\nclass Main { static public void main(String[] a) {} }", "Main"),
    ("/* public class Nope {} */ class Runner { public static void main(String[] a) {} }", "Runner"),
])
def test_java_class_name(source, expected):
    assert java_class_name(source) == expected


def judge_cli(*args, cwd=ROOT, extra_env: dict | None = None):
    """The CLI in a fresh interpreter; ``extra_env`` values replace (None: remove) variables."""
    env = dict(os.environ)
    for name, value in (extra_env or {}).items():
        env.pop(name, None)
        if value is not None:
            env[name] = value
    env.update(scaled_time_factors_env())
    return subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=scaled(600_000) / 1000,
                          env=env)


@pytest.mark.slow
def test_cli_run_with_an_unwritable_home_uses_a_temporary_cache(require_sandbox):
    """A HOME nobody can write (here a path under a file, which even root cannot create): the
    warning names the cache directory at fault, and the run goes on with a temporary cache."""
    sol = source_dir("codeforces/2020A") / "sol.cpp"
    unwritable = {"HOME": "/dev/null/home", "XDG_CACHE_HOME": None, "JUDGE_CACHE_DIR": None,
                  "HF_HOME": None, "HF_DATASETS_CACHE": None}
    out = judge_cli("run", str(sol), "--problem", "2020A", extra_env=unwritable)
    assert out.returncode == 0, out.stderr
    assert "AC" in out.stdout
    assert "/dev/null/home" in out.stderr and "cannot be written" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr


def test_cli_run_quick_start_and_json(require_sandbox):
    sol = source_dir("codeforces/2020A") / "sol.cpp"
    out = judge_cli("run", str(sol), "--problem", "2020A")
    assert out.returncode == 0, out.stderr
    assert "AC" in out.stdout
    out = judge_cli("run", str(GENERIC / "re.py"), "--problem", "codeforces/2020A", "--json")
    assert out.returncode == 1, out.stderr
    data = json.loads(out.stdout)
    assert data["verdict"] == "RE" and data["language"] == "python"
    assert set(data) >= {"verdict", "problem", "language", "compile", "tests", "max_cpu_time_ms",
                         "max_memory_kb"}
    assert set(data["tests"][0]) == {"index", "verdict", "cpu_time_ms", "wall_time_ms", "memory_kb",
                                     "exit_code", "signal", "checker_message", "killed_by",
                                     "stderr_tail", "interactor", "exclusion_evidence"}
    assert "Traceback" in data["tests"][0]["stderr_tail"]
    assert data["exclusion_evidence"] is None and data["tests"][0]["exclusion_evidence"] is None


@pytest.mark.parametrize("args, message", [
    (["run", "/nonexistent.cpp", "--problem", "2020A"], "no such file"),
    (["run", "tests/grading_programs/tle.cpp", "--problem", "9999Z"], "9999Z"),
    (["run", "tests/grading_programs/tle.cpp", "--problem", "2020A", "--lang", "cobol"], "cobol"),
    (["run", "README.md", "--problem", "2020A"], "language"),
])
def test_cli_run_bad_input(args, message):
    out = judge_cli(*args)
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_testlib_dir_without_testlib_h_is_rejected(tmp_path):
    with pytest.raises(JudgeError, match="testlib.h"):
        Grader(slot=next_slot(), testlib=str(tmp_path)).close()


@pytest.mark.parametrize("path", ["/etc/shadow", "/root/.bashrc", "/proc/1/environ"])
def test_compiler_cannot_include_host_files(grader, path):
    """Compilation is a program run on the submission's behalf: `#include` of a host file must
    fail in the sandbox, and nothing of the file may come back in the compiler's log."""
    source = f'#include "{path}"\nint main() {{ return 0; }}\n'
    result = grader.grade(source, "cpp", scaled_problem("2020A"))
    assert result.verdict == "CE", result.compile
    try:
        secret = Path(path).read_bytes()[:64].decode(errors="replace").strip()
    except OSError:
        secret = ""
    assert not secret or secret not in result.compile.log
