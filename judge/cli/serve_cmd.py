"""`judge serve`: the judge as an HTTP service (SandboxFusion-compatible, and /v1)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from judge import config
from judge.cli.app import app, fail, testlib_dir
from judge.cli.problems_cmd import DATASET_HELP

if TYPE_CHECKING:
    from judge.service.settings import Settings


@app.command("serve")
def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0: every "
                             "interface; then use --token-file)."),
    port: int | None = typer.Option(None, "--port", help="TCP port (default $JUDGE_SERVE_PORT, "
                                    "else 8080)."),
    slots: int | None = typer.Option(None, "--slots", help="Warm sandbox slots, one job each at a "
                                     "time (default: one per usable core)."),
    token_file: Path | None = typer.Option(None, "--token-file", help="Bearer tokens, one a line: "
                                           "every endpoint but /healthz and /readyz needs one."),
    dataset: str | None = typer.Option(None, "--dataset", "-d", help="Problems for /v1/grade "
                                       "and /submit by id, beside the embedded pack. " + DATASET_HELP),
    slot_base: int | None = typer.Option(None, "--slot-base", help="First sandbox slot number, "
                                         "0-32767 (uid 200000+N as root; default: the "
                                         "service's own range, 9216 and up)."),
    queue_size: int | None = typer.Option(None, "--queue-size", help="Jobs waiting for a slot "
                                          "before a retryable refusal (default 1024 per slot, "
                                          "at least 4096)."),
    max_body_mb: int | None = typer.Option(None, "--max-body-mb", help="Largest request body."),
    max_requests_mb: int | None = typer.Option(None, "--max-requests-mb", help="Request bodies "
                                               "held at once, all together, before 503 "
                                               "(default 256)."),
    max_answers_mb: int | None = typer.Option(None, "--max-answers-mb", help="Answers held for "
                                              "their clients at once, all together, before 503 "
                                              "(default 256)."),
    trust_proxy: list[str] = typer.Option([], "--trust-proxy", help="A proxy (address or "
                                          "network) whose X-Forwarded-For names the client; "
                                          "repeatable. Default: none, every client is its "
                                          "peer's address."),
    busy_reruns: int | None = typer.Option(None, "--busy-reruns", help="Re-runs of work the "
                                           "machine starved of CPU (BUSY) before it is answered "
                                           "as a judge failure (default 3)."),
    testlib: Path | None = typer.Option(None, "--testlib",
                                        help="A testlib checkout for custom checkers (default: "
                                        "$JUDGE_TESTLIB, else the judge's own testlib.h)."),
    log_level: str = typer.Option("info", "--log-level", help="uvicorn's: warning, info, debug."),
) -> None:
    """Serve the judge over HTTP: SandboxFusion's /run_code and /submit, the native /v1 API,
    /healthz, /readyz and /metrics."""
    from judge.service.server import serve
    from judge.service.settings import MiB
    settings = _settings(
        {"host": host, "port": port if port is not None else config.current().serve_port,
         "dataset": dataset, "testlib": testlib_dir(testlib), "slots": slots,
         "slot_base": slot_base, "queue_size": queue_size, "busy_reruns": busy_reruns,
         "max_body_bytes": max_body_mb and max_body_mb * MiB,
         "max_requests_bytes": max_requests_mb and max_requests_mb * MiB,
         "max_answers_bytes": max_answers_mb and max_answers_mb * MiB,
         "trusted_proxies": tuple(trust_proxy) or None}, token_file)
    if host not in ("127.0.0.1", "localhost", "::1") and not settings.tokens:
        typer.echo(f"judge: warning: listening on {host} without --token-file: anyone who can "
                   "reach this port can run code here", err=True)
    serve(settings, log_level=log_level)


def _settings(given: dict[str, object], token_file: Path | None) -> Settings:
    """The service's settings from the options given (None: the setting's default)."""
    from pydantic import ValidationError

    from judge.service.settings import Settings, read_tokens
    options = {name: value for name, value in given.items() if value is not None}
    if token_file is not None:
        options["tokens"] = read_tokens(token_file)
    try:
        return Settings.model_validate(options)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise fail(f"bad settings: {problems}") from None
