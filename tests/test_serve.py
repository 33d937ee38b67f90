"""`judge serve`: the native /v1 API, health, metrics, and the safety of the service itself:
tokens, size limits, a full queue, clients that go away, a crashed slot, SIGTERM, hostile
requests and programs, and a bounded load test. Every test runs a real server (uvicorn in a
subprocess, tests/serving.py), except the pool test, which runs the real pool in-process."""
from __future__ import annotations

import asyncio
import base64
import http.client
import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests

from conftest import PACK_SOURCES, assert_no_leftovers, supervisor_pids_of
from serving import JURY_WITHOUT_AN_ANSWER, REPO, Server, take_slots, wait_for

pytestmark = pytest.mark.usefixtures("require_sandbox")

SOLUTION = PACK_SOURCES / "codeforces-2020A"


@pytest.fixture(scope="module")
def server(require_sandbox):
    with Server(slots=2) as running:
        yield running


def judge_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", *args],
                          capture_output=True, text=True, cwd=str(REPO), timeout=600,
                          env={**os.environ, "PYTHONPATH": str(REPO)})


# -- the native API -------------------------------------------------------------------------

@pytest.mark.parametrize(("language", "name"), [("cpp", "sol.cpp"), ("python", "sol.py"),
                                              ("java", "WA.java"), ("cpp", "re.cpp")])
def test_grade_a_pack_problem_as_judge_run_does(server, language, name):
    code = (SOLUTION / name).read_text()
    response = server.post("/v1/grade", {"code": code, "language": language,
                                         "problem_id": "2020A"})
    assert response.status_code == 200, response.text
    served = response.json()
    cli = judge_cli("run", str(SOLUTION / name), "--problem", "2020A", "--json")
    assert cli.returncode in (0, 1), cli.stderr
    local = json.loads(cli.stdout)
    assert served.keys() == local.keys()
    for key in ("verdict", "problem", "language", "time_limit_ms", "memory_limit_mb"):
        assert served[key] == local[key], key
    assert [t["verdict"] for t in served["tests"]] == [t["verdict"] for t in local["tests"]]
    assert served["tests"][0].keys() == local["tests"][0].keys()
    assert served["compile"].keys() == local["compile"].keys()


def test_grade_an_inline_problem(server):
    problem = {"id": "add", "time_limit_ms": 1000, "memory_limit_mb": 64, "checker": "ncmp",
               "tests": [{"input": f"{a} {a + 1}\n", "output": f"{2 * a + 1}\n"} for a in range(5)]}
    body = {"code": "a, b = map(int, input().split())\nprint(a + b)\n", "language": "python",
            "problem": problem}
    result = server.post("/v1/grade", body).json()
    assert result["verdict"] == "AC" and len(result["tests"]) == 5
    assert result["problem"] == "inline/add" and result["time_limit_ms"] == 2000   # python 2x
    body["code"] = "print(0)\n"
    result = server.post("/v1/grade", {**body, "all_tests": True}).json()
    assert result["verdict"] == "WA" and len(result["tests"]) == 5
    assert "expected" in result["tests"][0]["checker_message"]


def test_grade_refuses_what_it_cannot_grade(server):
    tests = [{"input": "1", "output": "1"}]
    cases = [
        ({"code": "x", "language": "cobol", "problem": {"tests": tests}}, 422, "unknown language"),
        ({"code": "x", "language": "cpp", "problem_id": "no-such-problem"}, 404, "no-such-problem"),
        ({"code": "x", "language": "cpp"}, 422, "exactly one of problem_id and problem"),
        ({"code": "x", "language": "python", "problem": {"tests": tests, "checker": "nope"}},
         422, "unknown checker"),
        ({"code": "x", "language": "python", "problem": {"tests": []}}, 422, "tests"),
        ({"code": "print(1)", "language": "python",
          "problem": {"tests": tests, "checker": "#include <x>\nint main("}},
         422, "does not compile"),
    ]
    for body, status, words in cases:
        response = server.post("/v1/grade", body)
        assert response.status_code == status, (body, response.text)
        error = response.json()
        assert set(error) >= {"error", "message"} and words in error["message"], error


def test_exec_returns_the_run_result(server):
    body = {"argv": ["python3", "-c", "import sys; data = sys.stdin.read(); print(data[::-1]);"
                     "open('out.txt', 'w').write(open('in/a.txt').read().upper())"],
            "stdin": "abc", "policy": "python",
            "files": {"in/a.txt": base64.b64encode(b"shout").decode()}, "fetch_files": ["out.txt"]}
    response = server.post("/v1/exec", body)
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["stdout"] == "cba\n" and base64.b64decode(result["files"]["out.txt"]) == b"SHOUT"
    run = result["result"]
    assert run["status"] == "OK" and run["exit_code"] == 0 and run["memory_kb"] > 0
    assert set(run) >= {"cpu_time_ms", "wall_time_ms", "killed_by", "syscall", "sources"}
    spin = server.post("/v1/exec", {"argv": ["python3", "-c", "while True: pass"],
                                    "policy": "python", "limits": {"time_limit_ms": 300}}).json()
    assert spin["result"]["status"] == "TLE" and spin["result"]["killed_by"] == "cpu-timer"
    missing = server.post("/v1/exec", {"argv": ["/no/such/program"]})
    assert missing.status_code == 422 and "cannot execute" in missing.json()["message"]
    binary = server.post("/v1/exec", {"argv": ["head", "-c", "4", "/dev/zero"],
                                      "output": "base64"}).json()
    assert base64.b64decode(binary["stdout"]) == b"\0\0\0\0"


