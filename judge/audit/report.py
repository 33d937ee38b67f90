"""Renders an AuditReport: host facts, warnings, one table of expected vs measured."""
from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from judge.audit.host import is_exact, source_meaning


def render(report, console: Console) -> None:
    facts = report.host
    table = Table(title="host", show_header=False)
    table.add_column("fact")
    table.add_column("value")
    governors = ", ".join(f"{g} (CPU {','.join(map(str, cpus))})"
                          for g, cpus in sorted(facts.governors.items()))
    table.add_row("CPU", escape(f"{facts.cpu_model}; usable CPUs {','.join(map(str, facts.cpus))}"))
    table.add_row("audit slot", f"pinned to CPU {facts.audit_cpu}")
    table.add_row("frequency governor", escape(governors or "unknown"))
    table.add_row("SMT siblings", escape("; ".join(",".join(map(str, g)) for g in facts.smt_groups)
                                         or "none among the usable CPUs"))
    table.add_row("load average", " ".join(f"{x:.2f}" for x in facts.load_average))
    table.add_row("kernel", escape(facts.kernel))
    table.add_row("cgroup (Sandbox)", escape(f"{facts.cgroup}; program uid {facts.uid_mode}"))
    for figure, seen in sorted(facts.sources.items()):
        marks = ", ".join(f"{s} ({'exact' if is_exact(s) else 'approximate'})" for s in seen)
        table.add_row(f"{figure} figures from", escape(f"{marks}: {source_meaning(figure, seen[0])}"))
    console.print(table)

    probes = Table(title=f"judge audit ({', '.join(report.languages)}"
                         f"{', quick' if report.quick else ''})")
    for column in ("group", "lang", "probe", "expected", "measured", ""):
        probes.add_column(column, overflow="fold")
    for p in report.probes:
        mark = ("[green]pass[/]" if p.passed else
                "[yellow bold]BUSY[/]" if p.inconclusive else "[red bold]FAIL[/]")
        measured = escape(p.measured) + (f" [dim]({escape(p.note)})[/]" if p.note else "")
        probes.add_row(p.group, p.language, escape(p.name), escape(p.expected), measured, mark)
    console.print(probes)

    for skipped in report.skipped:
        console.print(f"[yellow]skipped[/] {escape(skipped)}")
    for warning in facts.warnings:
        console.print(f"[yellow]warning:[/] {escape(warning)}")
    passed = sum(p.passed for p in report.probes)
    if report.ok:
        console.print(f"[green]audit passed[/]: {passed}/{len(report.probes)} probes, "
                      f"{report.elapsed_s:.0f} s" + (" (with warnings above: read them before "
                                                     "trusting timings)" if facts.warnings else ""))
    else:
        real = [p for p in report.failed if not p.inconclusive]
        if real:
            names = ", ".join(f"{p.language} {p.name}" for p in real)
            console.print(f"[red bold]audit FAILED[/]: {len(real)} of {len(report.probes)} "
                          f"probes: {escape(names)} ({report.elapsed_s:.0f} s)")
        if report.inconclusive:
            names = ", ".join(f"{p.language} {p.name}" for p in report.inconclusive)
            console.print(f"[yellow bold]audit INCONCLUSIVE[/]: {len(report.inconclusive)} probes "
                          f"could not test their limit because the machine gave them under half a "
                          f"CPU and the wall timer fired first: {escape(names)}. Re-run the audit "
                          f"when the machine is quieter ({report.elapsed_s:.0f} s)")
