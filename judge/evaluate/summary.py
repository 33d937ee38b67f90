"""What an evaluation produces from its judgments: the per-sample records (results.jsonl), the
summary with its metrics, ratings, re-runs, completeness and provenance (summary.json), and the
HTML report, each written atomically."""
from __future__ import annotations

import json
import math
import os
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge import JudgeError
from judge.evaluate.html_report import render_html
from judge.evaluate.metrics import DEFAULT_KS, SampleResult, summarize
from judge.evaluate.ratings import contest_rating, mle_rating
from judge.exclusion import Evidence, EvidenceKind
from judge.problems.model import natural_order
from judge.verdicts import JUDGE_FAILURES, Verdict

LOG_LIMIT = 2000
_CF_ID = re.compile(r"^codeforces/(\d+)([A-Za-z]\d*)$")


@dataclass
class EvalResult:
    summary: dict
    samples: list[dict]
    out: Path
    stats: dict

    @property
    def complete(self) -> bool:
        """Whether the metrics cover every sample (summary.json's `complete`; `judge eval`
        exits 3 when they do not)."""
        return bool(self.summary["complete"])

    @property
    def incomplete(self) -> list[str]:
        """Why not: one line for each sample left out of the metrics, `row R (problem):
        VERDICT: reason`; empty when complete."""
        return [_why_left_out(r) for r in self.samples if left_out(r)]


def _why_left_out(record: dict) -> str:
    """`row R (problem): VERDICT: reason [evidence: kind: detail]`."""
    reason = " ".join((record.get("reason") or "").split())[:300]
    evidence = record.get("exclusion_evidence")
    return (f"row {record['row']} ({record['problem_id']}): {record['verdict']}"
            + (f": {reason}" if reason else "")
            + (f" [evidence: {evidence['kind']}: {evidence['detail'][:300]}]" if evidence else ""))


def left_out(record: dict) -> bool:
    """A sample the judge could not grade (SE, FAIL, BUSY, SKIPPED), left out of the metrics
    and never scored: the run is incomplete. Ungradable samples left out on request
    (--skip-ungradable) are not."""
    return bool(record.get("excluded")) and not record.get("skipped_on_request")


def _sample_record(s, stored, run_id: int | None) -> dict:
    rec: dict[str, Any] = {"row": s.gen.row, "problem_id": s.problem_id,
                           "sample_index": s.sample_index, "language": s.language}
    if s.verdict in (Verdict.NO_CODE, Verdict.UNGRADABLE, Verdict.SKIPPED):
        rec.update(verdict=str(s.verdict), passed=False, reason=s.reason,
                   counted=s.verdict != Verdict.SKIPPED, excluded=s.verdict == Verdict.SKIPPED,
                   skipped_on_request=s.skipped_on_request,
                   exclusion_evidence=s.evidence.to_dict() if s.evidence else None)
        if s.missing_toolchain:
            rec["missing_toolchain"] = s.missing_toolchain
        return rec
    if stored is None:
        rec.update(verdict=str(Verdict.SE), passed=False, reason="no result was stored", counted=False,
                   excluded=True, exclusion_evidence=Evidence(
                       EvidenceKind.JUDGE_ERROR, "the judge stored no result for this sample "
                       "(an interrupted run): it is judged on the next one").to_dict())
        return rec
    r = stored.result
    compile_info = dict(r.get("compile", {}))
    if len(compile_info.get("log", "")) > LOG_LIMIT:
        compile_info["log"] = compile_info["log"][:LOG_LIMIT] + "\n[...]"
    rec.update(
        verdict=str(stored.verdict), passed=stored.verdict == Verdict.AC,
        counted=stored.verdict not in JUDGE_FAILURES, excluded=stored.verdict in JUDGE_FAILURES,
        reason=r.get("error", ""), exclusion_evidence=r.get("exclusion_evidence"),
        key=s.jk.key, code_hash=s.jk.code_hash, state=stored.state,
        from_store=stored.run_id != run_id, judged_in_run=stored.run_id,
        reruns=stored.reruns, first_verdict=stored.first_verdict,
        time_limit_ms=r.get("time_limit_ms"), wall_time_limit_ms=r.get("wall_time_limit_ms"),
        time_rule=r.get("time_rule"), memory_limit_mb=r.get("memory_limit_mb"),
        max_cpu_time_ms=r.get("max_cpu_time_ms"), max_memory_kb=r.get("max_memory_kb"),
        compile=compile_info,
        tests=[{k: t.get(k) for k in ("index", "verdict", "cpu_time_ms", "wall_time_ms",
                                      "memory_kb", "exit_code", "signal", "checker_message",
                                      "killed_by", "stderr_tail", "interactor") if k in t}
               for t in r.get("tests", [])],
        timing={k: round(v, 2) for k, v in stored.timing.items()},
    )
    if r.get("graded_by"):
        rec["graded_by"] = r["graded_by"]      # node (with --ray), CPU and slot of the judgment
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
        contests: list[dict[str, Any]] = []
        errors: list[str] = []
        ratings: list[float] = []
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
            ratings.append(cr.rating)
        entry: dict[str, Any] = {"method": "codeelo", "contests": contests, "errors": errors}
        entry["rating"] = math.fsum(ratings) / len(ratings) if ratings else None
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
            mle = mle_rating(triples)
            out["mle"] = {"rating": mle.rating, "stderr": mle.stderr, "method": mle.method,
                          "num_problems": mle.num_problems, "prior_mean": mle.prior_mean,
                          "prior_sd": mle.prior_sd}
        except JudgeError as exc:
            out["mle"] = {"rating": None, "error": str(exc)}
    return out


