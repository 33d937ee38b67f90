"""What an evaluation produces: per-sample results (results.jsonl), the summary (summary.json, a
terminal table) and a single-file HTML report with plots drawn by inline JavaScript as SVG
(no external resource of any kind)."""
from __future__ import annotations

import html
import json
import math
import os
import re
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from judge import JudgeError
from judge.evaluate.metrics import DEFAULT_KS, SampleResult, summarize
from judge.evaluate.ratings import contest_rating, mle_rating
from judge.problems.model import natural_order
from judge.verdicts import JUDGE_FAILURES, VERDICT_COLORS, Verdict

LOG_LIMIT = 2000
_CF_ID = re.compile(r"^codeforces/(\d+)([A-Za-z]\d*)$")


# ------------------------------------------------------------------------------ inputs

def _json_file(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise JudgeError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise JudgeError(f"{path}: not valid JSON ({exc})") from None


def load_standings(directory: Path) -> dict[str, dict]:
    """Contest standings and rating changes in the Codeforces API shapes, one JSON file each
    (``contest.standings`` and ``contest.ratingChanges`` results, with or without the API's
    ``{"status": "OK", "result": ...}`` envelope), any file names, paired by contest id."""
    directory = Path(directory)
    if not directory.is_dir():
        raise JudgeError(f"--standings: not a directory: {directory}")
    contests: dict[str, dict] = defaultdict(dict)
    files = sorted(p for p in directory.rglob("*.json") if p.is_file())
    if not files:
        raise JudgeError(f"--standings: no .json files in {directory}")
    for path in files:
        data = _json_file(path)
        if isinstance(data, dict) and "result" in data and "status" in data:
            if data.get("status") != "OK":
                raise JudgeError(f"{path}: the Codeforces API answered {data.get('status')!r}")
            data = data["result"]
        digits = re.search(r"\d+", path.stem)
        if isinstance(data, dict) and "rows" in data and "problems" in data:
            cid = (data.get("contest") or {}).get("id") or (digits.group() if digits else None)
            kind = "standings"
        elif isinstance(data, list) and all(isinstance(x, dict) for x in data) and \
                any("oldRating" in x for x in data):
            ids = {x.get("contestId") for x in data if x.get("contestId") is not None}
            cid = ids.pop() if len(ids) == 1 else (digits.group() if digits else None)
            kind = "rating_changes"
        else:
            raise JudgeError(f"{path}: neither contest standings (problems, rows) nor rating "
                             "changes (a list with oldRating)")
        if cid is None:
            raise JudgeError(f"{path}: cannot tell the contest id (no contest.id / contestId, "
                             "no number in the file name)")
        if kind in contests[str(cid)]:
            raise JudgeError(f"{path}: second {kind} file for contest {cid}")
        contests[str(cid)][kind] = data
    for cid, parts in contests.items():
        for kind in ("standings", "rating_changes"):
            if kind not in parts:
                raise JudgeError(f"--standings: contest {cid} has no {kind.replace('_', ' ')} file")
    return dict(contests)


def load_rating_map(path: Path) -> dict[str, float]:
    data = _json_file(Path(path))
    if not isinstance(data, dict):
        raise JudgeError(f"{path}: expected a JSON object {{problem_id: rating}}")
    out: dict[str, float] = {}
    for key, value in data.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise JudgeError(f"{path}: rating of {key!r} must be a number, got {value!r}")
        out[str(key)] = float(value)
        try:
            from judge.problems.registry import candidate_ids
            for cid in candidate_ids(str(key)):
                out.setdefault(cid, float(value))
        except JudgeError:
            pass
    return out


# ------------------------------------------------------------------------------ building

def _sample_record(s, stored, run_id: int | None) -> dict:
    rec: dict[str, Any] = {"row": s.gen.row, "problem_id": s.problem_id,
                           "sample_index": s.sample_index, "language": s.language}
    if s.verdict in (Verdict.NO_CODE, Verdict.UNGRADABLE, Verdict.SKIPPED):
        rec.update(verdict=s.verdict, passed=False, reason=s.reason,
                   counted=s.verdict != Verdict.SKIPPED, excluded=s.verdict == Verdict.SKIPPED,
                   skipped_on_request=s.skipped_on_request)
        return rec
    if stored is None:
        rec.update(verdict=Verdict.SE, passed=False, reason="no result was stored", counted=False,
                   excluded=True)
        return rec
    r = stored.result
    compile_info = dict(r.get("compile", {}))
    if len(compile_info.get("log", "")) > LOG_LIMIT:
        compile_info["log"] = compile_info["log"][:LOG_LIMIT] + "\n[...]"
    rec.update(
        verdict=stored.verdict, passed=stored.verdict == Verdict.AC,
        counted=stored.verdict not in JUDGE_FAILURES, excluded=stored.verdict in JUDGE_FAILURES,
        reason=r.get("error", ""), key=s.jk.key, code_hash=s.jk.code_hash, state=stored.state,
        from_store=stored.run_id != run_id, judged_in_run=stored.run_id,
        reruns=stored.reruns, first_verdict=stored.first_verdict,
        time_limit_ms=r.get("time_limit_ms"), memory_limit_mb=r.get("memory_limit_mb"),
        max_cpu_time_ms=r.get("max_cpu_time_ms"), max_memory_kb=r.get("max_memory_kb"),
        compile=compile_info,
        tests=[{k: t.get(k) for k in ("index", "verdict", "cpu_time_ms", "wall_time_ms",
                                      "memory_kb", "exit_code", "signal", "checker_message")}
               for t in r.get("tests", [])],
        timing={k: round(v, 2) for k, v in stored.timing.items()},
    )
    return rec


def _pass_dict(pass_at_k: dict) -> dict:
    return {str(k): v for k, v in sorted(pass_at_k.items())}


def _spread(sp) -> dict:
    return {"runs": sp.runs, "std": sp.std, "stderr": sp.stderr,
            "run_accuracies": list(sp.run_accuracies)}


def _ratings(counts: dict[str, tuple[int, int]], problems: dict, standings: dict | None,
             rating_map: dict | None) -> dict:
    out: dict[str, Any] = {}
    if standings:
        by_contest: dict[str, dict[str, tuple[int, int]]] = defaultdict(dict)
        for pid, (n, c) in counts.items():
            m = _CF_ID.match(pid)
            if m:
                by_contest[m.group(1)][m.group(2).upper()] = (c, n)
        contests, errors = [], []
        for cid, solved in sorted(by_contest.items()):
            if cid not in standings:
                errors.append(f"contest {cid}: no standings given")
                continue
            try:
                cr = contest_rating(standings[cid]["standings"], standings[cid]["rating_changes"],
                                    solved, contest_id=cid)
            except JudgeError as exc:
                errors.append(str(exc))
                continue
            contests.append({"contest_id": cid, "score": cr.score, "rank": cr.rank,
                             "participants": cr.participants, "rating": cr.rating,
                             "problem_scores": cr.problem_scores})
        entry: dict[str, Any] = {"method": "codeelo", "contests": contests, "errors": errors}
        entry["rating"] = (math.fsum(c["rating"] for c in contests) / len(contests)) if contests else None
        out["codeelo"] = entry
    triples = []
    for pid, (n, c) in sorted(counts.items()):
        rating = None
        if rating_map is not None:
            rating = rating_map.get(pid)
        if rating is None and problems.get(pid) is not None:
            rating = problems[pid].rating
        if rating is not None:
            triples.append((float(rating), c, n))
    if triples:
        try:
            m = mle_rating(triples)
            out["mle"] = {"rating": m.rating, "stderr": m.stderr, "method": m.method,
                          "num_problems": m.num_problems, "prior_mean": m.prior_mean,
                          "prior_sd": m.prior_sd}
        except JudgeError as exc:
            out["mle"] = {"rating": None, "error": str(exc)}
    return out


def build(cfg, spec, samples, final: dict, stats: dict, standings, rating_map, out: Path,
          provenance):
    from judge.evaluate.runner import EvalResult
    from judge.languages import LANGUAGES
    run_id = stats.get("run_id")
    records = [_sample_record(s, final.get(s.jk.key) if s.jk else None, run_id) for s in samples]
    counted = [r for r in records if r.get("counted")]
    problems = {s.problem_id: s.problem for s in samples if s.problem is not None}

    results = [SampleResult(r["problem_id"], r["passed"], r["sample_index"], r["language"])
               for r in counted]
    summary: dict[str, Any] = {"dataset": spec.label,
                               "generations": (str(cfg.generations)
                                               if isinstance(cfg.generations, (str, Path))
                                               else f"{len(samples)} rows in memory"),
                               "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    counts: dict[str, tuple[int, int]] = {}
    if results:
        s = summarize(results, DEFAULT_KS)
        counts = {p.problem_id: (p.n, p.c) for p in s.problems}
        summary.update(
            num_samples=s.num_samples, num_problems=s.num_problems, avg_at_n=s.avg_at_n,
            pass_at_k=_pass_dict(s.pass_at_k), spread=_spread(s.spread),
            problems={p.problem_id: {"n": p.n, "c": p.c, "avg": p.avg,
                                     "pass_at_k": _pass_dict(p.pass_at_k)} for p in s.problems},
            by_language={lang: {"num_samples": ls.num_samples, "num_problems": ls.num_problems,
                                "avg_at_n": ls.avg_at_n, "pass_at_k": _pass_dict(ls.pass_at_k),
                                "spread": _spread(ls.spread),
                                "problems": {p.problem_id: {"n": p.n, "c": p.c} for p in ls.problems}}
                         for lang, ls in s.per_language.items()},
        )
    else:
        summary.update(num_samples=0, num_problems=0, avg_at_n=None, pass_at_k={}, spread=None,
                       problems={}, by_language={})
    summary["verdicts"] = dict(sorted(Counter(r["verdict"] for r in counted).items()))
    by_lang: dict[str, Counter] = defaultdict(Counter)
    for r in counted:
        by_lang[r["language"] or "unknown"][r["verdict"]] += 1
    summary["verdicts_by_language"] = {k: dict(sorted(v.items())) for k, v in sorted(by_lang.items())}

    seen: set[str] = set()
    rerun_count = changed = 0
    changes = []
    for s in samples:
        st = final.get(s.jk.key) if s.jk else None
        if st is None or s.jk.key in seen:
            continue
        seen.add(s.jk.key)
        if st.reruns:
            rerun_count += 1
            if st.first_verdict and st.first_verdict != st.verdict:
                changed += 1
                changes.append({"problem_id": s.problem_id, "language": s.language,
                                "from": st.first_verdict, "to": st.verdict})
    summary["reruns"] = {"count": rerun_count, "changed": changed, "changes": changes,
                         "rule": "TLE re-run alone when CPU time was within 0.8-1.5x the limit, "
                                 "or any TLE when more than one slot ran"}
    summary["ratings"] = _ratings(counts, problems, standings, rating_map)
    summary["skipped"] = [{"row": r["row"], "problem_id": r["problem_id"], "reason": r["reason"]}
                          for r in records if r["verdict"] == Verdict.SKIPPED]
    langs = sorted({r["language"] for r in counted if r["language"] in LANGUAGES})
    summary["limits"] = {
        "time_factors": {lang: LANGUAGES[lang].time_factor for lang in langs},
        "problems": {pid: {"time_limit_ms": p.time_limit_ms, "memory_limit_mb": p.memory_limit_mb}
                     for pid, p in sorted(problems.items(), key=lambda item: natural_order(item[0]))
                     if pid in counts},
        "stop_at_first_failure": True,
    }
    summary["provenance"] = provenance.to_dict()
    wall = stats.get("wall_ms", 0.0)
    judged = stats.get("judged", 0)
    phase_wall = sum(stats.get("phase_wall_ms", {}).values())
    summary["run"] = {
        "samples": len(samples), "unique_programs": stats.get("unique_programs", 0),
        "judged_now": stats.get("judged_parallel", 0), "reruns_now": stats.get("judged_rerun", 0),
        "from_store": stats.get("cached", 0), "wall_s": wall / 1e3,
        "judging_wall_s": phase_wall / 1e3,
        "samples_per_min": (judged / (phase_wall / 6e4)) if phase_wall > 0 and judged else None,
        "phase_ms": {k: stats.get(k, 0.0) for k in ("grade_ms", "compile_ms", "run_ms", "check_ms")},
        "slots": stats.get("slots", {}), "jobs": stats.get("jobs"),
    }
    summary.update(_completeness(records))
    summary["warnings"][:0] = provenance.warnings

    out.mkdir(parents=True, exist_ok=True)
    _atomic_write(out / "results.jsonl", "".join(json.dumps(r) + "\n" for r in records))
    _atomic_write(out / "summary.json", json.dumps(summary, indent=2) + "\n")
    _atomic_write(out / "report.html", render_html(summary, records))
    return EvalResult(summary=summary, samples=records, out=out, stats=stats)


def _completeness(records: list[dict]) -> dict:
    """Whether the metrics cover every row: samples the judge failed on (SE, a checker's FAIL)
    or could not take (an unknown problem, a toolchain missing here) are left out of them,
    never scored as the model's failures, and the run is marked incomplete."""
    left_out = [r for r in records if r.get("excluded") and not r.get("skipped_on_request")]
    by_verdict = dict(sorted(Counter(r["verdict"] for r in left_out).items()))
    info: dict[str, Any] = {
        "complete": not left_out,
        "excluded": {"count": len(left_out), "by_verdict": by_verdict,
                     "samples": [{"row": r["row"], "problem_id": r["problem_id"],
                                  "verdict": r["verdict"], "reason": (r.get("reason") or "")[:300]}
                                 for r in left_out[:100]]},
        "warnings": [],
    }
    if left_out:
        parts = ", ".join(f"{n} {v}" for v, n in by_verdict.items())
        info["warnings"].append(
            f"INCOMPLETE: {len(left_out)} sample(s) are left out of the metrics ({parts}): the "
            "judge could not grade them; SE samples are judged again on the next run")
    on_request = sum(1 for r in records if r.get("skipped_on_request"))
    if on_request:
        info["warnings"].append(f"{on_request} ungradable sample(s) left out (--skip-ungradable)")
    return info


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


# ------------------------------------------------------------------------------ terminal

def _fmt(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def provenance_line(p: dict) -> str:
    sandbox, audit = p["sandbox"], p["audit"]
    when = audit.get("outcome", {}).get("created")
    return (f"judge {p['judge_version']} · cgroup {sandbox['cgroup']}, {sandbox['uid_mode']}"
            f"{', root' if sandbox['root'] else ''} · kernel {p['host']['kernel']}"
            f"{' · ' + p['host']['container'] if p['host']['container'] else ''} · "
            f"audit {audit['status']}" + (f" ({when})" if when else ""))


def render_terminal(summary: dict, console, out: Path | None = None) -> None:
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
        table.add_row(name, str(d["num_samples"]), str(d["num_problems"]), _fmt(d["avg_at_n"]),
                      *[_fmt(d["pass_at_k"].get(k)) for k in ks], _fmt(sp.get("std")),
                      _fmt(sp.get("stderr")), style=style)
    if summary["num_samples"]:
        row("all", summary, "bold")
        for lang, d in summary["by_language"].items():
            row(lang, d)
    console.print(table)
    verdicts = Table(title="verdicts")
    langs = list(summary["verdicts_by_language"])
    verdicts.add_column("verdict")
    for lang in langs:
        verdicts.add_column(lang, justify="right")
    verdicts.add_column("all", justify="right")
    for v in [v for v in Verdict if v in summary["verdicts"]]:
        verdicts.add_row(v, *[str(summary["verdicts_by_language"][lang].get(v, 0)) for lang in langs],
                         str(summary["verdicts"][v]))
    if summary["verdicts"]:
        console.print(verdicts)
    rr = summary["reruns"]
    console.print(f"TLE re-runs: {rr['count']} (verdict changed: {rr['changed']})")
    ratings = summary.get("ratings", {})
    if "codeelo" in ratings:
        ce = ratings["codeelo"]
        console.print(f"CodeElo rating: {_fmt(ce['rating'], 0)} over {len(ce['contests'])} contest(s)"
                      + (f"; {len(ce['errors'])} contest(s) not rated" if ce["errors"] else ""))
    if "mle" in ratings:
        m = ratings["mle"]
        if m.get("rating") is not None:
            console.print(f"MLE rating: {m['rating']:.0f} ± {m['stderr']:.0f} "
                          f"({m['num_problems']} rated problems)")
        else:
            console.print(f"MLE rating: not computed ({m.get('error')})")
    run = summary["run"]
    console.print(f"{run['samples']} rows, {run['unique_programs']} distinct programs: judged "
                  f"{run['judged_now']} now (+{run['reruns_now']} re-runs), {run['from_store']} "
                  f"from the store; {len(summary['skipped'])} row(s) skipped; wall {run['wall_s']:.1f} s")
    console.print(provenance_line(summary["provenance"]), highlight=False)
    for w in summary.get("warnings", []):
        style = "red bold" if w.startswith(("INCOMPLETE", "UNAUDITED")) else "yellow"
        console.print(f"[{style}]warning:[/] {w}", markup=True, highlight=False)
    if out is not None:
        console.print(f"reports: {out / 'summary.json'}, {out / 'results.jsonl'}, {out / 'report.html'}")


# ------------------------------------------------------------------------------ HTML

_CSS = """
body{font:14px/1.45 -apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;margin:0;
 background:#f6f7f9;color:#1d232b}
header{background:#1d232b;color:#fff;padding:18px 28px}
header h1{margin:0;font-size:20px;font-weight:600}
.warning{background:#fdecea;border:1px solid #d9453d;color:#7f1d1d;padding:10px 14px;border-radius:6px}
header p{margin:4px 0 0;color:#b8c0cc;font-size:13px}
main{padding:18px 28px;max-width:1280px}
section{background:#fff;border:1px solid #e1e4e8;border-radius:8px;padding:14px 18px;margin:0 0 18px}
h2{font-size:16px;margin:0 0 10px}
.grid{display:grid;grid-template-columns:1fr 1fr;gap:18px}
.grid section{margin:0}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{padding:4px 10px;border-bottom:1px solid #eceef1;text-align:right}
th:first-child,td:first-child{text-align:left}
th{font-weight:600;color:#57606a;font-size:12px;text-transform:uppercase;letter-spacing:.03em}
.kpis{display:flex;gap:14px;flex-wrap:wrap;margin-bottom:18px}
.kpi{background:#fff;border:1px solid #e1e4e8;border-radius:8px;padding:10px 16px;min-width:120px}
.kpi b{display:block;font-size:22px}
.kpi span{color:#57606a;font-size:12px}
.legend{display:flex;flex-wrap:wrap;gap:10px;font-size:12px;margin-top:6px}
.legend i{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:4px;
 vertical-align:-1px}
svg text{font-size:11px;fill:#333}
#js-errors{color:#b00020;white-space:pre-wrap}
.muted{color:#6a737d;font-size:12px}
"""

_JS = r"""
(function () {
  var errorBox = document.getElementById('js-errors');
  var MARK = ['JS', 'ERROR'].join('-') + ': ';   // not spelled out: the DOM holds this script
  window.onerror = function (msg, src, line, col) {
    errorBox.textContent += MARK + msg + ' (line ' + line + ')\n';
  };
  var D = JSON.parse(document.getElementById('report-data').textContent);
  var NS = 'http://www.w3.org/2000/svg';
  function el(name, attrs, parent, text) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function svg(host, w, h, chart) {
    var s = el('svg', {width: w, height: h, viewBox: '0 0 ' + w + ' ' + h, 'class': 'chart',
                       'data-chart': chart, role: 'img'});
    document.getElementById(host).appendChild(s);
    return s;
  }
  function color(v) { return D.colors[v] || '#999'; }
  function tip(node, text) { el('title', {}, node, text); }
  function legend(host, items) {
    var box = document.createElement('div'); box.className = 'legend';
    items.forEach(function (it) {
      var s = document.createElement('span');
      var i = document.createElement('i'); i.style.background = it[1];
      s.appendChild(i); s.appendChild(document.createTextNode(it[0])); box.appendChild(s);
    });
    document.getElementById(host).appendChild(box);
  }
  var palette = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b'];
  var drawn = 0;

  function matrix() {
    var P = D.matrix.problems, S = D.matrix.samples;
    if (!P.length) return;
    var cell = Math.max(5, Math.min(24, Math.floor(760 / Math.max(S, 1))));
    var rowH = Math.max(5, Math.min(22, cell));
    var labels = rowH >= 10, left = labels ? 200 : 20, top = 24;
    var s = svg('plot-matrix', left + S * cell + 20, top + P.length * rowH + 10, 'matrix');
    if (labels) P.forEach(function (p, r) {
      el('text', {x: left - 6, y: top + r * rowH + rowH * 0.7, 'text-anchor': 'end'}, s,
         p.length > 30 ? p.slice(0, 29) + '…' : p);
    });
    for (var c = 0; c < S; c += Math.max(1, Math.ceil(S / 20)))
      el('text', {x: left + c * cell + cell / 2, y: top - 8, 'text-anchor': 'middle'}, s, '' + c);
    D.matrix.cells.forEach(function (m) {
      var r = el('rect', {x: left + m[1] * cell + 1, y: top + m[0] * rowH + 1,
                          width: cell - 2, height: rowH - 2, rx: 2, fill: color(m[2]),
                          'class': 'cell'}, s);
      tip(r, P[m[0]] + ' sample ' + m[1] + ' (' + m[3] + '): ' + m[2] + (m[4] ? '\n' + m[4] : ''));
    });
    legend('plot-matrix', D.verdicts.map(function (v) { return [v, color(v)]; }));
    drawn++;
  }

  function distribution() {
    var langs = Object.keys(D.byLanguage);
    if (!langs.length) return;
    var W = 560, left = 80, barH = 26, top = 10, w = W - left - 20;
    var s = svg('plot-verdicts', W, top + langs.length * (barH + 12) + 24, 'verdicts');
    langs.forEach(function (lang, i) {
      var counts = D.byLanguage[lang], total = 0, x = left, y = top + i * (barH + 12);
      D.verdicts.forEach(function (v) { total += counts[v] || 0; });
      el('text', {x: left - 8, y: y + barH * 0.65, 'text-anchor': 'end'}, s, lang);
      D.verdicts.forEach(function (v) {
        var n = counts[v] || 0; if (!n) return;
        var bw = w * n / total;
        var r = el('rect', {x: x, y: y, width: Math.max(bw, 1), height: barH, fill: color(v),
                            'class': 'bar'}, s);
        tip(r, lang + ' ' + v + ': ' + n + ' of ' + total);
        if (bw > 26) el('text', {x: x + bw / 2, y: y + barH * 0.65, 'text-anchor': 'middle',
                                  fill: '#fff', style: 'fill:#fff'}, s, '' + n);
        x += bw;
      });
    });
    var ay = top + langs.length * (barH + 12) + 8;
    [0, 25, 50, 75, 100].forEach(function (p) {
      el('text', {x: left + w * p / 100, y: ay + 8, 'text-anchor': 'middle'}, s, p + '%');
    });
    legend('plot-verdicts', D.verdicts.map(function (v) { return [v, color(v)]; }));
    drawn++;
  }

  function passk() {
    var series = D.passk, names = Object.keys(series);
    var ks = [];
    names.forEach(function (n) { Object.keys(series[n]).forEach(function (k) {
      if (ks.indexOf(+k) < 0) ks.push(+k); }); });
    if (!ks.length) return;
    ks.sort(function (a, b) { return a - b; });
    var W = 560, H = 300, L = 48, R = 16, T = 14, B = 36;
    var s = svg('plot-passk', W, H, 'passk');
    var lo = Math.log2(ks[0]), hi = Math.log2(ks[ks.length - 1]);
    function X(k) { return hi > lo ? L + (Math.log2(k) - lo) / (hi - lo) * (W - L - R) : (L + W - R) / 2; }
    function Y(v) { return T + (1 - v) * (H - T - B); }
    [0, 0.25, 0.5, 0.75, 1].forEach(function (v) {
      el('line', {x1: L, x2: W - R, y1: Y(v), y2: Y(v), stroke: '#e5e7eb'}, s);
      el('text', {x: L - 6, y: Y(v) + 4, 'text-anchor': 'end'}, s, v.toFixed(2));
    });
    ks.forEach(function (k) { el('text', {x: X(k), y: H - B + 16, 'text-anchor': 'middle'}, s, '' + k); });
    el('text', {x: (L + W - R) / 2, y: H - 4, 'text-anchor': 'middle'}, s, 'k (samples drawn)');
    var items = [];
    names.forEach(function (n, i) {
      var c = n === 'all' ? '#111' : palette[i % palette.length];
      var pts = Object.keys(series[n]).map(Number).sort(function (a, b) { return a - b; });
      var d = pts.map(function (k, j) { return (j ? 'L' : 'M') + X(k) + ' ' + Y(series[n][k]); }).join(' ');
      el('path', {d: d, fill: 'none', stroke: c, 'stroke-width': n === 'all' ? 3 : 2,
                  'class': 'curve'}, s);
      pts.forEach(function (k) {
        var p = el('circle', {cx: X(k), cy: Y(series[n][k]), r: 3.5, fill: c}, s);
        tip(p, n + ' pass@' + k + ' = ' + series[n][k].toFixed(4));
      });
      items.push([n, c]);
    });
    legend('plot-passk', items);
    drawn++;
  }

  function cpu() {
    var pts = D.cpu;
    if (!pts.length) return;
    var W = 1180, H = 310, L = 48, R = 16, T = 14, B = 40, top = 1.6;
    var s = svg('plot-cpu', W, H, 'cpu');
    var P = D.matrix.problems.length;
    function X(p, i) { return L + (p + 0.15 + 0.7 * (i / Math.max(D.matrix.samples - 1, 1))) / P * (W - L - R); }
    function Y(v) { return T + (1 - Math.min(v, top) / top) * (H - T - B); }
    el('rect', {x: L, y: Y(1.5), width: W - L - R, height: Y(0.8) - Y(1.5), fill: '#fdf1dc'}, s);
    [0, 0.5, 0.8, 1, 1.5].forEach(function (v) {
      el('line', {x1: L, x2: W - R, y1: Y(v), y2: Y(v), stroke: v === 1 ? '#d9453d' : '#e5e7eb',
                  'stroke-dasharray': v === 1 ? '5 3' : ''}, s);
      el('text', {x: L - 6, y: Y(v) + 4, 'text-anchor': 'end'}, s, v + '×');
    });
    el('text', {x: W - R, y: Y(1) - 5, 'text-anchor': 'end'}, s, 'time limit');
    for (var p = 0; p < P; p++) {
      var x0 = L + p / P * (W - L - R);
      if (p) el('line', {x1: x0, x2: x0, y1: T, y2: H - B, stroke: '#eef0f3'}, s);
      if (P <= 24) {
        var name = D.matrix.problems[p], room = (W - L - R) / P / 6.5;
        el('text', {x: x0 + (W - L - R) / P / 2, y: H - B + 13, 'text-anchor': 'middle',
                    'class': 'muted'}, s, name.length > room ? name.slice(0, Math.max(room - 1, 3)) + '…' : name);
      }
    }
    el('text', {x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle'}, s,
       'samples, grouped by problem (band: 0.8–1.5× re-run zone)');
    pts.forEach(function (q) {
      var c = el('circle', {cx: X(q[0], q[1]), cy: Y(q[2]), r: 4, fill: color(q[3]),
                            'fill-opacity': 0.85, 'class': 'dot'}, s);
      tip(c, D.matrix.problems[q[0]] + ' sample ' + q[1] + ' (' + q[4] + '): ' + q[3] +
          ', max CPU ' + (q[2] * 100).toFixed(1) + '% of the limit');
    });
    legend('plot-cpu', D.verdicts.map(function (v) { return [v, color(v)]; }));
    drawn++;
  }

  [matrix, distribution, passk, cpu].forEach(function (f) {
    try { f(); } catch (e) { errorBox.textContent += MARK + f.name + ': ' + e + '\n'; }
  });
  var status = document.getElementById('render-status');
  status.setAttribute('data-charts', '' + drawn);
  status.textContent = 'charts rendered: ' + drawn;
})();
"""


DETAIL_CHARS = 300


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
    elif tests:
        lines.append(f"{len(tests)} tests, max {r['max_cpu_time_ms']:.0f} ms CPU of "
                     f"{r.get('time_limit_ms')}, {r['max_memory_kb'] / 1024:.1f} MB")
    if r.get("first_verdict") and r["first_verdict"] != r["verdict"]:
        lines.append(f"{r['first_verdict']} before its re-run alone")
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


def render_html(summary: dict, records: list[dict]) -> str:
    # No "<", ">" or "&" reaches the page raw: a checker message or a row's reason holding
    # "</script>" or "<!--" cannot end the data block or change how the parser reads it.
    data = (json.dumps(_report_data(summary, records))
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))
    ks = list(summary.get("pass_at_k", {}))
    rows = []
    if summary["num_samples"]:
        entries = [("all", summary)] + list(summary["by_language"].items())
        for name, d in entries:
            sp = d.get("spread") or {}
            rows.append("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in (
                name, d["num_samples"], d["num_problems"], _fmt(d["avg_at_n"]),
                *[_fmt(d["pass_at_k"].get(k)) for k in ks], _fmt(sp.get("std")),
                _fmt(sp.get("stderr")))) + "</tr>")
    head = "".join(f"<th>{_e(h)}</th>" for h in ("language", "samples", "problems", "avg@n",
                                                *[f"pass@{k}" for k in ks], "std", "stderr"))
    ratings = summary.get("ratings", {})
    kpis = [("samples", summary["num_samples"]), ("problems", summary["num_problems"]),
            ("pass@1", _fmt(summary.get("pass_at_k", {}).get("1")))]
    if ratings.get("codeelo", {}).get("rating") is not None:
        kpis.append(("CodeElo rating", f"{ratings['codeelo']['rating']:.0f}"))
    if ratings.get("mle", {}).get("rating") is not None:
        kpis.append(("MLE rating", f"{ratings['mle']['rating']:.0f} ± {ratings['mle']['stderr']:.0f}"))
    kpis.append(("TLE re-runs (changed)", f"{summary['reruns']['count']} ({summary['reruns']['changed']})"))
    kpi_html = "".join(f"<div class='kpi'><b>{_e(v)}</b><span>{_e(k)}</span></div>" for k, v in kpis)
    problem_rows = "".join(
        f"<tr><td>{_e(pid)}</td><td>{d['n']}</td><td>{d['c']}</td><td>{_fmt(d['avg'])}</td></tr>"
        for pid, d in summary.get("problems", {}).items())
    skipped = "".join(f"<tr><td>{_e(s['row'])}</td><td>{_e(s['problem_id'])}</td>"
                      f"<td style='text-align:left'>{_e(s['reason'])}</td></tr>"
                      for s in summary.get("skipped", []))
    provenance = summary["provenance"]
    host = provenance["host"]
    tool = "".join(f"<tr><td>{_e(k)}</td><td style='text-align:left'>{_e(v)}</td></tr>"
                   for k, v in provenance["toolchains"].items())
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>judge eval report</title><style>{_CSS}</style></head>
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
{('<h2 style="margin-top:12px">Skipped rows</h2><table><thead><tr><th>row</th><th>problem</th><th>reason</th></tr></thead><tbody>' + skipped + '</tbody></table>') if skipped else ''}
</section></div>
<p id="render-status" class="muted" data-charts="0">charts not rendered (JavaScript off?)</p>
</main>
<script type="application/json" id="report-data">{data}</script>
<script>{_JS}</script>
</body></html>
"""


__all__ = ["build", "render_terminal", "render_html", "load_standings", "load_rating_map",
           "provenance_line"]
