"""The running service's state (settings, the slot pool, metrics, its problems) and the one way a
request hands work to a slot: `Service.run`, which queues the job in its client's line
(client_of), awaits it without blocking the event loop, answers a full queue with the retryable
status of the request's protocol (/v1: 503, SandboxFusion's: 504) and Retry-After, cancels the
job when its client goes away before a slot took it, answers retryable a job still queued when
its client's wait runs out, and re-runs a BUSY job alone (judge.busy_retry) before it answers."""
from __future__ import annotations

import asyncio
import hashlib
import ipaddress
import math
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, TypeVar

from fastapi import Request

from judge import JudgeError
from judge.grade import Grader
from judge.problems.model import Problem
from judge.problems.source import ProblemSource, open_source
from judge.sandbox.slots import cpu_of
from judge.service.auth import presented_token
from judge.service.errors import ApiError
from judge.service.metrics import Metrics
from judge.service.pool import PoolClosed, QueueFull, SlotPool
from judge.service.settings import Settings
from judge.single_run import BoxFileError, ScratchBox

T = TypeVar("T")
# A queued request whose client waits a bounded time is looked at again this often: what its
# job likely takes is known better once jobs ahead of it (often its own program's) have run.
START_RECHECK_S = 0.5
# A program's own past jobs, with this margin, say what its next job likely takes.
OWN_COST_MARGIN = 1.25
MEAN_FRESH_S = 0.25


@dataclass(frozen=True)
class ClientWait:
    """A client that waits `total_s` for its answer in all, for a job that takes at most
    `longest_job_s` (its own limits)."""
    total_s: float
    longest_job_s: float


class ClientGone(Exception):
    """The client disconnected while its job waited."""


