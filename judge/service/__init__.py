"""`judge serve`: the judge over HTTP (docs/design.md §9). SandboxFusion's /run_code and
/submit for its unchanged clients, the native /v1 API, health, readiness and Prometheus metrics;
one warm sandbox slot per core behind a bounded queue.

Modules, one job each: settings (what the server may do), limits (request sizes), pool (slot
threads and the queue), sf_models and sandboxfusion (SandboxFusion's API), v1_models, v1 and
batches (the native API), auth, metrics, errors, runtime (the running service; its slots are
the grade layer's Graders), app (the FastAPI application), server (uvicorn)."""
from judge.service.app import create_app
from judge.service.settings import Settings

__all__ = ["create_app", "Settings"]
