"""`judge problems list|show`: browse the problems of the embedded pack or any --dataset."""
from __future__ import annotations

import json

import typer

from judge import JudgeError
from judge.cli.app import app, fail
from judge.cli.console import prose_width, stdout_console
from judge.problems.model import Problem
from judge.problems.rules import TimeRule, rules_for

problems_app = typer.Typer(no_args_is_help=True, help="List and show problems (the embedded "
                                                      "pack or any --dataset).")
app.add_typer(problems_app, name="problems")

DATASET_HELP = ("Where problems come from: pack (default), a CF-Div2-Stepfun source (hub id, "
                "parquet/jsonl file, directory), livecodebench:[...] or codecontests:[...] "
                "(see `judge eval --help`).")


def checker_label(problem: Problem) -> str:
    checker = "custom" if problem.has_custom_checker else problem.checker
    if problem.is_interactive:
        return f"interactor + {checker}" if checker else "interactor"
    return checker


def time_limit_label(problem: Problem) -> str:
    """The limit as the problem's benchmark states it: CPU time (times the language factor), or
    each test's wall time."""
    if rules_for(problem).time_rule is TimeRule.WALL:
        return f"{problem.time_limit_ms} ms wall"
    return f"{problem.time_limit_ms} ms"


def _summary(problem: Problem) -> dict:
    return {
        "id": problem.id,
        "title": problem.title,
        "time_limit_ms": problem.time_limit_ms,
        "time_rule": rules_for(problem).time_rule.value,
        "memory_limit_mb": problem.memory_limit_mb,
        "checker": checker_label(problem),
        "tests": len(problem.tests),
        "rating": problem.rating,
    }


def _text(data: bytes, limit: int = 2000) -> str:
    text = data.decode("utf-8", errors="replace")
    if len(text) > limit:
        text = text[:limit] + f"\n... ({len(data)} bytes in all)"
    return text


@problems_app.command("list")
def list_cmd(dataset: str | None = typer.Option(None, "--dataset", "-d", help=DATASET_HELP),
             as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table.")
             ) -> None:
    """List the problems of the embedded pack (or of --dataset)."""
    from judge.problems.source import open_source

    try:
        problems = open_source(dataset).list()
    except JudgeError as exc:
        raise fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps([_summary(p) for p in problems], indent=2))
        return
    from rich.table import Table

    table = Table(title=f"{len(problems)} problems ({dataset or 'embedded pack'})")
    table.add_column("id", style="bold", no_wrap=True)
    table.add_column("title")
    table.add_column("time limit", justify="right")
    table.add_column("memory limit", justify="right")
    table.add_column("checker", no_wrap=True)
    table.add_column("tests", justify="right")
    for p in problems:
        table.add_row(p.id, p.title, time_limit_label(p), f"{p.memory_limit_mb} MB",
                      checker_label(p), str(len(p.tests)))
    stdout_console().print(table)


@problems_app.command("show")
def show_cmd(problem_id: str = typer.Argument(..., metavar="ID",
                                              help="e.g. 2020A, codeforces/2020A, two-sum"),
             dataset: str | None = typer.Option(None, "--dataset", "-d", help=DATASET_HELP),
             as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Show one problem: statement, limits, checker, number of tests and the first sample."""
    from judge.problems.source import open_source

    try:
        p = open_source(dataset).get(problem_id)
    except JudgeError as exc:
        raise fail(str(exc)) from None
    first = p.tests[0] if p.tests else None
    if as_json:
        info = _summary(p)
        info["statement"] = p.statement
        if p.has_custom_checker:
            info["checker_source"] = p.checker
        if p.interactor is not None:
            info["interactor_source"] = p.interactor
        info["sample"] = None if first is None else {
            "input": first.input.decode("utf-8", errors="replace"),
            "output": first.output.decode("utf-8", errors="replace")}
        typer.echo(json.dumps(info, indent=2))
        return
    from rich.markdown import Markdown
    from rich.panel import Panel
    from rich.text import Text

    console = stdout_console()
    header = Text()
    header.append(p.id, style="bold")
    header.append(f"  {p.title}\n")
    header.append(f"time limit {time_limit_label(p)} · memory limit {p.memory_limit_mb} MB · "
                  f"checker {checker_label(p)} · {len(p.tests)} tests"
                  + (f" · rating {p.rating}" if p.rating else ""))
    console.print(Panel(header, expand=False))
    console.print(Markdown(p.statement), width=prose_width(console))
    if first is not None:
        console.print(Panel(Text(_text(first.input)), title="test 1: input", expand=False))
        console.print(Panel(Text(_text(first.output)), title="test 1: expected output",
                            expand=False))
