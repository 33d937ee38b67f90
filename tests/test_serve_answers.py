"""What `judge serve` holds and sends is bounded whatever a program prints or a client does
(docs/design/9-service.md §9.1): every answer's encoded size is within Settings.answer_limit_bytes
(a control byte is six bytes of JSON, so output is cut by its encoded length), and clients that
send requests and never read their answers keep the server's RSS within
Settings.memory_bound_bytes. Also: a run that leaves its box in any shape never fails the next
request on its slot."""
from __future__ import annotations

import json
import random
import socket
import time

import pytest

from conftest import scaled
from judge.service import answers
from judge.service.answers import bounded_text, encoded_size
from serving import Server, never_reads, rss_bytes, settings_of

pytestmark = pytest.mark.usefixtures("require_sandbox")

FLOOD = "import sys; sys.stdout.buffer.write(b'\\x01' * (16 << 20))"


@pytest.fixture(scope="module")
def one(require_sandbox):
    with Server(slots=1) as running:
        yield running


def test_a_run_code_answer_is_bounded_by_its_encoded_size(one):
    limit = settings_of(one).answer_limit_bytes
    response = one.post("/run_code", {"code": FLOOD, "language": "python"})
    assert response.status_code == 200
    assert len(response.content) <= limit, (len(response.content), limit)
    run = response.json()["run_result"]
    assert run["stdout_truncated"] and set(run["stdout"]) == {"\x01"}
    small = one.post("/run_code", {"code": "print('a\\x01b')", "language": "python"}).json()
    assert small["run_result"]["stdout"] == "a\x01b\n" and not small["run_result"]["stdout_truncated"]


def test_a_submit_answer_is_bounded_by_its_encoded_size(one):
    limit = settings_of(one).answer_limit_bytes
    tests = [{"input": {"stdin": ""}, "output": {"stdout": ""}}] * 4
    body = {"id": 1, "completion": f"```python\n{FLOOD}\n```", "config": {
        "language": "python", "provided_data": {"test": tests},
        "extra": {"run_all_cases": True, "return_full_case": True}}}
    response = one.post("/submit", body)
    assert response.status_code == 200, response.text[:300]
    assert len(response.content) <= limit, (len(response.content), limit)
    result = response.json()
    assert not result["accepted"] and len(result["tests"]) == 4


def test_text_is_cut_at_the_longest_start_that_fits_its_encoded_limit(monkeypatch):
    monkeypatch.setattr(answers, "_PIECE_CHARS", 7)      # cuts across pieces too
    rng = random.Random(26)
    alphabet = [0x01, 0x1F, 0x22, 0x5C, 0x0A, 0x41, 0xFF, 0xE2, 0x82, 0xAC, 0xC3, 0xA9]
    for _ in range(3000):
        data = bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        limit = rng.randint(0, 80)
        text, cut = bounded_text(data, limit)
        whole = data.decode(errors="replace")
        assert encoded_size(text) <= limit and whole.startswith(text), (data, limit)
        assert cut == (text != whole)
        assert not cut or encoded_size(whole[:len(text) + 1]) > limit, (data, limit)
        assert encoded_size(text) == len(json.dumps(text, ensure_ascii=False).encode()) - 2


def test_clients_that_never_read_do_not_grow_the_server_past_its_bound(require_sandbox):
    # Small budgets, so that the bound is well below what these clients took before (12
    # answers of 100 MB held: over 1 GB).
    with Server(slots=2, send_timeout_s=10, max_fetch_bytes=1 << 20, max_body_bytes=4 << 20,
                max_stdin_bytes=1 << 20, max_files_bytes=1 << 20, max_requests_bytes=16 << 20,
                max_answers_bytes=64 << 20) as server:
        bound = settings_of(server).memory_bound_bytes
        pid = server.process.pid
        clients = 12
        socks = [never_reads(server.port, {"code": FLOOD, "language": "python"})
                 for _ in range(clients)]
        peak = 0
        deadline = time.monotonic() + scaled(120_000) / 1000
        try:
            while time.monotonic() < deadline:
                peak = max(peak, rss_bytes(pid))
                if server.metric("judge_serve_run_seconds_count", endpoint="run_code") >= clients:
                    break
                time.sleep(0.2)
            assert server.metric("judge_serve_run_seconds_count", endpoint="run_code") >= clients
            # The answers held past the send timeout are dropped, which frees the budget for
            # a client that reads.
            while (server.metric("judge_serve_rejected_total", reason="send_timeout") < 1
                   and time.monotonic() < deadline):
                peak = max(peak, rss_bytes(pid))
                time.sleep(0.2)
            refused = server.metric("judge_serve_rejected_total", reason="answers_held")
            dropped = server.metric("judge_serve_rejected_total", reason="send_timeout")
            assert refused >= 1 and dropped >= 1, (refused, dropped)
            reads = server.post("/run_code", {"code": FLOOD, "language": "python"})
            assert reads.status_code == 200 and reads.json()["run_result"]["stdout_truncated"]
            peak = max(peak, rss_bytes(pid))
        finally:
            for sock in socks:
                sock.close()
        assert peak <= bound, (f"peak RSS {peak >> 20} MiB", f"bound {bound >> 20} MiB")
        answer = server.post("/run_code", {"code": "print(42)", "language": "python"})
        assert answer.status_code == 200 and answer.json()["run_result"]["stdout"] == "42\n"