def peer_key(host: str) -> str:
    """The client an address is, as one machine: every loopback address (127.0.0.0/8, ::1) is
    the one local machine, an IPv4-mapped IPv6 address its IPv4 one, and an IPv6 address its
    /64 (one host's addresses: a client that takes a new one for each connection stays one)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback:
        return "loopback"
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def client_of(request: Request, settings: Settings) -> str:
    """Whose line of the queue a request waits in: with tokens, its token (a digest of it: one
    line per tenant, wherever its requests come from); without, its peer's machine (peer_key;
    not the connection: a client opening many connections still waits in one line). Behind a
    proxy every client is the proxy's, one line, unless the proxy is trusted to say whom it
    forwards (uvicorn's --forwarded-allow-ips: X-Forwarded-For)."""
    if settings.tokens:
        token = presented_token(request.headers.get("authorization", ""))
        if token is not None:
            return "token:" + hashlib.sha256(token.encode()).hexdigest()[:16]
    return "peer:" + peer_key(request.client.host if request.client else "")


class Service:
    def __init__(self, settings: Settings, metrics: Metrics | None = None) -> None:
        self.settings = settings
        self.metrics = metrics or Metrics()
        self.pool = SlotPool(settings.slots, settings.queue_limit, self._make_slot, self.metrics)
        self.draining = False
        self.problems_ready = settings.dataset is None
        self.problems_error: str | None = None
        self._problems: ProblemSource | None = None
        self._problems_lock = threading.Lock()
        # endpoint -> (when, its mean job): read again at most every MEAN_FRESH_S, since every
        # queued request with a client wait asks for it twice a second.
        self._means: dict[str | None, tuple[float, float | None]] = {}

    def _make_slot(self, index: int) -> Grader:
        s = self.settings
        return Grader(slot=s.slot_numbers[index], cpu=cpu_of(index), testlib=s.testlib,
                      scratch=ScratchBox(box_mb=s.box_mb, max_fetch_bytes=s.max_fetch_bytes))

    def start(self) -> None:
        self.pool.start()

    async def load_dataset(self) -> None:
        """Opens the --dataset source once, in a thread, before the server says it is ready."""
        if self.settings.dataset is None:
            return
        try:
            await asyncio.to_thread(lambda: self._problem_source().list())
        except Exception as exc:    # reported by /readyz; the pack still serves
            self.problems_error = str(exc)
        self.problems_ready = True

    def close(self) -> None:
        self.draining = True
        self.pool.close(self.settings.drain_timeout_s)

    # -- problems -------------------------------------------------------------------------
    def _problem_source(self) -> ProblemSource:
        """The --dataset source (else the embedded pack), opened once: a source that failed to
        open is tried again by the next request."""
        with self._problems_lock:
            if self._problems is None:
                self._problems = open_source(self.settings.dataset)
            return self._problems

    async def problem(self, problem_id: str) -> Problem:
        """A problem by id: from --dataset when the server has one, else the embedded pack."""
        try:
            return await asyncio.to_thread(lambda: self._problem_source().get(problem_id))
        except JudgeError as exc:
            raise ApiError(404, "unknown_problem", str(exc)) from None

    # -- running --------------------------------------------------------------------------
    def _mean_job_s(self, endpoint: str | None = None) -> float | None:
        """The mean time a job held its slot, of one endpoint or all; None before any."""
        now = time.monotonic()
        when, mean = self._means.get(endpoint, (-math.inf, None))
        if now - when > MEAN_FRESH_S:
            mean = self._measured_mean_job_s(endpoint)
            self._means[endpoint] = (now, mean)
        return mean

    def _measured_mean_job_s(self, endpoint: str | None) -> float | None:
        samples = [s for metric in self.metrics.run_seconds.collect() for s in metric.samples
                   if endpoint is None or s.labels.get("endpoint") == endpoint]
        total = sum(s.value for s in samples if s.name.endswith("_sum"))
        runs = sum(s.value for s in samples if s.name.endswith("_count"))
        return total / runs if runs else None

    def retry_after(self) -> int:
        """Seconds until a slot is likely free: the queue ahead times the mean job time,
        spread over the slots; at least the setting's floor."""
        mean = self._mean_job_s() or 1.0
        estimate = self.pool.queue_length() * mean / max(1, self.settings.slots)
        return max(self.settings.retry_after_s, min(60, math.ceil(estimate)))

    def overloaded(self, message: str, status: int = 503) -> ApiError:
        self.metrics.rejected.labels("queue_full").inc()
        return ApiError(status, "queue_full", message, {"Retry-After": str(self.retry_after())})

    def _resolving(self, fn: Callable[[Grader], T], endpoint: str,
                   busy: Callable[[T], bool]) -> Callable[[Grader], T]:
        """fn, done again alone while the machine starves it (judge.busy_retry)."""
        retry = self.settings.busy_retry

        def resolved(grader: Grader) -> T:
            def attempt(alone: bool) -> T:
                if not alone:
                    return fn(grader)
                with self.pool.alone():
                    return fn(grader)
            return retry.resolve(attempt, busy, stop=self.pool.stopping,
                                 on_rerun=lambda _: self.metrics.busy_reruns.labels(endpoint).inc())
        return resolved

    def submit(self, fn: Callable[[Grader], T], endpoint: str, client: str,
               retry_status: int = 503, cost_key: str | None = None) -> Future[T]:
        """Queues fn(slot) in `client`'s line and returns its future; raises ApiError
        (retry_status, with Retry-After) when the queue is full or the server is draining."""
        try:
            return self.pool.submit(fn, endpoint, client, cost_key)
        except QueueFull as exc:
            raise self.overloaded(f"the judge is at capacity: {exc}; try again later",
                                  retry_status) from None
        except PoolClosed:
            self.metrics.rejected.labels("draining").inc()
            raise ApiError(retry_status, "draining", "the server is shutting down",
                           {"Retry-After": str(self.settings.retry_after_s)}) from None

    def start_within_s(self, endpoint: str, wait: ClientWait, cost_key: str | None) -> float:
        """How long a job may wait for a slot so that its answer can still reach its client:
        the client's wait less the job's likely time (twice the endpoint's mean job, or its
        program's own mean with a margin when that is longer; at most its own limits)."""
        likely = max(2 * (self._mean_job_s(endpoint) or 0.0),
                     OWN_COST_MARGIN * self.pool.expected_job_s(cost_key))
        return max(0.0, wait.total_s - min(wait.longest_job_s, likely))

    async def run(self, request: Request, fn: Callable[[Grader], T], endpoint: str, *,
                  busy: Callable[[T], bool] | None = None, retry_status: int = 503,
                  client_wait: ClientWait | None = None, cost_key: str | None = None) -> T:
        """Runs fn(slot) on the next free slot and returns its result. `busy`: which results
        the machine starved, re-run alone (Settings.busy_retry) before one is returned. If the
        client disconnects first, the job is cancelled (dropped unrun when still queued) and
        ClientGone raised; a job still queued when its answer could no longer reach a client
        that waits `client_wait` (start_within_s, looked at again as the estimate improves) is
        dropped unrun and answered retry_status (queue_timeout), as a full queue is. `cost_key` names the program
        the job runs, so its client's quick jobs go before its slow ones (pool.JobCosts). A
        BoxFileError of the job is
        422; any other JudgeError is 422 too (the judge's words for bad input: an unknown
        checker, a checker that does not compile)."""
        work = self._resolving(fn, endpoint, busy) if busy is not None else fn
        queued = self.submit(work, endpoint, client_of(request, self.settings), retry_status,
                             cost_key)
        job = asyncio.wrap_future(queued)
        watcher: asyncio.Future[None] = asyncio.ensure_future(_disconnected(request))
        try:
            waiting: set[asyncio.Future[Any]] = {job, watcher}
            if client_wait is not None:
                await self._until_started(waiting, queued, endpoint, client_wait, cost_key,
                                          retry_status)
            done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if job not in done:
                job.cancel()
                raise ClientGone
            try:
                return job.result()
            except BoxFileError as exc:
                raise ApiError(422, "invalid_request", str(exc)) from None
            except QueueFull as exc:      # its place went to another client's job
                raise self.overloaded(f"the judge is at capacity: {exc}; try again later",
                                      retry_status) from None
        finally:
            watcher.cancel()

    async def _until_started(self, waiting: set[asyncio.Future[Any]], queued: Future[Any],
                             endpoint: str, client_wait: ClientWait, cost_key: str | None,
                             retry_status: int) -> None:
        """Returns once the job runs or is done (or its client left); raises queue_timeout when
        it is still queued at the latest start its client's wait allows."""
        enqueued = time.monotonic()
        while not queued.running() and not queued.done():
            start_within = self.start_within_s(endpoint, client_wait, cost_key)
            left = enqueued + start_within - time.monotonic()
            if left <= 0 and queued.cancel():     # still queued: its client's wait is up
                self.metrics.rejected.labels("queue_timeout").inc()
                raise ApiError(retry_status, "queue_timeout", "the judge is at capacity: no slot "
                               f"was free within {start_within:.1f} s, and the answer would "
                               "come after the client stopped waiting; try again",
                               {"Retry-After": str(self.retry_after())})
            done, _ = await asyncio.wait(waiting, timeout=max(0.0, min(left, START_RECHECK_S)),
                                         return_when=asyncio.FIRST_COMPLETED)
            if done:
                return

    async def run_detached(self, fn: Callable[[Grader], T], endpoint: str, client: str,
                           busy: Callable[[T], bool] | None = None) -> T:
        """Like run, for work no client waits on (a batch's items, each batch a line)."""
        work = self._resolving(fn, endpoint, busy) if busy is not None else fn
        try:
            return await asyncio.wrap_future(self.submit(work, endpoint, client))
        except QueueFull as exc:
            raise self.overloaded(f"the judge is at capacity: {exc}; try again later") from None


async def _disconnected(request: Request) -> None:
    """Returns when the client has gone: after its body, the next message of a connection is
    its disconnect (or nothing, until the response is sent)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return
