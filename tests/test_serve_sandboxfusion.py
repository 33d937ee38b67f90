"""`judge serve` as a SandboxFusion drop-in, driven by SandboxFusion's own client (the PyPI
package `sandbox-fusion`, unchanged): set_endpoint, run_code, submit, their async variants and
summary_run_code_result, against a real server on 127.0.0.1.

The client's RunCodeRequest has no memory_limit_MB (SandboxFusion's server has one) and its
language list has no c or pypy3; clients that want them subclass the model, as done here."""
from __future__ import annotations

import asyncio
import base64
import contextlib
import re
import secrets
import shutil
import socket
import time
from pathlib import Path

import pytest
import requests
import sandbox_fusion as sf
from sandbox_fusion import models as sf_models

from conftest import PACK_SOURCES, scaled
from judge.compiler import CompileResult
from judge.grade import GradeResult
from judge.service.errors import ApiError
from judge.service.sandboxfusion import refuse_judge_failure
from judge.verdicts import Verdict
from serving import JURY_WITHOUT_AN_ANSWER, REPO, Server

pytestmark = pytest.mark.usefixtures("require_sandbox")


class RunCodeRequestMB(sf.RunCodeRequest):
    """What verl and others send: SandboxFusion's request with its server's memory_limit_MB."""
    memory_limit_MB: int = -1


class AnyLanguageRequest(RunCodeRequestMB):
    language: str   # type: ignore[assignment]  (the client's Literal has no c, pypy3)


@pytest.fixture(scope="module")
def server(require_sandbox):
    with Server(slots=2) as running:
        sf.set_endpoint(running.url)
        yield running


HELLO = {
    "python": "import sys\nname = sys.stdin.read().strip()\nprint(f'hello {name}')\n",
    "cpp": ("#include <bits/stdc++.h>\nint main(){std::string s; std::cin >> s; "
            "std::cout << \"hello \" << s << std::endl;}\n"),
    "c": ("#include <stdio.h>\nint main(){char s[64]; scanf(\"%63s\", s); "
          "printf(\"hello %s\\n\", s); return 0;}\n"),
    "java": ("import java.util.*;\npublic class Main { public static void main(String[] a) { "
             "System.out.println(\"hello \" + new Scanner(System.in).next()); } }\n"),
}


@pytest.mark.parametrize("language", ["python", "cpp", "java", "c"])
def test_run_code_each_language(server, language):
    if language == "java" and shutil.which("javac") is None:
        pytest.skip("no JDK here")
    name = secrets.token_hex(4)
    request = (AnyLanguageRequest if language == "c" else sf.RunCodeRequest)(
        code=HELLO[language], language=language, stdin=name + "\n")
    result = sf.run_code(request, max_attempts=1)
    assert result.status == sf.RunStatus.Success, result
    assert result.run_result.status == sf.CommandRunStatus.Finished
    assert result.run_result.return_code == 0
    assert result.run_result.stdout == f"hello {name}\n"
    assert result.run_result.execution_time > 0
    if language == "python":
        assert result.compile_result is None        # SandboxFusion runs scripts directly
    else:
        assert result.compile_result.status == sf.CommandRunStatus.Finished
        assert result.compile_result.return_code == 0
    assert sf.summary_run_code_result(result, sf.SummaryMapping()) == "Success"
    # The judge's extra fields, which the client's models leave out, are in the JSON.
    raw = server.post("/run_code", request.dict()).json()
    assert raw["verdict"] == "OK"
    run = raw["run_result"]
    assert run["judge_status"] == "OK" and run["memory_kb"] > 0 and 0 < run["cpu_time"] < 10


def test_run_code_time_limit(server):
    # The client's retries: a spin the wall clock stops while the machine starves it of CPU is
    # BUSY, re-run by the judge and, if the machine stays busy, a 504 the client retries.
    result = sf.run_code(sf.RunCodeRequest(code="while True:\n    pass\n", language="python",
                                           run_timeout=1), max_attempts=4)
    assert result.status == sf.RunStatus.Failed
    assert result.run_result.status == sf.CommandRunStatus.TimeLimitExceeded
    assert result.run_result.return_code is None
    # The wall clock and the CPU limit are both run_timeout: whichever stops it first, the
    # spin had the CPU for at least about half of it (a run that waited more than half its wall
    # clock for a CPU others took is BUSY, re-run), and the judge's CPU figure says so beside
    # the wall time.
    assert 0.4 < result.run_result.cpu_time <= result.run_result.execution_time + 0.1
    mapping = sf.SummaryMapping(RunTimeout="TLE")
    assert sf.summary_run_code_result(result, mapping) == "TLE"


def test_run_code_sleeper_is_stopped_by_the_wall_clock(server):
    result = sf.run_code(sf.RunCodeRequest(code="import time\ntime.sleep(30)\n",
                                           language="python", run_timeout=1), max_attempts=1)
    assert result.run_result.status == sf.CommandRunStatus.TimeLimitExceeded
    assert result.run_result.execution_time < 10


def test_run_code_run_timeout_is_the_wall_clock_limit(server):
    """SandboxFusion kills the command run_timeout seconds of wall time after it started, and
    reports that wall time as execution_time: a program that sleeps past it is a
    TimeLimitExceeded then, not a Success, nor a TLE only at twice the limit."""
    request = sf.RunCodeRequest(code="import time\ntime.sleep(1.6)\nprint('woke')\n",
                                language="python", run_timeout=1)
    result = sf.run_code(request, max_attempts=1)
    assert result.status == sf.RunStatus.Failed, result
    assert result.run_result.status == sf.CommandRunStatus.TimeLimitExceeded
    assert result.run_result.stdout == ""

    started = time.monotonic()
    result = sf.run_code(sf.RunCodeRequest(code="import time\ntime.sleep(3)\n",
                                           language="python", run_timeout=1), max_attempts=1)
    answered_s = time.monotonic() - started
    assert result.run_result.status == sf.CommandRunStatus.TimeLimitExceeded
    assert 1.0 <= result.run_result.execution_time < 1.5
    assert result.run_result.cpu_time < 0.5           # it slept: CPU time stays beside it
    assert answered_s < 2.5, f"answered after {answered_s:.2f} s"