def test_request_bodies_held_at_once_are_bounded(require_sandbox):
    with Server(slots=1, max_body_bytes=1 << 20, max_requests_bytes=1 << 20) as server:
        partial = socket.create_connection(("127.0.0.1", server.port))
        try:
            partial.sendall(b"POST /run_code HTTP/1.1\r\nHost: judge\r\nContent-Type: "
                            b"application/json\r\nContent-Length: %d\r\n\r\n" % (1 << 20))
            partial.sendall(b" " * (900 << 10))         # held, never finished
            deadline = time.monotonic() + scaled(20_000) / 1000
            while (server.metric("judge_serve_held_bytes", kind="requests") < 900 << 10
                   and time.monotonic() < deadline):
                time.sleep(0.05)
            padding = " " * (200 << 10)
            refused = server.post("/run_code", {"code": "print(1)" + padding, "language": "python"})
            assert refused.status_code == 503 and refused.json()["error"] == "busy"
            assert int(refused.headers["Retry-After"]) >= 1
            assert server.metric("judge_serve_rejected_total", reason="requests_held") >= 1
        finally:
            partial.close()
        deadline = time.monotonic() + scaled(20_000) / 1000
        while (server.metric("judge_serve_held_bytes", kind="requests") > 0
               and time.monotonic() < deadline):
            time.sleep(0.05)                           # until the server saw it go
        answer = server.post("/run_code", {"code": "print(1)" + padding, "language": "python"})
        assert answer.status_code == 200 and answer.json()["run_result"]["stdout"] == "1\n"


@pytest.mark.parametrize("depth", [3000, 20000])
def test_a_deep_directory_chain_does_not_fail_the_next_request(one, depth):
    chain = (f"import os\ntry:\n    for _ in range({depth}):\n        os.mkdir('d'); os.chdir('d')\n"
             "except OSError:\n    pass\nprint('made')\n")
    first = one.post("/run_code", {"code": chain, "language": "python"})
    assert first.status_code == 200 and first.json()["run_result"]["stdout"] == "made\n"
    restarts = one.metric("judge_serve_slot_restarts_total")
    after = one.post("/run_code", {"code": "import os; print(os.listdir('.'))", "language": "python"})
    assert after.status_code == 200, after.text[:300]
    assert after.json()["status"] == "Success"
    assert "'d'" not in after.json()["run_result"]["stdout"]
    assert one.metric("judge_serve_slot_restarts_total") == restarts


def test_a_grading_answer_carries_every_field_of_the_result(require_sandbox):
    """/v1/grade's models forbid fields they do not declare, so a field the library's result
    gains fails here instead of being dropped from the answer: a real result, an interactive
    one's interactor figures included, goes through them whole."""
    import pydantic

    from judge.grade import Grader
    from judge.problems.registry import resolve
    from judge.service.gradings import grade_response
    from judge.service.v1_models import GradeResponse
    with Grader() as grader:
        results = [grader.grade("print(int(input()) +)\n", "python", resolve("2020A")),
                   grader.grade("import sys\nsys.exit(3)\n", "python", resolve("2020A")),
                   grader.grade("while True: pass\n", "python",
                                resolve("pack/guess-the-number"))]
    for result in results:
        figures = json.loads(json.dumps(result.to_dict()))
        answer = grade_response(result, 1 << 20).model_dump()
        assert answer == figures
    with pytest.raises(pydantic.ValidationError):
        GradeResponse.model_validate({**figures, "a_new_field": 1})


def test_an_exec_answer_carries_every_field_of_the_run_result():
    """/v1/exec's RunResultModel forbids fields it does not declare: a field RunResult gains
    fails here instead of being dropped from the answer."""
    import pydantic

    from judge.sandbox import RunResult
    from judge.service.v1_models import RunResultModel
    from judge.verdicts import KilledBy, Status
    run = RunResult(Status.MLE, None, 9, 12.5, 30.0, 65536, 10, KilledBy.MEMORY, None,
                    {"memory": "cgroup"}, None, 0.4, 3, 1.5)
    figures = json.loads(json.dumps(run.to_dict()))
    assert RunResultModel.model_validate(figures).model_dump() == figures
    with pytest.raises(pydantic.ValidationError):
        RunResultModel.model_validate({**figures, "a_new_field": 1})


def test_a_slot_state_carries_every_field_of_the_pool_status():
    """/readyz's SlotState forbids fields it does not declare, so a field SlotPool.status()
    gains fails here instead of being dropped."""
    import pydantic

    from judge.service.metrics import Metrics
    from judge.service.pool import SlotPool
    from judge.service.v1_models import SlotState
    pool = SlotPool(2, 4, lambda index: None, Metrics())
    for state in pool.status():
        assert SlotState(**state).model_dump() == state
    with pytest.raises(pydantic.ValidationError):
        SlotState(**pool.status()[0], a_new_field=1)


def test_checking_millions_of_short_lines_stays_within_a_copy_or_two(require_sandbox):
    """A /submit whose program prints 16 MiB of two-byte lines, checked in the server's own
    process by the dataset comparators: their lists of lines and tokens took 25 to 50 times the
    output (codecontests: 466 MB of peak RSS for this one), now a copy or two of it."""
    flood = "import sys\nsys.stdout.write('1\\n' * (8 << 20))\n"
    with Server(slots=1) as server:
        server.post("/run_code", {"code": "print(1)", "language": "python"})
        for checker in ("codecontests", "lcb", "sandboxfusion"):
            before = rss_bytes(server.process.pid, "VmHWM")
            answer = server.post("/submit", {
                "dataset": "x", "id": "flood", "completion": f"```python\n{flood}```",
                "config": {"language": "python", "provided_data": {
                    "test": [{"input": {"stdin": ""}, "output": {"stdout": "1"}}],
                    "checker": checker}}})
            assert answer.status_code == 200 and not answer.json()["accepted"], answer.text[:300]
            grown = rss_bytes(server.process.pid, "VmHWM") - before
            assert grown < 150 << 20, (checker, f"{grown >> 20} MiB")