def test_batches_are_graded_and_polled(server):
    problem = {"tests": [{"input": "2", "output": "4"}, {"input": "3", "output": "6"}]}
    items = [{"code": f"print(int(input()) * {k})", "language": "python", "problem": problem}
             for k in (2, 3, 2, 1)]
    items.append({"code": (SOLUTION / "sol.cpp").read_text(), "language": "cpp",
                  "problem_id": "2020A"})
    created = server.post("/v1/batches", {"items": items})
    assert created.status_code == 202, created.text
    batch = created.json()
    assert batch["total"] == 5 and created.headers["Location"] == batch["url"]

    def finished():
        status = server.get(batch["url"]).json()
        return status["status"] == "done" and status

    wait_for(finished, 120_000, "the batch")
    status = server.get(batch["url"]).json()
    assert [item["result"]["verdict"] for item in status["items"]] == ["AC", "WA", "AC", "WA", "AC"]
    assert status["verdicts"] == {"AC": 3, "WA": 2} and status["finished"] == 5
    assert server.get("/v1/batches/nope").status_code == 404
    bad = server.post("/v1/batches", {"items": [items[0], {"code": "x", "language": "cpp",
                                                           "problem_id": "nope"}]})
    assert bad.status_code == 404 and bad.json()["message"].startswith("items[1]")
    # Cancelling: what has not started is never run.
    slow = [{"code": "import time; time.sleep(1)", "language": "python", "problem": problem}] * 12
    created = server.post("/v1/batches", {"items": slow}).json()
    cancelled = requests.delete(server.url + created["url"], timeout=30).json()
    assert cancelled["status"] == "cancelled"
    wait_for(lambda: all(i["status"] in ("done", "cancelled", "error")
                         for i in server.get(created["url"]).json()["items"]), 60_000, "the cancel")
    final = server.get(created["url"]).json()
    assert sum(i["status"] == "cancelled" for i in final["items"]) >= 8


def test_a_batch_says_which_items_the_judge_failed_at(server):
    """Like `judge eval`'s summary, a batch says whether every item has a verdict the metrics
    may count (complete) and lists the ones the judge failed at (excluded); each grading says
    whether it is a judge failure (it used to be only a verdict among others)."""
    doubler = "print(int(input()) * 2)"
    good = {"tests": [{"input": "2", "output": "4"}]}
    broken = {"tests": [{"input": "2", "output": "4"}, {"input": "7", "output": "14"}],
              "checker": JURY_WITHOUT_AN_ANSWER}
    items = [{"code": doubler, "language": "python", "problem": good},
             {"code": doubler, "language": "python", "problem": broken},
             {"code": "print(0)", "language": "python", "problem": good}]
    batch = server.post("/v1/batches", {"items": items}).json()
    assert server.get(batch["url"]).json()["complete"] is False     # not done yet, or failed
    wait_for(lambda: server.get(batch["url"]).json()["status"] == "done", 120_000, "the batch")
    status = server.get(batch["url"]).json()
    assert status["complete"] is False
    assert status["excluded"]["count"] == 1 and status["excluded"]["items"][0]["index"] == 1
    left_out = status["items"][1]
    assert left_out["status"] == "error" or left_out["result"]["judge_failure"] is True
    assert [status["items"][i]["result"]["judge_failure"] for i in (0, 2)] == [False, False]
    fine = server.post("/v1/batches", {"items": [items[0], items[2]]}).json()
    wait_for(lambda: server.get(fine["url"]).json()["status"] == "done", 120_000, "the batch")
    status = server.get(fine["url"]).json()
    assert status["complete"] is True and status["excluded"]["count"] == 0
    single = server.post("/v1/grade", items[0]).json()
    assert single["verdict"] == "AC" and single["judge_failure"] is False