def build(cfg, spec, samples, final: dict, stats: dict, standings, rating_map, out: Path,
          provenance):
    run_id = stats.get("run_id")
    records = [_sample_record(s, final.get(s.jk.key) if s.jk else None, run_id) for s in samples]
    counted = [r for r in records if r.get("counted")]
    problems = {s.problem_id: s.problem for s in samples if s.problem is not None}
    summary: dict[str, Any] = {"dataset": spec.label,
                               "generations": (str(cfg.generations)
                                               if isinstance(cfg.generations, (str, Path))
                                               else f"{len(samples)} rows in memory"),
                               "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    counts = _add_metrics(summary, counted)
    summary.update(_verdict_counts(counted))
    summary["reruns"] = _reruns(samples, final)
    summary["ratings"] = _ratings(counts, problems, standings, rating_map)
    summary["skipped"] = [{"row": r["row"], "problem_id": r["problem_id"], "reason": r["reason"],
                           "exclusion_evidence": r.get("exclusion_evidence")}
                          for r in records if r["verdict"] == Verdict.SKIPPED]
    summary["limits"] = _limits(counted, problems, counts)
    summary["provenance"] = provenance.to_dict()
    summary["run"] = _run_figures(stats, samples)
    summary.update(_completeness(records))
    summary["warnings"][:0] = provenance.warnings
    summary["warnings"].extend(missing_toolchain_warnings(samples))
    _add_builds(summary, records, stats, provenance)
    if "cluster" in stats:
        summary["cluster"] = _cluster(stats["cluster"], records)
        summary["warnings"].extend(_cluster_warnings(summary["cluster"]))
    _write_reports(out, summary, records)
    return EvalResult(summary=summary, samples=records, out=out, stats=stats)


def _add_metrics(summary: dict[str, Any], counted: list[dict]) -> dict[str, tuple[int, int]]:
    """avg@n, pass@k and the spread, overall, per problem and per language; returns each
    problem's (n, c)."""
    results = [SampleResult(r["problem_id"], r["passed"], r["sample_index"], r["language"])
               for r in counted]
    if not results:
        summary.update(num_samples=0, num_problems=0, avg_at_n=None, pass_at_k={}, spread=None,
                       problems={}, by_language={})
        return {}
    s = summarize(results, DEFAULT_KS)
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
    return {p.problem_id: (p.n, p.c) for p in s.problems}


def _verdict_counts(counted: list[dict]) -> dict[str, dict]:
    by_lang: dict[str, Counter] = defaultdict(Counter)
    for r in counted:
        by_lang[r["language"] or "unknown"][r["verdict"]] += 1
    return {"verdicts": dict(sorted(Counter(r["verdict"] for r in counted).items())),
            "verdicts_by_language": {k: dict(sorted(v.items())) for k, v in sorted(by_lang.items())}}


def _reruns(samples, final: dict) -> dict:
    """The distinct programs re-run alone, and those whose verdict the re-run changed."""
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
    return {"count": rerun_count, "changed": changed, "changes": changes,
            "rule": "TLE re-run alone when CPU time was within 0.8-1.5x the limit, "
                    "or any TLE when more than one slot ran"}


def _limits(counted: list[dict], problems: dict, counts: dict[str, tuple[int, int]]) -> dict:
    from judge.languages import LANGUAGES, get_language
    langs = sorted({r["language"] for r in counted if r["language"] in LANGUAGES})
    return {
        "time_factors": {lang: get_language(lang).time_factor for lang in langs},
        "problems": {pid: {"time_limit_ms": p.time_limit_ms, "memory_limit_mb": p.memory_limit_mb}
                     for pid, p in sorted(problems.items(), key=lambda item: natural_order(item[0]))
                     if pid in counts},
        "stop_at_first_failure": True,
    }


def _run_figures(stats: dict, samples) -> dict:
    wall = stats.get("wall_ms", 0.0)
    judged = stats.get("judged", 0)
    phase_wall = sum(stats.get("phase_wall_ms", {}).values())
    return {
        "samples": len(samples), "unique_programs": stats.get("unique_programs", 0),
        "judged_now": stats.get("judged_parallel", 0), "reruns_now": stats.get("judged_rerun", 0),
        "from_store": stats.get("cached", 0), "wall_s": wall / 1e3,
        "judging_wall_s": phase_wall / 1e3,
        "samples_per_min": (judged / (phase_wall / 6e4)) if phase_wall > 0 and judged else None,
        "recorded_samples_per_min": _recorded_rate(stats.get("recorded_throughput")),
        "phase_ms": {k: stats.get(k, 0.0) for k in ("grade_ms", "compile_ms", "run_ms", "check_ms")},
        "slots": stats.get("slots", {}), "jobs": stats.get("jobs"),
    }


def _add_builds(summary: dict[str, Any], records: list[dict], stats: dict, provenance) -> None:
    """The judge builds the results were graded by; a warning when they are not this run's."""
    builds = _grading_builds(records, stats.get("run_builds", {}))
    summary["provenance"]["graded_by_builds"] = builds
    if builds and builds != [provenance.build.label]:
        summary["warnings"].append(
            f"results from the store were graded by {len(builds)} judge build(s) "
            f"({', '.join(b or 'unrecorded' for b in builds)}); this run is "
            f"{provenance.build.label}: re-judge in a fresh --out directory for one build's "
            "numbers")


def _write_reports(out: Path, summary: dict[str, Any], records: list[dict]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    _atomic_write(out / "results.jsonl", "".join(json.dumps(r) + "\n" for r in records))
    _atomic_write(out / "summary.json", json.dumps(summary, indent=2) + "\n")
    _atomic_write(out / "report.html", render_html(summary, records))


def _recorded_rate(throughput: tuple[int, float] | None) -> float | None:
    """Samples a minute over every run of the store that judged: what re-reading a finished
    evaluation still reports (this run's own figure is then null)."""
    if not throughput or throughput[0] <= 0 or throughput[1] <= 0:
        return None
    return throughput[0] / (throughput[1] / 6e4)


def _grading_builds(records: list[dict], run_builds: dict[int, str]) -> list[str]:
    """The judge builds whose judgments the counted results are, sorted."""
    runs = {r["judged_in_run"] for r in records if r.get("counted") and r.get("judged_in_run")}
    return sorted({run_builds.get(run, "") for run in runs})


def _cluster(report: dict, records: list[dict]) -> dict:
    """judge eval --ray: the nodes and what each graded, the workers refused and lost, and the
    node and CPU of each TLE's standing judgment."""
    graded: dict[str, Counter] = defaultdict(Counter)
    tle = []
    for r in records:
        where = r.get("graded_by")
        if not where:
            continue
        graded[where.get("node_id") or where.get("node")][r["verdict"]] += 1
        if r["verdict"] in (Verdict.TLE, Verdict.BUSY):
            tle.append({"row": r["row"], "problem_id": r["problem_id"], "language": r["language"],
                        "verdict": r["verdict"], "node": where.get("node"),
                        "node_id": where.get("node_id"), "cpu": where.get("cpu"),
                        "reruns": r.get("reruns", 0)})
    nodes = []
    for node in report.get("nodes", []):
        counts = graded.get(node["node_id"], Counter())
        nodes.append({**node, "samples": sum(counts.values()), "verdicts": dict(sorted(counts.items()))})
    return {**report, "nodes": nodes, "tle": tle}


def _cluster_warnings(cluster: dict) -> list[str]:
    warnings = []
    if cluster["refused"]:
        warnings.append(f"{len(cluster['refused'])} Ray worker(s) refused work and were not used: "
                        + "; ".join(f"{r['where']}: {r['error']}" for r in cluster["refused"][:3]))
    if cluster["faults"]:
        warnings.append(f"{len(cluster['faults'])} Ray worker(s) lost mid-run; {cluster['retried']} "
                        "task(s) were graded again on another worker"
                        + (f", {cluster['lost']} given up on (SE)" if cluster["lost"] else ""))
    return warnings


# How many left-out samples the warnings name one by one (summary.json lists up to 100).
SHOWN_EXCLUDED = 10


def missing_toolchain_warnings(samples) -> list[str]:
    """One line per language this host lacks that completions' own code fences chose: those
    samples are counted as failed (UNGRADABLE), a number the host, not only the model, made."""
    rows: dict[str, list[int]] = defaultdict(list)
    for s in samples:
        if s.missing_toolchain:
            rows[s.missing_toolchain].append(s.gen.row)
    return [f"this host lacks the {language} toolchain: {len(found)} sample(s) whose own code "
            f"fence chose {language} (rows {', '.join(map(str, found[:10]))}"
            f"{', ...' if len(found) > 10 else ''}) are counted as failed (UNGRADABLE), not "
            f"judged; install it (make setup) to judge them"
            for language, found in sorted(rows.items())]


def _completeness(records: list[dict]) -> dict:
    """Whether the metrics cover every row: samples the judge failed on (SE, a checker's FAIL)
    or could not take (an unknown problem, a toolchain missing here) are left out of them,
    never scored as the model's failures, and the run is marked incomplete."""
    excluded = [r for r in records if left_out(r)]
    by_verdict = dict(sorted(Counter(r["verdict"] for r in excluded).items()))
    info: dict[str, Any] = {
        "complete": not excluded,
        "excluded": {"count": len(excluded), "by_verdict": by_verdict,
                     "samples": [{"row": r["row"], "problem_id": r["problem_id"],
                                  "verdict": r["verdict"], "reason": (r.get("reason") or "")[:300],
                                  "exclusion_evidence": r.get("exclusion_evidence")}
                                 for r in excluded[:100]]},
        "warnings": [],
    }
    if excluded:
        parts = ", ".join(f"{n} {v}" for v, n in by_verdict.items())
        info["warnings"].append(
            f"INCOMPLETE: {len(excluded)} sample(s) are left out of the metrics ({parts}): the "
            "judge could not grade them; SE samples are judged again on the next run")
        info["warnings"] += [f"left out: {_why_left_out(r)}" for r in excluded[:SHOWN_EXCLUDED]]
    on_request = sum(1 for r in records if r.get("skipped_on_request"))
    if on_request:
        info["warnings"].append(f"{on_request} ungradable sample(s) left out (--skip-ungradable)")
    return info


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


__all__ = ["build", "EvalResult", "left_out", "missing_toolchain_warnings"]