@pytest.mark.parametrize("language", ["python", "cpp"])
def test_run_code_memory_limit(server, language):
    code = {"python": "a = bytearray(400 << 20)\nprint(len(a))\n",
            "cpp": ("#include <bits/stdc++.h>\nint main(){std::vector<char> v(400u << 20, 1); "
                    "std::cout << (int)v[12345] << std::endl;}\n")}[language]
    request = RunCodeRequestMB(code=code, language=language, memory_limit_MB=128)
    result = sf.run_code(request, max_attempts=1)
    assert result.status == sf.RunStatus.Failed
    assert result.run_result.status == sf.CommandRunStatus.Finished
    assert result.run_result.return_code != 0       # as SandboxFusion shows an OOM kill
    assert sf.summary_run_code_result(result, sf.SummaryMapping(RunFailed="RE")) == "RE"
    raw = server.post("/run_code", request.dict()).json()
    assert raw["verdict"] == "MLE" and raw["run_result"]["judge_status"] == "MLE"
    assert raw["run_result"]["memory_kb"] > 128 * 1024


def test_run_code_runtime_errors(server):
    result = sf.run_code(sf.RunCodeRequest(code="raise SystemExit(3)\n", language="python"),
                         max_attempts=1)
    assert result.status == sf.RunStatus.Failed and result.run_result.return_code == 3
    result = sf.run_code(sf.RunCodeRequest(code="print('x')\n1/0\n", language="python"),
                         max_attempts=1)
    assert result.run_result.return_code == 1
    assert result.run_result.stdout == "x\n"
    assert "ZeroDivisionError" in result.run_result.stderr
    crash = "int main(){ volatile int *p = 0; return *p; }\n"
    result = sf.run_code(sf.RunCodeRequest(code=crash, language="cpp"), max_attempts=1)
    assert result.status == sf.RunStatus.Failed
    assert result.run_result.return_code == -11     # SIGSEGV
    assert sf.summary_run_code_result(result, sf.SummaryMapping(RunFailed="RE")) == "RE"


def test_run_code_compile_error(server):
    result = sf.run_code(sf.RunCodeRequest(code="int main( { return 0; }\n", language="cpp"),
                         max_attempts=1)
    assert result.status == sf.RunStatus.Failed
    assert result.run_result is None
    assert result.compile_result.status == sf.CommandRunStatus.Finished
    assert result.compile_result.return_code == 1
    assert "error" in result.compile_result.stderr
    assert sf.summary_run_code_result(result, sf.SummaryMapping(CompileFailed="CE")) == "CE"
    # A script that does not parse is what Python makes of it: exit 1 and a SyntaxError.
    result = sf.run_code(sf.RunCodeRequest(code="print(\n", language="python"), max_attempts=1)
    assert result.run_result.return_code == 1 and "SyntaxError" in result.run_result.stderr


# About 2 s of g++ (constant evaluation), each an expression of its own below gcc's ops limit.
SLOW_TO_COMPILE = (
    "template <int K> constexpr long slow() {{ long s = 0; for (long i = 0; i < 1000; i++)\n"
    "  for (long j = 0; j < 600; j++) s += (i * K) ^ (j >> 3); return s; }}\n"
    "constexpr long a = slow<1>(), b = slow<2>(), c = slow<3>(), d = slow<4>();\n"
    "int main() {{ return a + b + c + d == {token} ? 1 : 0; }}\n")


def test_compile_timeout_above_the_judges_bound_is_clamped_to_it(server):
    """SandboxFusion's clients send compile_timeout=90 and the like: past the judge's compile
    bound it is that bound, not a 422 that loses the run."""
    request = sf.RunCodeRequest(code="int main() { return 0; }\n", language="cpp",
                                compile_timeout=90, run_timeout=5)
    result = sf.run_code(request, max_attempts=1)
    assert result.status == sf.RunStatus.Success, result
    assert result.compile_result.status == sf.CommandRunStatus.Finished


def test_compile_timeout_below_the_bound_is_the_compiles_limit(server):
    """Under the bound, compile_timeout is the compile's wall-clock limit, as SandboxFusion's; a
    compile stopped by it is a compile TimeLimitExceeded, which is not kept in the compile
    cache, so that a longer limit compiles the same code again."""
    code = SLOW_TO_COMPILE.format(token=secrets.randbelow(1 << 30))
    started = time.monotonic()
    result = sf.run_code(sf.RunCodeRequest(code=code, language="cpp", compile_timeout=0.5),
                         max_attempts=1)
    # A compile the machine starved is done again by the judge (up to 3 times, 0.25 s, 0.5 s
    # and 1 s apart) before it answers.
    assert time.monotonic() - started < scaled(2000) / 1000 + 8
    assert result.status == sf.RunStatus.Failed and result.run_result is None, result
    assert result.compile_result.status == sf.CommandRunStatus.TimeLimitExceeded
    assert result.compile_result.return_code is None
    assert sf.summary_run_code_result(result, sf.SummaryMapping(CompileTimeout="CTLE")) == "CTLE"
    result = sf.run_code(sf.RunCodeRequest(code=code, language="cpp", compile_timeout=60),
                         max_attempts=1)
    assert result.status == sf.RunStatus.Success, result
    assert result.compile_result.status == sf.CommandRunStatus.Finished


