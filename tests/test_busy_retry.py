"""The judge resolves its own BUSY (judge.busy_retry, docs/rl.md): a run the machine starved is
done again, alone, before any client sees it, and what a client of each protocol receives when
the machine stays overloaded is the answer it retries.

The policy and the pool's alone gate are tested as logic; the server's re-runs against a real
starvation: sandboxed spinners on the server slot's CPU (each in a sandbox slot of its own, so
they take the CPU from the run under cgroup v2's per-cgroup weights as much as without them)."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import pytest
import requests
import sandbox_fusion as sf

from conftest import next_slot, scaled
from judge.busy_retry import BusyRetry
from judge.sandbox import Sandbox
from judge.sandbox.slots import cpu_of
from judge.service.pool import AloneGate
from serving import Server, wait_for

# ------------------------------------------------------------------------------ the policy


class Attempts:
    """An attempt that is BUSY `busy` times, then not; it records each call's `alone`."""

    def __init__(self, busy: int) -> None:
        self.busy, self.calls = busy, []

    def __call__(self, alone: bool) -> str:
        self.calls.append(alone)
        return "BUSY" if len(self.calls) <= self.busy else "TLE"


def is_busy(result: str) -> bool:
    return result == "BUSY"


def test_a_busy_result_is_done_again_alone_until_it_is_a_verdict():
    attempts, announced = Attempts(busy=2), []
    retry = BusyRetry(reruns=3, first_pause_s=0.01)
    assert retry.resolve(attempts, is_busy, on_rerun=announced.append) == "TLE"
    assert attempts.calls == [False, True, True]      # the first as it came, re-runs alone
    assert announced == [1, 2]


def test_a_result_that_is_no_busy_is_never_done_again():
    attempts = Attempts(busy=0)
    assert BusyRetry().resolve(attempts, is_busy) == "TLE" and attempts.calls == [False]


def test_the_re_runs_are_bounded_and_a_lasting_busy_is_returned():
    attempts = Attempts(busy=100)
    assert BusyRetry(reruns=3, first_pause_s=0.01).resolve(attempts, is_busy) == "BUSY"
    assert attempts.calls == [False, True, True, True]
    none = Attempts(busy=100)
    assert BusyRetry(reruns=0).resolve(none, is_busy) == "BUSY" and none.calls == [False]


def test_the_pauses_double_and_no_re_run_starts_past_the_budget():
    attempts = Attempts(busy=100)
    started = time.monotonic()
    # Pauses of 0.1, 0.2, 0.4 s: the third would start past 0.5 s, so it does not.
    BusyRetry(reruns=5, first_pause_s=0.1, budget_s=0.5).resolve(attempts, is_busy)
    assert attempts.calls == [False, True, True]
    assert time.monotonic() - started >= 0.3


def test_a_stop_ends_the_pauses():
    attempts, stop = Attempts(busy=100), threading.Event()
    stop.set()
    started = time.monotonic()
    assert BusyRetry(first_pause_s=30).resolve(attempts, is_busy, stop=stop) == "BUSY"
    assert attempts.calls == [False] and time.monotonic() - started < 10


def test_a_policy_takes_no_negative_numbers():
    with pytest.raises(ValueError):
        BusyRetry(reruns=-1)


# ------------------------------------------------------------------------------ the alone gate

def test_alone_waits_for_the_others_jobs_and_holds_off_new_ones():
    gate, events = AloneGate(), []
    gate.enter(0)                                   # slot 0 runs a job
    gate.enter(1)                                   # slot 1 too, and its job wants to go alone

    def alone() -> None:
        with gate.alone(1, wait_s=30):
            events.append("alone")
            time.sleep(0.2)
            events.append("alone done")
        gate.leave(1)

    def next_job() -> None:
        time.sleep(0.1)                             # slot 0 takes its next job meanwhile
        gate.enter(0)
        events.append("next job")
        gate.leave(0)

    threads = [threading.Thread(target=alone), threading.Thread(target=next_job)]
    threads[0].start()
    time.sleep(0.1)
    assert events == []                             # slot 0's job still runs
    gate.leave(0)
    threads[1].start()
    for thread in threads:
        thread.join(10)
    assert events == ["alone", "alone done", "next job"]


