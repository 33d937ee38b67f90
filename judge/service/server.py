"""Running the app: uvicorn on one host and port, SIGTERM and SIGINT draining what is in flight
(uvicorn stops accepting, waits for open requests up to the drain timeout, then the pool finishes
its queue and closes every slot in its own thread)."""
from __future__ import annotations

import logging
import signal
import sys

import uvicorn

from judge.service.app import create_app
from judge.service.settings import Settings


def serve(settings: Settings, log_level: str = "info") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("judge serve: %(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("judge")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO if log_level != "debug" else logging.DEBUG)
    app = create_app(settings)
    config = uvicorn.Config(app, host=settings.host, port=settings.port, log_level=log_level,
                            timeout_graceful_shutdown=int(settings.drain_timeout_s),
                            access_log=log_level == "debug", server_header=False,
                            limit_concurrency=None, backlog=2048,
                            proxy_headers=bool(settings.trusted_proxies),
                            forwarded_allow_ips=list(settings.trusted_proxies) or None)
    # uvicorn drains on SIGTERM and then raises the signal again with the handler it found:
    # this one makes a drained server exit 0, as a service that stopped cleanly should.
    previous = signal.signal(signal.SIGTERM, lambda number, frame: None)
    try:
        uvicorn.Server(config).run()
    finally:
        signal.signal(signal.SIGTERM, previous)
