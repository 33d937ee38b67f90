"""The slot pool: one long-lived worker thread per slot, each owning its slot's resources (the
service's: a Grader with a scratch box, which belongs to the thread that made it), all fed by
one bounded queue that serves its clients in turn (FairQueue).

The event loop never runs a job: it submits a callable and awaits the concurrent Future the
pool returns. A full queue refuses at once (QueueFull: the server answers 503 with
Retry-After) instead of growing, unless another client holds more of it: then that client's
newest job gives up its place (and is answered QueueFull) to the newcomer. A job whose Future
was cancelled before a worker took it (its client went away) is dropped unrun. A job that
breaks its slot's sandboxes (SandboxError: a supervisor died or hung) rebuilds the slot and is
tried once more on the fresh one; a worker thread that dies anyway is replaced, and both count
in judge_serve_slot_restarts_total.

A job may ask to run alone (SlotPool.alone, for the re-run of a BUSY: judge.busy_retry): the
other workers finish what they run, up to ALONE_WAIT_S, and start nothing new until it is done."""
from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from judge import JudgeError
from judge.sandbox import SandboxError
from judge.service.metrics import Metrics

logger = logging.getLogger(__name__)

T = TypeVar("T")
# How long a worker whose slot cannot start waits before trying again, at most.
MAX_BACKOFF_S = 30.0
# How long a job that asked to run alone waits for the other slots' jobs to end, at most: a run
# may last a minute, and a re-run that waited that long would outlive its client.
ALONE_WAIT_S = 10.0


class QueueFull(Exception):
    """Every slot is busy and the queue is full."""


class PoolClosed(Exception):
    """The server is shutting down and takes no new work."""


class SlotUnavailable(JudgeError):
    """The slot's sandboxes cannot start on this host (see `judge doctor`)."""


class JobCosts:
    """How long the jobs of each program took (the mean of its jobs so far), to run a client's
    short jobs before its long ones: an RL trainer sends every test of a sample at once, and
    the tests of a program that timed out on one would otherwise hold up the quick tests of
    the programs behind it until their clients stop waiting. A program never seen is taken to
    be quick. Bounded: the oldest programs are forgotten past `keep`."""

    def __init__(self, keep: int = 16384) -> None:
        self.keep = keep
        self._seen: OrderedDict[str, tuple[float, int]] = OrderedDict()
        self._lock = threading.Lock()

    def observe(self, key: str | None, seconds: float) -> None:
        if key is None:
            return
        with self._lock:
            total, count = self._seen.pop(key, (0.0, 0))
            self._seen[key] = (total + seconds, count + 1)
            while len(self._seen) > self.keep:
                self._seen.popitem(last=False)

    def estimate(self, key: str | None) -> float:
        if key is None:
            return 0.0
        total, count = self._seen.get(key, (0.0, 0))
        return total / count if count else 0.0


@dataclass
class Job(Generic[T]):
    fn: Callable[[Any], T]
    endpoint: str
    client: str = ""      # whose turn it takes in the queue (FairQueue)
    cost_key: str | None = None   # the program it runs, whose past jobs say how long it takes
    future: Future[T] = field(default_factory=Future)
    enqueued: float = field(default_factory=time.monotonic)