def test_languages_health_readiness_and_openapi(server):
    languages = {entry["name"]: entry for entry in server.get("/v1/languages").json()}
    assert set(languages) >= {"cpp", "c", "python", "pypy3", "java"}
    assert languages["python"]["time_factor"] == 2.0 and languages["cpp"]["compiled"]
    assert languages["python"]["python_modules"]["livecodebench"] == ["numpy"]
    assert languages["python"]["python_modules"]["codeforces"] == []
    assert languages["pypy3"]["python_modules"]["livecodebench"] == []
    assert languages["cpp"]["python_modules"] is None
    assert server.get("/healthz").json() == {"status": "ok"}
    ready = server.get("/readyz").json()
    assert ready["ready"] and len(ready["slots"]) == 2 and all(s["warm"] for s in ready["slots"])
    schema = server.get("/openapi.json").json()
    for path in ("/v1/grade", "/v1/exec", "/v1/batches", "/v1/batches/{batch_id}", "/run_code",
                 "/submit", "/healthz", "/readyz", "/metrics"):
        assert path in schema["paths"], path
    components = schema["components"]["schemas"]
    assert {"GradeResponse", "RunResultModel", "RunCodeResponse", "EvalResult"} <= set(components)
    assert "memory_kb" in components["CommandRunResult"]["properties"]


def test_metrics(server):
    server.post("/run_code", {"code": "print(1)", "language": "python"})
    # A spinner stopped by its 200 ms wall clock is TLE, or BUSY when other work took more
    # than half of its CPU (a loaded machine): judged again then, as eval does, and each
    # answer counted under its own status.
    seen = []
    while "TLE" not in seen and len(seen) < 5:
        seen.append(server.post("/run_code", {"code": "while True: pass", "language": "python",
                                              "run_timeout": 0.2}).json()["verdict"])
    assert set(seen) <= {"TLE", "BUSY"}, seen
    text = server.get("/metrics").text
    assert "judge_serve_queue_length 0.0" in text
    assert server.metric("judge_serve_runs_total", endpoint="run_code", status="OK") >= 1
    for status in set(seen):
        assert server.metric("judge_serve_runs_total", endpoint="run_code",
                             status=status) >= seen.count(status), seen
    assert server.metric("judge_serve_run_seconds_count", endpoint="run_code") >= 2
    assert 'judge_serve_run_seconds_bucket{endpoint="run_code",le="0.1"}' in text
    assert "judge_serve_slot_restarts_total" in text and "judge_serve_slots 2.0" in text


def test_a_dataset_given_at_start(require_sandbox, tmp_path: Path):
    """--dataset: its problems by id, for /v1/grade and for /submit without provided_data."""
    row = {"id": 1, "problem_id": "codeforces/1900B", "problem_desc": "Add.", "time_limit_ms": 1000,
           "memory_limit_MB": 256, "checker": "wcmp",
           "test_cases": [{"input": f"{a} {b}\n", "output": f"{a + b}\n"} for a, b in ((1, 2), (5, 8))]}
    (tmp_path / "cf.jsonl").write_text(json.dumps(row) + "\n")
    code = "a, b = map(int, input().split())\nprint(a + b)\n"
    with Server(slots=1, dataset=str(tmp_path / "cf.jsonl")) as served:
        assert served.get("/readyz").json()["problems"] == "ready"
        result = served.post("/v1/grade", {"code": code, "language": "python",
                                           "problem_id": "1900B"}).json()
        assert result["verdict"] == "AC" and result["problem"] == "codeforces/1900B"
        assert len(result["tests"]) == 2
        answer = served.post("/submit", {"id": "codeforces/1900B", "completion": code,
                                         "config": {"language": "python"}}).json()
        assert answer["accepted"] and len(answer["tests"]) == 2
        pack = served.post("/v1/grade", {"code": code, "language": "python", "problem_id": "2020A"})
        assert pack.json()["problem"] == "codeforces/2020A"     # the pack is still there
        missing = served.post("/v1/grade", {"code": code, "language": "python",
                                            "problem_id": "9999Z"})
        assert missing.status_code == 404 and missing.json()["error"] == "unknown_problem"


# -- safety ---------------------------------------------------------------------------------