def test_submit_compile_timeout_is_the_compiles_limit(server):
    code = SLOW_TO_COMPILE.format(token=secrets.randbelow(1 << 30))
    request = sf.SubmitRequest(dataset="x", id=10, completion=f"```cpp\n{code}```",
                               config=sf.TestConfig(language="cpp", compile_timeout=0.5,
                                                    provided_data={"test": _tests([("", "")])}))
    result = sf.submit(request, max_attempts=1)
    assert not result.accepted and result.extra["verdict"] == "CE"
    assert result.tests[0].exec_info.compile_result.status == sf.CommandRunStatus.TimeLimitExceeded
    request.config.compile_timeout = 90       # clamped to the judge's bound, and not cached CE
    assert sf.submit(request, max_attempts=1).accepted


def test_run_code_files_and_fetch_files(server):
    data = secrets.token_bytes(3000)
    code = ("import hashlib\n"
            "blob = open('inputs/blob.bin', 'rb').read()\n"
            "open('out/digest.txt', 'w').write(hashlib.sha256(blob).hexdigest())\n"
            "print(open('note.txt').read())\n")
    import hashlib
    request = sf.RunCodeRequest(
        code="import os\nos.mkdir('out')\n" + code, language="python",
        files={"inputs/blob.bin": base64.b64encode(data).decode(),
               "note.txt": base64.b64encode(b"from the client").decode()},
        fetch_files=["out/digest.txt", "missing.txt"])
    result = sf.run_code(request, max_attempts=1)
    assert result.status == sf.RunStatus.Success, result
    assert result.run_result.stdout == "from the client\n"
    assert set(result.files) == {"out/digest.txt"}   # a missing file is left out, as SF does
    assert base64.b64decode(result.files["out/digest.txt"]).decode() == hashlib.sha256(data).hexdigest()
    # The next run's box holds nothing of this one.
    result = sf.run_code(sf.RunCodeRequest(code="import os\nprint(sorted(os.listdir('.')))\n",
                                           language="python"), max_attempts=1)
    assert result.run_result.stdout == "['code.py']\n"


def test_fetch_files_absolute_paths_name_the_box_or_nothing(server):
    """SandboxFusion joins a fetch_files name with the run's directory, so an absolute path is
    itself. The judge reads only the run's box: `/box/...` (the run's working directory) is
    fetched; a path elsewhere is left out, as SandboxFusion leaves out a file it cannot read,
    and the run is still answered (it used to be a 422 that lost it)."""
    code = ("open('out.txt', 'w').write('from the box')\n"
            "import os\nos.makedirs('sub', exist_ok=True)\n"
            "open('sub/deep.txt', 'w').write('deeper')\n")
    hostile = ["/etc/passwd", "/proc/self/environ", "../../etc/shadow", "/tmp/../etc/hostname",
               "/box/../etc/passwd", "/", "/box"]
    request = sf.RunCodeRequest(code=code, language="python",
                                fetch_files=[*hostile, "/box/out.txt", "/box/sub/deep.txt", "out.txt"])
    result = sf.run_code(request, max_attempts=1)
    assert result.status == sf.RunStatus.Success, result
    assert set(result.files) == {"/box/out.txt", "/box/sub/deep.txt", "out.txt"}
    assert base64.b64decode(result.files["/box/out.txt"]) == b"from the box"
    assert base64.b64decode(result.files["/box/sub/deep.txt"]) == b"deeper"
    assert base64.b64decode(result.files["out.txt"]) == b"from the box"
    raw = server.post("/run_code", request.dict()).json()
    assert "root:" not in str(raw) and "PATH=" not in str(raw)


def test_pypy3_under_its_own_name(server):
    request = AnyLanguageRequest(code="print(sum(range(10)))", language="pypy3")
    if shutil.which("pypy3") is None:
        with pytest.raises(Exception, match="pypy3 toolchain is not installed"):
            sf.run_code(request, max_attempts=1)
    else:
        assert sf.run_code(request, max_attempts=1).run_result.stdout == "45\n"


def test_an_unsupported_language_is_a_failed_run_answered_at_once(server):
    """A language this judge does not run is the submission's failure (as `judge eval` counts
    it, UNGRADABLE), answered as SandboxFusion answers a run that could not start: a Failed
    result on the first request. It used to be a SandboxError, which the client retries five
    times (~15 s of back-off) and then raises."""
    request = sf.RunCodeRequest(code='print("1")', language="swift")
    started = time.monotonic()
    result = sf.run_code(request)                     # the client's own retry settings
    assert time.monotonic() - started < 2, "the client retried"
    assert result.status == sf.RunStatus.Failed and "not supported by this judge" in result.message
    assert result.compile_result is None and result.run_result is None
    assert sf.summary_run_code_result(result, sf.SummaryMapping()) == "Failed"
    body = server.post("/run_code", request.dict()).json()
    assert body["verdict"] == "UNGRADABLE" and "swift" in body["message"]

    submit = sf.SubmitRequest(dataset="x", id="swift", completion="```swift\nprint(1)\n```",
                              config=sf.TestConfig(language="swift",
                                                   provided_data={"test": _tests([("1", "1")])}))
    started = time.monotonic()
    result = sf.submit(submit)
    assert time.monotonic() - started < 2, "the client retried"
    assert not result.accepted and result.extra["verdict"] == "UNGRADABLE"
    assert result.tests[0].exec_info.status == sf.RunStatus.Failed
    assert "not supported by this judge" in result.tests[0].exec_info.message


def test_a_judge_failure_is_never_an_answer_the_client_scores(server):
    """A grading the judge failed at (here the checker FAILs, the jury's fault) is no verdict on
    the submission: /submit answers it with an error, which `submit` raises, never with
    accepted=false, which a reward function reads as the model's failure (it used to)."""
    data = {"test": _tests([("2", "4"), ("7", "14")]), "checker": JURY_WITHOUT_AN_ANSWER}
    request = sf.SubmitRequest(dataset="x", id="jury", completion=DOUBLER,
                               config=sf.TestConfig(language="python", provided_data=data))
    response = server.post("/submit", request.dict())
    assert response.status_code != 200, response.text
    assert "FAIL" in response.json()["message"] or "checker" in response.json()["message"]
    with pytest.raises(Exception, match="Faas api responded"):
        sf.submit(request, max_attempts=1)