class FairQueue:
    """The jobs waiting for a slot: one line per client, the lines served in turn, so a client
    with many jobs waiting delays another's next job by at most one job of its own per slot.
    Bounded: past `limit` jobs, a newcomer takes the place of the newest job of the client
    holding the most places, when that client holds more than the newcomer's; else QueueFull.

    A job is handed to the idle worker of the lowest index: requests one at a time all run on
    the first slot, whose supervisor, caches and CPU are warm, rather than on whichever worker
    the scheduler woke first. Within a client's line the job whose program is expected to be
    quickest goes first (JobCosts; the oldest of equals), which changes when a job runs, never
    its verdict."""

    def __init__(self, limit: int, costs: JobCosts | None = None) -> None:
        self.limit = limit
        self.costs = costs or JobCosts()
        self._lines: dict[str, deque[Job[Any]]] = {}
        self._turns: deque[str] = deque()       # clients with jobs waiting, next first
        self._count = 0
        self._lock = threading.Lock()
        self._idle: dict[int, threading.Condition] = {}   # waiting workers by index

    def qsize(self) -> int:
        return self._count

    def put(self, job: Job[Any]) -> Job[Any] | None:
        """Queues `job`; returns the job it displaced, which the caller answers. QueueFull when
        the queue is full and no client holds more of it than job's."""
        with self._lock:
            displaced = self._make_room(job.client) if self._count >= self.limit else None
            line = self._lines.get(job.client)
            if line is None:
                line = self._lines[job.client] = deque()
                self._turns.append(job.client)
            line.append(job)
            self._count += 1
            if self._idle:
                self._idle.pop(min(self._idle)).notify()
        return displaced

    def _make_room(self, client: str) -> Job[Any]:
        mine = len(self._lines.get(client, ()))
        heaviest = max(self._lines, key=lambda name: len(self._lines[name]), default=None)
        if heaviest is None or len(self._lines[heaviest]) <= mine:
            raise QueueFull(f"{self._count} jobs are waiting")
        line = self._lines[heaviest]
        displaced = line.pop()
        self._count -= 1
        if not line:
            del self._lines[heaviest]
            self._turns.remove(heaviest)
        return displaced

    def get(self, worker: int, timeout: float) -> Job[Any] | None:
        """The next client's oldest job for the worker of index `worker`, waiting up to
        `timeout` seconds for one; None if none."""
        with self._lock:
            if not self._count:
                woken = self._idle[worker] = threading.Condition(self._lock)
                try:
                    woken.wait(timeout)
                finally:
                    self._idle.pop(worker, None)
            return self._next() if self._count else None

    def get_nowait(self) -> Job[Any] | None:
        with self._lock:
            return self._next() if self._count else None

    def _next(self) -> Job[Any]:
        client = self._turns.popleft()
        line = self._lines[client]
        quickest = min(range(len(line)), key=lambda i: (self.costs.estimate(line[i].cost_key), i))
        job = line[quickest]
        del line[quickest]
        self._count -= 1
        if line:
            self._turns.append(client)
        else:
            del self._lines[client]
        return job


