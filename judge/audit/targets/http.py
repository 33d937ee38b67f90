"""A SandboxFusion-compatible HTTP endpoint: SandboxFusion itself, `judge serve`, or any service
with SandboxFusion's `/run_code`. The probe is sent as Python code; "1 s CPU, 256 MB" is
`run_timeout=1, memory_limit_MB=256` (SandboxFusion's run_timeout is its one time limit: a wall
clock there, CPU and wall in `judge serve`); the output and process limits are the server's own."""
from __future__ import annotations

import contextlib
import http.client
import json
import socket
import ssl
import threading
from dataclasses import dataclass
from urllib.parse import urlsplit

from judge.audit.targets.base import (
    NO_OPTION,
    Answer,
    Said,
    Target,
    TargetLimits,
    answer_cap_bytes,
    clock,
    is_local_url,
)

# What the audit keeps of a program's stdout: its head and its tail (progress lines and "done").
KEEP_BYTES = 32 * 1024
READ_BYTES = 1 << 16        # one read of an answer


def cut(text: str) -> str:
    if len(text) <= 2 * KEEP_BYTES:
        return text
    return text[:KEEP_BYTES] + "\n" + text[-KEEP_BYTES:]


def run_code_url(url: str) -> str:
    url = url.rstrip("/")
    return url if url.endswith("/run_code") else url + "/run_code"


@dataclass
class HttpTarget(Target):
    url: str = ""
    language: str = "python"
    timeout_margin_s: float = 60.0     # beyond run_timeout, before the audit gives up on an answer

    def __post_init__(self) -> None:
        self.url = run_code_url(self.url)
        self.kind = self.kind or "sandboxfusion"
        self.local = is_local_url(self.url)

    def say(self, limits: TargetLimits) -> Said:
        asked = self.asked(limits)
        seconds = f"run_timeout={asked.cpu_s:g}"
        return Said({"cpu": seconds, "wall": f"{seconds} (the same option)",
                     "memory": f"memory_limit_MB={asked.memory_mb}",
                     "output": f"{NO_OPTION} (the server's own)",
                     "processes": f"{NO_OPTION} (the server's own)"}, wall_s=asked.cpu_s)

    def request(self, source: str, limits: TargetLimits) -> dict:
        asked = self.asked(limits)
        return {"code": source, "language": self.language, "run_timeout": asked.cpu_s,
                "compile_timeout": 10, "memory_limit_MB": asked.memory_mb}

    def deadline_s(self, limits: TargetLimits) -> float:
        """The one bound on a whole request: connect, send, headers and body."""
        return limits.wall_s * 4 + self.timeout_margin_s

    def run(self, source: str, argv: list[str], limits: TargetLimits) -> Answer:
        code = source.replace("ARGS = None", f"ARGS = {argv!r}", 1)
        body = json.dumps(self.request(code, limits)).encode()
        started = clock()
        exchange = Exchange(self.url, self.deadline_s(limits), answer_cap_bytes(limits))
        try:
            status, data = exchange.post(body)
            if not 200 <= status < 300:
                detail = data[:300].decode(errors="replace")
                return Answer(False, f"HTTP {status}", "", 0, request_s=clock() - started,
                              error=f"HTTP {status}: {detail}", received_bytes=exchange.received)
            answer = json.loads(data)
            if not isinstance(answer, dict) or not isinstance(answer.get("run_result") or {}, dict):
                raise ValueError(f"not a /run_code answer: {bytes(data[:100])!r}")
        except Misbehaved as exc:
            return Answer(False, exc.status, "", 0, request_s=clock() - started, error=str(exc),
                          received_bytes=exchange.received)
        except (OSError, ValueError, http.client.HTTPException) as exc:
            return Answer(False, "no answer", "", 0, request_s=clock() - started,
                          error=f"{type(exc).__name__}: {exc}", received_bytes=exchange.received)
        return read_answer(answer, clock() - started, exchange.received)