def _graded(verdict: Verdict) -> GradeResult:
    return GradeResult(verdict=verdict, problem="p", language="python",
                       compile=CompileResult("OK", "", None, False, 0.0))


@pytest.mark.parametrize("verdict, status, retry", [
    (Verdict.SE, 504, True), (Verdict.BUSY, 504, True), (Verdict.FAIL, 422, False)])
def test_what_submit_answers_for_each_judge_failure(verdict, status, retry):
    """SE and BUSY may go away on another try: 504 with Retry-After, which verl and the
    sandbox-fusion client retry (then raise). A checker's FAIL is the problem's fault: 422.
    Neither is an EvalResult."""
    with pytest.raises(ApiError) as raised:
        refuse_judge_failure(_graded(verdict), retry_after_s=1)
    assert raised.value.status_code == status and verdict in raised.value.message
    assert ("Retry-After" in raised.value.headers) == retry
    refuse_judge_failure(_graded(Verdict.WA), retry_after_s=1)     # a verdict: answered


def _tests(pairs):
    return [{"input": {"stdin": i}, "output": {"stdout": o}} for i, o in pairs]


DOUBLER = "```python\nprint(int(input()) * 2)\n```"


def test_submit_provided_data(server):
    pairs = [(str(i), str(2 * i)) for i in range(1, 21)]
    request = sf.SubmitRequest(dataset="code_contests", id="double", completion=DOUBLER,
                               config=sf.TestConfig(language="python",
                                                    provided_data={"test": _tests(pairs)}))
    result = sf.submit(request, max_attempts=1)
    assert result.accepted and result.extracted_code == "print(int(input()) * 2)\n"
    assert len(result.tests) == 20 and all(t.passed for t in result.tests)
    assert result.tests[4].exec_info.run_result.stdout == "10\n"
    assert result.tests[4].test_info["input"]["stdin"] == "5"
    assert result.extra["verdict"] == "AC"
    assert len(result.extra["judge"]["tests"]) == 20

    # A wrong test stops the grading there, as SandboxFusion does; run_all_cases runs on.
    wrong = pairs[:3] + [("4", "9")] + pairs[4:]
    request.config.provided_data = {"test": _tests(wrong)}
    result = sf.submit(request, max_attempts=1)
    assert not result.accepted and len(result.tests) == 4
    assert [t.passed for t in result.tests] == [True, True, True, False]
    assert result.tests[3].exec_info.status == sf.RunStatus.Success   # the run itself was fine
    assert result.extra["verdict"] == "WA"
    request.config.extra = {"run_all_cases": True}
    result = sf.submit(request, max_attempts=1)
    assert len(result.tests) == 20 and sum(not t.passed for t in result.tests) == 1


def test_submit_compiles_once_and_takes_checker_and_limits(server):
    # C++ with a float answer: the testlib checker rcmp6 from provided_data accepts 1e-6.
    code = ("```cpp\n#include <bits/stdc++.h>\n// " + secrets.token_hex(8) + "\n"
            "int main(){double x; std::cin >> x; printf(\"%.9f\\n\", x / 3);}\n```")
    data = {"test": _tests([(str(v), f"{v / 3:.7f}") for v in range(1, 21)]), "checker": "rcmp6",
            "time_limit_ms": 2000, "memory_limit_mb": 64}
    request = sf.SubmitRequest(dataset="x", id=7, completion=code,
                               config=sf.TestConfig(language="cpp", provided_data=data))
    result = sf.submit(request, max_attempts=1)
    assert result.accepted, result
    judge = result.extra["judge"]
    assert judge["compile"]["cached"] is False and judge["time_limit_ms"] == 2000
    assert judge["memory_limit_mb"] == 64 and len(judge["tests"]) == 20
    # Every test's exec_info carries the one compile; no test compiled again.
    compile_times = {t.exec_info.compile_result.execution_time for t in result.tests}
    assert len(compile_times) == 1
    assert compile_times.pop() == pytest.approx(judge["compile"]["time_ms"] / 1000, abs=1e-3)
    # SandboxFusion's own comparison (the default) accepts the same output too.
    data.pop("checker")
    assert sf.submit(request, max_attempts=1).accepted
    # ... and a TLE under the given limit is the judge's TLE.
    data.update(time_limit_ms=200)
    request.completion = "```cpp\nint main(){ volatile unsigned long i = 0; for(;;) i++; }\n```"
    result = sf.submit(request, max_attempts=1)
    assert not result.accepted and result.extra["verdict"] == "TLE"
    assert result.tests[0].exec_info.run_result.status == sf.CommandRunStatus.TimeLimitExceeded


@pytest.mark.parametrize(("language", "run_timeout", "limit_ms"),
                         [("python", 0.001, 1), ("python", 0.003, 3), ("python", 1.2345, 1234),
                          ("cpp", 0.0015, 2)])
def test_submit_run_timeout_is_the_run_limit_exactly(server, language, run_timeout, limit_ms):
    """config.run_timeout is each test's CPU limit as given, in one step: no division by the
    language's time factor and multiplication back (python's 0.001 s was 2 ms, 0.003 s 4 ms)."""
    request = sf.SubmitRequest(dataset="x", id=8, completion="```\nprint(1)\n```",
                               config=sf.TestConfig(language=language, run_timeout=run_timeout,
                                                    provided_data={"test": _tests([("", "1")])}))
    response = server.post("/submit", request.dict())
    assert response.status_code == 200, response.text
    judge = response.json()["extra"]["judge"]
    # SandboxFusion runs each test through /run_code with run_timeout: a wall-clock limit.
    assert judge["time_limit_ms"] == limit_ms and judge["wall_time_limit_ms"] == limit_ms


