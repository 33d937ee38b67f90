"""`judge exec -- CMD ...`: run any command in the sandbox."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from judge import JudgeError
from judge.cli.app import app, fail
from judge.verdicts import Status

if TYPE_CHECKING:
    from judge.sandbox import Limits, RunResult


@app.command("exec", context_settings={"allow_interspersed_args": False})
def exec_command(
    command: list[str] | None = typer.Argument(None, help="The command and its arguments."),
    time_limit: int | None = typer.Option(None, "--time-limit",
                                          help="CPU time limit, ms (default: Limits', 1000)."),
    wall_limit: int | None = typer.Option(None, "--wall-limit", help="Wall time limit, ms."),
    memory_limit: int | None = typer.Option(None, "--memory-limit",
                                            help="Memory limit, MB (default: Limits', 256)."),
    output_limit: float | None = typer.Option(None, "--output-limit",
                                              help="Output limit, MB (default: Limits', 64)."),
    processes: int | None = typer.Option(None, "--processes", help="Processes and threads at "
                                         "once (default: Limits', 64)."),
    policy: str = typer.Option("native", "--policy", help="seccomp policy: native, python, java."),
    box: Path = typer.Option(Path("."), "--box", help="Directory mounted read-only at /box."),
    stdin: Path | None = typer.Option(None, "--stdin", help="File given as standard input."),
    stdout: Path | None = typer.Option(None, "--stdout", help="File for the program's stdout."),
    as_json: bool = typer.Option(False, "--json", help="Print the RunResult as JSON."),
    cgroup: str | None = typer.Option(None, "--cgroup",
                                         help="cgroup mode: auto, v1, v2, none (default: "
                                              "$JUDGE_CGROUP, else auto)."),
) -> None:
    """Run CMD in the sandbox, with /box = DIR as the working directory."""
    from judge.sandbox import Sandbox
    from judge.sandbox.result import CANNOT_EXECUTE
    _check_arguments(command, policy, cgroup, box, stdin)
    assert command is not None
    try:
        given = {"time_limit_ms": time_limit, "wall_time_limit_ms": wall_limit,
                 "memory_limit_mb": memory_limit, "output_limit_mb": output_limit,
                 "processes": processes}
        limits = _limits(given)
    except JudgeError as exc:
        raise fail(str(exc)) from None
    sys.stdout.flush()
    target = stdout if stdout is not None else (None if as_json else sys.stdout.fileno())
    with Sandbox(box=box, policy=policy, cgroup=cgroup, one_shot=True) as sandbox:
        result = sandbox.run(command, limits, stdin=stdin, stdout=target,
                             stderr=sys.stderr.fileno())
    if result.status == Status.SE and result.error and result.error.startswith(CANNOT_EXECUTE):
        raise fail(result.error)   # a command that does not exist is the caller's mistake
    if as_json:
        typer.echo(json.dumps(result.to_dict()))
    else:
        typer.echo("judge: " + ", ".join(_summary(result)), err=True)
    _warn_undelivered(result)


def _check_arguments(command: list[str] | None, policy: str, cgroup: str | None, box: Path,
                     stdin: Path | None) -> None:
    from judge.sandbox import CGROUP_MODES, POLICIES
    if not command:
        raise fail("no command given (usage: judge exec [OPTIONS] -- CMD [ARGS...])")
    if policy not in POLICIES:
        raise fail(f"unknown policy {policy!r} (choose from {', '.join(POLICIES)})")
    if cgroup is not None and cgroup not in CGROUP_MODES:
        raise fail(f"unknown cgroup mode {cgroup!r} (choose from {', '.join(CGROUP_MODES)})")
    if not box.is_dir():
        raise fail(f"--box {box} is not a directory")
    if stdin is not None and not stdin.is_file():
        raise fail(f"--stdin {stdin} is not a file")


def _limits(given: dict[str, Any]) -> Limits:
    """The options given, over Limits' own defaults."""
    from judge.sandbox import Limits
    return Limits(**{name: value for name, value in given.items() if value is not None})


def _summary(result: RunResult) -> list[str]:
    """The one line on stderr: status, figures, and why it ended when not well."""
    from judge.sandbox.policy import describe_refusal
    parts = [result.status, f"cpu {result.cpu_time_ms:.1f} ms", f"wall {result.wall_time_ms:.1f} ms",
             f"memory {result.memory_kb} KB"]
    if result.exit_code:
        parts.append(f"exit {result.exit_code}")
    if result.signal:
        parts.append(f"signal {result.signal}")
    if result.syscall:
        parts.append(describe_refusal(result.syscall))
    if result.error:
        parts.append(result.error)
    return parts


def _warn_undelivered(result: RunResult) -> None:
    from judge.sandbox.slot import DELIVERY_TIMEOUT_MS
    if result.undelivered_bytes:
        typer.echo(f"judge: warning: {result.undelivered_bytes} bytes of the program's output "
                   "never reached their reader (it closed, or took nothing for "
                   f"{DELIVERY_TIMEOUT_MS // 1000} s after the run)", err=True)
