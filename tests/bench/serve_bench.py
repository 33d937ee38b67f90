"""`judge serve` against the library, in the same run: a trivial Python and C++ /run_code and a
20-test /submit, each timed one at a time (latency: p50, p99) and with many clients at once
(requests per second; the latency each client sees with 4 clients a slot), over HTTP to a real
server on 127.0.0.1 and through a Grader with a scratch box, as each of the server's slots
holds, called directly in-process (the library path: the same sandboxes, no HTTP, no queue).

One at a time, a library call and the same request over HTTP alternate, so that both meet the
same machine: what HTTP adds is the difference of their p50s. The HTTP client there is
Python's http.client on one kept-alive connection (a few tens of microseconds a request), so
the figure is the server's; the many-clients phase uses httpx's asyncio client.

`python -m tests.bench.serve_bench` runs this section alone."""
from __future__ import annotations

import asyncio
import http.client
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
from judge.languages import Profile, get_language
from judge.problems.model import Problem, TestCase
from judge.sandbox import Limits
from judge.sandbox.slots import LIBRARY_GRADE, cpu_of
from judge.service.sandboxfusion import submit_share
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
CLIENTS_PER_SLOT = 4
# Requests of each case: one at a time (each also run through the library), then at once.
SERIAL = {"python /run_code": 100, "C++ /run_code": 200, "20-test C++ /submit": 50}
AT_ONCE = {"python /run_code": 200, "C++ /run_code": 400, "20-test C++ /submit": 100}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _problem() -> Problem:
    """/submit's problem as the server makes it of the request (sandboxfusion.submission_problem)."""
    return Problem(id="bench/add-one", title="", statement="", time_limit_ms=10_000,
                   memory_limit_mb=1024, checker="sandboxfusion",
                   tests=tuple(TestCase(i.encode(), o.encode()) for i, o in SUBMIT_TESTS))


def _cases() -> dict[str, tuple[dict, Callable[[Grader, int], bool]]]:
    """name -> (the HTTP request, the same work on a Grader as the server's handler asks it,
    returning whether it was right)."""
    settings = Settings()
    limits = Limits(time_limit_ms=10_000, wall_time_limit_ms=10_000,
                    memory_limit_mb=settings.default_memory_mb,
                    output_limit_mb=settings.output_limit_mb,
                    stderr_limit_mb=settings.stderr_limit_mb)
    problem = _problem()

    def run(code: str, language: str) -> Callable[[Grader, int], bool]:
        lang = get_language(language, Profile.COMPATIBLE)

        def call(slot: Grader, i: int) -> bool:
            out = slot.run_program(code, lang, limits, stdin=f"{i}\n".encode(), files={},
                                   fetch=[], compile_time_limit_ms=10_000)
            return out.run is not None and out.run.stdout == f"{i + 1}\n".encode()
        return call

    def grade(slot: Grader, i: int) -> bool:
        return slot.grade(CPP, get_language("cpp", Profile.COMPATIBLE), problem,
                          all_tests=False, keep_output=True,
                          kept_output_limit=submit_share(settings, len(problem.tests))
                          ).verdict == "AC"

    submit = {"dataset": "bench", "id": "add-one", "completion": f"```cpp\n{CPP}```",
              "config": {"language": "cpp", "provided_data": {
                  "test": [{"input": {"stdin": i}, "output": {"stdout": o}} for i, o in SUBMIT_TESTS]}}}
    return {
        "python /run_code": ({"code": PY, "language": "python"}, run(PY, "python")),
        "C++ /run_code": ({"code": CPP, "language": "cpp"}, run(CPP, "cpp")),
        "20-test C++ /submit": (submit, grade),
    }


def _request(name: str, body: dict, i: int) -> tuple[str, dict]:
    if "/submit" in name:
        return "/submit", body
    return "/run_code", {**body, "stdin": f"{i}\n"}


def _http_ok(name: str, body: dict, i: int) -> bool:
    if "/submit" in name:
        return body.get("accepted") is True
    return body.get("status") == "Success" and body["run_result"]["stdout"] == f"{i + 1}\n"


def _grader(index: int, threads: int) -> Grader:
    defaults = Settings()          # the server's scratch box
    return Grader(slot=LIBRARY_GRADE.take(threads)[index], cpu=cpu_of(index),
                  scratch=ScratchBox(defaults.box_mb, defaults.max_fetch_bytes))


def _one_at_a_time(url: str, name: str, body: dict, call: Callable[[Grader, int], bool],
                   count: int) -> tuple[list[float], list[float], int]:
    """`count` library calls and as many HTTP requests, alternating (which goes first too),
    from one thread: (library latencies, HTTP latencies, wrong answers)."""
    results: tuple[list[float], list[float], list[int]] = ([], [], [0])

    def work() -> None:
        library, over_http, wrong = results
        host, port = url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=600)
        slot = _grader(0, 1)
        try:
            slot.warm()
            call(slot, 0)   # compile cache, pch
            _post(connection, *_request(name, body, 0))

            def by_library(i: int) -> None:
                started = time.perf_counter()
                ok = call(slot, i)
                library.append(time.perf_counter() - started)
                wrong[0] += not ok

            def by_http(i: int) -> None:
                started = time.perf_counter()
                status, answer = _post(connection, *_request(name, body, i))
                over_http.append(time.perf_counter() - started)
                wrong[0] += status != 200 or not _http_ok(name, answer, i)

            for i in range(count):
                for step in ((by_library, by_http) if i % 2 else (by_http, by_library)):
                    step(i)
        finally:
            connection.close()
            slot.close()

    thread = threading.Thread(target=work)    # a Grader belongs to the thread that made it
    thread.start()
    thread.join()
    return results[0], results[1], results[2][0]