def read_answer(data: dict, elapsed: float, received: int) -> Answer:
    """A /run_code answer as the audit reads it."""
    run = data.get("run_result") or {}
    stdout = str(run.get("stdout") or "")
    status = str(data.get("status"))
    if run.get("status") and run.get("status") != "Finished":
        status += f"/{run['status']}"
    elif run.get("return_code") not in (None, 0):
        status += f"/exit {run['return_code']}"
    memory_kb = run.get("memory_kb")
    return Answer(completed=data.get("status") == "Success", status=status, stdout=cut(stdout),
                  stdout_bytes=len(stdout.encode()), stderr=cut(str(run.get("stderr") or ""))[:2000],
                  cpu_s=run.get("cpu_time"),
                  memory_mb=None if memory_kb is None else memory_kb / 1024,
                  wall_s=run.get("execution_time"), request_s=elapsed,
                  error="" if data.get("status") != "SandboxError" else str(data.get("message")),
                  received_bytes=received)


class Misbehaved(Exception):
    """The target's answer broke the audit's bounds: it came too late, or it was too large."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status


class Exchange:
    """One POST to a target treated as hostile: the whole of it (connect, send, headers, body)
    within `deadline_s`, however slowly the target trickles its bytes, and at most `cap_bytes`
    of answer read. A socket timeout bounds one read, not the answer, so a timer shuts the
    socket down at the deadline."""

    def __init__(self, url: str, deadline_s: float, cap_bytes: int) -> None:
        self.url, self.deadline_s, self.cap_bytes = url, deadline_s, cap_bytes
        self.received = 0
        self.expired = threading.Event()
        self.connection: http.client.HTTPConnection | None = None
        # The connection forgets its socket once an answer that closes it has begun, and the
        # answer reads on from that socket: the timer shuts down this one.
        self.sock: socket.socket | None = None

    def post(self, body: bytes) -> tuple[int, bytearray]:
        """The answer's HTTP status and body (as read: a copy of up to the cap would double the
        memory it takes)."""
        parts = urlsplit(self.url)
        self.connection = connection = connection_to(self.url, self.deadline_s)
        response: http.client.HTTPResponse | None = None
        timer = threading.Timer(self.deadline_s, self.expire)
        timer.daemon = True
        timer.start()
        try:
            connection.connect()
            self.sock = connection.sock
            self.check_time()      # the timer fired while there was no socket to shut down
            connection.request("POST", (parts.path or "/") + (f"?{parts.query}" if parts.query else ""),
                               body=body, headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            data = self.read(response)
        except (OSError, http.client.HTTPException):
            self.check_time()
            raise
        finally:
            timer.cancel()
            if response is not None:
                response.close()
            connection.close()
        self.check_time()
        return response.status, data

    def read(self, response: http.client.HTTPResponse) -> bytearray:
        declared = response.getheader("Content-Length") or ""
        if declared.isdigit() and int(declared) > self.cap_bytes:
            raise Misbehaved("answer too large", f"the target announced an answer of {declared} "
                             f"bytes, over the audit's cap of {self.cap_bytes} bytes")
        data = bytearray()
        while chunk := response.read1(min(READ_BYTES, self.cap_bytes + 1 - len(data))):
            data += chunk
            self.received = len(data)
            if len(data) > self.cap_bytes:
                raise Misbehaved("answer too large", f"the target's answer passed the audit's "
                                 f"cap of {self.cap_bytes} bytes; the audit stopped reading there")
        return data

    def expire(self) -> None:
        self.expired.set()
        # before connect() returns: the socket it is making
        sock = self.sock or (self.connection.sock if self.connection is not None else None)
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def check_time(self) -> None:
        if self.expired.is_set():
            raise Misbehaved("answer too late", f"the target's answer was not whole within the "
                             f"audit's deadline of {self.deadline_s:g} s (connect, send, headers "
                             f"and body; {self.received} bytes of it had come)")


def connection_to(url: str, timeout_s: float) -> http.client.HTTPConnection:
    parts = urlsplit(url)
    if parts.scheme == "https":
        return http.client.HTTPSConnection(parts.hostname or "", parts.port, timeout=timeout_s,
                                           context=ssl.create_default_context())
    return http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout_s)
