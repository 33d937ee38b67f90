"""Running the app: uvicorn on one host and port, SIGTERM and SIGINT draining what is in flight
(uvicorn stops accepting, waits for open requests up to the drain timeout, then the pool finishes
its queue and closes every slot in its own thread)."""
from __future__ import annotations

import logging
import resource
import signal
import sys

import uvicorn

from judge.service.app import create_app
from judge.service.connections import guarded_protocol
from judge.service.settings import Settings

# Descriptors the server needs beside its connections: the slots' sockets, pipes and memfds,
# the log, the interpreter's own.
DESCRIPTORS_BESIDE_CONNECTIONS = 256


def _descriptors_for(connections: int) -> int:
    """Raises the soft limit on open files toward the hard one so the server can hold its
    connections (each is a descriptor, beside the slots' own); returns how many it can hold."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + DESCRIPTORS_BESIDE_CONNECTIONS
    if soft != resource.RLIM_INFINITY and soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return connections if soft == resource.RLIM_INFINITY else min(
        connections, max(1, soft - DESCRIPTORS_BESIDE_CONNECTIONS))


def serve(settings: Settings, log_level: str = "info") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("judge serve: %(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("judge")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO if log_level != "debug" else logging.DEBUG)
    held = _descriptors_for(settings.max_connections)
    if held < settings.max_connections:
        logger.warning("holding at most %d connections, not %d: the limit on open files is "
                       "lower", held, settings.max_connections)
        settings = settings.model_copy(update={"max_connections": held})
    app = create_app(settings)
    metrics = app.state.service.metrics
    config = uvicorn.Config(app, host=settings.host, port=settings.port, log_level=log_level,
                            http=guarded_protocol(settings, metrics),
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
