"""Batches of gradings (POST /v1/batches): kept in memory with their results for polling, fed
to the slot pool by one task each, never more at a time than the pool has slots, so a batch
never fills the queue that single requests share. At most `max_batches` are kept; a new one
evicts the oldest finished one, and when none is finished the server answers 503."""
from __future__ import annotations

import asyncio
import secrets
import time
from collections import Counter
from typing import Literal

from judge import JudgeError
from judge.busy_retry import grading_is_busy
from judge.service.errors import ApiError, ErrorResponse
from judge.service.gradings import Grading, grade_response, judge_failure
from judge.service.runtime import Service
from judge.service.v1_models import BatchItem, BatchStatus, Excluded, ExcludedItem

# The texts (compile log, checker messages) an item of a batch keeps for polling, encoded.
BATCH_ITEM_TEXT_BYTES = 64 << 10


class Batch:
    def __init__(self, service: Service, gradings: list[Grading], client: str) -> None:
        self.id = secrets.token_urlsafe(12)
        # Its items wait in its client's line of the queue, beside that client's own requests:
        # a client's batches are that client, never new clients of their own.
        self.client = client
        self.created = time.time()
        self.service = service
        self.gradings = gradings
        self.items = [BatchItem(index=i, status="queued") for i in range(len(gradings))]
        self.cancelled = False
        self.task: asyncio.Task[None] | None = None

    @property
    def finished(self) -> int:
        return sum(item.status in ("done", "error", "cancelled") for item in self.items)

    @property
    def done(self) -> bool:
        return self.finished == len(self.items)

    def status(self) -> BatchStatus:
        verdicts = Counter(item.result.verdict for item in self.items if item.result is not None)
        state: Literal["running", "done", "cancelled"] = (
            "cancelled" if self.cancelled else ("done" if self.done else "running"))
        excluded = [_excluded(item) for item in self.items
                    if item.status == "error" or (item.result and item.result.judge_failure)]
        return BatchStatus(id=self.id, status=state, total=len(self.items),
                           finished=self.finished, verdicts=dict(verdicts),
                           complete=state == "done" and not excluded,
                           excluded=Excluded(count=len(excluded), items=excluded,
                                             by_verdict=dict(sorted(Counter(
                                                 e.verdict for e in excluded).items()))),
                           items=[item.model_copy() for item in self.items])

    def cancel(self) -> None:
        self.cancelled = True
        for item in self.items:
            if item.status == "queued":
                item.status = "cancelled"

    async def drive(self) -> None:
        lanes = asyncio.Semaphore(self.service.settings.slots)

        async def one(index: int, grading: Grading) -> None:
            async with lanes:
                await self._grade(self.items[index], grading)

        await asyncio.gather(*(one(i, g) for i, g in enumerate(self.gradings)))

    async def _grade(self, item: BatchItem, grading: Grading) -> None:
        """Grades one item, waiting out a full queue (the batch's items never take its place
        from single requests)."""
        if item.status != "queued":
            return
        item.status = "running"
        service = self.service
        while True:
            try:
                result = await service.run_detached(grading.job(), "batch", self.client,
                                                    busy=grading_is_busy)
            except ApiError as exc:
                if exc.error == "queue_full" and not self.cancelled:
                    await asyncio.sleep(service.settings.retry_after_s)
                    continue
                item.status, item.error = "error", ErrorResponse(error=exc.error,
                                                                 message=exc.message)
                return
            except JudgeError as exc:
                failure = judge_failure(exc, service.settings.retry_after_s)
                item.status = "error"
                item.error = ErrorResponse(error=failure.error, message=failure.message)
                return
            break
        service.metrics.runs.labels("batch", str(result.verdict)).inc()
        item.result, item.status = grade_response(result, BATCH_ITEM_TEXT_BYTES), "done"


def _excluded(item: BatchItem) -> ExcludedItem:
    """An item with no verdict the metrics may count: a judge failure, or an error."""
    result = item.result
    if result is not None:
        last = result.tests[-1].checker_message if result.tests else result.compile.log
        return ExcludedItem(index=item.index, verdict=result.verdict,
                            reason=" ".join(last.split())[:300],
                            exclusion_evidence=result.exclusion_evidence)
    assert item.error is not None
    return ExcludedItem(index=item.index, verdict=item.error.error, reason=item.error.message[:300])


class Batches:
    def __init__(self, service: Service) -> None:
        self.service = service
        self._batches: dict[str, Batch] = {}

    def create(self, gradings: list[Grading], client: str) -> Batch:
        limit = self.service.settings.max_batches
        if len(self._batches) >= limit:
            finished = sorted((b for b in self._batches.values() if b.done),
                              key=lambda b: b.created)
            if not finished:
                raise self.service.overloaded(f"{limit} batches are running; try again later")
            del self._batches[finished[0].id]
        batch = Batch(self.service, gradings, client)
        self._batches[batch.id] = batch
        batch.task = asyncio.get_running_loop().create_task(batch.drive())
        return batch

    def get(self, batch_id: str) -> Batch:
        try:
            return self._batches[batch_id]
        except KeyError:
            raise ApiError(404, "unknown_batch", f"no batch {batch_id!r} on this server (batches "
                           "live in memory, the oldest finished ones are dropped)") from None

    async def close(self) -> None:
        for batch in self._batches.values():
            batch.cancel()
        tasks = [b.task for b in self._batches.values() if b.task is not None]
        await asyncio.gather(*tasks, return_exceptions=True)
