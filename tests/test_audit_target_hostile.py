"""`judge audit --target` treats its target as hostile: an HTTP answer far over the cap is the
target's failure and is read no further than the cap, a target that trickles its answer a byte
at a time fails at the one deadline of the whole request, and a command target that writes for
ever, or keeps its pipes open after its run, cannot hold the audit or its memory."""
from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from judge import JudgeError
from judge.audit.target_audit import PROGRAM, TargetAudit
from judge.audit.targets import CommandTarget, TargetLimits
from judge.audit.targets.base import answer_cap_bytes
from judge.audit.targets.http import HttpTarget

# Small limits: a cap of 10 MiB (9 x 1 MB of output and the JSON allowance) and a deadline of
# 0.5 s x 4 + 2 s = 4 s for the whole request.
SMALL = TargetLimits(cpu_s=0.5, wall_s=0.5, output_mb=1)
MARGIN_S = 2.0
DEADLINE_S = SMALL.wall_s * 4 + MARGIN_S
# What the tests allow past a deadline: the machines are 2-core and busy, and no tight wall
# bound is the point, only that the audit ends.
SLACK_S = 30.0
FLOOD_BYTES = 256 << 20
TRICKLE_S = 0.2
SOURCE = PROGRAM.read_text()
Behaviour = Callable[[BaseHTTPRequestHandler, threading.Event], None]


def honest(handler: BaseHTTPRequestHandler, stop: threading.Event) -> None:
    body = json.dumps({"status": "Success", "run_result": {
        "status": "Finished", "return_code": 0, "stdout": "trivial 1\ndone\n", "stderr": "",
        "cpu_time": 0.01, "execution_time": 0.02}}).encode()
    handler.send_response(200)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def flood(handler: BaseHTTPRequestHandler, stop: threading.Event) -> None:
    """200, then a JSON answer whose stdout never ends: 256 MiB made a chunk at a time."""
    handler.send_response(200)
    handler.end_headers()
    handler.wfile.write(b'{"status": "Success", "run_result": {"stdout": "')
    chunk = b"x" * (1 << 16)
    for _ in range(FLOOD_BYTES // len(chunk)):
        if stop.is_set():
            return
        handler.wfile.write(chunk)
        handler.server.sent += len(chunk)  # type: ignore[attr-defined]


def announced(handler: BaseHTTPRequestHandler, stop: threading.Event) -> None:
    handler.send_response(200)
    handler.send_header("Content-Length", str(10 << 30))
    handler.end_headers()
    flood(handler, stop)


def trickle_body(handler: BaseHTTPRequestHandler, stop: threading.Event) -> None:
    handler.send_response(200)
    handler.end_headers()
    while not stop.wait(TRICKLE_S):
        handler.wfile.write(b" ")


def trickle_headers(handler: BaseHTTPRequestHandler, stop: threading.Event) -> None:
    """A header line that never ends: no read waits longer than the trickle, yet no answer comes."""
    handler.wfile.write(b"HTTP/1.0 200 OK\r\nX-Slow: ")
    while not stop.wait(TRICKLE_S):
        handler.wfile.write(b"x")


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, behaviour: Behaviour) -> None:
        self.behaviour, self.stop, self.sent, self.served = behaviour, threading.Event(), 0, threading.Event()
        super().__init__(("127.0.0.1", 0), Handler)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class Handler(BaseHTTPRequestHandler):
    server: Server

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            self.server.behaviour(self, self.server.stop)
        except OSError:
            pass               # the audit hung up on it: what the tests want
        finally:
            self.server.served.set()

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def serving(behaviour: Behaviour) -> Iterator[Server]:
    server = Server(behaviour)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stop.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def target(server: Server, margin_s: float = MARGIN_S) -> HttpTarget:
    return HttpTarget(name=server.url, url=server.url, timeout_margin_s=margin_s)


def run(hostile: HttpTarget | CommandTarget):
    return hostile.run(SOURCE, ["jaudhostile0000", "trivial"], SMALL)


# -- HTTP --------------------------------------------------------------------------------------
def test_an_honest_answer_is_read_as_before():
    with serving(honest) as server:
        answer = run(target(server))
    assert answer.error == "" and answer.completed and answer.done
    assert answer.status == "Success" and answer.cpu_s == 0.01 and answer.received_bytes > 0