def test_submit_run_timeout_stops_a_sleeper_by_the_wall_clock(server):
    request = sf.SubmitRequest(dataset="x", id=9,
                               completion="```python\nimport time\ntime.sleep(1.6)\nprint(1)\n```",
                               config=sf.TestConfig(language="python", run_timeout=1,
                                                    provided_data={"test": _tests([("", "1")])}))
    result = sf.submit(request, max_attempts=1)
    assert not result.accepted and result.extra["verdict"] == "TLE"
    assert result.tests[0].exec_info.run_result.status == sf.CommandRunStatus.TimeLimitExceeded


def _doc_table(heading: str) -> list[list[str]]:
    """The rows of docs/serve.md's table whose header row starts with `heading`."""
    lines = (REPO / "docs" / "serve.md").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {heading} |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip().strip("`") for cell in line.strip("|").split("|")])
    return rows


def test_the_documented_mapping_is_the_modules_table():
    """docs/serve.md's tables of languages and statuses are sandboxfusion.py's, row for row."""
    from judge.service.sandboxfusion import RUN_STATUSES, SF_LANGUAGES
    assert dict(_doc_table("SandboxFusion `language`")) == SF_LANGUAGES
    assert {status: (run, command) for status, run, command in _doc_table("the judge's run status")
            } == {str(status): (str(run), str(command))
                  for status, (run, command) in RUN_STATUSES.items()}


def test_submit_custom_testlib_checker(server):
    checker = r'''
#include "testlib.h"
int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    long long n = inf.readLong();
    long long a = ouf.readLong(), b = ouf.readLong();
    if (a + b != n || a < 0 || b < 0) quitf(_wa, "%lld + %lld is not %lld", a, b, n);
    quitf(_ok, "fine");
}
'''
    data = {"test": _tests([("10", "5 5"), ("7", "3 4")]), "checker": checker}
    completion = "```python\nn = int(input())\nprint(n - 1, 1)\n```"
    request = sf.SubmitRequest(dataset="x", id="split", completion=completion,
                               config=sf.TestConfig(language="python", provided_data=data))
    result = sf.submit(request, max_attempts=1)
    assert result.accepted, result.extra
    request.completion = "```python\nprint(1, 1)\n```"
    result = sf.submit(request, max_attempts=1)
    assert not result.accepted and result.extra["verdict"] == "WA"
    assert "is not 10" in result.tests[0].exec_info.message


def test_submit_compile_error_and_a_problem_of_the_pack(server):
    request = sf.SubmitRequest(dataset="x", id=1, completion="```cpp\nint main( {\n```",
                               config=sf.TestConfig(language="cpp",
                                                    provided_data={"test": _tests([("1", "1")])}))
    result = sf.submit(request, max_attempts=1)
    assert not result.accepted and len(result.tests) == 1
    assert result.tests[0].exec_info.compile_result.return_code == 1
    assert result.tests[0].exec_info.run_result is None
    # Without provided_data the id names a problem this server has (the embedded pack).
    solution = (PACK_SOURCES / "codeforces-2020A" / "sol.cpp").read_text()
    request = sf.SubmitRequest(dataset="pack", id="2020A", completion=f"```cpp\n{solution}```",
                               config=sf.TestConfig(language="cpp"))
    result = sf.submit(request, max_attempts=1)
    assert result.accepted and result.extra["judge"]["problem"] == "codeforces/2020A"


def test_async_clients_concurrently(server):
    async def main():
        runs = [sf.run_code_async(sf.RunCodeRequest(code="print(int(input()) ** 2)",
                                                    language="python", stdin=str(i)),
                                  max_attempts=1) for i in range(24)]
        submits = [sf.submit_async(sf.SubmitRequest(
            dataset="x", id=i, completion=DOUBLER,
            config=sf.TestConfig(language="python",
                                 provided_data={"test": _tests([(str(i), str(2 * i))])})),
            max_attempts=1) for i in range(8)]
        return await asyncio.gather(*runs), await asyncio.gather(*submits)

    runs, submits = asyncio.run(main())
    assert [r.run_result.stdout for r in runs] == [f"{i * i}\n" for i in range(24)]
    assert all(r.status == sf.RunStatus.Success for r in runs)
    assert [s.id for s in submits] == list(range(8)) and all(s.accepted for s in submits)


def test_submit_safe_and_bad_submissions(server):
    # provided_data as a list is SandboxFusion's shape for get_prompts, not for one submission.
    bad = sf.SubmitRequest(dataset="x", id=3, completion=DOUBLER,
                           config=sf.TestConfig(language="python", provided_data=[{"a": 1}]))
    response = server.post("/submit", bad.dict())
    assert response.status_code == 422 and "provided_data" in response.json()["message"]
    assert sf.submit_safe(bad, max_attempts=1).accepted is False
    hostile = sf.SubmitRequest(dataset="x", id=4, completion=DOUBLER, config=sf.TestConfig(
        language="python", custom_extract_logic="import os; os.system('id')",
        provided_data={"test": _tests([("1", "2")])}))
    response = server.post("/submit", hostile.dict())
    assert response.status_code == 422 and "not supported" in response.json()["message"]


def test_client_models_parse_every_response(server):
    """Whatever the server answers on 200 parses into the client's own models."""
    response = server.post("/run_code", {"code": "print(1)", "language": "python"})
    sf_models.RunCodeResponse(**response.json())
    response = server.post("/submit", sf.SubmitRequest(
        dataset="x", id=1, completion=DOUBLER,
        config=sf.TestConfig(language="python", provided_data={"test": _tests([("1", "2")])})).dict())
    sf_models.EvalResult(**response.json())


