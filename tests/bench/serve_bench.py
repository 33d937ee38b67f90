"""`judge serve` against the library, in the same run: a trivial Python and C++ /run_code and a
20-test /submit, each timed one at a time (latency: p50, p99) and with many clients at once
(requests per second), over HTTP to a real server on 127.0.0.1 and through a Grader with a
scratch box, as each of the server's slots holds, called directly in-process (the library path:
the same sandboxes, no HTTP, no queue).

`python -m tests.bench.serve_bench` runs this section alone."""
from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx
from rich.console import Console
from rich.table import Table

from judge.cpus import usable_cpus
from judge.grade import Grader
from judge.languages import get_language
from judge.problems.model import Problem, TestCase
from judge.sandbox import Limits
from judge.sandbox.slots import SERVICE, cpu_of
from judge.service.settings import Settings
from judge.single_run import ScratchBox

REPO = Path(__file__).resolve().parents[2]
PY = "print(int(input()) + 1)\n"
CPP = ("#include <bits/stdc++.h>\nint main(){long long x; std::cin >> x; "
       "std::cout << x + 1 << std::endl;}\n")
SUBMIT_TESTS = [(f"{i}\n", f"{i + 1}\n") for i in range(20)]
LAUNCH = ("import json, sys\nfrom judge.service.server import serve\n"
          "from judge.service.settings import Settings\n"
          "serve(Settings(**json.loads(sys.argv[1])), log_level='warning')\n")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _problem() -> Problem:
    return Problem(id="bench/add-one", title="", statement="", time_limit_ms=2000,
                   memory_limit_mb=256, checker="sandboxfusion",
                   tests=tuple(TestCase(i.encode(), o.encode()) for i, o in SUBMIT_TESTS))


def _cases() -> dict[str, tuple[dict, Callable[[Grader, int], bool]]]:
    """name -> (the HTTP request, the same work on a Grader, returning whether it was right)."""
    limits = Limits(time_limit_ms=10_000, memory_limit_mb=1024, output_limit_mb=16)
    problem = _problem()

    def run(code: str, language: str) -> Callable[[Grader, int], bool]:
        lang = get_language(language)

        def call(slot: Grader, i: int) -> bool:
            out = slot.run_program(code, lang, limits, stdin=f"{i}\n".encode(), files={}, fetch=[])
            return out.run is not None and out.run.stdout == f"{i + 1}\n".encode()
        return call

    def grade(slot: Grader, i: int) -> bool:
        return slot.grade(CPP, get_language("cpp"), problem, all_tests=False,
                          keep_output=True).verdict == "AC"

    submit = {"dataset": "bench", "id": "add-one", "completion": f"```cpp\n{CPP}```",
              "config": {"language": "cpp", "provided_data": {
                  "test": [{"input": {"stdin": i}, "output": {"stdout": o}} for i, o in SUBMIT_TESTS]}}}
    return {
        "python /run_code": ({"code": PY, "language": "python"}, run(PY, "python")),
        "C++ /run_code": ({"code": CPP, "language": "cpp"}, run(CPP, "cpp")),
        "20-test C++ /submit": (submit, grade),
    }


def _http_ok(name: str, body: dict, i: int) -> bool:
    if "/submit" in name:
        return body.get("accepted") is True
    return body.get("status") == "Success" and body["run_result"]["stdout"] == f"{i + 1}\n"


def _library(slots: int, count: int, call: Callable[[Grader, int], bool], parallel: bool
             ) -> tuple[list[float], float, int]:
    """Latencies of `count` calls (one thread), or the seconds for `count` calls spread over
    one thread per slot, each with its own Grader (as the server's workers are)."""
    threads = slots if parallel else 1
    latencies: list[float] = []
    wrong = [0]
    barrier = threading.Barrier(threads + 1)
    lock = threading.Lock()

    def worker(index: int) -> None:
        defaults = Settings()          # the server's scratch box
        slot = Grader(slot=SERVICE.take(threads)[index], cpu=cpu_of(index),
                      scratch=ScratchBox(defaults.box_mb, defaults.max_fetch_bytes))
        try:
            slot.warm()
            call(slot, 0)   # compile cache, pch
            barrier.wait()
            for i in range(index, count, threads):
                started = time.perf_counter()
                ok = call(slot, i)
                with lock:
                    latencies.append(time.perf_counter() - started)
                    wrong[0] += not ok
        finally:
            slot.close()

    pool = [threading.Thread(target=worker, args=(k,)) for k in range(threads)]
    for thread in pool:
        thread.start()
    barrier.wait()
    started = time.perf_counter()
    for thread in pool:
        thread.join()
    return latencies, time.perf_counter() - started, wrong[0]


