"""What the Ray tests share beside the `cluster` fixture (conftest.py: a real multi-node Ray
cluster on this machine): the nodes' settings, the slots, and what the tests wait for: the Ray
judge workers under this pytest process, and their sandboxes, gone.

Sandbox slots: the Ray workers use RAY_SLOT_BASE and up, the RAY part of the pytest process's own
block (tests/slot_blocks.py); one Ray test module runs at a time in a process."""
from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import slot_blocks

from conftest import SLOT_BASE, processes_of_uid, scaled, uids_of_slot

os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")    # before ray starts anything
# The Ray Client server gives the process it starts for a client 30 s to answer; on a busy
# 2-core machine a Python process that imports Ray can take longer ("Initialization failure
# from server" with an empty message). Read by the head node the cluster fixture starts.
os.environ.setdefault("RAY_CLIENT_SERVER_CHECK_CHANNEL_TIMEOUT_S", "180")

RAY_SLOT_BASE = SLOT_BASE + slot_blocks.RAY.start  # 44 slots of this pytest process
LOCAL_SLOT = RAY_SLOT_BASE                         # the local reference runs (2 slots)
RAY_SLOT = RAY_SLOT_BASE + 4                       # each Ray run's workers, replacements, re-runs
NODE = {"num_cpus": 1, "object_store_memory": 80 * 1024 * 1024}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(condition, what: str, timeout_s: float = 300, proc=None) -> None:
    deadline = time.monotonic() + scaled(timeout_s * 1000) / 1000
    while not condition():
        if proc is not None:
            assert proc.poll() is None, f"the eval ended before {what}: {proc.communicate()}"
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def _ancestors(pid: int) -> set[int]:
    found = set()
    while pid > 1:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            break
        pid = int(stat[stat.rindex(")") + 2:].split()[1])
        found.add(pid)
    return found


def worker_processes() -> list[int]:
    """The pids of this test's Ray judge workers (processes titled ray::JudgeWorker under this
    pytest process)."""
    me = os.getpid()
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().split(b"\0")[0]
        except OSError:
            continue
        if title.startswith(b"ray::JudgeWorker") and me in _ancestors(int(entry.name)):
            pids.append(int(entry.name))
    return pids


def assert_no_worker_left() -> None:
    """Once an evaluation is over, its workers are gone and no process of their slots is left
    on the host."""
    wait_until(lambda: not worker_processes(), "the Ray workers to end", 60)
    uids = [uid for slot in range(RAY_SLOT_BASE, SLOT_BASE + slot_blocks.RAY.stop)
            for uid in uids_of_slot(slot)]
    wait_until(lambda: not any(processes_of_uid(uid) for uid in uids),
               "the workers' sandboxes to end", 60)