def test_token_in_the_endpoint_url(require_sandbox, tmp_path: Path):
    """With --token-file, the unchanged client authenticates by the URL's credentials."""
    token = secrets.token_urlsafe(24)
    (tmp_path / "tokens").write_text(f"# the service's token\n{token}\n")
    with Server(slots=1, cli=["--token-file", str(tmp_path / "tokens")], token=token) as secured:
        request = sf.RunCodeRequest(code="print(6 * 7)", language="python")
        host = secured.url.removeprefix("http://")
        with pytest.raises(Exception, match="401"):
            sf.run_code(request, endpoint=secured.url, max_attempts=1)
        result = sf.run_code(request, endpoint=f"http://judge:{token}@{host}", max_attempts=1)
        assert result.run_result.stdout == "42\n"
        result = asyncio.run(sf.run_code_async(request, endpoint=f"http://judge:{token}@{host}",
                                               max_attempts=1))
        assert result.run_result.stdout == "42\n"
        assert requests.get(secured.url + "/healthz", timeout=10).status_code == 200


# -- tool-use code under the general policy ---------------------------------------------------

TOOL_USE = {
    "asyncio": "import asyncio\nasync def main():\n    await asyncio.sleep(0.01)\n    return 'ok'\n"
               "print(asyncio.run(main()))\n",
    "socketpair": "import socket\na, b = socket.socketpair()\na.sendall(b'ok')\n"
                  "print(b.recv(2).decode())\n",
    "multiprocessing": "from multiprocessing import Pool\n\ndef square(x):\n    return x * x\n\n"
                       "if __name__ == '__main__':\n    with Pool(2) as pool:\n"
                       "        print('ok' if pool.map(square, range(4)) == [0, 1, 4, 9] else 'no')\n",
    "localhost_server": (
        "import http.server, threading, urllib.request\n"
        "server = http.server.HTTPServer(('localhost', 0), http.server.SimpleHTTPRequestHandler)\n"
        "threading.Thread(target=server.serve_forever, daemon=True).start()\n"
        "with urllib.request.urlopen(f'http://localhost:{server.server_port}/') as r:\n"
        "    print('ok' if r.status == 200 else r.status)\n"
        "server.shutdown()\n"),
}


@pytest.mark.parametrize("case", sorted(TOOL_USE))
def test_tool_use_code_runs_under_the_general_policy(server, case):
    """What models write for a tool call (asyncio, socketpair, a process pool over /dev/shm, a
    server on the run's own localhost) runs through /run_code. Competitive grading keeps the
    python policy, which has neither internet sockets nor the links POSIX semaphores make."""
    result = sf.run_code(sf.RunCodeRequest(code=TOOL_USE[case], language="python"),
                         max_attempts=1)
    assert result.status == sf.RunStatus.Success, result
    assert result.run_result.stdout.strip() == "ok", result


def test_two_runs_bind_the_same_port_and_reach_nothing_outside(server):
    """Each run's network namespace is its own: two concurrent runs both serve on one port, and a
    listener on the host's loopback at that port is not reached."""
    with socket_listener() as (host_listener, port):
        program = (
            "import socket, time\n"
            f"s = socket.socket(); s.bind(('127.0.0.1', {port})); s.listen()\n"
            "c = socket.create_connection(('127.0.0.1', s.getsockname()[1]))\n"
            "peer, _ = s.accept(); c.sendall(b'ok'); print(peer.recv(2).decode())\n"
            "time.sleep(0.5)\n"
            "try:\n    socket.create_connection(('10.0.2.2', 80), timeout=1); print('out')\n"
            "except OSError:\n    print('isolated')\n")

        async def both():
            request = sf.RunCodeRequest(code=program, language="python")
            return await asyncio.gather(sf.run_code_async(request, max_attempts=1),
                                        sf.run_code_async(request, max_attempts=1))
        for result in asyncio.run(both()):
            assert result.status == sf.RunStatus.Success, result
            assert result.run_result.stdout.split() == ["ok", "isolated"], result
        host_listener.settimeout(0.2)
        with pytest.raises(OSError):
            host_listener.accept()


def test_the_general_policy_still_refuses_what_every_policy_refuses(server):
    """Sockets of other families (netlink, packet, vsock) and namespaces stay refused: RF."""
    for code in ("import socket; socket.socket(socket.AF_NETLINK, socket.SOCK_RAW)",
                 "import socket; socket.socket(socket.AF_PACKET, socket.SOCK_RAW)",
                 "import ctypes; ctypes.CDLL(None).unshare(0x40000000)"):
        body = server.post("/run_code", {"code": code, "language": "python"}).json()
        assert body["run_result"]["judge_status"] == "RF", (code, body)


