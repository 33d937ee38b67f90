"""The service's Prometheus metrics, in a registry of its own (one per app: two servers in one
process, as in the tests, do not share counters)."""
from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

# Seconds, from a trivial run (a few ms) to a long submission.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300)


class Metrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.queue_length = Gauge("judge_serve_queue_length", "Jobs waiting for a slot.",
                                  registry=r)
        self.slots_busy = Gauge("judge_serve_slots_busy", "Slots running a job.", registry=r)
        self.slots = Gauge("judge_serve_slots", "Slots of this server.", registry=r)
        self.runs = Counter("judge_serve_runs", "Finished jobs by endpoint and status (the "
                            "judge's status of a run or verdict of a submission).",
                            ["endpoint", "status"], registry=r)
        self.run_seconds = Histogram("judge_serve_run_seconds", "Time a job held its slot.",
                                     ["endpoint"], buckets=LATENCY_BUCKETS, registry=r)
        self.wait_seconds = Histogram("judge_serve_queue_wait_seconds", "Time a job waited for "
                                      "a slot.", ["endpoint"], buckets=LATENCY_BUCKETS, registry=r)
        self.rejected = Counter("judge_serve_rejected", "Requests refused before running, by "
                                "reason (queue_full, queue_timeout: waited past its client's "
                                "time, too_large, invalid, unauthorized, draining, "
                                "requests_held, answers_held, send_timeout: an answer dropped "
                                "after its job ran, connections: past a machine's or the "
                                "server's share, slow_client: a request's headers or body "
                                "too slow).", ["reason"], registry=r)
        self.cancelled = Counter("judge_serve_cancelled", "Queued jobs dropped because their "
                                 "client went away.", registry=r)
        self.held_bytes = Gauge("judge_serve_held_bytes", "Bytes held for clients, by kind: "
                                "request bodies (being read, queued or running) and answers "
                                "(being sent).", ["kind"], registry=r)
        self.busy_reruns = Counter("judge_serve_busy_reruns", "Re-runs of work the machine "
                                   "starved of CPU (BUSY), by endpoint (judge.busy_retry).",
                                   ["endpoint"], registry=r)
        self.slot_restarts = Counter("judge_serve_slot_restarts", "Slots rebuilt after a "
                                     "failure of their sandboxes or worker thread.", registry=r)

    def bind_pool(self, queue_length: Callable[[], int], busy: Callable[[], int], slots: int) -> None:
        self.queue_length.set_function(queue_length)
        self.slots_busy.set_function(busy)
        self.slots.set(slots)

    def render(self) -> bytes:
        return generate_latest(self.registry)