class Worker:
    """One slot's thread. `make_slot(index)` builds the slot's resources in this thread."""

    def __init__(self, pool: SlotPool, index: int, generation: int) -> None:
        self.pool, self.index, self.generation = pool, index, generation
        self.slot: Any = None
        self.warm = False
        self.error: str | None = None
        self.busy = False
        self.current: Job[Any] | None = None
        self.thread = threading.Thread(target=self._main, daemon=True,
                                       name=f"judge-serve-slot{index}.{generation}")

    def start(self) -> None:
        self.thread.start()

    # -- the thread -----------------------------------------------------------------------
    def _main(self) -> None:
        _worker.index = self.index
        try:
            self._loop()
        except BaseException as exc:   # the thread itself is failing: replace it
            logger.error("slot %d: worker thread died: %r", self.index, exc, exc_info=True)
            self._close_slot()
            self.pool._replace(self, repr(exc))
            return
        self._close_slot()

    def _loop(self) -> None:
        self._ensure_slot(first=True)
        pool = self.pool
        while True:
            job = pool._queue.get(self.index, timeout=0.2)
            if job is None:
                if pool._stopping.is_set():
                    return
                if self.slot is None:
                    self._ensure_slot()
                continue
            if not job.future.set_running_or_notify_cancel():
                pool.metrics.cancelled.inc()
                continue
            started = time.monotonic()
            pool.metrics.wait_seconds.labels(job.endpoint).observe(started - job.enqueued)
            pool._gate.enter(self.index)
            self.current, self.busy = job, True
            try:
                result = self._attempt(job)
            except Exception as exc:
                job.future.set_exception(exc)
            except BaseException as exc:   # the thread is going down: answer the job first
                job.future.set_exception(JudgeError(f"the slot's worker failed: {exc!r}"))
                raise
            else:
                job.future.set_result(result)
            finally:
                took = time.monotonic() - started
                pool.metrics.run_seconds.labels(job.endpoint).observe(took)
                pool._queue.costs.observe(job.cost_key, took)
                self.current, self.busy = None, False
                pool._gate.leave(self.index)

    def _attempt(self, job: Job[T]) -> T:
        for attempt in (1, 2):
            if self.slot is None and not self._ensure_slot(wait=False):
                raise SlotUnavailable(f"the sandbox cannot start here: {self.error}")
            try:
                return job.fn(self.slot)
            except SandboxError as exc:
                logger.warning("slot %d: sandbox failure (%s); rebuilding the slot", self.index,
                               exc)
                self._restart(str(exc))
                if attempt == 2:
                    raise
            except JudgeError:
                raise           # the request's fault, reported as such; the slot is fine
            except Exception as exc:
                # Not a verdict and not the request's fault: the slot may be in any state.
                logger.error("slot %d: job failed: %r", self.index, exc, exc_info=True)
                self._restart(repr(exc))
                raise
        raise AssertionError("unreachable")

    def _ensure_slot(self, first: bool = False, wait: bool = True) -> bool:
        """Builds and warms the slot; on failure remembers why, waits a little (more after each
        failure) and returns False."""
        if self.slot is not None:
            return True
        try:
            slot = self.pool._make_slot(self.index)
        except Exception as exc:
            return self._failed_start(exc, wait)
        try:
            slot.warm()
        except Exception as exc:
            self._close(slot)
            return self._failed_start(exc, wait)
        self.slot, self.warm, self.error = slot, True, None
        self.pool._backoff[self.index] = 0.0
        if first:
            logger.info("slot %d ready (sandbox slot %d, cpu %d)", self.index, slot.slot, slot.cpu)
        return True

    def _failed_start(self, exc: Exception, wait: bool) -> bool:
        self.warm, self.error = False, str(exc)
        delay = min(MAX_BACKOFF_S, max(0.5, 2 * self.pool._backoff[self.index]))
        self.pool._backoff[self.index] = delay
        logger.error("slot %d cannot start: %s", self.index, exc)
        if wait:
            self.pool._stopping.wait(delay)
        return False

    def _restart(self, reason: str) -> None:
        self.pool.metrics.slot_restarts.inc()
        self.pool.restarts.append((time.time(), self.index, reason))
        self._close_slot()
        self._ensure_slot(wait=False)

    def _close_slot(self) -> None:
        slot, self.slot, self.warm = self.slot, None, False
        if slot is not None:
            self._close(slot)

    def _close(self, slot: Any) -> None:
        try:
            slot.close()
        except Exception:   # a broken slot is closed as far as it goes
            logger.exception("slot %d: closing failed", self.index)


_worker = threading.local()     # the index of the worker whose thread this is


