"""The connections `judge serve` holds, bounded before any request is read or authenticated:
each machine (runtime.peer_key) holds at most `max_connections_per_peer` of them and all
together at most `max_connections`; a connection must finish a request's headers within
`header_timeout_s` of opening or of starting the request, and its body within `body_timeout_s`
of the headers. uvicorn itself closes only a keep-alive connection idle after an answer, so a
connection that never finishes its headers was held for ever (20,100 of them took every
descriptor the server had, with no token needed). Refusals are JSON, as every error here."""
from __future__ import annotations

import asyncio
import json
from collections import Counter

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from judge.service.metrics import Metrics
from judge.service.runtime import peer_key
from judge.service.settings import Settings


class ConnectionCount:
    """The server's open connections, per machine."""

    def __init__(self, per_peer: int, total: int) -> None:
        self.per_peer, self.total = per_peer, total
        self.held: Counter[str] = Counter()

    def admit(self, peer: str) -> str | None:
        """Counts a new connection of `peer`; or why it is refused (then not counted)."""
        if sum(self.held.values()) >= self.total:
            return f"the server holds {self.total} connections, as many as it may"
        if self.held[peer] >= self.per_peer:
            return f"this client holds {self.per_peer} connections, as many as one may"
        self.held[peer] += 1
        return None

    def release(self, peer: str) -> None:
        self.held[peer] -= 1
        if self.held[peer] <= 0:
            del self.held[peer]


def _refusal(status: int, reason: bytes, error: str, message: str,
             retry_after_s: int | None = None) -> bytes:
    body = json.dumps({"error": error, "message": message}).encode()
    head = [b"HTTP/1.1 %d %s" % (status, reason), b"content-type: application/json",
            b"content-length: %d" % len(body), b"connection: close"]
    if retry_after_s is not None:
        head.append(b"retry-after: %d" % retry_after_s)
    return b"\r\n".join(head) + b"\r\n\r\n" + body


def guarded_protocol(settings: Settings, metrics: Metrics) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol with the bounds above, for uvicorn.Config(http=...)."""
    count = ConnectionCount(settings.max_connections_per_peer, settings.max_connections)

    class GuardedProtocol(HttpToolsProtocol):
        peer: str | None = None
        deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            peer = peer_key(self.client[0]) if self.client else ""
            refused = count.admit(peer)
            if refused is not None:
                metrics.rejected.labels("connections").inc()
                transport.write(_refusal(503, b"Service Unavailable", "too_many_connections",
                                         f"{refused}: close one and try again",
                                         settings.retry_after_s))
                transport.close()
                return
            self.peer = peer
            self._arm(settings.header_timeout_s, "its request's headers")

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self.peer is not None:
                count.release(self.peer)
                self.peer = None
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self.deadline is None:
                self._arm(settings.header_timeout_s, "its request's headers")

        def on_headers_complete(self) -> None:
            self._disarm()
            self._arm(settings.body_timeout_s, "its request's body")
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def _arm(self, seconds: float, what: str) -> None:
            self.deadline = self.loop.call_later(seconds, self._too_slow, seconds, what)

        def _disarm(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def _too_slow(self, seconds: float, what: str) -> None:
            self.deadline = None
            if self.transport.is_closing():
                return
            metrics.rejected.labels("slow_client").inc()
            if self.cycle is None or not self.cycle.response_started:
                self.transport.write(_refusal(408, b"Request Timeout", "request_timeout",
                                              f"the client did not send {what} within "
                                              f"{seconds:g} s"))
            self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self.peer is not None:       # a refused connection reads nothing
                super().data_received(data)

    return GuardedProtocol


__all__ = ["ConnectionCount", "guarded_protocol"]
