"""The bounds on what one request may carry. The body as a whole is bounded before any of it
is parsed (BodyLimit: 413); after parsing, each field against its own limit (code, stdin,
files, tests: 413 naming the field and the limit); malformed content (bad base64, a file name
that leaves the box) is 422."""
from __future__ import annotations

import base64
import binascii
import math
from collections.abc import Iterable, Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from judge.service.errors import ApiError, send_error
from judge.service.metrics import Metrics
from judge.service.settings import Settings, run_timeout_ms
from judge.single_run import BoxFileError, file_path_parts

MAX_COMPILE_TIMEOUT_S = 86_400    # past any compile limit: only keeps the figure an int of ms


def _size(n: int) -> str:
    if n >= 1 << 20:
        return f"{n / (1 << 20):g} MiB"
    if n >= 1 << 10:
        return f"{n / (1 << 10):g} KiB"
    return f"{n} bytes"


class BodyLimit:
    """ASGI middleware: a body longer than `max_bytes` is refused with 413, by its
    Content-Length before anything is read, or as soon as a chunked body passes the bound. The
    body is read whole here (it is bounded) and handed on; after it, the app's receive gets the
    connection's own messages, so a handler can still learn that its client went away.

    The bodies of all requests held at once (read, queued or running) take at most
    `held_max_bytes`, counted as they arrive (a client that declares a large body and sends it
    slowly holds only what it sent): a request that would pass it is answered 503 with
    Retry-After, so the queue holds no more than that whatever its depth."""

    def __init__(self, app: ASGIApp, max_bytes: int, held_max_bytes: int, retry_after_s: int,
                 metrics: Metrics) -> None:
        self.app, self.max_bytes, self.metrics = app, max_bytes, metrics
        self.held_max_bytes, self.retry_after_s = held_max_bytes, retry_after_s
        self.held = 0

    async def _too_many(self, send: Send) -> None:
        self.metrics.rejected.labels("requests_held").inc()
        await send_error(send, 503, "busy", "the server holds as many requests as it may: "
                         "try again", {"Retry-After": str(self.retry_after_s)})

    async def _too_large(self, send: Send) -> None:
        self.metrics.rejected.labels("too_large").inc()
        await send_error(send, 413, "too_large",
                         f"the request body is larger than this server accepts "
                         f"({_size(self.max_bytes)})")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        reserved = [0]
        try:
            await self._bounded(scope, receive, send, reserved)
        finally:
            self.held -= reserved[0]
            self.metrics.held_bytes.labels("requests").set(self.held)

    def _reserve(self, size: int, reserved: list[int]) -> bool:
        if self.held + size > self.held_max_bytes:
            return False
        self.held += size
        reserved[0] += size
        self.metrics.held_bytes.labels("requests").set(self.held)
        return True

    async def _bounded(self, scope: Scope, receive: Receive, send: Send,
                       reserved: list[int]) -> None:
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await send_error(send, 400, "bad_request", "Content-Length is not a number")
                    return
                if declared > self.max_bytes:
                    await self._too_large(send)
                    return
        chunks: list[bytes] = []
        total = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return                      # gone before its request was complete
            body = message.get("body", b"")
            total += len(body)
            if total > self.max_bytes:
                await self._too_large(send)
                return
            if not self._reserve(len(body), reserved):
                await self._too_many(send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        pending: list[Message] = [{"type": "http.request", "body": b"".join(chunks),
                                   "more_body": False}]

        async def replay() -> Message:
            if pending:
                return pending.pop()
            return await receive()

        await self.app(scope, replay, send)


def too_large(message: str) -> ApiError:
    return ApiError(413, "too_large", message)


def invalid(message: str) -> ApiError:
    return ApiError(422, "invalid_request", message)


def check_code(code: str, settings: Settings, field: str = "code") -> None:
    size = len(code.encode())
    if size > settings.max_code_bytes:
        raise too_large(f"{field} is {_size(size)}; this server accepts at most "
                        f"{_size(settings.max_code_bytes)}")


def check_stdin(data: bytes, settings: Settings, field: str = "stdin") -> None:
    if len(data) > settings.max_stdin_bytes:
        raise too_large(f"{field} is {_size(len(data))}; this server accepts at most "
                        f"{_size(settings.max_stdin_bytes)}")


def check_file_count(names: Iterable[str], settings: Settings, field: str) -> list[str]:
    listed = list(names)
    if len(listed) > settings.max_files:
        raise too_large(f"{field} names {len(listed)} files; this server accepts at most "
                        f"{settings.max_files}")
    return listed


def check_names(names: Iterable[str], settings: Settings, field: str) -> list[str]:
    """The names, each a path inside the box (judge.single_run.file_path_parts), else 422."""
    listed = check_file_count(names, settings, field)
    for name in listed:
        try:
            file_path_parts(name)
        except BoxFileError as exc:
            raise invalid(f"{field}: {exc}") from None
    return listed


def decode_files(files: Mapping[str, str | None], settings: Settings,
                 field: str = "files") -> dict[str, bytes]:
    """SandboxFusion's `files`: path -> base64 content (None: left out, as SandboxFusion does)."""
    check_names(files, settings, field)
    decoded: dict[str, bytes] = {}
    total = 0
    for name, content in files.items():
        if content is None:
            continue
        if (len(content) // 4) * 3 > settings.max_files_bytes:   # before decoding it
            raise too_large(f"{field}: {name!r} is larger than this server accepts together "
                            f"({_size(settings.max_files_bytes)})")
        try:
            data = base64.b64decode(content, validate=True)
        except (binascii.Error, ValueError):
            raise invalid(f"{field}: the content of {name!r} is not base64") from None
        total += len(data)
        if total > settings.max_files_bytes:
            raise too_large(f"{field} hold more than this server accepts together "
                            f"({_size(settings.max_files_bytes)})")
        decoded[name] = data
    return decoded


def check_tests(count: int, total_bytes: int, settings: Settings, field: str = "tests") -> None:
    if count > settings.max_tests:
        raise too_large(f"{field}: {count} tests; this server accepts at most {settings.max_tests}")
    if total_bytes > settings.max_tests_bytes:
        raise too_large(f"{field}: the inputs and answers take {_size(total_bytes)}; this server "
                        f"accepts at most {_size(settings.max_tests_bytes)}")


def memory_limit(requested: int | None, settings: Settings, field: str = "memory_limit_MB") -> int:
    """A client's memory limit in MB: none, 0 or negative (SandboxFusion's -1) is the default."""
    if requested is None or requested <= 0:
        return settings.default_memory_mb
    if requested > settings.max_memory_mb:
        raise invalid(f"{field} {requested} is above this server's limit of "
                      f"{settings.max_memory_mb} MB")
    return requested


def timeout_ms(seconds: float | None, default_s: float, settings: Settings, field: str) -> int:
    try:
        return run_timeout_ms(default_s if seconds is None else seconds, settings, field)
    except ValueError as exc:
        raise invalid(str(exc)) from None


def compile_timeout_ms(seconds: float, field: str = "compile_timeout") -> int:
    """A client's compile timeout in ms. No upper bound here: the compiler clamps it to the
    judge's own compile limits (judge.compiler.compile_limits), since SandboxFusion's clients
    send 90 s and more, which a refusal would turn into a lost run."""
    if not math.isfinite(seconds) or seconds <= 0:
        raise invalid(f"{field} must be a positive number of seconds, got {seconds!r}")
    return max(1, round(min(seconds, MAX_COMPILE_TIMEOUT_S) * 1000))
