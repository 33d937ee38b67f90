"""Renders target audits side by side (one column a target, one row a probe), the limits as
each target was told them, and each target's one-line verdicts; reads and writes the JSON a
CI checks (`{"format": 1, "targets": [...]}`, one report per target)."""
from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.markup import escape as escape_markup
from rich.table import Table

from judge import JudgeError
from judge.audit.target_audit import KINDS, Status, TargetReport
from judge.terminal_text import terminal_safe

FORMAT = 1
STYLE = {Status.HELD: "green", Status.BROKEN: "red bold", Status.UNKNOWN: "yellow",
         Status.FIGURE: "cyan"}
LIMITS = ("cpu", "wall", "memory", "output", "processes")


def escape(text: str) -> str:
    """A target's text in the table: neither rich markup nor terminal escapes (a target under
    audit, or a saved report given to --compare, is as hostile as a submission)."""
    return escape_markup(terminal_safe(text))


def to_json(reports: list[TargetReport]) -> str:
    return json.dumps({"format": FORMAT, "ok": all(not r.broken for r in reports),
                       "targets": [r.to_dict() for r in reports]}, indent=2, ensure_ascii=True)


def load(path: Path) -> list[TargetReport]:
    """The reports of a saved `judge audit --target ... --json` (one target's report alone too)."""
    try:
        data = json.loads(path.read_text())
        if "targets" in data:
            if data.get("format") != FORMAT:
                raise JudgeError(f"{path} is a target audit of format {data.get('format')!r}, "
                                 f"not {FORMAT}")
            return [TargetReport.from_dict(item) for item in data["targets"]]
        return [TargetReport.from_dict(data)]
    except OSError as exc:
        raise JudgeError(f"cannot read {path}: {exc.strerror}") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise JudgeError(f"{path} is not a saved target audit ({type(exc).__name__}: {exc})") from None


def render(reports: list[TargetReport], console: Console, verdicts: bool = True) -> None:
    limits = Table(title="the limits, as each target was told them")
    limits.add_column("limit")
    for report in reports:
        limits.add_column(escape(report.target), overflow="fold")
    first = reports[0].limits
    asked = {"cpu": f"{first.cpu_s:g} s", "wall": f"{first.wall_s:g} s",
             "memory": f"{first.memory_mb} MB", "output": f"{first.output_mb} MB",
             "processes": str(first.processes)}
    for limit in LIMITS:
        limits.add_row(f"{limit} {asked[limit]}", *(escape(r.options.get(limit, "")) for r in reports))
    console.print(limits)

    table = Table(title="judge audit --target: held / broken / could not tell")
    table.add_column("probe")
    for report in reports:
        table.add_column(escape(report.target), overflow="fold")
    keys = [key for key in KINDS if any(r.probe(key) for r in reports)]
    for key in keys:
        cells = []
        for report in reports:
            probe = report.probe(key)
            if probe is None:
                cells.append("[dim]not run[/]")
                continue
            word = "" if probe.status is Status.FIGURE else f"{probe.status.value}: "
            cells.append(f"[{STYLE[probe.status]}]{word}[/]{escape(probe.figure)}")
        table.add_row(KINDS[key].title, *cells)
    console.print(table)

    for report in reports:
        if verdicts:
            console.print(f"\n[bold]{escape(report.target)}[/] ({escape(report.kind)}, "
                          f"{report.elapsed_s:.0f} s)")
            for probe in report.probes:
                console.print(f"  [{STYLE[probe.status]}]{escape(probe.verdict)}[/]")
            for note in report.notes:
                console.print(f"  [yellow]note:[/] {escape(note)}")
        broken = report.broken
        line = (f"[red bold]{len(broken)} broken[/]" if broken else "[green]nothing broken[/]")
        unknown = sum(p.status is Status.UNKNOWN for p in report.probes)
        console.print(f"{escape(report.target)}: {line}, "
                      f"{sum(p.status is Status.HELD for p in report.probes)} held, "
                      f"{unknown} could not tell")
