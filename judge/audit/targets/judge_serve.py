"""`--target judge`: the judge's own `judge serve`, started by the audit on a free loopback port
and stopped after it, audited as any other SandboxFusion-compatible endpoint: the reference
column of a side-by-side report."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from typing import IO

from judge import JudgeError
from judge.audit.targets.http import HttpTarget
from judge.sandbox.slots import AUDIT

READY_TIMEOUT_S = 180.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class JudgeServeTarget(HttpTarget):
    slot_base: int = AUDIT.first       # the audit's own slot: `judge audit` and this never overlap
    slots: int = 1

    def __post_init__(self) -> None:
        self.kind = "judge serve"
        self.port = 0
        self.process: subprocess.Popen | None = None
        self.log: IO[bytes] = tempfile.TemporaryFile()
        super().__post_init__()
        self.local = True

    def start(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/run_code"
        self.log.close()
        self.log = tempfile.TemporaryFile()
        command = [sys.executable, "-c", "from judge.cli import main; main()", "serve",
                   "--host", "127.0.0.1", "--port", str(self.port), "--slots", str(self.slots),
                   "--slot-base", str(self.slot_base), "--log-level", "warning"]
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + READY_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise JudgeError(f"judge serve stopped before it was ready: {self.last_log()}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/readyz", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        said = self.last_log()
        self.close()
        raise JudgeError(f"judge serve was not ready within {READY_TIMEOUT_S:.0f} s: {said}")

    def last_log(self) -> str:
        self.log.seek(0)
        lines = self.log.read().decode(errors="replace").strip().splitlines()
        return lines[-1] if lines else "it said nothing"

    def close(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        self.log.close()
