"""The single-file HTML report of an evaluation: tables, and plots drawn as SVG by the inline
script in assets/report.js from the data block (nothing fetched, nothing external)."""
from __future__ import annotations

import html
import json
from functools import cache
from pathlib import Path
from typing import Any

from judge.evaluate.terminal import figure, provenance_line
from judge.problems.model import natural_order
from judge.verdicts import VERDICT_COLORS, Verdict

ASSETS = Path(__file__).resolve().parent / "assets"


@cache
def _asset(name: str) -> str:
    return (ASSETS / name).read_text(encoding="utf-8")


DETAIL_CHARS = 300


STDERR_LINES = 3      # a failing test's last stderr lines in its cell (a traceback's last is why)


def _clip(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= DETAIL_CHARS else text[:DETAIL_CHARS - 1] + "…"


def cell_detail(r: dict) -> str:
    """What a matrix cell's tooltip says beyond the verdict: why the judge gave no figures, the
    compiler's first words, or the deciding test with its checker message, CPU time and memory."""
    lines = []
    if r.get("reason"):
        lines.append(_clip(r["reason"]))
    compile_ = r.get("compile") or {}
    if compile_.get("status") not in (None, "OK"):
        lines.append(_clip(f"compile {compile_['status']}: {compile_.get('log', '')}"))
    tests = r.get("tests") or []
    failing = next((t for t in tests if t.get("verdict") != Verdict.AC), None)
    if failing is not None:
        ended = (f", signal {failing['signal']}" if failing.get("signal") else
                 f", exit code {failing['exit_code']}" if failing.get("exit_code") else "")
        lines.append(f"test {failing['index']}: {failing['verdict']}, "
                     f"{failing['cpu_time_ms']:.0f} ms CPU of {r.get('time_limit_ms')}, "
                     f"{failing['memory_kb'] / 1024:.1f} MB{ended}")
        if failing.get("checker_message"):
            lines.append(_clip(failing["checker_message"]))
        stderr = [line for line in (failing.get("stderr_tail") or "").splitlines() if line.strip()]
        if stderr:
            lines.append(_clip("stderr: " + " | ".join(stderr[-STDERR_LINES:])))
    elif tests:
        lines.append(f"{len(tests)} tests, max {r['max_cpu_time_ms']:.0f} ms CPU of "
                     f"{r.get('time_limit_ms')}, {r['max_memory_kb'] / 1024:.1f} MB")
    if r.get("first_verdict") and r["first_verdict"] != r["verdict"]:
        lines.append(f"{r['first_verdict']} before its re-run alone")
    where = r.get("graded_by") or {}
    if where.get("node_id"):      # judge eval --ray: the node and CPU of the judgment
        lines.append(_clip(f"graded on node {where.get('node')} ({where['node_id'][:8]}), "
                           f"CPU {where.get('cpu')}"))
    return "\n".join(lines)


def _report_data(summary: dict, records: list[dict]) -> dict:
    counted = [r for r in records if r.get("counted")]
    problems = sorted({r["problem_id"] for r in counted}, key=natural_order)
    pindex = {p: i for i, p in enumerate(problems)}
    samples = max((r["sample_index"] for r in counted), default=-1) + 1
    cells, cpu = [], []
    for r in counted:
        p = pindex[r["problem_id"]]
        cells.append([p, r["sample_index"], r["verdict"], r["language"] or "?", cell_detail(r)])
        limit = r.get("time_limit_ms")
        if r.get("tests") and limit:
            cpu.append([p, r["sample_index"], round(r["max_cpu_time_ms"] / limit, 4), r["verdict"],
                        r["language"] or "?"])
    present = set(summary["verdicts"])
    passk = {"all": summary.get("pass_at_k", {})}
    for lang, d in summary.get("by_language", {}).items():
        passk[lang] = d["pass_at_k"]
    return {"matrix": {"problems": problems, "samples": samples, "cells": cells},
            "verdicts": [v for v in Verdict if v in present] + sorted(present - set(Verdict)),
            "colors": VERDICT_COLORS, "byLanguage": summary["verdicts_by_language"],
            "passk": passk, "cpu": cpu}


def _e(x: Any) -> str:
    return html.escape(str(x))


def _metrics_table(summary: dict) -> tuple[str, list[str]]:
    """The metrics table's header and rows: all languages, then each."""
    ks = list(summary.get("pass_at_k", {}))
    rows = []
    if summary["num_samples"]:
        entries = [("all", summary)] + list(summary["by_language"].items())
        for name, d in entries:
            sp = d.get("spread") or {}
            rows.append("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in (
                name, d["num_samples"], d["num_problems"], figure(d["avg_at_n"]),
                *[figure(d["pass_at_k"].get(k)) for k in ks], figure(sp.get("std")),
                figure(sp.get("stderr")))) + "</tr>")
    head = "".join(f"<th>{_e(h)}</th>" for h in ("language", "samples", "problems", "avg@n",
                                                *[f"pass@{k}" for k in ks], "std", "stderr"))
    return head, rows