class AloneGate:
    """Which workers are running a job, and the one (if any) running alone. A worker enters
    before its job and leaves after it; entering waits while another runs alone. Going alone
    first leaves the running set (two workers that go alone at once do not wait for each
    other), then waits its turn, then waits for the others' jobs to end."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._running: set[int] = set()
        self._alone: int | None = None

    def enter(self, index: int) -> None:
        with self._changed:
            self._changed.wait_for(lambda: self._alone in (None, index))
            self._running.add(index)

    def leave(self, index: int) -> None:
        with self._changed:
            self._running.discard(index)
            self._changed.notify_all()

    @contextmanager
    def alone(self, index: int, wait_s: float) -> Iterator[None]:
        with self._changed:
            self._running.discard(index)
            self._changed.notify_all()
            self._changed.wait_for(lambda: self._alone is None)
            self._alone = index
            self._changed.wait_for(lambda: not self._running, timeout=wait_s)
            self._running.add(index)
        try:
            yield
        finally:
            with self._changed:
                self._alone = None
                self._changed.notify_all()


class SlotPool:
    def __init__(self, slots: int, queue_limit: int, make_slot: Callable[[int], Any],
                 metrics: Metrics) -> None:
        self.size = slots
        self.metrics = metrics
        self._make_slot = make_slot
        self._queue = FairQueue(queue_limit)
        self.queue_limit = queue_limit
        self._stopping = threading.Event()
        self._closing = False
        self._lock = threading.Lock()
        self._backoff = [0.0] * slots
        self._gate = AloneGate()
        self.restarts: list[tuple[float, int, str]] = []   # (time, slot index, reason)
        self._workers = [Worker(self, index, 0) for index in range(slots)]
        metrics.bind_pool(self.queue_length, self.busy, slots)

    def start(self) -> None:
        for worker in self._workers:
            worker.start()

    # -- state ----------------------------------------------------------------------------
    def queue_length(self) -> int:
        return self._queue.qsize()

    def expected_job_s(self, cost_key: str | None) -> float:
        """How long a job of this program took so far (JobCosts; 0 for one never seen)."""
        return self._queue.costs.estimate(cost_key)

    def busy(self) -> int:
        return sum(worker.busy for worker in self._workers)

    def warm_slots(self) -> int:
        return sum(worker.warm for worker in self._workers)

    @property
    def closing(self) -> bool:
        return self._closing

    def status(self) -> list[dict[str, Any]]:
        return [{"index": w.index, "warm": w.warm, "busy": w.busy, "error": w.error,
                 "restarts": sum(1 for _, index, _ in self.restarts if index == w.index)}
                for w in self._workers]

    # -- work -----------------------------------------------------------------------------
    def submit(self, fn: Callable[[Any], T], endpoint: str, client: str = "",
               cost_key: str | None = None) -> Future[T]:
        """Queues fn(slot) for the next free slot, in `client`'s line (`cost_key`: the
        program it runs, FairQueue's order within the line); raises QueueFull or PoolClosed at
        once. A job this one displaced is answered QueueFull."""
        if self._closing:
            raise PoolClosed("the server is shutting down")
        job: Job[T] = Job(fn, endpoint, client, cost_key)
        try:
            displaced = self._queue.put(job)
        except QueueFull:
            raise QueueFull(f"all {self.size} slots are busy and {self.queue_limit} jobs are "
                            "waiting") from None
        if displaced is not None and displaced.future.set_running_or_notify_cancel():
            displaced.future.set_exception(QueueFull(
                f"all {self.size} slots are busy and {self.queue_limit} jobs are waiting, the "
                "most of them this client's: its newest gave its place to another client's"))
        return job.future

    @contextmanager
    def alone(self) -> Iterator[None]:
        """Inside a job: the rest of it runs while no other slot runs a job (waiting up to
        ALONE_WAIT_S for theirs to end)."""
        with self._gate.alone(_worker.index, ALONE_WAIT_S):
            yield

    @property
    def stopping(self) -> threading.Event:
        return self._stopping

    def _replace(self, dead: Worker, reason: str) -> None:
        """A worker thread died: a new one (with a new slot) takes its place."""
        self.metrics.slot_restarts.inc()
        self.restarts.append((time.time(), dead.index, f"worker thread died: {reason}"))
        with self._lock:
            if self._stopping.is_set():
                return
            fresh = Worker(self, dead.index, dead.generation + 1)
            self._workers[dead.index] = fresh
        fresh.start()

    def close(self, timeout: float) -> None:
        """Takes no new work, lets the workers finish what is queued and running (up to
        `timeout` seconds; what is still queued then is cancelled), and ends the threads, each
        closing its own slot."""
        self._closing = True
        deadline = time.monotonic() + timeout
        while (self._queue.qsize() or self.busy()) and time.monotonic() < deadline:
            time.sleep(0.05)
        while (job := self._queue.get_nowait()) is not None:
            job.future.cancel()
        self._stopping.set()
        for worker in list(self._workers):
            worker.thread.join(max(1.0, deadline - time.monotonic()))
