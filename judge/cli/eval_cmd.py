"""`judge eval GENERATIONS`: grade a file of model generations, with metrics and reports."""
from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from judge.cli.app import app, fail, testlib_dir
from judge.cli.console import stderr_console, stdout_console
from judge.evaluate.progress import DEFAULT_INTERVAL_S
from judge.problems.source import DATASET_HELP

if TYPE_CHECKING:
    from judge.evaluate.tasks import EvalConfig

INCOMPLETE_EXIT = 3
RAY_LOCAL = "local"


def _ray_address(value: str) -> bool:
    """'local', 'auto', HOST:PORT or ray://HOST:PORT: what --ray takes (a generations file
    swallowed by a bare --ray before it is none of these)."""
    if value in (RAY_LOCAL, "auto"):
        return True
    rest = value.removeprefix("ray://")
    host, sep, port = rest.rpartition(":")
    return bool(sep and host and port.isdigit())


def optional_ray_value(argv: list[str]) -> list[str]:
    """`judge eval ... --ray` with no address means --ray=local. The CLI's parser has no
    options with an optional value, so a bare --ray (last, or before another option or a word
    that is no address, such as the generations file) gets its value here."""
    if "eval" not in argv:
        return argv
    out = list(argv)
    for i, word in enumerate(out):
        if word == "--":
            break
        if word == "--ray" and (i + 1 == len(out) or out[i + 1].startswith("-")
                                or not _ray_address(out[i + 1])):
            out[i] = f"--ray={RAY_LOCAL}"
    return out

EVAL_HELP = (
    "Grade every generation of GENERATIONS, then report avg@n, pass@k, per-language "
    "spread, verdicts and ratings.\n\n"
    "GENERATIONS is JSONL or parquet, one row per sample: problem_id, language, and "
    "completion (the model's text; its last fenced code block is the code) or code, plus "
    "an optional sample_index. A completion without a code block is a failed sample "
    "(NO_CODE), and so is code in no language the judge runs (UNGRADABLE: no language "
    "given and an untagged block, or e.g. rust), unless --skip-ungradable. Rows naming an "
    "unknown problem, or a language whose toolchain is missing here, are reported and left "
    "out (the run is then incomplete).\n\n"
    "Results are kept in OUT/results.db, keyed by content: a rerun (after Ctrl-C or a "
    "crash) judges only what is missing, and identical programs are judged once. Reports: "
    "OUT/summary.json, OUT/results.jsonl (per sample, per test) and OUT/report.html.\n\n"
    "\b\n" + DATASET_HELP + "\n\n"
    "Every summary states its provenance: judge and toolchain versions, the host, the "
    "sandbox's cgroup mode, and the host's `judge audit --quick` outcome, run once per host, "
    "judge version, sandbox mode and kernel, and kept in the judge's cache. On a host whose "
    "audit failed, eval refuses to start (exit 2) unless --allow-unaudited.\n\n"
    "Exit status: 0 done, 2 bad input, 3 done but incomplete (samples the judge could not "
    "grade, SE or FAIL, are left out of the metrics and listed), 130 interrupted (rerun to "
    "resume)."
)