def test_two_jobs_that_go_alone_at_once_take_turns():
    gate, order = AloneGate(), []
    gate.enter(0)
    gate.enter(1)

    def alone(index: int) -> None:
        with gate.alone(index, wait_s=30):
            order.append(index)
            time.sleep(0.05)
        gate.leave(index)

    with ThreadPoolExecutor(2) as pool:
        done = [pool.submit(alone, 0), pool.submit(alone, 1)]
        started = time.monotonic()
        for future in done:
            future.result(timeout=10)
    assert sorted(order) == [0, 1] and time.monotonic() - started < 10


def test_going_alone_waits_for_the_others_no_longer_than_its_bound():
    gate = AloneGate()
    gate.enter(0)                                   # a job that will not end soon
    gate.enter(1)
    started = time.monotonic()
    with gate.alone(1, wait_s=0.2):
        waited = time.monotonic() - started
    assert 0.15 <= waited < 10


# ------------------------------------------------------------------------------ a real starvation

HOG = textwrap.dedent("""
    import sys
    from judge.sandbox import Limits, Sandbox
    with Sandbox(box=sys.argv[1], slot=int(sys.argv[2]), cpu=int(sys.argv[3])) as hog:
        hog.start()
        print("ready", flush=True)
        hog.run(["/bin/sh", "-c", "while :; do :; done"],
                Limits(time_limit_ms=3_600_000, wall_time_limit_ms=3_600_000))
""")
SPIN = {"code": "while True:\n    pass\n", "language": "python", "run_timeout": 1}


@contextmanager
def hogs_on(cpu: int, count: int = 4) -> Iterator[Callable[[], None]]:
    """`count` sandboxed spinners on `cpu`; yields the function that stops them."""
    box = tempfile.mkdtemp(prefix="judge-test-hogs-")
    os.chmod(box, 0o755)
    started = [subprocess.Popen([sys.executable, "-c", HOG, box, str(next_slot()), str(cpu)],
                                stdout=subprocess.PIPE, text=True) for _ in range(count)]

    def stop() -> None:
        for hog in started:
            hog.kill()      # the supervisor, and its run, die with the process that started it
            hog.wait()
    try:
        for hog in started:
            assert hog.stdout.readline() == "ready\n"
        time.sleep(scaled(500) / 1000)   # their runs are on the CPU
        yield stop
    finally:
        stop()
        os.rmdir(box)


@pytest.fixture(scope="module")
def starvable(require_sandbox):
    """Skips where no exact clock can tell starvation (nothing is BUSY there:
    docs/design/3-isolation.md §3.8)."""
    with tempfile.TemporaryDirectory() as box:
        os.chmod(box, 0o755)
        with Sandbox(box=box, slot=next_slot()) as probe:
            probe.start()
            clock = probe.busy_clock
    if clock == "none":
        pytest.skip("this host offers no exact clock for BUSY: a starved run is its TLE here")


def test_serve_re_runs_a_starved_run_and_answers_its_verdict(starvable):
    """The first run is starved (BUSY); the hogs stop once the server has counted its re-run;
    the re-run on a quiet CPU is the spinner's TLE, which is what the client receives, never a
    SandboxError or a refusal it would score as a failed test. The pause before the re-run
    (first_pause_s) leaves the test time to stop the hogs; should it miss, the next re-runs
    (longer pauses) are on a quiet CPU all the same."""
    with Server(slots=1, busy_reruns=3, busy_budget_s=60) as server:
        with hogs_on(cpu_of(0)) as stop, ThreadPoolExecutor(1) as client:
            answer = client.submit(lambda: requests.post(server.url + "/run_code", json=SPIN,
                                                         timeout=120))
            wait_for(lambda: server.metric("judge_serve_busy_reruns_total",
                                           endpoint="run_code") >= 1, 60_000, "a BUSY re-run")
            stop()
            response = answer.result()
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["status"] == "Failed" and body["verdict"] == "TLE", body
        assert body["run_result"]["status"] == "TimeLimitExceeded"


