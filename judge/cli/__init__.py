"""The `judge` command line: thin wrappers over the library, one module per command, each
registered on the application of judge/cli/app.py."""
from __future__ import annotations

import sys

import typer

from judge import JudgeError


def main() -> None:
    from judge.cli.app import app
    from judge.cli.commands import register
    args = sys.argv[1:]
    register(args)
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
