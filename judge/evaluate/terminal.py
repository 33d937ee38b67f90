"""An evaluation's summary on the terminal (or a log): the metrics and verdict tables, re-runs,
ratings, the run's figures, its provenance line and its warnings."""
from __future__ import annotations

from pathlib import Path

from judge.verdicts import Verdict


def figure(x: float | None, digits: int = 3) -> str:
    """A metric as the tables show it: fixed digits, "-" when there is none."""
    return "-" if x is None else f"{x:.{digits}f}"


def provenance_line(p: dict) -> str:
    sandbox, audit = p["sandbox"], p["audit"]
    when = audit.get("outcome", {}).get("created")
    build = p.get("judge_build", {}).get("label", p["judge_version"])
    return (f"judge {build} · cgroup {sandbox['cgroup']}, {sandbox['uid_mode']}"
            f"{', root' if sandbox['root'] else ''} · kernel {p['host']['kernel']}"
            f"{' · ' + p['host']['container'] if p['host']['container'] else ''} · "
            f"audit {audit['status']}" + (f" ({when})" if when else ""))


def render_terminal(summary: dict, console, out: Path | None = None) -> None:
    console.print(_metrics_table(summary))
    if summary["verdicts"]:
        console.print(_verdicts_table(summary))
    rr = summary["reruns"]
    console.print(f"TLE re-runs: {rr['count']} (verdict changed: {rr['changed']})")
    _print_ratings(summary.get("ratings", {}), console)
    run = summary["run"]
    console.print(f"{run['samples']} rows, {run['unique_programs']} distinct programs: judged "
                  f"{run['judged_now']} now (+{run['reruns_now']} re-runs), {run['from_store']} "
                  f"from the store; {len(summary['skipped'])} row(s) skipped; wall {run['wall_s']:.1f} s")
    cluster = summary.get("cluster")
    if cluster:
        _print_cluster(cluster, console)
    console.print(provenance_line(summary["provenance"]), highlight=False)
    for w in summary.get("warnings", []):
        style = "red bold" if w.startswith(("INCOMPLETE", "UNAUDITED")) else "yellow"
        console.print(f"[{style}]warning:[/] {w}", markup=True, highlight=False)
    if out is not None:
        console.print(f"reports: {out / 'summary.json'}, {out / 'results.jsonl'}, {out / 'report.html'}")


def _metrics_table(summary: dict):
    from rich.table import Table
    ks = list(summary.get("pass_at_k", {}))[:5]
    samples, problems = summary["num_samples"], summary["num_problems"]
    table = Table(title=f"judge eval: {samples} sample{'s' * (samples != 1)}, "
                        f"{problems} problem{'s' * (problems != 1)} ({summary['dataset']})"
                        + ("" if summary.get("complete", True) else " — INCOMPLETE"))
    table.add_column("language")
    for col in ("samples", "problems", "avg@n", *[f"pass@{k}" for k in ks], "std", "stderr"):
        table.add_column(col, justify="right")

    def row(name: str, d: dict, style: str = "") -> None:
        sp = d.get("spread") or {}
        table.add_row(name, str(d["num_samples"]), str(d["num_problems"]), figure(d["avg_at_n"]),
                      *[figure(d["pass_at_k"].get(k)) for k in ks], figure(sp.get("std")),
                      figure(sp.get("stderr")), style=style)
    if summary["num_samples"]:
        row("all", summary, "bold")
        for lang, d in summary["by_language"].items():
            row(lang, d)
    return table


def _verdicts_table(summary: dict):
    from rich.table import Table
    verdicts = Table(title="verdicts")
    langs = list(summary["verdicts_by_language"])
    verdicts.add_column("verdict")
    for lang in langs:
        verdicts.add_column(lang, justify="right")
    verdicts.add_column("all", justify="right")
    for v in [v for v in Verdict if v in summary["verdicts"]]:
        verdicts.add_row(v, *[str(summary["verdicts_by_language"][lang].get(v, 0)) for lang in langs],
                         str(summary["verdicts"][v]))
    return verdicts


def _print_ratings(ratings: dict, console) -> None:
    if "codeelo" in ratings:
        ce = ratings["codeelo"]
        console.print(f"CodeElo rating: {figure(ce['rating'], 0)} over {len(ce['contests'])} contest(s)"
                      + (f"; {len(ce['errors'])} contest(s) not rated" if ce["errors"] else ""))
    if "mle" in ratings:
        m = ratings["mle"]
        if m.get("rating") is not None:
            console.print(f"MLE rating: {m['rating']:.0f} ± {m['stderr']:.0f} "
                          f"({m['num_problems']} rated problems)")
        else:
            console.print(f"MLE rating: not computed ({m.get('error')})")


def _print_cluster(cluster: dict, console) -> None:
    nodes = ", ".join(f"{n['node']} ({n['node_id'][:8]}): {n['samples']} samples, "
                      f"{n['workers']} worker{'s' * (n['workers'] != 1)} started"
                      for n in cluster["nodes"])
    console.print(f"Ray {cluster['address']}: {nodes}; workers refused {len(cluster['refused'])}, "
                  f"lost {len(cluster['faults'])}, tasks graded again {cluster['retried']}",
                  highlight=False)
    for t in cluster["tle"]:
        console.print(f"  {t['verdict']} {t['problem_id']} ({t['language']}, row {t['row']}): "
                      f"node {t['node']} cpu {t['cpu']}", highlight=False)


__all__ = ["render_terminal", "provenance_line", "figure"]
