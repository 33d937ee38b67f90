"""`judge run FILE --problem ID`: grade one submission."""
from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from judge.cli.app import app, fail, testlib_dir
from judge.cli.console import stdout_console
from judge.cli.problems_cmd import DATASET_HELP
from judge.problems.rules import TimeRule
from judge.terminal_text import terminal_safe
from judge.verdicts import VERDICT_STYLES, Verdict


def render(result, console: Console) -> None:
    if result.compile.status != "OK":
        console.print(f"[cyan]compilation {result.compile.status}[/]")
        if result.compile.log.strip():
            console.print(terminal_safe(result.compile.log.rstrip()), markup=False,
                          highlight=False)
    if result.tests:
        limit = (f"{result.wall_time_limit_ms} ms wall" if result.time_rule is TimeRule.WALL
                 else f"{result.time_limit_ms} ms")
        table = Table(title=f"{result.problem} ({result.language}, time limit {limit}, "
                            f"memory {result.memory_limit_mb} MB)")
        for column in ("test", "verdict", "cpu ms", "wall ms", "memory KB", "checker"):
            table.add_column(column, justify="left" if column in ("verdict", "checker") else "right")
        for t in result.tests:
            style = VERDICT_STYLES.get(t.verdict, "")
            table.add_row(str(t.index), f"[{style}]{t.verdict}[/]", f"{t.cpu_time_ms:.1f}",
                          f"{t.wall_time_ms:.1f}", str(t.memory_kb),
                          t.checker_message[:100].replace("[", r"\["))
        console.print(table)
        failed = next((t for t in result.tests if t.stderr_tail.strip()), None)
        if failed is not None:
            console.print(f"[cyan]stderr of test {failed.index} (its last bytes):[/]")
            console.print(terminal_safe(failed.stderr_tail.rstrip()), markup=False,
                          highlight=False)
    style = VERDICT_STYLES.get(result.verdict, "")
    console.print(f"verdict: [{style}]{result.verdict}[/]   max cpu {result.max_cpu_time_ms:.1f} ms, "
                  f"max memory {result.max_memory_kb} KB")


@app.command("run")
def run_command(
    file: Path = typer.Argument(..., help="The source file to grade."),
    problem: str = typer.Option(..., "--problem", "-p", help="Problem id, e.g. 2020A or pack/<slug>."),
    lang: str = typer.Option("auto", "--lang", help="auto (from the extension) or any name of "
                             "docs/languages.md: cpp, python, java, rust, go, js, kotlin..."),
    dataset: str | None = typer.Option(None, "--dataset", "-d", help=DATASET_HELP),
    all_tests: bool = typer.Option(False, "--all-tests", help="Run every test, not only up to the first failure."),
    testlib: Path | None = typer.Option(None, "--testlib",
                                           help="A testlib checkout to build custom checkers against "
                                                "(default: $JUDGE_TESTLIB, else the judge's own testlib.h)."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    """Compile FILE, run every test of the problem in the sandbox, check and print the verdict."""
    from judge.grade import Grader
    from judge.languages import get_language, language_for_file
    from judge.problems.source import open_source
    if not file.is_file():
        raise fail(f"no such file: {file}")
    try:
        source = file.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise fail(f"cannot read {file}: {exc}") from None
    language = language_for_file(file) if lang == "auto" else get_language(lang)
    task = open_source(dataset).get(problem)
    with Grader(testlib=testlib_dir(testlib)) as grader:
        result = grader.grade(source, language, task, all_tests=all_tests)
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    else:
        render(result, stdout_console())
    raise typer.Exit(0 if result.verdict == Verdict.AC else 1)
