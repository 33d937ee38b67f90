"""`judge audit`: prove on this machine that limits are enforced and measured right."""
from __future__ import annotations

import json
from pathlib import Path

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
    target: list[str] | None = typer.Option(None, "--target", metavar="URL|judge",
                                            help="Audit another sandbox instead: "
                                            "a SandboxFusion-compatible URL (its /run_code), or "
                                            "judge (its own `judge serve`, started for the audit: "
                                            "the reference column). Repeat for several."),
    target_cmd: list[str] | None = typer.Option(None, "--target-cmd", metavar="PREFIX", help="Audit a command-line "
                                                "sandbox that runs PREFIX program args: bwrap, "
                                                "firejail, nsjail, docker/podman run --rm -i IMAGE, "
                                                "systemd-run --scope, or none (a plain subprocess "
                                                "with rlimits). Repeat for several."),
    compare: list[Path] | None = typer.Option(None, "--compare", metavar="FILE", help="A saved target audit "
                                              "(--json) to show beside the others. Repeatable."),
    interpreter: str = typer.Option("python3", "--interpreter", help="The Python a --target-cmd "
                                    "runs the probes with (inside its sandbox)."),
) -> None:
    """Run self-timed probes through the grading path; exit 0 only if every probe passes.

    With --target, --target-cmd or --compare: probe those sandboxes' limits and isolation instead,
    side by side; exit 1 if any probe shows a limit broken."""
    if target or target_cmd or compare:
        if lang or quick or only or cpu is not None:
            raise fail("--lang, --quick, --only and --cpu are for the judge's own audit, not "
                       "--target, --target-cmd or --compare")
        audit_targets(target or [], target_cmd or [], compare or [], interpreter, as_json)
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


def audit_targets(urls: list[str], commands: list[str], saved: list[Path], interpreter: str,
                  as_json: bool) -> None:
    from judge.audit.target_audit import audit_target
    from judge.audit.target_report import load, render, to_json
    from judge.audit.targets import command_target, url_target
    errors = stderr_console()
    try:
        reports = [report for path in saved for report in load(path)]
        targets = ([url_target(url) for url in urls]
                   + [command_target(command, interpreter) for command in commands])
        for target in targets:
            errors.print(f"[dim]… auditing {target.name}[/]")
            progress = None if as_json else (lambda step: errors.print(f"[dim]  … {step}[/]"))
            reports.append(audit_target(target, progress=progress))
    except JudgeError as exc:
        raise fail(str(exc)) from None
    if as_json:
        typer.echo(to_json(reports))
    else:
        render(reports, stdout_console())
    raise typer.Exit(1 if any(report.broken for report in reports) else 0)