def test_tokens_guard_everything_but_health(require_sandbox, tmp_path: Path):
    token = secrets.token_urlsafe(24)
    (tmp_path / "tokens").write_text(token + "\n")
    with Server(slots=1, cli=["--token-file", str(tmp_path / "tokens")]) as secured:
        url = secured.url
        for path in ("/healthz", "/readyz"):
            assert requests.get(url + path, timeout=10).status_code == 200
        body = {"code": "print(1)", "language": "python"}
        for headers in ({}, {"Authorization": "Bearer wrong-token-wrong-token"},
                        {"Authorization": token}, {"Authorization": "Basic !!!"}):
            response = requests.post(url + "/run_code", json=body, headers=headers, timeout=30)
            assert response.status_code == 401, headers
            assert response.json()["error"] == "unauthorized"
            assert response.headers["WWW-Authenticate"].startswith("Bearer")
        for path in ("/metrics", "/openapi.json", "/docs", "/v1/languages"):
            assert requests.get(url + path, timeout=10).status_code == 401, path
        good = {"Authorization": f"Bearer {token}"}
        response = requests.post(url + "/run_code", json=body, headers=good, timeout=60)
        assert response.status_code == 200 and response.json()["run_result"]["stdout"] == "1\n"
        assert requests.get(url + "/metrics", headers=good, timeout=10).status_code == 200
        schema = requests.get(url + "/openapi.json", headers=good, timeout=10).json()
        assert schema["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
        # An unauthenticated huge body is refused before it is read.
        assert _declared_body(secured.port, 10 << 30, headers={})[0] == 401
    (tmp_path / "empty").write_text("# nothing\n")
    done = judge_cli("serve", "--token-file", str(tmp_path / "empty"), "--port", "1")
    assert done.returncode == 2 and "holds no token" in done.stderr
    done = judge_cli("serve", "--trust-proxy", "proxy.example", "--port", "1")
    assert done.returncode == 2 and "'proxy.example' is not an address or a network" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def _declared_body(port: int, length: int, headers: dict[str, str], send: bytes = b"",
                   path: str = "/run_code") -> tuple[int, dict]:
    """Declares a body of `length` bytes, sends only `send` of it, and reads the answer."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.putrequest("POST", path)
    connection.putheader("Content-Type", "application/json")
    connection.putheader("Content-Length", str(length))
    for key, value in headers.items():
        connection.putheader(key, value)
    connection.endheaders()
    if send:
        connection.send(send)
    response = connection.getresponse()
    body = json.loads(response.read() or b"{}")
    connection.close()
    return response.status, body


@pytest.fixture(scope="module")
def small(require_sandbox):
    """A server with small limits, to reach them cheaply."""
    with Server(slots=1, max_body_bytes=256 << 10, max_code_bytes=4096, max_stdin_bytes=8192,
                max_files=2, max_files_bytes=8192, max_tests=3, max_tests_bytes=16384,
                max_fetch_bytes=1024, output_limit_mb=1, max_memory_mb=512, default_memory_mb=256,
                max_run_timeout_s=20, max_batch_items=2, max_submit_output_bytes=8192) as running:
        yield running


def test_size_limits(small):
    def refused(path, body, status, *words):
        response = small.post(path, body)
        assert response.status_code == status, (path, response.text[:300])
        error = response.json()
        assert all(w in error["message"] for w in words), error
        return error

    py = {"language": "python"}
    b64 = base64.b64encode
    refused("/run_code", {**py, "code": "#" * 5000}, 413, "code", "4 KiB")
    refused("/run_code", {**py, "code": "1", "stdin": "x" * 9000}, 413, "stdin", "8 KiB")
    refused("/run_code", {**py, "code": "1", "files": {f"f{i}": "" for i in range(3)}}, 413,
            "files", "at most 2")
    refused("/run_code", {**py, "code": "1", "files": {"a": b64(b"x" * 9000).decode()}}, 413,
            "files")
    refused("/run_code", {**py, "code": "1", "files": {"a": "not base64!"}}, 422, "base64")
    refused("/run_code", {**py, "code": "1", "run_timeout": 50}, 422, "run_timeout", "20 s")
    refused("/run_code", {**py, "code": "1", "memory_limit_MB": 100000}, 422, "memory_limit_MB")
    refused("/run_code", {"code": "1"}, 422, "language")
    tests = [{"input": {"stdin": "1"}, "output": {"stdout": "1"}}] * 4
    refused("/submit", {"id": 1, "completion": "print(1)",
                        "config": {"language": "python", "provided_data": {"test": tests}}},
            413, "4 tests", "at most 3")
    big = [{"input": {"stdin": "1" * 9000}, "output": {"stdout": "1"}}] * 2
    refused("/submit", {"id": 1, "completion": "print(1)",
                        "config": {"language": "python", "provided_data": {"test": big}}},
            413, "inputs and answers")
    refused("/v1/grade", {"code": "1", "language": "python",
                          "problem": {"tests": [{"input": "1", "output": "1"}] * 4}}, 413, "tests")
    refused("/v1/batches", {"items": [{"code": "1", "language": "python", "problem_id": "2020A"}] * 3},
            413, "items", "at most 2")
    refused("/v1/exec", {"argv": ["true"], "limits": {"memory_limit_mb": 4096}}, 422, "memory")
    refused("/v1/exec", {"argv": ["true"], "limits": {"output_limit_mb": 2}}, 422, "output")
    # Left out, the output limit is this server's own (1 MB), not a default above it.
    flood = small.post("/v1/exec", {"argv": ["head", "-c", str(3 << 20), "/dev/zero"]})
    assert flood.status_code == 200 and flood.json()["result"]["status"] == "OLE", flood.text[:300]
    # /submit returns each test's stdout up to its share of the budget; the checker saw it all.
    tests = [{"input": {"stdin": "1"}, "output": {"stdout": "y" * 10000}}] * 2
    body = {"id": 1, "completion": "print('y' * 10000)", "config": {
        "language": "python", "provided_data": {"test": tests[:1]}, "extra": {"run_all_cases": True}}}
    refused("/submit", {**body, "config": {**body["config"], "provided_data": {"test": tests}}},
            413, "inputs and answers")
    result = small.post("/submit", body).json()
    assert result["accepted"] and len(result["tests"][0]["exec_info"]["run_result"]["stdout"]) == 8192
    # Malformed bodies are JSON errors too.
    response = requests.post(small.url + "/run_code", data=b"{not json", timeout=30,
                             headers={"Content-Type": "application/json"})
    assert response.status_code == 422 and response.json()["error"] == "invalid_request"
    response = requests.post(small.url + "/run_code", data=b"code=1", timeout=30)
    assert response.status_code == 422 and "Content-Type: application/json" in response.json()["message"]
    # The body as a whole: by its Content-Length, before reading, and chunked as it arrives.
    status, error = _declared_body(small.port, 1 << 30, {})
    assert status == 413 and error["error"] == "too_large" and "256 KiB" in error["message"]

    def chunks():
        for _ in range(40):
            yield b" " * 8192
    response = requests.post(small.url + "/run_code", data=chunks(), timeout=30,
                             headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert small.metric("judge_serve_rejected_total", reason="too_large") >= 2
    assert small.get("/healthz").status_code == 200


def test_a_full_queue_is_answered_retryable_with_retry_after(require_sandbox):
    """/v1 answers a full queue 503; SandboxFusion's endpoints 504, the one status verl retries
    (it scores a 503 as a failed test)."""
    with Server(slots=1, queue_size=1) as busy:
        sleeper = {"code": "import time; time.sleep(2.5)", "language": "python", "run_timeout": 10}
        answers: list[requests.Response] = []
        threads = [threading.Thread(target=lambda: answers.append(busy.post("/run_code", sleeper)))
                   for _ in range(2)]
        threads[0].start()
        wait_for(lambda: busy.metric("judge_serve_slots_busy") == 1, what="a busy slot")
        threads[1].start()
        wait_for(lambda: busy.metric("judge_serve_queue_length") == 1, what="a queued job")
        response = busy.post("/run_code", {"code": "print(1)", "language": "python"})
        assert response.status_code == 504
        assert response.json()["error"] == "queue_full"
        assert int(response.headers["Retry-After"]) >= 1
        native = busy.post("/v1/grade", {"code": "print(1)", "language": "python",
                                         "problem_id": "2020A"})
        assert native.status_code == 503 and native.json()["error"] == "queue_full"
        ready = busy.get("/readyz").json()
        assert ready["queue_length"] == 1 and ready["queue_limit"] == 1
        for thread in threads:
            thread.join()
        assert [a.status_code for a in answers] == [200, 200]
        assert all(a.json()["status"] == "Success" for a in answers)
        assert busy.metric("judge_serve_rejected_total", reason="queue_full") == 2
        assert busy.post("/run_code", {"code": "print(1)", "language": "python"}).status_code == 200


def _job(client: str):
    from judge.service.pool import Job
    return Job(lambda slot: client, "test", client)


def test_a_client_is_its_machine_not_each_of_its_addresses():
    """The fair queue's key of a peer: every loopback address is the one local machine, an
    IPv4-mapped address its IPv4 one, an IPv6 address its /64; other machines stay apart."""
    from judge.service.runtime import peer_key
    assert {peer_key(a) for a in ("127.0.0.1", "127.0.0.2", "127.255.0.9", "::1",
                                  "::ffff:127.0.0.3")} == {"loopback"}
    assert peer_key("::ffff:10.0.0.1") == peer_key("10.0.0.1") == "10.0.0.1"
    assert peer_key("2001:db8::1") == peer_key("2001:db8::ffff:1") == "2001:db8::/64"
    assert len({peer_key(a) for a in ("10.0.0.1", "10.0.0.2", "2001:db8:0:1::1")}) == 3
    assert peer_key("unix-socket") == "unix-socket"


def test_the_queue_serves_its_clients_in_turn():
    from judge.service.pool import FairQueue

    waiting = FairQueue(limit=10)
    for _ in range(4):
        waiting.put(_job("heavy"))
    waiting.put(_job("light"))
    order = [waiting.get_nowait() for _ in range(5)]
    assert [job.client for job in order if job] == ["heavy", "light", "heavy", "heavy", "heavy"]
    assert waiting.get_nowait() is None and waiting.qsize() == 0


def test_a_client_s_quick_programs_go_before_its_slow_ones():
    """Within one client's line, a program whose earlier jobs were slow (the tests of a sample
    that timed out) waits behind programs that were quick or never seen; equals keep their
    order; the turns between clients are unchanged."""
    from judge.service.pool import FairQueue, Job, JobCosts

    costs = JobCosts(keep=3)
    costs.observe("spinner", 2.0)
    costs.observe("quick", 0.03)
    waiting = FairQueue(limit=10, costs=costs)
    for name in ("spinner", "quick", "spinner", "new", "quick"):
        waiting.put(Job(lambda slot: None, "test", "trainer", name))
    waiting.put(Job(lambda slot: None, "test", "other", "spinner"))
    order = [waiting.get_nowait() for _ in range(6)]
    assert [(job.client, job.cost_key) for job in order if job] == [
        ("trainer", "new"), ("other", "spinner"), ("trainer", "quick"), ("trainer", "quick"),
        ("trainer", "spinner"), ("trainer", "spinner")]
    for name in ("a", "b", "c"):                    # the oldest programs are forgotten
        costs.observe(name, 1.0)
    assert costs.estimate("spinner") == 0.0 and costs.estimate("c") == 1.0


def test_a_full_queue_takes_its_place_from_the_client_holding_most():
    from judge.service.metrics import Metrics
    from judge.service.pool import QueueFull, SlotPool

    pool = SlotPool(1, 3, lambda index: None, Metrics())    # not started: every job waits
    heavy = [pool.submit(lambda slot: None, "test", "heavy") for _ in range(3)]
    light = pool.submit(lambda slot: None, "test", "light")
    assert isinstance(heavy[2].exception(timeout=0), QueueFull)   # its newest gave its place
    assert not light.done() and not heavy[0].done() and not heavy[1].done()
    with pytest.raises(QueueFull):                  # now it holds no more than the other
        pool.submit(lambda slot: None, "test", "heavy")
    second = pool.submit(lambda slot: None, "test", "light")      # 1 place against 2
    assert isinstance(heavy[1].exception(timeout=0), QueueFull) and not second.done()
    with pytest.raises(QueueFull):                  # it holds the most: no place to take
        pool.submit(lambda slot: None, "test", "light")
    assert pool.queue_length() == 3 and not heavy[0].done()


def test_a_job_goes_to_the_idle_worker_of_the_lowest_index():
    from judge.service.pool import FairQueue

    waiting = FairQueue(limit=10)
    taken: dict[int, object] = {}
    workers = [threading.Thread(target=lambda i=i: taken.__setitem__(i, waiting.get(i, 5)))
               for i in (1, 0)]
    for worker in workers:
        worker.start()
    wait_for(lambda: len(waiting._idle) == 2, what="two idle workers")
    waiting.put(_job("one"))
    for worker in workers:
        worker.join()
    assert taken[0] is not None and taken[0].client == "one" and taken[1] is None


@pytest.mark.parametrize("clients_by", ["loopback-alias", "token", "spoofed-forwarded-for",
                                        "trusted-proxy"])
def test_a_client_with_many_requests_does_not_starve_another(require_sandbox, clients_by):
    """One slot, one client with 8 slow requests queued, then another client's one: it runs
    next, not after the 8 (its line is served in turn; a client is its peer's machine, or its
    token when the server has tokens). A client cannot pose as many by sending each request
    with another X-Forwarded-For (the header is ignored unless its sender is a --trust-proxy,
    whose header then names the client), nor from another address of the same machine (every
    loopback address is the one local machine): its request then waits behind its own 8."""
    heavy_token, light_token = secrets.token_hex(16), secrets.token_hex(16)
    settings: dict = {"tokens": [heavy_token, light_token]} if clients_by == "token" else {}
    if clients_by == "trusted-proxy":
        settings["trusted_proxies"] = ["127.0.0.1"]
    with Server(slots=1, **settings) as one:
        one.token = heavy_token if clients_by == "token" else None     # for /metrics
        answered: list[str] = []
        lock = threading.Lock()

        def send(name: str, source: str, token: str, code: str) -> None:
            connection = http.client.HTTPConnection("127.0.0.1", one.port, timeout=300,
                                                    source_address=(source, 0))
            headers = {"Content-Type": "application/json"}
            if clients_by == "token":
                headers["Authorization"] = f"Bearer {token}"
            elif clients_by == "spoofed-forwarded-for" and name.startswith("heavy"):
                headers["X-Forwarded-For"] = f"10.1.0.{name[5:]}"
            elif clients_by == "trusted-proxy":   # both through the proxy on 127.0.0.1
                headers["X-Forwarded-For"] = "10.2.0.1" if name.startswith("heavy") else "10.2.0.2"
            connection.request("POST", "/run_code", json.dumps(
                {"code": code, "language": "python", "run_timeout": 30}), headers)
            response = connection.getresponse()
            body = json.loads(response.read())
            connection.close()
            assert response.status == 200 and body["status"] == "Success", body
            with lock:
                answered.append(name)

        slow = "import time; time.sleep(0.5)"
        light_source = "127.0.0.1" if clients_by in ("token", "trusted-proxy") else "127.0.0.2"
        heavy = [threading.Thread(target=send, args=(f"heavy{i}", "127.0.0.1", heavy_token, slow))
                 for i in range(8)]
        for thread in heavy:
            thread.start()
        wait_for(lambda: one.metric("judge_serve_queue_length") >= 6, what="the heavy queue")
        # Where the light client is the heavy one (one machine), its request runs the same
        # program, so the line's order among equals (first come first served) shows it; a
        # quicker program would go first in its own line anyway (pool.JobCosts).
        same_machine = clients_by in ("loopback-alias", "spoofed-forwarded-for")
        light = threading.Thread(target=send, args=("light", light_source, light_token,
                                                     slow if same_machine else "print('light')"))
        light.start()
        for thread in (*heavy, light):
            thread.join()
        assert len(answered) == 9
        if same_machine:
            # One machine, one line: first come first served within it.
            assert answered[-1] == "light", answered
            return
        # In turn, the light client's request runs after the one running and at most one more
        # heavy one: at least 4 of the 8 are answered after it (unless it took seconds to
        # arrive). First come first served, it would be answered last.
        assert "light" not in answered[-4:], answered


def test_a_client_that_goes_away_cancels_its_queued_job(require_sandbox):
    with Server(slots=1) as one:
        sleeper = {"code": "import time; time.sleep(2)", "language": "python", "run_timeout": 10}
        first = threading.Thread(target=lambda: one.post("/run_code", sleeper))
        first.start()
        wait_for(lambda: one.metric("judge_serve_slots_busy") == 1, what="a busy slot")
        marker = secrets.token_hex(6)
        with pytest.raises(requests.Timeout):
            requests.post(one.url + "/run_code", timeout=0.5,
                          json={"code": f"print('{marker}')", "language": "python"})
        first.join()
        wait_for(lambda: one.metric("judge_serve_cancelled_total") == 1, what="the cancel")
        assert one.metric("judge_serve_runs_total", endpoint="run_code", status="OK") == 1
        assert one.metric("judge_serve_run_seconds_count", endpoint="run_code") == 1


def test_a_crashed_slot_is_rebuilt_and_reported(require_sandbox):
    with Server(slots=1) as one:
        body = {"code": "print(6 * 7)", "language": "python"}
        assert one.post("/run_code", body).json()["run_result"]["stdout"] == "42\n"
        supervisors = supervisor_pids_of(one.process.pid)
        assert supervisors, "the warm slot has its supervisors"
        for pid in supervisors:
            os.kill(pid, signal.SIGKILL)
        response = one.post("/run_code", body)
        assert response.status_code == 200, response.text
        assert response.json()["run_result"]["stdout"] == "42\n"
        assert one.metric("judge_serve_slot_restarts_total") >= 1
        ready = one.get("/readyz").json()
        assert ready["ready"] and ready["slots"][0]["restarts"] >= 1
        grade = one.post("/v1/grade", {"code": "print(input())", "language": "python",
                                       "problem": {"tests": [{"input": "7", "output": "7"}]}})
        assert grade.json()["verdict"] == "AC"
        assert one.process.poll() is None


class _Crash(BaseException):
    """Escapes every `except Exception`: the worker thread itself goes down."""


def test_a_worker_thread_that_dies_is_replaced(require_sandbox):
    from judge.sandbox import Limits
    from judge.service.runtime import Service
    from judge.service.settings import Settings

    slot = take_slots(1)
    service = Service(Settings(slots=1, slot_base=slot))
    service.start()
    try:
        wait_for(lambda: service.pool.warm_slots() == 1, 120_000, "a warm slot")

        def crash(_slot):
            raise _Crash

        def true(slot):
            return slot.run_command(["/bin/true"], Limits(), stdin=b"", files={}, fetch=[],
                                    policy="native")

        with pytest.raises(Exception, match="worker failed"):
            service.pool.submit(crash, "test").result(timeout=60)
        assert service.pool.submit(true, "test").result(timeout=120).run.status == "OK"
        assert service.pool.restarts and "worker thread died" in service.pool.restarts[0][2]
        assert service.metrics.registry.get_sample_value("judge_serve_slot_restarts_total") == 1
    finally:
        service.close()
    assert_no_leftovers(slot)


def test_sigterm_drains_in_flight_runs(require_sandbox):
    one = Server(slots=1).start()
    sleeper = {"code": "import time; time.sleep(1.5); print('drained')", "language": "python",
               "run_timeout": 10}
    answers: list[requests.Response] = []
    threads = [threading.Thread(target=lambda: answers.append(one.post("/run_code", sleeper)))
               for _ in range(2)]
    for thread in threads:
        thread.start()
    wait_for(lambda: one.metric("judge_serve_queue_length") == 1, what="a running and a queued job")
    one.process.send_signal(signal.SIGTERM)
    for thread in threads:
        thread.join()
    assert [a.status_code for a in answers] == [200, 200]
    assert all(a.json()["run_result"]["stdout"] == "drained\n" for a in answers)
    assert one.stop() == 0        # exits 0, and leaves no process of its slot behind
    with pytest.raises(requests.ConnectionError):
        requests.get(one.url + "/healthz", timeout=5)


def test_hostile_requests(server):
    for field in ("files", "fetch_files"):
        for name in ("../escape", "/etc/passwd", "a/../../b", "", ".", "a//b", "x\0y",
                     "/box/../etc/shadow", "./../x"):
            body = {"code": "print(1)", "language": "python",
                    field: {name: "eA=="} if field == "files" else [name]}
            response = server.post("/run_code", body)
            if field == "fetch_files":      # left out, as SandboxFusion leaves out what it cannot read
                assert response.status_code == 200, (name, response.text)
                assert response.json()["files"] == {}, name
            else:
                assert response.status_code == 422, (field, name, response.text)
                assert response.json()["error"] == "invalid_request"
            exec_body = {"argv": ["true"], field: body[field]}
            assert server.post("/v1/exec", exec_body).status_code == 422, (field, name)
    # "/box/x" and "./x" are names inside the box.
    ok = server.post("/run_code", {"code": "print(open('x').read())", "language": "python",
                                   "files": {"/box/x": "aGk="}, "fetch_files": ["./x"]}).json()
    assert ok["run_result"]["stdout"] == "hi\n" and ok["files"] == {"./x": "aGk="}
    # A program may plant a link (the general policy of /run_code allows link and symlink), but
    # fetch_files never follows it out of the box.
    plant = ("#include <unistd.h>\nint main(){ symlink(\"/etc/shadow\", \"leak\"); "
             "link(\"/etc/passwd\", \"hard\"); return 0; }\n")
    result = server.post("/run_code", {"code": plant, "language": "c",
                                       "fetch_files": ["leak", "hard"]}).json()
    assert result["files"] == {} and result["run_result"]["judge_status"] == "OK"
    # Filling the box stops at the box; the server and the next run are unharmed.
    fill = ("try:\n    f = open('big', 'wb')\n    [f.write(b'x' * (1 << 20)) for _ in range(200)]\n"
            "except OSError as e:\n    print(type(e).__name__)\n")
    result = server.post("/run_code", {"code": fill, "language": "python"}).json()
    assert result["status"] in ("Success", "Failed")
    # A directory the program locked (mode 0) does not survive into the next run's box.
    lock = ("import os\nos.makedirs('d/e')\nopen('d/e/f', 'w').write('x')\nos.chmod('d/e', 0)\n"
            "os.chmod('d', 0)\nprint('locked')\n")
    assert server.post("/run_code", {"code": lock, "language": "python"}).json()[
        "run_result"]["stdout"] == "locked\n"
    fork_bomb = "import os\nwhile True:\n    os.fork()\n"
    result = server.post("/run_code", {"code": fork_bomb, "language": "python",
                                       "run_timeout": 1}).json()
    assert result["status"] == "Failed"
    flood = "import sys\nwhile True:\n    sys.stdout.write('y' * 65536)\n"
    result = server.post("/run_code", {"code": flood, "language": "python"}).json()
    assert result["verdict"] == "OLE" and len(result["run_result"]["stdout"]) <= 16 << 20
    assert server.post("/run_code", {"code": "import os; print(os.listdir('.'))",
                                     "language": "python"}).json()["run_result"]["stdout"] == "['code.py']\n"
    # A huge body is refused by its declared length, before it is read.
    status, error = _declared_body(server.port, 100 << 20, {}, send=b"{" * 1024)
    assert status == 413 and error["error"] == "too_large"
    assert server.get("/healthz").status_code == 200


@pytest.mark.slow
def test_load_2000_requests_at_concurrency_32(server):
    """Every answer correct, none lost: python and C++ /run_code mixed, each with its own
    input, 32 at a time through one asyncio client."""
    import httpx

    cpp = ("#include <bits/stdc++.h>\nint main(){long long x; std::cin >> x; "
           "std::cout << x * 3 + 1 << std::endl;}\n")
    py = "x = int(input())\nprint(x * 3 + 1)\n"
    total, concurrency = 2000, 32

    async def main():
        limiter = asyncio.Semaphore(concurrency)
        limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
        async with httpx.AsyncClient(base_url=server.url, timeout=600, limits=limits) as client:
            async def one(i):
                body = {"code": cpp if i % 2 else py, "language": "cpp" if i % 2 else "python",
                        "stdin": f"{i}\n"}
                async with limiter:
                    response = await client.post("/run_code", json=body)
                return i, response.status_code, response.json()
            started = time.monotonic()
            answers = await asyncio.gather(*(one(i) for i in range(total)))
            return answers, time.monotonic() - started

    answers, seconds = asyncio.run(main())
    assert len(answers) == total
    wrong = [(i, status, body) for i, status, body in answers
             if status != 200 or body.get("status") != "Success"
             or body["run_result"]["stdout"] != f"{i * 3 + 1}\n"]
    assert not wrong, wrong[:5]
    assert sorted(i for i, _, _ in answers) == list(range(total))
    print(f"{total} requests at concurrency {concurrency}: {seconds:.1f} s, {total / seconds:.0f}/s")
