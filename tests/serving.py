"""A real `judge serve` for the serve tests: uvicorn in a subprocess on 127.0.0.1 and a free
port, started with given settings (or through the `judge serve` command itself), waited for
until /readyz says ready, stopped with SIGTERM, and checked to leave no sandbox process behind.

Each server of a test session takes its own sandbox slots, from the SERVERS part of the test
process's block (tests/slot_blocks.py), in turn, so the leftover check of one never sees another's
runs."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests
from slot_blocks import SERVERS

from conftest import SLOT_BASE, processes_of_uid, scaled, uids_of_slot
from judge.service.settings import Settings

REPO = Path(__file__).resolve().parents[1]
_next_offset = 0      # in SERVERS

LAUNCH = ("import json, sys\n"
          "from judge.service.server import serve\n"
          "from judge.service.settings import Settings\n"
          "serve(Settings(**json.loads(sys.argv[1])), log_level='warning')\n")


def wait_for(predicate, timeout_ms: float = 20_000, what: str = "the condition") -> None:
    """Polls `predicate` until it holds, for up to `timeout_ms` (scaled for slow machines)."""
    deadline = time.monotonic() + scaled(timeout_ms) / 1000
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def take_slots(count: int) -> int:
    """The first of `count` consecutive slots no server of this session took lately."""
    global _next_offset
    if _next_offset + count > len(SERVERS):
        _next_offset = 0
    first = SLOT_BASE + SERVERS[_next_offset]
    _next_offset += count
    return first


def never_reads(port: int, body: dict) -> socket.socket:
    """A client that sends a /run_code request and never reads its answer (a small receive
    buffer, so the server's send blocks early)."""
    data = json.dumps(body).encode()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"POST /run_code HTTP/1.1\r\nHost: judge\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\n\r\n%s" % (len(data), data))
    return sock


def rss_bytes(pid: int, field: str = "VmRSS") -> int:
    """The process's resident memory now (VmRSS), or its peak so far (VmHWM)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise AssertionError(f"no {field} for {pid}")


def settings_of(server: Server) -> Settings:
    """The settings a test server runs with."""
    return Settings(**dict(server.settings))


# A testlib checker with no answer for the input 7: it FAILs there whatever the output (the
# jury's own answer too), the jury's fault.
JURY_WITHOUT_AN_ANSWER = r'''
#include "testlib.h"
int main(int argc, char* argv[]) {
    registerTestlibCmd(argc, argv);
    if (inf.readInt() == 7) quitf(_fail, "the jury has no answer for 7");
    if (ouf.readInt() != ans.readInt()) quitf(_wa, "wrong");
    quitf(_ok, "right");
}
'''


class Server:
    """`with Server(slots=2, ...) as server: requests.get(server.url + "/healthz")`."""

    def __init__(self, *, cli: list[str] | None = None, token: str | None = None,
                 ready_timeout_s: float = 180, **settings) -> None:
        self.slots = int(settings.get("slots", 2))
        settings.setdefault("slots", self.slots)
        settings.setdefault("slot_base", take_slots(self.slots))
        settings.setdefault("drain_timeout_s", 60)
        self.port = free_port()
        settings["port"] = self.port
        settings.setdefault("host", "127.0.0.1")
        self.settings = settings
        self.token = token
        self.cli = cli
        self.url = f"http://127.0.0.1:{self.port}"
        self.ready_timeout_s = ready_timeout_s
        self.process: subprocess.Popen | None = None
        self._log = tempfile.NamedTemporaryFile(prefix="judge-serve-test-", suffix=".log",
                                                delete=False)

    @property
    def slot_numbers(self) -> list[int]:
        base = self.settings["slot_base"]
        return list(range(base, base + self.slots))

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def start(self) -> Server:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        if self.cli is not None:
            argv = [sys.executable, "-c", "from judge.cli import main; main()", "serve",
                    "--port", str(self.port), "--slot-base", str(self.settings["slot_base"]),
                    "--slots", str(self.slots), "--log-level", "warning", *self.cli]
        else:
            if self.token:
                self.settings["tokens"] = [self.token]
            argv = [sys.executable, "-c", LAUNCH, json.dumps(self.settings)]
        self.process = subprocess.Popen(argv, stdout=self._log, stderr=subprocess.STDOUT,
                                        env=env, cwd=str(REPO), start_new_session=True)
        deadline = time.monotonic() + scaled(self.ready_timeout_s * 1000) / 1000
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"judge serve exited {self.process.returncode}:\n{self.log()}")
            try:
                if requests.get(self.url + "/readyz", timeout=5).status_code == 200:
                    return self
            except requests.RequestException:
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"judge serve was not ready within {self.ready_timeout_s} s:\n{self.log()}")

    def log(self) -> str:
        return Path(self._log.name).read_text(errors="replace")

    def post(self, path: str, body: dict, **kwargs) -> requests.Response:
        headers = {**self.headers(), **kwargs.pop("headers", {})}
        return requests.post(self.url + path, json=body, headers=headers,
                             timeout=kwargs.pop("timeout", 300), **kwargs)

    def get(self, path: str, **kwargs) -> requests.Response:
        headers = {**self.headers(), **kwargs.pop("headers", {})}
        return requests.get(self.url + path, headers=headers, timeout=kwargs.pop("timeout", 60),
                            **kwargs)

    def metric(self, name: str, **labels: str) -> float:
        """The value of one sample of /metrics (0 when absent)."""
        wanted = name + ("{" + ",".join(f'{k}="{v}"' for k, v in labels.items()) + "}"
                         if labels else "")
        for line in self.get("/metrics").text.splitlines():
            if line.startswith(wanted + " "):
                return float(line.rsplit(" ", 1)[1])
        return 0.0

    def stop(self, sig: int = signal.SIGTERM, timeout_s: float = 120) -> int:
        """Signals the server, waits for it to exit and returns its exit code; then no process
        of its slots' uids may be left."""
        if self.process is None:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(scaled(timeout_s * 1000) / 1000)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
                raise AssertionError(f"judge serve did not exit on signal {sig}:\n{self.log()}") from None
        code = self.process.returncode
        deadline = time.monotonic() + scaled(10_000) / 1000
        while True:
            left = [p for slot in self.slot_numbers for uid in uids_of_slot(slot)
                    for p in processes_of_uid(uid)]
            if not left or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert not left, f"processes of the server's slots survived it: {left}"
        return code

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, kind, value, traceback) -> None:
        try:
            self.stop()
        finally:
            if kind is not None:   # the server's side of a failure, in the test's output
                print(f"--- judge serve log ---\n{self.log()[-5000:]}")
            os.unlink(self._log.name)