@app.command("eval", help=EVAL_HELP)
def eval_command(
    generations: Path = typer.Argument(..., help="JSONL or parquet file of generations."),
    dataset: str | None = typer.Option(None, "--dataset", "-d",
                                          help="Where problems come from (see above)."),
    jobs: int | None = typer.Option(None, "--jobs", "-j",
                                       help="Worker slots, one pinned per core \\[default: all cores; "
                                            "with --ray: every CPU of the cluster]."),
    ray: str | None = typer.Option(
        None, "--ray", metavar="[ADDRESS]",
        help="Judge on a Ray cluster (pip install 'judge\\[ray]'): one worker per CPU of every "
             "node. Alone (or 'local'): start Ray on this machine; 'auto': the cluster this "
             "machine belongs to; HOST:PORT or ray://HOST:PORT: that cluster."),
    out: Path = typer.Option(Path("judge-eval-out"), "--out", "-o",
                             help="Output directory (result store and reports)."),
    standings: Path | None = typer.Option(
        None, "--standings", help="Directory of Codeforces contest standings + rating changes "
        "JSON (API shape) for the CodeElo rating."),
    ratings: Path | None = typer.Option(
        None, "--ratings", help="JSON {problem_id: rating} for the maximum-likelihood rating "
        "(default: the problems' own ratings when the dataset has them)."),
    testlib: Path | None = typer.Option(None, "--testlib",
                                           help="A testlib checkout to build custom checkers against "
                                                "(default: $JUDGE_TESTLIB, else the judge's own testlib.h)."),
    lang: str | None = typer.Option(None, "--lang", help="Language of rows whose code "
                                       "block has no language tag (cpp, python, java, ...)."),
    skip_ungradable: bool = typer.Option(False, "--skip-ungradable",
                                         help="Leave code in no language the judge runs out of "
                                              "the metrics instead of counting it as failed."),
    allow_unaudited: bool = typer.Option(
        False, "--allow-unaudited", help="Evaluate even on a host whose `judge audit --quick` "
        "failed, and never start an audit; the summary is then marked UNAUDITED."),
    as_json: bool = typer.Option(False, "--json", help="Print summary.json on stdout instead of tables."),
    no_progress: bool = typer.Option(False, "--no-progress", help="No progress bar or lines."),
    progress_interval: float = typer.Option(
        DEFAULT_INTERVAL_S, "--progress-interval", metavar="SECONDS",
        help="When stderr is not a terminal (a log, CI), a progress line every SECONDS instead "
             "of a bar."),
    slot_base: int | None = typer.Option(None, "--slot-base", hidden=True,
                                         help="First sandbox slot number (to keep concurrent "
                                              "evals apart)."),
) -> None:
    from judge.evaluate.tasks import EvalConfig

    _check_options(jobs, progress_interval, ray, lang)
    cfg = EvalConfig(generations=generations, dataset=dataset, jobs=jobs, out=out,
                     standings=standings, ratings=ratings,
                     testlib=testlib_dir(testlib), language=lang,
                     skip_ungradable=skip_ungradable, allow_unaudited=allow_unaudited,
                     slot_base=slot_base, ray=ray,
                     progress=not no_progress, progress_interval_s=progress_interval,
                     command=shlex.join(sys.argv))
    summary = _run(cfg, as_json)
    if not summary["complete"]:
        raise typer.Exit(INCOMPLETE_EXIT)


def _check_options(jobs: int | None, progress_interval: float, ray: str | None,
                   lang: str | None) -> None:
    """Refuses bad option values before anything is read."""
    from judge import JudgeError
    if jobs is not None and jobs < 1:
        raise fail(f"--jobs must be at least 1, got {jobs}")
    if not progress_interval > 0:
        raise fail(f"--progress-interval must be a positive number of seconds, got {progress_interval:g}")
    if ray is not None and not _ray_address(ray):
        raise fail(f"--ray: {ray!r} is not a Ray address ('local', 'auto', HOST:PORT or "
                   "ray://HOST:PORT)")
    if lang is not None:
        from judge.evaluate.extract import language_from_tag
        from judge.languages import get_language
        try:
            get_language(language_from_tag(lang) or lang)
        except JudgeError as exc:
            raise fail(f"--lang: {exc}") from None


def _run(cfg: EvalConfig, as_json: bool) -> dict:
    """Runs the evaluation and prints its summary (JSON or tables); returns the summary."""
    from judge import JudgeError
    from judge.evaluate.phases import EvalInterrupted
    from judge.evaluate.runner import evaluate
    from judge.evaluate.terminal import render_terminal

    err = stderr_console()

    def warn(message: str) -> None:
        err.print(f"[yellow]warning:[/] {message}", markup=True, highlight=False, soft_wrap=True)

    try:
        result = evaluate(cfg, warn=warn)
    except EvalInterrupted as exc:
        raise fail(str(exc), 130) from None
    except JudgeError as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt:
        raise fail("interrupted before judging started; nothing was judged", 130) from None
    if as_json:
        typer.echo(json.dumps(result.summary, indent=2))
    else:
        render_terminal(result.summary, stdout_console(), result.out)
    return result.summary
