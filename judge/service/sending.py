"""The answers the server holds for its clients, bounded across the server (docs/design.md
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
        start: Message | None = None
        reserved = 0
        dropped = False
        loop = asyncio.get_running_loop()
        deadline = 0.0

        async def timed(message: Message) -> None:
            nonlocal dropped
            if dropped:
                return
            try:
                await asyncio.wait_for(send(message), max(0.0, deadline - loop.time()))
            except TimeoutError:
                dropped = True
                self.metrics.rejected.labels("send_timeout").inc()
                logger.warning("an answer was not taken within %g s: dropped with its "
                               "connection", self.timeout_s)

        async def budgeted(message: Message) -> None:
            nonlocal start, reserved, deadline
            if message["type"] == "http.response.start":
                start = message              # sent with the first part of the body
                return
            if message["type"] != "http.response.body":
                await send(message)
                return
            body: bytes = message.get("body", b"")
            if start is not None:
                if self.held + len(body) > self.max_bytes:
                    start = None
                    dropped_answer = len(body)
                    self.metrics.rejected.labels("answers_held").inc()
                    await send_error(send, 503, "busy", f"the server holds as many answers for "
                                     f"their clients as it may ({self.held} bytes); this one "
                                     f"({dropped_answer} bytes) was not kept: try again",
                                     {"Retry-After": str(self.retry_after_s)})
                    reserved = -1             # the rest of this response is not sent
                    return
                reserved = len(body)
                self.held += reserved
                self.metrics.held_bytes.labels("answers").set(self.held)
                deadline = loop.time() + self.timeout_s
                first, start = start, None
                await timed(first)
            if reserved < 0:
                return
            more = message.get("more_body", False)
            view = memoryview(body)
            while len(view) > CHUNK_BYTES:
                await timed({"type": "http.response.body", "body": bytes(view[:CHUNK_BYTES]),
                             "more_body": True})
                view = view[CHUNK_BYTES:]
            await timed({"type": "http.response.body", "body": bytes(view), "more_body": more})

        try:
            await self.app(scope, receive, budgeted)
        finally:
            if reserved > 0:
                self.held -= reserved
                self.metrics.held_bytes.labels("answers").set(self.held)