async def _http(url: str, name: str, body: dict, count: int, concurrency: int
                ) -> tuple[list[float], float, int]:
    limiter = asyncio.Semaphore(concurrency)
    latencies: list[float] = []
    wrong = 0
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, timeout=600, limits=limits) as client:
        path = "/submit" if "/submit" in name else "/run_code"
        await client.post(path, json={**body, "stdin": "0\n"} if path == "/run_code" else body)

        async def one(i: int) -> None:
            nonlocal wrong
            payload = {**body, "stdin": f"{i}\n"} if path == "/run_code" else body
            async with limiter:
                started = time.perf_counter()
                response = await client.post(path, json=payload)
                latencies.append(time.perf_counter() - started)
            wrong += response.status_code != 200 or not _http_ok(name, response.json(), i)

        started = time.perf_counter()
        await asyncio.gather(*(one(i) for i in range(count)))
        return latencies, time.perf_counter() - started, wrong


def _server(slots: int) -> tuple[subprocess.Popen, str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    settings = {"port": port, "slots": slots, "queue_size": 256}
    log = tempfile.TemporaryFile()
    process = subprocess.Popen([sys.executable, "-c", LAUNCH, json.dumps(settings)], stdout=log,
                               stderr=subprocess.STDOUT, cwd=str(REPO),
                               env={**os.environ, "PYTHONPATH": str(REPO)})
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/readyz", timeout=5).status_code == 200:
                return process, url
        except httpx.HTTPError:
            pass
        if process.poll() is not None:
            break
        time.sleep(0.2)
    process.kill()
    log.seek(0)
    raise RuntimeError(f"judge serve did not start: {log.read().decode(errors='replace')[-2000:]}")


def run(console: Console) -> None:
    slots = len(usable_cpus())
    counts = {"python /run_code": 200, "C++ /run_code": 400, "20-test C++ /submit": 100}
    concurrency = 4 * slots
    table = Table(title=f"judge serve vs the library, {slots} slots: latency one at a time, "
                        f"throughput with {concurrency} clients (HTTP) or one thread per slot "
                        "(library)")
    for column in ("case", "path", "p50 ms", "p99 ms", "requests/s", "wrong"):
        table.add_column(column, justify="left" if column in ("case", "path") else "right")
    cases = _cases()
    results: dict[str, dict[str, tuple]] = {}
    for name, (_, call) in cases.items():
        count = counts[name]
        serial, _, bad = _library(slots, count // 2, call, parallel=False)
        _, seconds, bad2 = _library(slots, count, call, parallel=True)
        results.setdefault(name, {})["library"] = (serial, count / seconds, bad + bad2)
    process, url = _server(slots)
    try:
        for name, (body, _) in cases.items():
            count = counts[name]
            serial, _, bad = asyncio.run(_http(url, name, body, count // 2, 1))
            _, seconds, bad2 = asyncio.run(_http(url, name, body, count, concurrency))
            results[name]["judge serve"] = (serial, count / seconds, bad + bad2)
    finally:
        process.terminate()
        process.wait(120)
    for name in cases:
        for path in ("library", "judge serve"):
            serial, rate, bad = results[name][path]
            table.add_row(name, path, f"{statistics.median(serial) * 1e3:.1f}",
                          f"{_percentile(serial, 0.99) * 1e3:.1f}", f"{rate:.0f}", str(bad))
    console.print(table)
    console.print("library = a Grader with a scratch box called in-process (compile cache warm, no HTTP, "
                  "no queue); judge serve = HTTP on 127.0.0.1 with JSON both ways")


if __name__ == "__main__":
    run(Console())
