"""Bearer-token authentication of every endpoint but the health checks.

A token is accepted as `Authorization: Bearer TOKEN`, or as the password of HTTP Basic
authentication (any user name): SandboxFusion's client sends no headers of its own, but
`requests` and `aiohttp` turn credentials in the URL (`http://judge:TOKEN@host:8080`) into
Basic authentication, so an unchanged client can reach a server started with --token-file."""
from __future__ import annotations

import base64
import binascii
import hmac

from starlette.types import ASGIApp, Receive, Scope, Send

from judge.service.errors import send_error
from judge.service.metrics import Metrics

OPEN_PATHS = frozenset({"/healthz", "/readyz"})


def presented_token(header: str) -> str | None:
    scheme, _, value = header.strip().partition(" ")
    value = value.strip()
    if scheme.lower() == "bearer":
        return value or None
    if scheme.lower() == "basic":
        try:
            decoded = base64.b64decode(value, validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            return None
        _, sep, password = decoded.partition(":")
        return password if sep else None
    return None


class BearerAuth:
    """ASGI middleware: without a valid token, 401 before the request's body is read."""

    def __init__(self, app: ASGIApp, tokens: tuple[str, ...], metrics: Metrics) -> None:
        self.app = app
        self.tokens = tuple(token.encode() for token in tokens)
        self.metrics = metrics

    def _valid(self, scope: Scope) -> bool:
        for name, value in scope.get("headers", ()):
            if name == b"authorization":
                token = presented_token(value.decode("latin-1"))
                if token is None:
                    return False
                # Compared with every token, each in constant time.
                matches = [hmac.compare_digest(token.encode(), known) for known in self.tokens]
                return any(matches)
        return False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in OPEN_PATHS or self._valid(scope):
            await self.app(scope, receive, send)
            return
        self.metrics.rejected.labels("unauthorized").inc()
        await send_error(send, 401, "unauthorized",
                         "a valid token is required: Authorization: Bearer TOKEN (or the token "
                         "as the password of Basic authentication)",
                         {"WWW-Authenticate": 'Bearer realm="judge"'})