@contextlib.contextmanager
def socket_listener():
    """A listener on the host's loopback, and its port."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        yield listener, listener.getsockname()[1]


# -- SandboxFusion's test runners, with the libraries its runtime holds ------------------------

RUNNERS = {
    "pytest": ("def test_sum():\n    assert sum([1, 2]) == {}\n", "3", "4"),
    "jest": ("import {{ describe, expect, test }} from '@jest/globals';\n"
             "describe('sum', () => {{ test('adds', () => {{ expect(1 + 2).toBe({}); }}); }});\n",
             "3", "4"),
    "junit": ("import org.junit.jupiter.api.Test;\n"
              "import static org.junit.jupiter.api.Assertions.assertEquals;\n"
              "public class SumTest {{ @Test void adds() {{ assertEquals({}, 1 + 2); }} }}\n",
              "3", "4"),
    "go_test": ('package main\nimport (\n\t"testing"\n\t"github.com/stretchr/testify/assert"\n)\n'
                "func TestSum(t *testing.T) {{ assert.Equal(t, {}, 1+2) }}\n", "3", "4"),
    "D_ut": ("unittest {{ assert(1 + 2 == {}); }}\nvoid main() {{}}\n", "3", "4"),
    "kotlin_script": ("check(1 + 2 == {})\nprintln(\"ok\")\n", "3", "4"),
    "java": ("import org.javatuples.Pair;\npublic class Main {{ public static void main(String[] a)"
             " {{ assert Pair.with(1, 2).getValue1() == {}; }} }}\n", "2", "3"),
    "lua": ("local lu = require('luaunit')\nfunction testSum() lu.assertEquals(1 + 2, {}) end\n"
            "os.exit(lu.LuaUnit.run())\n", "3", "4"),
    "nodejs": ("const _ = require('lodash');\nrequire('assert').strictEqual(_.sum([1, 2]), {});\n",
               "3", "4"),
    "perl": ("use Test::Deep; use Test::More tests => 1;\ncmp_deeply([1 + 2], [{}]);\n", "3", "4"),
}


def run_in(language: str, code: str, *, stdin: str = "", run_timeout: float = 60,
           attempts: int = 2) -> sf.RunCodeResponse:
    """The code through /run_code, with room for a cold JVM or GHC compile."""
    request = AnyLanguageRequest(code=code, language=language, stdin=stdin, compile_timeout=60,
                                 run_timeout=run_timeout)
    return sf.run_code(request, max_attempts=attempts)


@pytest.mark.parametrize("language", sorted(RUNNERS))
def test_sandboxfusions_test_runners_pass_and_fail(server, language):
    """A passing test file is Success, a failing one Failed (SandboxFusion's `-ea`, the
    libraries its runtime holds: javatuples, testify, luaunit, lodash, Test::Deep)."""
    template, good, bad = RUNNERS[language]
    for value, expected in ((good, sf.RunStatus.Success), (bad, sf.RunStatus.Failed)):
        result = run_in(language, template.format(value))
        assert result.status == expected, (language, value, result)


# MultiPL-E's C# as SandboxFusion's dataset assembles it: the prompt's usings, the completion,
# and a Main of Debug.Asserts ({body} is Main's body, {add} the completion's constant).
MULTIPLE_CSHARP = """using System;
using System.Numerics;
using System.Diagnostics;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using System.Security.Cryptography;
class Problem {{
    // >>> AddOne((1L))
    // (2L)
    public static long AddOne(long x) {{
        return x + {add};
    }}
    public static void Main(string[] args) {{
{body}
    }}

}}
"""
CSHARP_ASSERTS = ("    Debug.Assert(AddOne((1L)) == (2L));\n"
                  "    Debug.Assert(AddOne((41L)) == (42L));")


def test_csharp_debug_assert_decides_the_run_as_in_a_debug_build(server):
    """SandboxFusion's `dotnet run` builds C# in Debug, where a failed Debug.Assert ends the
    program (FailFast, exit 134 through `dotnet run`): MultiPL-E's C# tests are those asserts,
    so a wrong completion is Failed, and a right one Success."""
    right = run_in("csharp", MULTIPLE_CSHARP.format(add=1, body=CSHARP_ASSERTS))
    assert right.status == sf.RunStatus.Success, right
    wrong = run_in("csharp", MULTIPLE_CSHARP.format(add=2, body=CSHARP_ASSERTS))
    assert wrong.status == sf.RunStatus.Failed, wrong
    assert wrong.run_result.return_code == 134, wrong
    assert "Assertion failed" in wrong.run_result.stderr, wrong
    # Trace.Assert too (a .NET project defines TRACE in Debug and Release), with its message,
    # after what the program printed before it.
    traced = run_in("csharp", MULTIPLE_CSHARP.format(
        add=2, body='    Console.WriteLine("before");\n'
                    '    Trace.Assert(AddOne(1L) == 2L, "AddOne(1) is not 2");'))
    assert traced.status == sf.RunStatus.Failed, traced
    assert traced.run_result.stdout == "before\n", traced
    assert "AddOne(1) is not 2" in traced.run_result.stderr, traced


def test_csharp_failed_assert_cannot_be_caught_but_listeners_can_be_removed(server):
    """.NET's failed assert is not an exception: a catch does not stop it, nor does an exit
    hook. A program that removes the trace listeners silences its asserts under .NET as well
    (Debug.Assert then reaches no listener), so it passes here too, as it would on SandboxFusion."""
    caught = ('    try { Debug.Assert(AddOne(1L) == 2L); } catch { Console.WriteLine("caught"); }\n'
              '    AppDomain.CurrentDomain.ProcessExit += (s, e) => Environment.ExitCode = 0;\n'
              '    Debug.Assert(AddOne(41L) == 42L);')
    result = run_in("csharp", MULTIPLE_CSHARP.format(add=2, body=caught))
    assert result.status == sf.RunStatus.Failed, result
    assert "caught" not in result.run_result.stdout, result
    cleared = "    Trace.Listeners.Clear();\n" + CSHARP_ASSERTS
    result = run_in("csharp", MULTIPLE_CSHARP.format(add=2, body=cleared))
    assert result.status == sf.RunStatus.Success, result


GO_SUMMARY = r"ok  \tcommand-line-arguments\t\d+\.\d{3}s"


def test_go_test_prints_go_tests_summary(server):
    """SandboxFusion runs `go test file_test.go`, whose last line is `ok  <package> <time>` when
    the tests pass (its own runner test looks for "ok"), and `FAIL <package> <time>` then `FAIL`,
    with exit status 1, when they do not. MultiPL-E's Go is a package of its own (`x_test`)."""
    template = ('package add_test\n\nimport (\n\t"testing"\n\t"github.com/stretchr/testify/assert"'
                '\n)\n\nfunc TestAdd(t *testing.T) {{\n\tassert.Equal(t, {}, 1+2)\n}}\n')
    passed = run_in("go_test", template.format(3))
    assert passed.status == sf.RunStatus.Success, passed
    assert re.fullmatch(GO_SUMMARY, passed.run_result.stdout.splitlines()[-1]), passed
    failed = run_in("go_test", template.format(4))
    assert failed.status == sf.RunStatus.Failed, failed
    assert failed.run_result.return_code == 1, failed
    lines = failed.run_result.stdout.splitlines()
    assert "Not equal" in failed.run_result.stdout, failed
    assert re.fullmatch(GO_SUMMARY.replace("ok  ", "FAIL"), lines[-2]) and lines[-1] == "FAIL", \
        failed
    assert not any(re.fullmatch(GO_SUMMARY, line) for line in lines), failed


