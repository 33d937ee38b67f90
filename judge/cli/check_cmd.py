"""`judge check NAME INPUT OUTPUT ANSWER`: a testlib checker binary, run in-process.

Prints testlib's message on stderr ("ok 3 numbers") and exits with testlib's code: 0 OK, 1 WA,
2 PE, 3 FAIL, 7 points. A file that cannot be read is a FAIL (exit 3) with one line on stderr.
"""
from __future__ import annotations

import sys
from pathlib import Path

import typer

from judge.cli.app import app, fail


@app.command("check")
def check_command(
    name: str = typer.Argument(..., help="Checker name: ncmp, wcmp, lcmp, rcmp6, yesno, ... (testlib's checkers/)."),
    input: Path = typer.Argument(..., help="The test's input file."),
    output: Path = typer.Argument(..., help="The participant's output file."),
    answer: Path = typer.Argument(..., help="The jury's answer file."),
) -> None:
    """Check OUTPUT against ANSWER with testlib's checker NAME; exit code and message as testlib."""
    from judge.checkers import check, checker_names, is_checker
    if not is_checker(name):
        raise fail(f"unknown checker {name!r} (known: {', '.join(checker_names())})", code=3)
    contents = []
    for what, path in (("input", input), ("output", output), ("answer", answer)):
        try:
            contents.append(path.read_bytes())
        except OSError as exc:
            raise fail(f"cannot read the {what} file {str(path)!r}: {exc.strerror or exc}", code=3) from None
    result = check(name, *contents)
    sys.stdout.flush()
    sys.stderr.buffer.write(result.raw_message + b"\n")
    sys.stderr.flush()
    raise typer.Exit(result.exit_code)