def _post(connection: http.client.HTTPConnection, path: str, payload: dict) -> tuple[int, dict]:
    connection.request("POST", path, json.dumps(payload).encode(),
                       {"Content-Type": "application/json"})
    response = connection.getresponse()
    return response.status, json.loads(response.read())


def _library_rate(slots: int, count: int, call: Callable[[Grader, int], bool]) -> tuple[float, int]:
    """Requests per second of `count` calls spread over one thread per slot, each with its own
    Grader (as the server's workers are), and the wrong answers."""
    wrong = [0]
    barrier = threading.Barrier(slots + 1)
    lock = threading.Lock()

    def worker(index: int) -> None:
        slot = _grader(index, slots)
        try:
            slot.warm()
            call(slot, 0)   # compile cache, pch
            barrier.wait()
            for i in range(index, count, slots):
                ok = call(slot, i)
                with lock:
                    wrong[0] += not ok
        finally:
            slot.close()

    pool = [threading.Thread(target=worker, args=(k,)) for k in range(slots)]
    for thread in pool:
        thread.start()
    barrier.wait()
    started = time.perf_counter()
    for thread in pool:
        thread.join()
    return count / (time.perf_counter() - started), wrong[0]


async def _at_once(url: str, name: str, body: dict, count: int, clients: int
                   ) -> tuple[list[float], float, int]:
    """`count` requests from `clients` clients, each sending its next when its last is
    answered: (latencies, requests per second, wrong answers)."""
    latencies: list[float] = []
    wrong = 0
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=url, timeout=600, limits=limits) as client:
        path, payload = _request(name, body, 0)
        await client.post(path, json=payload)
        numbers = iter(range(count))

        async def one_client() -> None:
            nonlocal wrong
            for i in numbers:
                path, payload = _request(name, body, i)
                started = time.perf_counter()
                response = await client.post(path, json=payload)
                latencies.append(time.perf_counter() - started)
                wrong += response.status_code != 200 or not _http_ok(name, response.json(), i)

        started = time.perf_counter()
        await asyncio.gather(*(one_client() for _ in range(clients)))
        return latencies, count / (time.perf_counter() - started), wrong


def server(slots: int, queue_size: int = 256) -> tuple[subprocess.Popen, str]:
    """A `judge serve` on a free port of 127.0.0.1 (queue_size 0: the default queue)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    settings = {"port": port, "slots": slots, "queue_size": queue_size}
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


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.1f}"


def run(console: Console) -> None:
    slots = len(usable_cpus())
    clients = CLIENTS_PER_SLOT * slots
    table = Table(title=f"judge serve vs the library, {slots} slots: latency one at a time (the "
                        "two alternating), throughput with one thread per slot (library) or "
                        f"{clients} clients (HTTP, {CLIENTS_PER_SLOT} a slot) and the latency "
                        "each of those clients sees")
    for column in ("case", "path", "p50 ms", "p99 ms", "HTTP adds (p50)", "requests/s",
                   f"p50 ms, {clients} clients", f"p99 ms, {clients} clients", "p99/p50",
                   "wrong"):
        table.add_column(column, justify="left" if column in ("case", "path") else "right")
    cases = _cases()
    process, url = server(slots)
    try:
        for name, (body, call) in cases.items():
            library, over_http, wrong = _one_at_a_time(url, name, body, call, SERIAL[name])
            rate, bad = _library_rate(slots, AT_ONCE[name], call)
            loaded, http_rate, bad2 = asyncio.run(_at_once(url, name, body, AT_ONCE[name],
                                                           clients))
            added = statistics.median(over_http) - statistics.median(library)
            p50, p99 = statistics.median(loaded), _percentile(loaded, 0.99)
            table.add_row(name, "library", _ms(statistics.median(library)),
                          _ms(_percentile(library, 0.99)), "", f"{rate:.0f}", "", "", "",
                          str(bad))
            table.add_row(name, "judge serve", _ms(statistics.median(over_http)),
                          _ms(_percentile(over_http, 0.99)), f"{added * 1e3:+.2f} ms",
                          f"{http_rate:.0f}", _ms(p50), _ms(p99), f"{p99 / p50:.2f}",
                          str(wrong + bad2))
    finally:
        process.terminate()
        process.wait(120)
    console.print(table)
    console.print("library = a Grader with a scratch box called in-process (compile cache warm, no HTTP, "
                  "no queue); judge serve = HTTP on 127.0.0.1 with JSON both ways (one at a time: "
                  "http.client on one kept-alive connection); targets (issue 31): HTTP adds at "
                  f"most 1 ms at p50, and p99 at most 3 times p50 with {CLIENTS_PER_SLOT} clients "
                  "a slot")


if __name__ == "__main__":
    run(Console())