def _kpis(summary: dict) -> str:
    ratings = summary.get("ratings", {})
    kpis = [("samples", summary["num_samples"]), ("problems", summary["num_problems"]),
            ("pass@1", figure(summary.get("pass_at_k", {}).get("1")))]
    if ratings.get("codeelo", {}).get("rating") is not None:
        kpis.append(("CodeElo rating", f"{ratings['codeelo']['rating']:.0f}"))
    if ratings.get("mle", {}).get("rating") is not None:
        kpis.append(("MLE rating", f"{ratings['mle']['rating']:.0f} ± {ratings['mle']['stderr']:.0f}"))
    kpis.append(("TLE re-runs (changed)", f"{summary['reruns']['count']} ({summary['reruns']['changed']})"))
    return "".join(f"<div class='kpi'><b>{_e(v)}</b><span>{_e(k)}</span></div>" for k, v in kpis)


def _skipped_table(summary: dict) -> str:
    skipped = "".join(f"<tr><td>{_e(s['row'])}</td><td>{_e(s['problem_id'])}</td>"
                      f"<td style='text-align:left'>{_e(s['reason'])}</td></tr>"
                      for s in summary.get("skipped", []))
    return ('<h2 style="margin-top:12px">Skipped rows</h2><table><thead><tr><th>row</th>'
            '<th>problem</th><th>reason</th></tr></thead><tbody>' + skipped + '</tbody></table>'
            if skipped else '')


def render_html(summary: dict, records: list[dict]) -> str:
    # No "<", ">" or "&" reaches the page raw: a checker message or a row's reason holding
    # "</script>" or "<!--" cannot end the data block or change how the parser reads it.
    data = (json.dumps(_report_data(summary, records))
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))
    head, rows = _metrics_table(summary)
    kpi_html = _kpis(summary)
    problem_rows = "".join(
        f"<tr><td>{_e(pid)}</td><td>{d['n']}</td><td>{d['c']}</td><td>{figure(d['avg'])}</td></tr>"
        for pid, d in summary.get("problems", {}).items())
    skipped_table = _skipped_table(summary)
    provenance = summary["provenance"]
    host = provenance["host"]
    tool = "".join(f"<tr><td>{_e(k)}</td><td style='text-align:left'>{_e(v)}</td></tr>"
                   for k, v in provenance["toolchains"].items())
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>judge eval report</title><style>{_asset("report.css")}</style></head>
<body>
<header><h1>judge eval report</h1>
<p>{_e(summary['dataset'])} · {_e(summary['generations'])} · {_e(summary['created'])}</p>
<p class="{'muted' if provenance['trusted'] else 'warning'}">{_e(provenance_line(provenance))}
 · {_e(host['cpu_model'])}</p></header>
<main>
{''.join(f'<p class="warning"><b>{_e(w)}</b></p>' for w in summary.get("warnings", []))}
<div id="js-errors"></div>
<div class="kpis">{kpi_html}</div>
<section><h2>Metrics</h2><table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>
<p class="muted">pass@k: unbiased estimator, mean over problems; std/stderr: spread of the
per-sample-index accuracy across sample indices.</p></section>
<section><h2>Verdicts: problem × sample</h2><div id="plot-matrix"></div></section>
<div class="grid">
<section><h2>Verdict distribution per language</h2><div id="plot-verdicts"></div></section>
<section><h2>pass@k</h2><div id="plot-passk"></div></section>
</div>
<section style="margin-top:18px"><h2>Max CPU time / time limit, per sample</h2><div id="plot-cpu"></div></section>
<div class="grid">
<section><h2>Problems</h2><table><thead><tr><th>problem</th><th>n</th><th>c</th><th>avg</th></tr></thead>
<tbody>{problem_rows}</tbody></table></section>
<section><h2>Run</h2><table><tbody>
<tr><td>judged now / from store</td><td>{summary['run']['judged_now']} / {summary['run']['from_store']}</td></tr>
<tr><td>wall time</td><td>{summary['run']['wall_s']:.1f} s</td></tr>
<tr><td>jobs (cores)</td><td>{_e(summary['run']['jobs'])} ({_e(host['cpus'])})</td></tr>
</tbody></table><h2 style="margin-top:12px">Toolchains</h2><table><tbody>{tool}</tbody></table>
{skipped_table}
</section></div>
<p id="render-status" class="muted" data-charts="0">charts not rendered (JavaScript off?)</p>
</main>
<script type="application/json" id="report-data">{data}</script>
<script>{_asset("report.js")}</script>
</body></html>
"""


__all__ = ["render_html", "cell_detail"]
