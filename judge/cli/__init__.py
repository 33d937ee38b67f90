"""The `judge` command line: thin wrappers over the library, one module per command, each
registered on the application of judge/cli/app.py."""
from __future__ import annotations

import os
import sys

import typer

from judge import JudgeError

# Commands whose process ends without the interpreter's teardown once they are done: `judge
# exec` holds nothing that needs it (its slot cleans up after itself), and tearing down what the
# CLI imported (Typer's pydantic schemas above all) took longer than the run itself.
ENDS_AT_ONCE = {"exec"}


def main() -> None:
    from judge.cli.app import app
    from judge.cli.commands import register
    args = sys.argv[1:]
    command = register(args)
    if "eval" in args:
        from judge.cli.eval_cmd import optional_ray_value
        args = optional_ray_value(args)
    try:
        app(args=args)
    except JudgeError as exc:
        typer.echo(f"judge: {exc}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        typer.echo("judge: interrupted", err=True)
        sys.exit(130)
    except SystemExit as done:
        if command in ENDS_AT_ONCE and (done.code is None or isinstance(done.code, int)):
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(done.code or 0)
        raise
