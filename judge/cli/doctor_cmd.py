"""`judge doctor`: what the kernel offers, and what the judge does without it."""
from __future__ import annotations

import json

import typer
from rich.table import Table

from judge.cli.app import app
from judge.cli.console import stderr_console, stdout_console


@app.command("doctor")
def doctor(as_json: bool = typer.Option(False, "--json", help="Print the checks as JSON.")) -> None:
    """Report each kernel feature and toolchain the judge relies on."""
    from judge import config
    from judge.build_info import build_info
    from judge.doctor import run_checks
    checks = run_checks()
    build = build_info()
    settings = config.current().described()
    broken = [c for c in checks if c.required and not c.ok]
    if as_json:
        typer.echo(json.dumps({"ok": not broken, "build": build.to_dict(),
                               "checks": [c.to_dict() for c in checks],
                               "config": dict(settings)}, indent=2))
    else:
        table = Table(title=f"judge doctor (judge {build.label})")
        for column in ("feature", "", "detail", "without it"):
            table.add_column(column)
        for c in checks:
            mark = "[green]yes[/]" if c.ok else ("[red]NO[/]" if c.required else "[yellow]no[/]")
            table.add_row(c.name, mark, c.detail, "" if c.ok else c.without)
        stdout_console().print(table)
        configured = Table(title="configuration (docs/operations.md#configuration)")
        for column in ("variable", "in effect"):
            configured.add_column(column)
        for name, value in settings:
            configured.add_row(name, value)
        stdout_console().print(configured)
        if broken:
            stderr_console().print(
                f"[red]the sandbox cannot run here: {', '.join(c.name for c in broken)}[/]")
    raise typer.Exit(1 if broken else 0)
