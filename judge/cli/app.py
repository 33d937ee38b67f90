"""The Typer application every command registers on, its global options, and what commands share."""
from __future__ import annotations

import logging
import sys
from pathlib import Path

import typer

from judge import config
from judge.terminal_text import terminal_safe

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  help="A sandboxed judge for competitive-programming code.")


@app.callback()
def options(verbose: bool = typer.Option(
        False, "--verbose", "-v",
        help="Log what the judge does on stderr: compile cache hits, evaluation phases, re-runs, "
             "audit records, and the detail of every judge failure.")) -> None:
    if verbose:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("judge: %(levelname)s %(name)s: %(message)s"))
        logger = logging.getLogger("judge")
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
    from judge.languages import time_factor_overrides
    time_factor_overrides()   # a bad JUDGE_* variable stops every command before it starts


def testlib_dir(option: Path | None) -> str | None:
    """--testlib, else JUDGE_TESTLIB, else None (the judge's own header)."""
    chosen = option or config.current().testlib
    return str(chosen) if chosen else None


def fail(message: str, code: int = 2) -> typer.Exit:
    """Prints one line on stderr and returns the exit to raise."""
    typer.echo(f"judge: {terminal_safe(message)}", err=True)
    return typer.Exit(code)
