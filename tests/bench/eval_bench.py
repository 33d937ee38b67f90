"""`judge eval` throughput on the embedded pack: samples judged per minute with --jobs 1 and
--jobs 2 (fresh result stores each time), with a cold compile cache and then a warm one, and the
share of the judging time spent compiling, running, checking, and in the judge's own work.

Shares: compile/run/check are the wall time the graders spent in each phase (GradeResult
timings), summed over slots; "grader other" is the rest of grade() (staging, reading outputs);
"eval overhead" is the slot-time of the judging phases not spent inside grade() (scheduling,
SQLite commits, progress), i.e. jobs x phase wall - sum of grade times.
"""
from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from rich.table import Table

from judge import config

ROOT = Path(__file__).resolve().parents[2]
PACK_SRC = ROOT / "problems" / "pack"
LANG = {".cpp": "cpp", ".py": "python", ".java": "java"}


def generations(path: Path) -> int:
    """Every reference and wrong solution of the pack, as model completions (one per file)."""
    rows = []
    for problem_dir in sorted(p for p in PACK_SRC.iterdir() if p.is_dir()):
        meta = json.loads((problem_dir / "problem.json").read_text())
        for f in sorted(problem_dir.iterdir()):
            lang = LANG.get(f.suffix)
            # Not solutions: the generators, a checker, an interactor. Nor idle.cpp, which
            # waits out its wall clock: seconds of nothing in a throughput figure.
            if lang is None or f.name in ("gen.py", "checker.cpp", "interactor.cpp", "idle.cpp") \
                    or f.stem.lower() in ("mle", "ce"):
                continue
            tag = {"cpp": "cpp", "python": "python", "java": "java"}[lang]
            rows.append({"problem_id": meta["problem_id"], "language": lang,
                         "completion": f"Solution:\n```{tag}\n{f.read_text()}```\n"})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return len(rows)


def measure(gens: Path, jobs: int, cache: Path) -> dict:
    from judge.evaluate.runner import evaluate
    from judge.evaluate.tasks import EvalConfig
    with config.overridden(cache_dir=Path(cache)), \
            tempfile.TemporaryDirectory(prefix="eval-bench-") as out:
        started = time.perf_counter()
        # judging is measured, not the audit
        result = evaluate(EvalConfig(generations=gens, jobs=jobs, out=Path(out),
                                     progress=False, allow_unaudited=True))
        wall = time.perf_counter() - started
    stats = result.stats
    judging_ms = sum(stats.get("phase_wall_ms", {}).values())
    slot_ms = sum(stats["phase_wall_ms"][p] * stats["slots"][p] for p in stats.get("phase_wall_ms", {}))
    grade, comp, run, check = (stats.get(k, 0.0) for k in ("grade_ms", "compile_ms", "run_ms", "check_ms"))
    return {
        "jobs": jobs, "samples": len(result.samples), "judged": stats.get("judged", 0),
        "reruns": stats.get("judged_rerun", 0), "wall_s": wall, "judging_s": judging_ms / 1e3,
        "per_min": stats.get("judged_parallel", 0) / (stats["phase_wall_ms"]["parallel"] / 6e4),
        "shares": {"compile": comp / slot_ms, "run": run / slot_ms, "check": check / slot_ms,
                   "grader other": max(grade - comp - run - check, 0.0) / slot_ms,
                   "eval overhead": max(slot_ms - grade, 0.0) / slot_ms},
        "verdicts": result.summary["verdicts"],
    }


def javac_ab(console, programs: int = 8) -> None:
    """A cold Java compile, the largest cost of a cold sample: javac as the JDK starts it
    (baseline) against javac with C1 only and its class-data archive, each on distinct
    programs (a comment differs) so that no compile comes from the cache."""
    import statistics
    from dataclasses import replace

    from judge.compiler import Compiler
    from judge.languages import get_language
    java = get_language("java")
    baseline = replace(java, name="java-jdk-defaults", compile=("javac", "-J-Xmx544m", "{cls}.java"),
                       compiler_archive=False)
    source = (PACK_SRC / "balanced-brackets" / "Main.java").read_text()
    with tempfile.TemporaryDirectory(prefix="javac-bench-") as cache, \
            config.overridden(cache_dir=Path(cache)), Compiler() as compiler:
        compiler.compiler_archive(java)          # built once per toolchain, not timed
        times: dict[str, list[float]] = {"baseline": [], "judge": []}
        for i in range(programs):
            for label, language in (("baseline", baseline), ("judge", java)):
                result = compiler.compile(f"{source}\n// {label} {i}\n", language)
                assert result.status == "OK", result.log
                times[label].append(result.time_ms)
    base, ours = statistics.median(times["baseline"]), statistics.median(times["judge"])
    console.print(f"cold javac, median of {programs}: JDK defaults {base:.0f} ms, judge (C1 + "
                  f"class-data archive) {ours:.0f} ms: {ours / base:.2f}x")


def run(console) -> list[dict]:
    console.rule("judge eval throughput (embedded pack)")
    javac_ab(console)
    results = []
    with tempfile.TemporaryDirectory(prefix="eval-bench-gen-") as tmp:
        gens = Path(tmp) / "gens.jsonl"
        n = generations(gens)
        console.print(f"{n} samples: every reference/wrong solution of the pack (C++, Python, Java)")
        for jobs in (1, 2):
            cache = Path(tmp) / f"cache-{jobs}"
            for label in ("cold", "warm"):
                m = measure(gens, jobs, cache)
                m["cache"] = label
                results.append(m)
    table = Table(title="samples judged per minute (parallel phase); time shares of slot time")
    for col in ("jobs", "cache", "samples/min", "judging s", "reruns", "compile", "run",
                "check", "grader", "overhead"):
        table.add_column(col, justify="right")
    for m in results:
        sh = m["shares"]
        table.add_row(str(m["jobs"]), m["cache"], f"{m['per_min']:.0f}", f"{m['judging_s']:.1f}",
                      str(m["reruns"]), *[f"{sh[k]:.0%}" for k in ("compile", "run", "check",
                                                                   "grader other", "eval overhead")])
    console.print(table)
    console.print(f"verdicts: {results[-1]['verdicts']}")
    for cache in ("cold", "warm"):
        one = next(m for m in results if m["jobs"] == 1 and m["cache"] == cache)
        two = next(m for m in results if m["jobs"] == 2 and m["cache"] == cache)
        console.print(f"{cache} cache: --jobs 2 / --jobs 1 = {two['per_min'] / one['per_min']:.2f}x")
    return results


if __name__ == "__main__":
    from rich.console import Console
    run(Console())