def test_go_test_keeps_its_own_test_main(server):
    """A file with its own TestMain keeps it (a second one would not compile): the summary line
    is then the test binary's own output, as `go test` would leave it before its summary."""
    code = ('package main\n\nimport (\n\t"os"\n\t"testing"\n)\n\n'
            'func TestMain(m *testing.M) { println("own main"); os.Exit(m.Run()) }\n\n'
            'func TestOne(t *testing.T) {}\n')
    result = run_in("go_test", code)
    assert result.status == sf.RunStatus.Success, result
    assert "own main" in result.run_result.stderr + result.run_result.stdout, result


# -- every SandboxFusion language: reads stdin, fails an assertion, runs past run_timeout ------
# (SandboxFusion's runner tests check these three behaviours per language; these are the
# judge's own programs for them.)

LANGUAGE_CASES = {
    "python": ("print(input()[::-1])", "assert 1 == 2", "while True: pass"),
    "cpp": ("#include <iostream>\n#include <string>\n#include <algorithm>\nint main() { "
            "std::string s; std::cin >> s; std::reverse(s.begin(), s.end()); std::cout << s; }",
            "#include <cassert>\nint main() { assert(1 == 2); }", "int main() { for (;;) {} }"),
    "go": ('package main\nimport "fmt"\nfunc main() { var s string; fmt.Scan(&s); '
           'r := []rune(s); for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 { r[i], r[j] = r[j], '
           'r[i] }; fmt.Print(string(r)) }',
           'package main\nfunc main() { panic("assertion failed") }',
           "package main\nfunc main() { for {} }"),
    "java": ("import java.util.*;\npublic class Main { public static void main(String[] a) { "
             "System.out.print(new StringBuilder(new Scanner(System.in).next()).reverse()); } }",
             "public class Main { public static void main(String[] a) { assert 1 == 2; } }",
             "public class Main { public static void main(String[] a) { while (true) {} } }"),
    "nodejs": ("const s = require('fs').readFileSync(0, 'utf8').trim();\n"
               "process.stdout.write([...s].reverse().join(''));",
               "require('assert').strictEqual(1, 2);", "while (true) {}"),
    "typescript": ("import * as fs from 'fs';\nconst s: string = fs.readFileSync(0, 'utf8').trim();"
                   "\nprocess.stdout.write([...s].reverse().join(''));",
                   "import assert from 'assert';\nassert.strictEqual(1, 2);",
                   "const spin = (): void => { while (true) {} };\nspin();"),
    "csharp": ("class P { static void Main() { var s = Console.ReadLine().Trim().ToCharArray(); "
               "Array.Reverse(s); Console.Write(new string(s)); } }",
               "class P { static void Main() { throw new Exception(\"assertion failed\"); } }",
               "class P { static void Main() { while (true) {} } }"),
    "lua": ("io.write(string.reverse(io.read('l')))", "assert(1 == 2)", "while true do end"),
    "R": ("s <- readLines(file('stdin'), n = 1)\ncat(paste(rev(strsplit(s, '')[[1]]), "
          "collapse = ''))", "stopifnot(1 == 2)", "repeat {}"),
    "perl": ("my $s = <STDIN>; chomp $s; print scalar reverse $s;", "die 'assertion failed' "
             "unless 1 == 2;", "1 while 1;"),
    "ruby": ("print gets.strip.reverse", "raise 'assertion failed' unless 1 == 2", "loop {}"),
    "scala": ("object Main { def main(args: Array[String]): Unit = "
              "print(scala.io.StdIn.readLine().trim.reverse) }",
              "object Main { def main(args: Array[String]): Unit = assert(1 == 2) }",
              "object Main { def main(args: Array[String]): Unit = while (true) {} }"),
    "rust": ("fn main() { let mut s = String::new(); std::io::stdin().read_line(&mut s).unwrap();"
             " print!(\"{}\", s.trim().chars().rev().collect::<String>()); }",
             "fn main() { assert_eq!(1, 2); }", "fn main() { loop {} }"),
    "php": ("echo strrev(trim(fgets(STDIN)));", "<?php\nthrow new AssertionError('1 != 2');",
            "<?php\nwhile (true) {}"),
    "bash": ("read s; echo -n \"$s\" | rev", "[ 1 -eq 2 ] || exit 1", "while :; do :; done"),
    "racket": ("#lang racket/base\n(display (list->string (reverse (string->list (read-line)))))",
               "#lang racket/base\n(unless (= 1 2) (error \"assertion failed\"))",
               "#lang racket/base\n(let loop () (loop))"),
    "kotlin_script": ("print(readLine()!!.trim().reversed())", "check(1 == 2)",
                      "while (true) {}"),
}


@pytest.mark.parametrize("language", sorted(LANGUAGE_CASES))
def test_every_sandboxfusion_language_reads_fails_and_times_out(server, language):
    echo, failing, spinning = LANGUAGE_CASES[language]
    result = run_in(language, echo, stdin="judge\n")
    assert result.status == sf.RunStatus.Success and result.run_result.stdout.strip() == "egduj", \
        result
    result = run_in(language, failing)
    assert result.status == sf.RunStatus.Failed and result.run_result.return_code != 0, result
    result = run_in(language, spinning, run_timeout=1, attempts=4)
    assert result.status == sf.RunStatus.Failed, result
    assert result.run_result.status == sf.CommandRunStatus.TimeLimitExceeded, result