def test_an_answer_far_over_the_cap_is_the_target_s_failure_and_read_no_further():
    cap = answer_cap_bytes(SMALL)
    assert cap == 9 * (1 << 20) + (1 << 20)
    before_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with serving(flood) as server:
        # a roomy deadline: this test is about the bytes, not the clock
        answer = run(target(server, margin_s=60.0))
        assert server.served.wait(SLACK_S)
        assert server.sent < FLOOD_BYTES, "the audit read the whole flood"
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before_kb) / 1024
    assert not answer.completed and answer.status == "answer too large"
    assert f"cap of {cap} bytes" in answer.error and "stopped reading" in answer.error
    assert cap < answer.received_bytes <= cap + 1
    assert grown_mb < 100, f"peak memory grew {grown_mb:.0f} MB"


def test_an_answer_announced_over_the_cap_is_refused_before_its_body():
    with serving(announced) as server:
        answer = run(target(server))
    assert answer.status == "answer too large" and "announced an answer of" in answer.error
    assert answer.received_bytes == 0


@pytest.mark.parametrize("behaviour", [trickle_body, trickle_headers])
def test_a_target_that_trickles_fails_at_the_one_deadline_of_the_request(behaviour):
    with serving(behaviour) as server:
        started = time.monotonic()
        answer = run(target(server))
        took = time.monotonic() - started
    assert not answer.completed and answer.status == "answer too late"
    assert f"deadline of {DEADLINE_S:g} s" in answer.error
    assert DEADLINE_S - 0.5 <= took < DEADLINE_S + SLACK_S


@pytest.mark.parametrize("behaviour, said", [(flood, "cap of"), (trickle_headers, "deadline of")])
def test_the_audit_refuses_a_misbehaving_target_in_one_line(behaviour, said):
    with serving(behaviour) as server:
        with pytest.raises(JudgeError, match=f"cannot run the probe program .*{said}"):
            TargetAudit(target(server, margin_s=10.0), SMALL).run()


@pytest.mark.parametrize("reply, said", [
    (b"[1, 2]", "not a /run_code answer"), (b"not json", "JSONDecodeError")])
def test_an_answer_that_is_not_a_run_code_answer_is_an_error(reply, said):
    def answer(handler: BaseHTTPRequestHandler, stop: threading.Event) -> None:
        handler.send_response(200)
        handler.end_headers()
        handler.wfile.write(reply)

    with serving(answer) as server:
        assert said in run(target(server)).error


# -- command targets ---------------------------------------------------------------------------
def shell(script: str) -> CommandTarget:
    """A command target whose "sandbox" is a shell script (the probe's words come after it)."""
    return CommandTarget(name="hostile", prefix=["sh", "-c", script])


@contextlib.contextmanager
def escaped_process(pid_file: Path) -> Iterator[None]:
    """Kills, at the end, the process that left the run's process group (it wrote its pid)."""
    try:
        yield
    finally:
        with contextlib.suppress(OSError, ValueError):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)


def gone(pid_file: Path, within_s: float) -> bool:
    """Whether the process ends within `within_s`. A dead one may stay a zombie of this one
    (earlier tests make pytest a child subreaper): that is gone too, and it is reaped."""
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state == "Z":
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
            return True
        time.sleep(0.1)
    return False


def test_a_command_target_that_writes_for_ever_is_stopped_at_the_cap(tmp_path):
    pid_file = tmp_path / "pid"
    # the writer leaves the run's process group, so killing the group does not stop it
    hostile = shell(f"setsid sh -c 'echo $$ > {pid_file}; exec yes' & exec sleep 600")
    with escaped_process(pid_file):
        started = time.monotonic()
        answer = run(hostile)
        took = time.monotonic() - started
        cap = answer_cap_bytes(SMALL)
        assert not answer.completed and answer.status == "stopped by the audit: output over its cap"
        assert f"cap of {cap} bytes on stdout" in answer.error
        assert cap < answer.stdout_bytes <= cap + 1
        assert took < SLACK_S
        assert gone(pid_file, SLACK_S), "the closed pipe did not stop the writer"


def test_a_command_target_that_never_closes_its_pipes_does_not_hold_the_audit(tmp_path):
    pid_file = tmp_path / "pid"
    hostile = shell(f"setsid sh -c 'echo $$ > {pid_file}; while echo x; do sleep {TRICKLE_S}; done' &"
                    " exit 0")
    with escaped_process(pid_file):
        started = time.monotonic()
        answer = run(hostile)
        took = time.monotonic() - started
        assert answer.status == "exit 0" and answer.error == ""
        assert took < SLACK_S
        assert gone(pid_file, SLACK_S), "the closed pipe did not stop the writer"
