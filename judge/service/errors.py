"""Every error the service answers is JSON of one shape, `{"error": CODE, "message": TEXT}`
(plus `detail` for a request that does not validate), never an HTML page or a traceback."""
from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Send

from judge.service.metrics import Metrics

logger = logging.getLogger(__name__)


class ErrorResponse(BaseModel):
    error: str           # a stable code: invalid_request, too_large, queue_full, ...
    message: str         # what went wrong, for a person
    detail: list[dict[str, Any]] | None = None


class ApiError(Exception):
    def __init__(self, status_code: int, error: str, message: str,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status_code, self.error, self.message = status_code, error, message
        self.headers = headers or {}


def error_json(error: str, message: str, detail: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"error": error, "message": message}
    if detail is not None:
        body["detail"] = detail
    return body


async def send_error(send: Send, status: int, error: str, message: str,
                     headers: dict[str, str] | None = None) -> None:
    """An error answered from ASGI middleware, before any route runs."""
    body = json.dumps(error_json(error, message)).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
           (b"connection", b"close")]
    raw += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


_STATUS_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
                 405: "method_not_allowed", 413: "too_large", 415: "unsupported_media_type",
                 429: "too_many_requests", 503: "unavailable"}


def _clean(errors: list[Any]) -> list[dict[str, Any]]:
    """pydantic's errors without the offending input (it may be megabytes of code) and with
    only JSON in them."""
    cleaned = []
    for item in errors:
        entry = {"loc": [str(part) for part in item.get("loc", ())], "msg": str(item.get("msg", "")),
                 "type": str(item.get("type", ""))}
        cleaned.append(entry)
    return cleaned


def _summary(errors: list[dict[str, Any]]) -> str:
    parts = []
    for item in errors[:5]:
        loc = ".".join(p for p in item["loc"] if p != "body") or "body"
        parts.append(f"{loc}: {item['msg']}")
    more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
    return "; ".join(parts) + more


def install_handlers(app: FastAPI, metrics: Metrics) -> None:
    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        if exc.status_code in (413, 422):
            metrics.rejected.labels("too_large" if exc.status_code == 413 else "invalid").inc()
        return JSONResponse(error_json(exc.error, exc.message), status_code=exc.status_code,
                            headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        metrics.rejected.labels("invalid").inc()
        errors = _clean(list(exc.errors()))
        message = _summary(errors)
        content_type = request.headers.get("content-type", "")
        if request.method in ("POST", "PUT") and "json" not in content_type:
            message = f"the body must be JSON, sent with Content-Type: application/json ({message})"
        return JSONResponse(error_json("invalid_request", message, errors), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _STATUS_CODES.get(exc.status_code, "error")
        message = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail)
        return JSONResponse(error_json(code, message), status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        logger.error("internal error on %s %s: %r", request.method, request.url.path, exc,
                     exc_info=exc)
        return JSONResponse(error_json("internal", "internal error of the judge server (it is "
                                       "logged on the server)"), status_code=500)
