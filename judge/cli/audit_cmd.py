"""`judge audit`: prove on this machine that limits are enforced and measured right."""
from __future__ import annotations

import json

import typer

from judge import JudgeError
from judge.cli.app import app, fail
from judge.cli.console import stderr_console, stdout_console


@app.command("audit")
def audit_command(
    lang: str | None = typer.Option(None, "--lang", help="Languages to audit, e.g. cpp,python,java "
                                       "(default: those three, skipping a missing toolchain), "
                                       "or all: every language with a probe whose toolchain "
                                       "is installed."),
    quick: bool = typer.Option(False, "--quick", help="Fewer repetitions and bare comparisons."),
    only: str | None = typer.Option(None, "--only", help="Probe groups: time,memory,isolation,interaction,stability."),
    cpu: int | None = typer.Option(None, "--cpu", help="CPU to pin the audit's slot to "
                                      "(default: the idlest usable CPU at start)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Run self-timed probes through the grading path; exit 0 only if every probe passes."""
    from judge.audit import GROUPS, parse_groups, parse_languages, run_audit, wants_every_language
    from judge.audit.record import record_outcome
    from judge.audit.report import render
    try:
        languages, explicit = parse_languages(lang)
        groups = parse_groups(only)
    except JudgeError as exc:
        raise fail(str(exc)) from None
    errors = stderr_console()
    progress = None if as_json else (lambda message: errors.print(f"[dim]… {message}[/]"))
    try:
        report = run_audit(languages, explicit=explicit, quick=quick, groups=groups, cpu=cpu,
                           progress=progress, skip_missing=not explicit or wants_every_language(lang))
    except JudgeError as exc:
        raise fail(str(exc)) from None
    if not explicit and groups == list(GROUPS):
        record_outcome(report)
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2))
    else:
        render(report, stdout_console())
    raise typer.Exit(0 if report.ok else 1)