def test_a_lasting_starvation_is_the_answer_each_client_retries(starvable):
    """While the machine stays overloaded, the re-runs stay BUSY: SandboxFusion's endpoints then
    answer 504 with Retry-After (verl retries only a 504; the sandbox-fusion client retries any
    non-200), /v1/grade its explicit BUSY verdict with the evidence, never a verdict charged to
    the program."""
    with Server(slots=1, busy_reruns=2, busy_budget_s=60) as server:
        with hogs_on(cpu_of(0)):
            response = requests.post(server.url + "/run_code", json=SPIN, timeout=120)
            graded = server.post("/v1/grade", {
                "code": SPIN["code"], "language": "python",
                "problem": {"id": "spin", "time_limit_ms": 1000, "memory_limit_mb": 256,
                            "checker": "wcmp", "tests": [{"input": "", "output": "1"}]}})
            sf.set_endpoint(server.url)
            with pytest.raises(Exception, match="504"):
                sf.run_code(sf.RunCodeRequest(**SPIN), max_attempts=1)
        assert response.status_code == 504, response.text
        assert response.json()["error"] == "judge_failure" and "BUSY" in response.json()["message"]
        assert int(response.headers["Retry-After"]) >= 1
        assert graded.status_code == 200, graded.text
        result = graded.json()
        if result["verdict"] != "TLE":   # the grading's wall limit is twice its CPU limit
            assert result["verdict"] == "BUSY" and result["judge_failure"], result
            assert result["exclusion_evidence"]["kind"] == "cpu-clock", result
        assert server.metric("judge_serve_busy_reruns_total", endpoint="run_code") >= 4


def test_a_request_no_slot_can_start_in_its_clients_time_is_answered_504_unrun(require_sandbox):
    """verl waits compile_timeout + run_timeout + 10 s for an answer and retries only a 504: a
    request still queued when its answer could no longer come in that time is answered 504
    (queue_timeout) and dropped unrun, instead of being served after its client gave up."""
    with Server(slots=1, client_timeout_slack_s=1) as server, ThreadPoolExecutor(1) as client:
        long = {"code": "import time; time.sleep(8)", "language": "python", "run_timeout": 20}
        first = client.submit(lambda: server.post("/run_code", long))
        wait_for(lambda: server.metric("judge_serve_slots_busy") == 1, 20_000, "a busy slot")
        started = time.monotonic()
        # Its client waits 1 + 1 + 1 s: no slot frees in time.
        late = server.post("/run_code", {"code": "print(1)", "language": "python",
                                         "run_timeout": 1, "compile_timeout": 1})
        waited = time.monotonic() - started
        assert late.status_code == 504 and late.json()["error"] == "queue_timeout", late.text
        assert int(late.headers["Retry-After"]) >= 1
        assert waited < 7.5, waited           # answered while its client still waits
        assert server.metric("judge_serve_rejected_total", reason="queue_timeout") == 1
        assert first.result().json()["status"] == "Success"
        runs = server.metric("judge_serve_run_seconds_count", endpoint="run_code")
        assert runs == 1                      # the late request never ran


def test_a_program_known_to_be_slow_is_given_up_on_in_time_for_its_client():
    """The latest start a client's wait allows counts a program's own past jobs (with a margin)
    when they are longer than the endpoint's typical one: verl sends every test of a spinning
    sample at once, and once one has run the others must not start so late that their answers
    come after verl stopped waiting (at most the job's own limits are counted)."""
    from judge.service.runtime import OWN_COST_MARGIN, ClientWait, Service
    from judge.service.settings import Settings
    service = Service(Settings(slots=1))
    for _ in range(9):
        service.metrics.run_seconds.labels("run_code").observe(0.05)
    wait = ClientWait(total_s=12.0, longest_job_s=2.0)
    assert service.start_within_s("run_code", wait, "spinner") == pytest.approx(12.0 - 0.1)
    service.pool._queue.costs.observe("spinner", 1.2)
    assert service.start_within_s("run_code", wait, "spinner") == pytest.approx(
        12.0 - OWN_COST_MARGIN * 1.2)
    assert service.start_within_s("run_code", wait, "quick") == pytest.approx(12.0 - 0.1)
    service.pool._queue.costs.observe("hog", 30.0)
    assert service.start_within_s("run_code", wait, "hog") == pytest.approx(12.0 - 2.0)
