"""The FastAPI application of `judge serve`: the SandboxFusion endpoints, the native /v1 API,
health, readiness and metrics, behind the token check and the body-size bound."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse

from judge import __version__
from judge.service import sandboxfusion, v1
from judge.service.auth import BearerAuth
from judge.service.batches import Batches
from judge.service.errors import install_handlers
from judge.service.limits import BodyLimit
from judge.service.runtime import ClientGone, Service
from judge.service.sending import HeldAnswers
from judge.service.settings import Settings
from judge.service.v1_models import Health, Readiness, SlotState

logger = logging.getLogger(__name__)

DESCRIPTION = """\
A sandboxed judge over HTTP. `POST /run_code` and `POST /submit` are SandboxFusion's (its
`sandbox-fusion` client works unchanged); `/v1/...` is the judge's own API: a whole submission
graded in one call, a command run under limits, batches. With a token file, every endpoint but
`/healthz` and `/readyz` needs `Authorization: Bearer TOKEN` (or the token as the password of
Basic authentication). Every error is JSON: `{"error": CODE, "message": TEXT}`."""


def create_app(settings: Settings, service: Service | None = None) -> FastAPI:
    service = service or Service(settings)
    batches = Batches(service)
    app = FastAPI(title="judge serve", version=__version__, description=DESCRIPTION,
                  lifespan=_lifespan(service, batches))
    app.state.service, app.state.batches = service, batches
    install_handlers(app, service.metrics)
    app.add_exception_handler(ClientGone, _client_gone)
    app.include_router(sandboxfusion.router)
    app.include_router(v1.router)
    app.include_router(_health_router(service))
    app.openapi = _openapi(app, settings)  # type: ignore[method-assign]
    _add_middleware(app, settings, service)
    return app


def _lifespan(service: Service, batches: Batches) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """Starts the slots and loads --dataset; on shutdown, drains: batches cancelled, the pool
    finishing what it runs and holds."""
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service.start()
        loading = asyncio.create_task(service.load_dataset())
        try:
            yield
        finally:
            service.draining = True
            loading.cancel()
            await batches.close()
            await asyncio.to_thread(service.close)
            logger.info("judge serve: drained and closed")
    return lifespan


async def _client_gone(request: Request, exc: Exception) -> Response:
    return Response(status_code=499)     # nobody reads it


def _health_router(service: Service) -> APIRouter:
    router = APIRouter(tags=["health"])

    @router.get("/healthz", response_model=Health,
                summary="Liveness: the process answers (no token needed)")
    async def healthz() -> Health:
        return Health(status="ok")

    @router.get("/readyz", response_model=Readiness,
                responses={503: {"model": Readiness, "description": "not ready"}},
                summary="Readiness: a warm slot, not draining (no token needed)")
    async def readyz() -> JSONResponse:
        pool = service.pool
        problems = ("loading" if not service.problems_ready
                    else service.problems_error or "ready")
        ready = pool.warm_slots() > 0 and not service.draining and service.problems_ready
        body = Readiness(ready=ready, draining=service.draining,
                         slots=[SlotState(**state) for state in pool.status()],
                         queue_length=pool.queue_length(), queue_limit=pool.queue_limit,
                         problems=problems)
        return JSONResponse(body.model_dump(), status_code=200 if ready else 503)

    @router.get("/metrics", response_class=Response,
                summary="Prometheus metrics: queue length, runs by status, latency histograms")
    async def metrics() -> Response:
        return Response(service.metrics.render(), media_type=service.metrics.content_type)

    return router


def _openapi(app: FastAPI, settings: Settings) -> Callable[[], dict[str, Any]]:
    """The schema, with the token's security schemes when the server has tokens."""
    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = get_openapi(title=app.title, version=app.version, description=app.description,
                             routes=app.routes)
        if settings.tokens:
            schema.setdefault("components", {})["securitySchemes"] = {
                "bearer": {"type": "http", "scheme": "bearer"},
                "basic": {"type": "http", "scheme": "basic",
                          "description": "any user name, the token as the password"}}
            schema["security"] = [{"bearer": []}, {"basic": []}]
        app.openapi_schema = schema
        return schema
    return openapi


def _add_middleware(app: FastAPI, settings: Settings, service: Service) -> None:
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes,
                       held_max_bytes=settings.max_requests_bytes,
                       retry_after_s=settings.retry_after_s, metrics=service.metrics)
    if settings.tokens:
        app.add_middleware(BearerAuth, tokens=settings.tokens, metrics=service.metrics)
    # Outermost: every answer, errors included, is within the server's answer budget.
    app.add_middleware(HeldAnswers, max_bytes=settings.max_answers_bytes,
                       timeout_s=settings.send_timeout_s, retry_after_s=settings.retry_after_s,
                       metrics=service.metrics)
