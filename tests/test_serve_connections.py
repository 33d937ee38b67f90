"""The connections a `judge serve` holds are bounded before any request is read or authenticated
(judge/service/connections.py): per machine and in all, and in time, a connection that never
finishes its headers or its body being closed with a JSON 408."""
from __future__ import annotations

import json
import socket
import threading
import time

import pytest
import requests

from conftest import scaled
from judge.service.connections import ConnectionCount
from serving import Server

pytestmark = pytest.mark.usefixtures("require_sandbox")


def read_until_closed(sock: socket.socket, timeout_s: float) -> tuple[bytes, float]:
    """What the server wrote before it closed the connection, and how long that took."""
    started = time.monotonic()
    sock.settimeout(timeout_s)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data, time.monotonic() - started


def json_body(data: bytes) -> dict:
    return json.loads(data.split(b"\r\n\r\n", 1)[1])


def test_the_count_per_machine_and_in_all():
    count = ConnectionCount(per_peer=2, total=3)
    assert count.admit("a") is None and count.admit("a") is None
    assert "this client holds 2" in count.admit("a")
    assert count.admit("b") is None
    assert "server holds 3" in count.admit("c")
    count.release("a")
    assert count.admit("c") is None and count.held == {"a": 1, "b": 1, "c": 1}


def test_a_connection_that_sends_nothing_or_trickles_its_headers_is_closed():
    with Server(slots=1, header_timeout_s=1, body_timeout_s=1) as server:
        silent = socket.create_connection(("127.0.0.1", server.port))
        data, waited = read_until_closed(silent, scaled(20_000) / 1000)
        assert data.startswith(b"HTTP/1.1 408") and json_body(data)["error"] == "request_timeout"
        assert waited < scaled(15_000) / 1000

        # A byte of its headers every 0.2 s: each byte is news, but the headers never end.
        trickle = socket.create_connection(("127.0.0.1", server.port))
        started = time.monotonic()
        request = b"POST /run_code HTTP/1.1\r\nHost: judge\r\nX-Pad: " + b"a" * 200
        try:
            for byte in request:
                trickle.sendall(bytes([byte]))
                time.sleep(0.2)
        except (BrokenPipeError, ConnectionResetError):
            pass
        data, _ = read_until_closed(trickle, scaled(20_000) / 1000)
        assert time.monotonic() - started < 20, "the trickle was not cut off"
        assert data.startswith(b"HTTP/1.1 408") or data == b""

        # Headers on time, then a body that never arrives in full.
        body = socket.create_connection(("127.0.0.1", server.port))
        body.sendall(b"POST /run_code HTTP/1.1\r\nHost: judge\r\nContent-Type: application/json"
                     b"\r\nContent-Length: 1000\r\n\r\n{")
        data, waited = read_until_closed(body, scaled(20_000) / 1000)
        assert waited < scaled(15_000) / 1000
        assert server.metric("judge_serve_rejected_total", reason="slow_client") >= 3
        # A request that takes longer than both timeouts to answer is not cut: the deadlines
        # are the client's to send, not the judge's to run.
        answer = server.post("/run_code", {"code": "import time; time.sleep(2.5); print(1)",
                                           "language": "python"})
        assert answer.status_code == 200 and answer.json()["run_result"]["stdout"] == "1\n"


def test_a_machine_holds_at_most_its_share_of_connections():
    """Connections from every loopback address count as the one local machine's; past its
    share one more is refused at once with a JSON 503, before any request, and the server
    still answers others (and that machine, once it closes one)."""
    with Server(slots=1, max_connections_per_peer=8, header_timeout_s=60) as server:
        held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(4)]
        held += [socket.create_connection(("127.0.0.1", server.port),
                                          source_address=(f"127.0.0.{2 + i}", 0))
                 for i in range(4)]
        try:
            time.sleep(0.5)
            refused = socket.create_connection(("127.0.0.1", server.port),
                                               source_address=("127.0.0.77", 0))
            data, _ = read_until_closed(refused, scaled(10_000) / 1000)
            assert data.startswith(b"HTTP/1.1 503"), data[:200]
            assert json_body(data)["error"] == "too_many_connections"
            assert b"retry-after: " in data.lower()
            try:                                                     # refused: same machine
                status = requests.get(server.url + "/healthz", timeout=10).status_code
            except requests.ConnectionError:
                status = 503     # closed before the refusal was read
            assert status == 503
            held.pop().close()
            time.sleep(0.5)
            assert requests.get(server.url + "/healthz", timeout=10).status_code == 200
        finally:
            for sock in held:
                sock.close()
        assert server.metric("judge_serve_rejected_total", reason="connections") >= 2


def test_thousands_of_idle_connections_take_no_more_than_a_machine_s_share():
    """2000 connections that never send a byte (what once took every descriptor of the
    server): 512 are held, the rest refused at once, and a request on a connection of its own
    in the middle of them is answered."""
    with Server(slots=1) as server:
        opened: list[socket.socket] = []
        refused = 0
        try:
            for _ in range(2000):
                sock = socket.create_connection(("127.0.0.1", server.port))
                opened.append(sock)
            time.sleep(1)
            for sock in opened:
                sock.setblocking(False)
                try:
                    if sock.recv(16).startswith(b"HTTP/1.1 503"):
                        refused += 1
                except BlockingIOError:
                    pass
            held = len(opened) - refused
            assert refused >= 2000 - 512 - 8 and held <= 512, (held, refused)
            for sock in opened[:100]:
                sock.close()
            answered = threading.Event()

            def ask() -> None:
                response = requests.post(server.url + "/run_code",
                                         json={"code": "print(1)", "language": "python"}, timeout=60)
                if response.status_code == 200:
                    answered.set()
            asker = threading.Thread(target=ask)
            asker.start()
            asker.join(90)
            assert answered.is_set()
        finally:
            for sock in opened:
                sock.close()
