"""`judge serve`: the judge over HTTP (docs/design/9-service.md §9). SandboxFusion's /run_code and
/submit for its unchanged clients, the native /v1 API, health, readiness and Prometheus metrics;
one warm sandbox slot per core behind a bounded queue.

Modules, one job each, imports pointing down (docs/design/9-service.md §9): app (the FastAPI
application), sandboxfusion and sf_models (SandboxFusion's API), v1 and v1_models (the native
API); batches and gradings (the native API's gradings); runtime (the running service); pool
(slot threads and the queue), limits (request sizes), answers, auth, sending, errors, metrics,
settings (what the server may do); server (uvicorn). What a slot runs is the grade layer's
Grader (judge/grade.py, judge/single_run.py)."""
from judge.service.app import create_app
from judge.service.settings import Settings

__all__ = ["create_app", "Settings"]
