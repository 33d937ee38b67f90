"""`judge serve`'s memory under the hostile client shapes (docs/design/9-service.md §9.1), each
against the bound the server documents for its settings (Settings.memory_bound_bytes; the defaults,
2 slots here) and against its own idle RSS measured in the same run: the peak RSS while

- 2000 connections are opened and never send a byte;
- 500 /run_code requests of 16 KiB wait in the queue behind two slow ones (one machine holds
  at most 512 connections, so that is what one client can queue);
- a /submit's program prints 16 MiB of two-byte lines, checked by each dataset comparator;
- 8 clients send a /run_code printing 16 MiB of control bytes and never read the answer.

Each shape's peak is the process's VmHWM after `clear_refs` reset it (as root) to what was
resident then, which includes what the allocator kept of the shapes before (lightest first).
`python -m tests.bench.serve_memory` runs this section alone (as root, from the repository)."""
from __future__ import annotations

import socket
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import requests
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from serving import Server, never_reads, rss_bytes, settings_of, wait_for  # noqa: E402

CONTROL_FLOOD = "import sys; sys.stdout.buffer.write(b'\\x01' * (16 << 20))"
LINE_FLOOD = "import sys\nsys.stdout.write('1\\n' * (8 << 20))\n"
SLOW = "import time; time.sleep(15)"
NEVER_READING, IDLE_CONNECTIONS, QUEUED = 8, 2000, 500


def reset_peak(pid: int) -> None:
    Path(f"/proc/{pid}/clear_refs").write_text("5")


def line_flood(server: Server, checker: str) -> None:
    answer = server.post("/submit", {
        "dataset": "x", "id": "flood", "completion": f"```python\n{LINE_FLOOD}```",
        "config": {"language": "python", "provided_data": {
            "test": [{"input": {"stdin": ""}, "output": {"stdout": "1"}}], "checker": checker}}})
    assert answer.status_code == 200, answer.text[:300]


def never_reading(server: Server) -> None:
    socks = [never_reads(server.port, {"code": CONTROL_FLOOD, "language": "python"})
             for _ in range(NEVER_READING)]
    try:
        wait_for(lambda: server.metric("judge_serve_run_seconds_count", endpoint="run_code")
                 >= NEVER_READING, 300_000, "the never-reading clients' runs")
        time.sleep(5)
    finally:
        for sock in socks:
            sock.close()


def idle_connections(server: Server) -> None:
    opened = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(IDLE_CONNECTIONS)]
    time.sleep(3)
    for sock in opened:
        sock.close()


def queued(server: Server) -> None:
    blockers = [threading.Thread(target=server.post, args=("/run_code", {
        "code": SLOW, "language": "python", "run_timeout": 20})) for _ in range(2)]
    for blocker in blockers:
        blocker.start()
    wait_for(lambda: server.metric("judge_serve_slots_busy") == 2, 60_000, "two busy slots")
    body = {"code": "print(1)\n#" + "x" * (16 << 10), "language": "python", "run_timeout": 5}
    with ThreadPoolExecutor(QUEUED) as pool:
        answers = list(pool.map(lambda _: requests.post(server.url + "/run_code", json=body,
                                                        timeout=300).status_code,
                                range(QUEUED)))
    for blocker in blockers:
        blocker.join()
    assert answers.count(200) + answers.count(504) == QUEUED, answers


def run(console: Console) -> None:
    shapes: list[tuple[str, Callable[[Server], None]]] = [
        (f"{IDLE_CONNECTIONS} connections that send nothing", idle_connections),
        (f"{QUEUED} queued 16 KiB /run_code requests", queued),
        *[(f"/submit: 16 MiB of short lines, {checker}", lambda s, c=checker: line_flood(s, c))
          for checker in ("codecontests", "lcb", "sandboxfusion")],
        (f"{NEVER_READING} clients never reading a 16 MiB /run_code answer", never_reading),
    ]
    with Server(slots=2) as server:
        pid = server.process.pid
        bound = settings_of(server).memory_bound_bytes
        server.post("/run_code", {"code": "print(1)", "language": "python"})
        idle = rss_bytes(pid)
        rows = []
        for label, shape in shapes:
            reset_peak(pid)
            shape(server)
            rows.append((label, rss_bytes(pid, "VmHWM")))
    table = Table(title=f"judge serve's peak RSS under hostile clients (2 slots, default settings; "
                        f"idle {idle >> 20} MiB, bound {bound >> 20} MiB)")
    for column in ("client shape", "peak MiB", "over idle MiB", "of the bound"):
        table.add_column(column, justify="left" if column == "client shape" else "right")
    for label, peak in rows:
        table.add_row(label, str(peak >> 20), str((peak - idle) >> 20), f"{peak / bound:.0%}")
    console.print(table)


if __name__ == "__main__":
    run(Console())
