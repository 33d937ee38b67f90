"""The answers the server holds for its clients, bounded across the server (docs/design/9-service.md
§9.1). An answer is built whole (a JSON body of at most Settings.answer_limit_bytes) and then
held until its client has taken it; a client that never reads would keep it for ever. Here:

- all answers held at once take at most `max_bytes`; one that would pass it is answered 503
  with Retry-After instead, so clients that do not read cannot make the server hold more;
- an answer is written in chunks, each awaited, so that the connection's buffer stays small
  (uvicorn waits while its transport is over its high-water mark), and an answer not taken
  whole within `timeout_s` is dropped with its connection."""
from __future__ import annotations

import asyncio
import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from judge.service.errors import send_error
from judge.service.metrics import Metrics

logger = logging.getLogger(__name__)

CHUNK_BYTES = 64 << 10


class HeldAnswers:
    """ASGI middleware: holds back each response's start until its body is known, reserves
    the body's size from the server's budget (or answers 503), sends it in chunks within the
    send timeout, and gives the reservation back when the response is done."""

    def __init__(self, app: ASGIApp, max_bytes: int, timeout_s: float, retry_after_s: int,
                 metrics: Metrics) -> None:
        self.app, self.max_bytes, self.timeout_s = app, max_bytes, timeout_s
        self.retry_after_s, self.metrics = retry_after_s, metrics
        self.held = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        answer = _Answer(self, send)
        try:
            await self.app(scope, receive, answer.budgeted)
        finally:
            if answer.reserved > 0:
                self.held -= answer.reserved
                self.metrics.held_bytes.labels("answers").set(self.held)


class _Answer:
    """One response through HeldAnswers: its start held back, its body reserved (or refused),
    then sent in chunks before its deadline."""

    def __init__(self, holder: HeldAnswers, send: Send) -> None:
        self.holder, self.send = holder, send
        self.start: Message | None = None
        self.reserved = 0                 # -1: refused, the rest of this response is not sent
        self.dropped = False
        self.loop = asyncio.get_running_loop()
        self.deadline = 0.0

    async def timed(self, message: Message) -> None:
        if self.dropped:
            return
        try:
            async with asyncio.timeout_at(self.deadline):   # no task of its own, as wait_for makes
                await self.send(message)
        except TimeoutError:
            self.dropped = True
            self.holder.metrics.rejected.labels("send_timeout").inc()
            logger.warning("an answer was not taken within %g s: dropped with its "
                           "connection", self.holder.timeout_s)

    async def budgeted(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.start = message              # sent with the first part of the body
            return
        if message["type"] != "http.response.body":
            await self.send(message)
            return
        body: bytes = message.get("body", b"")
        if self.start is not None and not await self._reserve(len(body)):
            return
        if self.reserved < 0:
            return
        more = message.get("more_body", False)
        view = memoryview(body)
        while len(view) > CHUNK_BYTES:
            await self.timed({"type": "http.response.body", "body": bytes(view[:CHUNK_BYTES]),
                              "more_body": True})
            view = view[CHUNK_BYTES:]
        await self.timed({"type": "http.response.body", "body": bytes(view), "more_body": more})

    async def _reserve(self, size: int) -> bool:
        """Reserves the answer's size and sends its start; past the budget, answers 503."""
        holder = self.holder
        if holder.held + size > holder.max_bytes:
            self.start = None
            holder.metrics.rejected.labels("answers_held").inc()
            await send_error(self.send, 503, "busy", f"the server holds as many answers for "
                             f"their clients as it may ({holder.held} bytes); this one "
                             f"({size} bytes) was not kept: try again",
                             {"Retry-After": str(holder.retry_after_s)})
            self.reserved = -1
            return False
        self.reserved = size
        holder.held += size
        holder.metrics.held_bytes.labels("answers").set(holder.held)
        self.deadline = self.loop.time() + holder.timeout_s
        first, self.start = self.start, None
        assert first is not None
        await self.timed(first)
        return True
