"""What `judge serve` answers and holds for programs that print control bytes and clients that
never read (docs/design.md §9.1): the size of a /run_code and a 4-test /submit answer for 16 MiB
of `\\x01`, and the server's RSS while 8 clients send such a /run_code and never read.

`python -m tests.bench.serve_memory` runs it (as root, with the sandbox, from the repository)."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from serving import Server, never_reads  # noqa: E402

FLOOD = "import sys; sys.stdout.buffer.write(b'\\x01' * (16 << 20))"
CLIENTS = 8
WATCH_S = 90


def rss_mib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    return 0


def main() -> None:
    with Server(slots=2) as server:
        pid = server.process.pid
        print(f"idle RSS: {rss_mib(pid)} MiB")
        run = {"code": FLOOD, "language": "python"}
        answer = server.post("/run_code", run)
        print(f"/run_code: {len(json.dumps(run))}-byte request, {len(answer.content)}-byte answer")
        tests = [{"input": {"stdin": ""}, "output": {"stdout": ""}}] * 4
        submit = {"id": 1, "completion": f"```python\n{FLOOD}\n```", "config": {
            "language": "python", "provided_data": {"test": tests},
            "extra": {"run_all_cases": True}}}
        answer = server.post("/submit", submit)
        print(f"/submit: {len(json.dumps(submit))}-byte request, {len(answer.content)}-byte answer")
        socks = [never_reads(server.port, run) for _ in range(CLIENTS)]
        peak, end = 0, time.monotonic() + WATCH_S
        while time.monotonic() < end:
            peak = max(peak, rss_mib(pid))
            time.sleep(0.5)
        print(f"{CLIENTS} clients that never read, over {WATCH_S} s: peak RSS {peak} MiB")
        for sock in socks:
            sock.close()
        time.sleep(5)
        print(f"after they left: RSS {rss_mib(pid)} MiB")


if __name__ == "__main__":
    main()
