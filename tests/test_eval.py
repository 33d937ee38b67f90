"""judge eval: dataset syntax, generations, the TLE re-run rule, an
end-to-end evaluation over the embedded pack with exact metrics, and the HTML report in Chromium."""
from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import judge
from conftest import (
    EVAL_SLOTS,
    HOST_CGROUP_MODES,
    PACK_SOURCES,
    TIME_FACTORS,
    TIME_SCALE,
    scaled,
    scaled_time_factors_env,
)
from judge import JudgeError
from judge.evaluate.generations import read_generations
from judge.evaluate.html_report import render_html
from judge.evaluate.ratings import contest_rating, mle_rating, problem_score
from judge.evaluate.rerun import needs_rerun
from judge.problems.source import parse_dataset

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
PROGRESS_LINE = re.compile(r"judging \(\d slots?\): \d+/\d+ samples \(\d+%\), [\d.]+/min, "
                           r"elapsed \d+:\d\d:\d\d, ETA (\d+:\d\d:\d\d|\?)")
SLOT_BASE = str(EVAL_SLOTS)    # this test process's own (tests/slot_blocks.py)




def judge_cli(*args, timeout=900, env=None):
    env = {**os.environ, **(env or {})}
    env.update(scaled_time_factors_env())
    return subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", *args],
                          capture_output=True, text=True, cwd=ROOT,
                          timeout=scaled(timeout * 1000) / 1000, env=env)


def completion(path: Path, tag: str, chatter: str = "Here is my solution.") -> str:
    return f"{chatter}\n\n```{tag}\n{path.read_text()}```\n\nIt runs in O(n)."


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


# ------------------------------------------------------------------------------ units

def test_parse_dataset_syntax():
    assert parse_dataset(None).kind == "stepfun" and parse_dataset(None).source is None
    assert parse_dataset("pack").label == "pack"
    spec = parse_dataset("livecodebench:/data/lcb?release=release_v5&start=2024-08-01&end=2025-02-28")
    assert (spec.kind, spec.source) == ("livecodebench", "/data/lcb")
    assert spec.options == {"release": "release_v5", "start": "2024-08-01", "end": "2025-02-28"}
    assert parse_dataset("lcb:").source is None and parse_dataset("lcb:").kind == "livecodebench"
    spec = parse_dataset("codecontests:deepmind/code_contests?split=valid&tests=public,private")
    assert (spec.kind, spec.source, spec.options["split"]) == ("codecontests", "deepmind/code_contests", "valid")
    assert parse_dataset("org/cf-div2").kind == "stepfun"
    for bad, message in [("nosuch:thing", "unknown kind"),
                         ("livecodebench:x?colour=red", "unknown option"),
                         ("livecodebench:x?release", "bad options"),
                         ("codecontests:x?split=a&split=b", "given twice"),
                         ("some/path?release=v1", "need a kind prefix")]:
        with pytest.raises(JudgeError, match=message):
            parse_dataset(bad)


def _tle(cpu_ms: float, limit: int = 1000, verdict: str = "TLE") -> dict:
    tests = [{"verdict": "AC", "cpu_time_ms": 10.0}, {"verdict": verdict, "cpu_time_ms": cpu_ms}]
    return {"verdict": verdict, "time_limit_ms": limit, "tests": tests,
            "max_cpu_time_ms": max(10.0, cpu_ms)}


@pytest.mark.parametrize("cpu, slots, expected", [
    (1000.0, 1, True),       # killed by the CPU timer at the limit: within 0.8-1.5x
    (800.0, 1, True), (1500.0, 1, True),
    (799.0, 1, False),       # e.g. a sleeper killed by the wall timer: not a noise question
    (1501.0, 1, False),
    (3.0, 2, True),          # any TLE is re-run when more than one slot ran
    (5000.0, 4, True),
])
def test_needs_rerun_decision(cpu, slots, expected):
    assert needs_rerun(_tle(cpu), slots) is expected


def test_an_idle_interactive_submission_is_not_rerun():
    idle = _tle(2.0)
    idle["tests"][-1]["killed_by"] = "idle"
    assert not needs_rerun(idle, 2) and not needs_rerun(idle, 1)
    idle["tests"][-1]["killed_by"] = "wall-timer"
    assert needs_rerun(idle, 2)


def test_needs_rerun_only_tle():
    for verdict in ("AC", "WA", "MLE", "RE", "SE"):
        assert not needs_rerun(_tle(1000.0, verdict=verdict), 2)
    assert not needs_rerun({"verdict": "TLE", "time_limit_ms": 0, "tests": []}, 1)


def test_a_busy_run_is_always_rerun_and_never_scored():
    """BUSY (starved of CPU) is no verdict: re-run alone whatever the slots, and a sample that
    stays BUSY is a judge failure, left out of the metrics."""
    assert needs_rerun(_tle(100.0, verdict="BUSY"), 1) and needs_rerun(_tle(3.0, verdict="BUSY"), 2)
    from judge.verdicts import JUDGE_FAILURES
    assert "BUSY" in JUDGE_FAILURES


def test_generations_rows_and_bad_input(tmp_path):
    good = write_jsonl(tmp_path / "g.jsonl", [
        {"problem_id": "2020A", "language": "cpp", "completion": "x"},
        {"problem_id": "2020A", "code": "print(1)", "sample_index": 4},
    ])
    gens = read_generations(good)
    assert [(g.row, g.language, g.sample_index) for g in gens] == [(1, "cpp", None), (2, None, 4)]
    import pyarrow as pa
    import pyarrow.parquet as pq
    pq.write_table(pa.Table.from_pylist([{"problem_id": "2020A", "language": "python",
                                          "completion": "c", "sample": 1}]), tmp_path / "g.parquet")
    assert read_generations(tmp_path / "g.parquet")[0].sample_index == 1
    cases = {
        "not json": ("{\"problem_id\": \"2020A\"\n", "line 1: not valid JSON"),
        "no id": (json.dumps({"code": "x"}) + "\n", "no 'problem_id'"),
        "no code": (json.dumps({"problem_id": "2020A"}) + "\n", "needs 'completion'"),
        "array": ("[1, 2]\n", "expected a JSON object"),
        "index": (json.dumps({"problem_id": "a", "code": "x", "sample_index": -1}) + "\n", "non-negative"),
        "empty": ("\n\n", "no generations"),
    }
    for name, (text, message) in cases.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text(text)
        with pytest.raises(JudgeError, match=message):
            read_generations(path)
    with pytest.raises(JudgeError, match="no such file"):
        read_generations(tmp_path / "missing.jsonl")


# ------------------------------------------------------------------------------ end to end

CF = PACK_SOURCES / "codeforces-2020A"
WR = PACK_SOURCES / "word-reverse"


def standings_files(directory: Path) -> None:
    directory.mkdir()
    rows = [{"party": {"members": [{"handle": h}], "participantType": "CONTESTANT"}, "points": p, "rank": i + 1}
            for i, (h, p) in enumerate([("alice", 1500.0), ("bob", 490.0), ("carol", 300.0), ("dan", 0.0)])]
    (directory / "standings-2020.json").write_text(json.dumps({"status": "OK", "result": {
        "contest": {"id": 2020}, "problems": [{"index": "A", "points": 500.0}, {"index": "B", "points": 1000.0}],
        "rows": rows}}))
    (directory / "rating-2020.json").write_text(json.dumps([
        {"contestId": 2020, "handle": h, "oldRating": r, "newRating": r}
        for h, r in [("alice", 2100), ("bob", 1500), ("carol", 1300), ("dan", 1000)]]))


@pytest.fixture(scope="module")
def e2e(tmp_path_factory, audited_host):
    tmp = tmp_path_factory.mktemp("eval")
    rows = [
        # codeforces/2020A: AC (C++), WA (Python), AC again: the same C++ program in other words
        {"problem_id": "2020A", "language": "cpp", "completion": completion(CF / "sol.cpp", "cpp")},
        {"problem_id": "codeforces/2020A", "language": "python", "completion": completion(CF / "wa.py", "python")},
        {"problem_id": "2020A", "language": "c++", "completion": completion(CF / "sol.cpp", "cpp", "Final answer:")},
        # pack/word-reverse, explicit sample indexes: AC (Java), WA (Python), no code block
        {"problem_id": "word-reverse", "language": "java", "sample_index": 0,
         "completion": completion(WR / "Main.java", "java")},
        {"problem_id": "pack/word-reverse", "language": "python", "sample_index": 2,
         "completion": completion(WR / "wa.py", "py")},
        {"problem_id": "word-reverse", "language": "java", "sample_index": 1,
         "completion": "I am not sure how to solve this one."},
        # an unknown problem: reported, left out, and the run is incomplete (exit 3)
        {"problem_id": "pack/no-such-problem", "language": "cpp", "code": "int main() {}"},
        # code in a language the judge does not run: a failed sample of 2020A (UNGRADABLE)
        {"problem_id": "2020A", "language": "cobol", "code": "DISPLAY 'HI'."},
    ]
    gens = write_jsonl(tmp / "generations.jsonl", rows)
    standings_files(tmp / "standings")
    (tmp / "ratings.json").write_text(json.dumps({"2020A": 800, "pack/word-reverse": 1200}))
    out = tmp / "out"
    args = ["eval", str(gens), "--out", str(out), "--jobs", "2", "--slot-base", SLOT_BASE,
            "--standings", str(tmp / "standings"), "--ratings", str(tmp / "ratings.json"),
            "--no-progress"]
    first = judge_cli(*args)
    first_summary = (out / "summary.json").read_text() if first.returncode == 3 else "{}"
    second = judge_cli(*args, "--json")
    return {"tmp": tmp, "out": out, "first": first, "second": second,
            "summary": json.loads(first_summary)}


def test_e2e_exact_metrics(e2e):
    run = e2e["first"]
    assert run.returncode == 3, run.stderr                   # incomplete: the unknown problem
    assert "pack/no-such-problem" in run.stderr and "INCOMPLETE" in run.stdout
    assert "Traceback" not in run.stderr
    summary = e2e["summary"]
    assert summary["complete"] is False
    assert summary["excluded"]["count"] == 1 and summary["excluded"]["by_verdict"] == {"SKIPPED": 1}
    assert {p: (d["n"], d["c"]) for p, d in summary["problems"].items()} == {
        "codeforces/2020A": (4, 2), "pack/word-reverse": (3, 1)}
    assert summary["pass_at_k"]["1"] == pytest.approx(float((Fraction(2, 4) + Fraction(1, 3)) / 2))
    assert summary["pass_at_k"]["2"] == pytest.approx(float((Fraction(5, 6) + Fraction(2, 3)) / 2))
    assert set(summary["pass_at_k"]) == {"1", "2"}          # k <= n = 3 among {1, 2, 4, ...}
    by = {lang: {p: (d["n"], d["c"]) for p, d in v["problems"].items()}
          for lang, v in summary["by_language"].items()}
    assert by == {"cpp": {"codeforces/2020A": (2, 2)},
                  "python": {"codeforces/2020A": (1, 0), "pack/word-reverse": (1, 0)},
                  "java": {"pack/word-reverse": (2, 1)}, "cobol": {"codeforces/2020A": (1, 0)}}
    assert summary["by_language"]["cpp"]["pass_at_k"]["1"] == 1.0
    assert summary["verdicts"] == {"AC": 3, "WA": 2, "NO_CODE": 1, "UNGRADABLE": 1}
    assert sorted(s["row"] for s in summary["skipped"]) == [7]
    assert summary["run"]["unique_programs"] == 4            # the two C++ samples share one judgment
    assert summary["run"]["judged_now"] == 4
    assert summary["reruns"] == {"count": 0, "changed": 0, "changes": [],
                                 "rule": summary["reruns"]["rule"]}
    assert summary["limits"]["problems"]["codeforces/2020A"] == {"time_limit_ms": 1000, "memory_limit_mb": 256}
    assert summary["limits"]["time_factors"] == {
        lang: TIME_FACTORS[lang] * TIME_SCALE for lang in ("cpp", "java", "python")}
    provenance = summary["provenance"]
    assert set(provenance["toolchains"]) == {"cpp", "java", "python"}
    assert provenance["host"]["cpu_model"] and provenance["judge_version"] == judge.__version__
    assert provenance["sandbox"]["cgroup"] == HOST_CGROUP_MODES[0]
    assert provenance["audit"]["status"] in ("PASS", "INCONCLUSIVE") and provenance["audit"]["outcome"]
    # spread over the sample indexes both problems have, 0-2: run accuracies (1+1)/2, (0+0)/2,
    # (1+0)/2; 2020A's index 3 alone would be a mean over one problem
    assert summary["spread"]["run_accuracies"] == [1.0, 0.0, 0.5]


def test_e2e_ratings(e2e):
    summary = e2e["summary"]
    standings = json.loads((e2e["tmp"] / "standings" / "standings-2020.json").read_text())["result"]
    changes = json.loads((e2e["tmp"] / "standings" / "rating-2020.json").read_text())
    expected = contest_rating(standings, changes, {"A": (2, 4)}, contest_id="2020")
    ce = summary["ratings"]["codeelo"]
    assert ce["errors"] == [] and len(ce["contests"]) == 1
    assert ce["rating"] == pytest.approx(expected.rating)
    assert ce["contests"][0]["score"] == pytest.approx(problem_score(500, 2, 4))
    mle = mle_rating([(800.0, 2, 4), (1200.0, 1, 3)])
    assert summary["ratings"]["mle"]["rating"] == pytest.approx(mle.rating)


def test_e2e_results_jsonl(e2e):
    records = [json.loads(line) for line in (e2e["out"] / "results.jsonl").read_text().splitlines()]
    assert [r["row"] for r in records] == list(range(1, 9))
    by_row = {r["row"]: r for r in records}
    assert by_row[1]["verdict"] == "AC" and by_row[1]["key"] == by_row[3]["key"]
    assert [by_row[i]["sample_index"] for i in (1, 2, 3, 4, 5, 6)] == [0, 1, 2, 0, 2, 1]
    assert by_row[6]["verdict"] == "NO_CODE" and by_row[6]["counted"] is True
    assert by_row[7]["verdict"] == "SKIPPED" and by_row[7]["counted"] is False
    assert by_row[8]["verdict"] == "UNGRADABLE" and by_row[8]["counted"] is True
    assert "unknown language 'cobol'" in by_row[8]["reason"]
    wa = by_row[2]
    assert wa["verdict"] == "WA" and wa["tests"][-1]["verdict"] == "WA"
    assert wa["tests"][-1]["checker_message"]
    for t in by_row[4]["tests"]:
        assert set(t) >= {"verdict", "cpu_time_ms", "wall_time_ms", "memory_kb", "checker_message"}
        assert t["verdict"] == "AC" and t["memory_kb"] > 0
    assert len(by_row[4]["tests"]) == 10            # every test of word-reverse ran
    assert len(wa["tests"]) < 14                    # grading stopped at the first failure


def test_e2e_rerun_comes_from_the_store(e2e):
    run = e2e["second"]
    assert run.returncode == 3, run.stderr
    summary = json.loads(run.stdout)
    assert summary["run"]["judged_now"] == 0 and summary["run"]["from_store"] == 4
    assert {p: (d["n"], d["c"]) for p, d in summary["problems"].items()} == {
        "codeforces/2020A": (4, 2), "pack/word-reverse": (3, 1)}
    db = sqlite3.connect(e2e["out"] / "results.db")
    counts = db.execute("SELECT key, COUNT(*) FROM judgments GROUP BY key").fetchall()
    assert len(counts) == 4 and all(n == 1 for _, n in counts)
    assert db.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 2
    # Re-read from the store, the throughput measured when the judgments were made stays.
    first = e2e["summary"]["run"]
    assert first["samples_per_min"] > 0
    assert summary["run"]["samples_per_min"] is None
    assert summary["run"]["recorded_samples_per_min"] == pytest.approx(
        first["recorded_samples_per_min"]) == pytest.approx(first["samples_per_min"])


def test_e2e_provenance_names_the_build_that_graded(e2e):
    provenance = json.loads(e2e["second"].stdout)["provenance"]
    build = provenance["judge_build"]
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    assert build["commit"] == head and isinstance(build["dirty"], bool)
    assert len(build["source_hash"]) == 64 and build["label"].startswith(f"{judge.__version__}+g{head[:12]}")
    assert provenance["graded_by_builds"] == [build["label"]]
    audit = provenance["audit"]
    assert audit["command"] == ("judge audit --quick" if audit["outcome"]["quick"]
                                else "judge audit")


def chromium_dom(page: Path, tmp: Path) -> str:
    if not Path(CHROMIUM).exists():
        pytest.skip("chromium is not installed")
    out = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                          "--disable-background-networking", "--disable-component-update",
                          "--disable-sync", "--no-first-run", f"--user-data-dir={tmp / 'chrome'}",
                          "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


@pytest.mark.browser
def test_html_report_renders_in_chromium(e2e, tmp_path):
    page = e2e["out"] / "report.html"
    text = page.read_text()
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text
    dom = chromium_dom(page, tmp_path)
    assert "JS-ERROR" not in dom
    assert 'data-charts="4"' in dom
    for chart in ("matrix", "verdicts", "passk", "cpu"):
        assert f'data-chart="{chart}"' in dom
    assert dom.count('class="cell"') == 7          # problem x sample matrix: 7 counted samples
    assert dom.count('class="curve"') == 5         # all + four languages (cobol's one sample)
    assert dom.count('class="dot"') == 5           # every judged sample (not the no-code one)


@pytest.mark.browser
def test_matrix_tooltips_name_the_deciding_test(e2e, tmp_path):
    dom = chromium_dom(e2e["out"] / "report.html", tmp_path)
    tips = re.findall(r'class="cell"><title>([^<]*)</title>', dom)
    assert len(tips) == 7
    wrong = next(t for t in tips if ": WA" in t.splitlines()[0])
    assert re.search(r"test \d+: WA, \d+ ms CPU of \d+, [\d.]+ MB", wrong), wrong
    assert "expected" in wrong            # the checker's message
    assert any(re.search(r"\d+ tests, max \d+ ms CPU of \d+", t) for t in tips if ": AC" in t)
    assert any("unknown language" in t for t in tips if ": UNGRADABLE" in t)


@pytest.mark.browser
def test_hostile_text_in_the_report_stays_text(e2e, tmp_path):
    """A checker message, a stderr tail or a reason is the submission's (or the dataset's) text:
    one that tries to close the data block and run a script only ever shows up as text in a
    tooltip."""
    payload = "</script><script>document.title='pwned'</script><!-- <script> &amp;"
    summary = json.loads((e2e["out"] / "summary.json").read_text())
    records = [json.loads(x) for x in (e2e["out"] / "results.jsonl").read_text().splitlines()]
    for r in records:
        r["reason"] = payload
        for t in r.get("tests", []):
            t["checker_message"] = t["stderr_tail"] = payload
    page = tmp_path / "hostile.html"
    page.write_text(render_html(summary, records))
    assert "</script><script>document" not in page.read_text()
    dom = chromium_dom(page, tmp_path)
    assert "JS-ERROR" not in dom and "pwned" not in dom.split("<body")[0]
    assert 'data-charts="4"' in dom
    assert "&lt;/script&gt;&lt;script&gt;document.title='pwned'" in dom
    assert "stderr: &lt;/script&gt;" in dom


@pytest.mark.browser
def test_html_report_errors_are_visible(e2e, tmp_path):
    """The marker the check above relies on does appear when the page's script fails."""
    broken = tmp_path / "broken.html"
    broken.write_text((e2e["out"] / "report.html").read_text().replace(
        '"matrix": {"problems": [', '"matrix": {"problems": null, "x": [', 1))
    dom = chromium_dom(broken, tmp_path)
    assert "JS-ERROR: matrix: TypeError" in dom


# ------------------------------------------------------------------------------ LiveCodeBench

def lcb_rows() -> list[dict]:
    functional = [{"input": "[2, 7, 11, 15]\n9", "output": "[0, 1]", "testtype": "functional"},
                  {"input": "[3, 3]\n6", "output": "[0, 1]", "testtype": "functional"}]
    stdin = [{"input": "1 2\n", "output": "3\n", "testtype": "stdin"},
             {"input": "5 7\n", "output": "12\n", "testtype": "stdin"}]
    base = {"question_content": "q", "contest_date": "2024-09-01T00:00:00", "difficulty": "easy",
            "private_test_cases": "[]"}
    return [
        {**base, "question_id": "lc1", "question_title": "Two Sum", "platform": "leetcode",
         "contest_id": "w1", "public_test_cases": json.dumps(functional),
         "metadata": json.dumps({"func_name": "twoSum"}),
         "starter_code": "class Solution:\n    def twoSum(self, nums: List[int], target: int) -> List[int]:\n"},
        {**base, "question_id": "abc1_a", "question_title": "A+B", "platform": "atcoder",
         "contest_id": "abc1", "public_test_cases": json.dumps(stdin), "metadata": "{}",
         "starter_code": ""},
    ]


def test_livecodebench_functional_and_stdin(tmp_path, audited_host):
    data = write_jsonl(tmp_path / "lcb.jsonl", lcb_rows())
    right = ("```python\nclass Solution:\n    def twoSum(self, nums: List[int], target: int) -> List[int]:\n"
             "        print('thinking...')\n        seen = {}\n"
             "        for i, x in enumerate(nums):\n            if target - x in seen:\n"
             "                return [seen[target - x], i]\n            seen[x] = i\n```")
    wrong = "```python\nclass Solution:\n    def twoSum(self, nums, target):\n        return [0, 0]\n```"
    gens = write_jsonl(tmp_path / "gens.jsonl", [
        {"problem_id": "lc1", "language": "python", "completion": right},
        {"problem_id": "livecodebench/lc1", "language": "python", "completion": wrong},
        {"problem_id": "abc1_a", "language": "python", "code": "a, b = map(int, input().split())\nprint(a + b)\n"},
        {"problem_id": "lc1", "language": "cpp", "code": "int main() {}"},
    ])
    out = judge_cli("eval", str(gens), "--dataset", f"livecodebench:{data}?start=2024-08-01&end=2025-02-28",
                    "--out", str(tmp_path / "out"), "--jobs", "2", "--slot-base", SLOT_BASE,
                    "--progress-interval", "0.2", "--json")
    assert out.returncode == 0, out.stderr
    # stderr is a log here: plain progress lines, and nothing drawn by `datasets` loading the
    # problems (its bars used to leak onto it).
    lines = out.stderr.strip().splitlines()
    assert lines and all(PROGRESS_LINE.fullmatch(line) for line in lines), out.stderr
    assert lines[-1].startswith("judging (2 slots): 3/3 samples (100%)")
    summary = json.loads(out.stdout)
    # C++ for a functional (Python-only) problem is the model's failed sample, not a skip.
    assert {p: (d["n"], d["c"]) for p, d in summary["problems"].items()} == {
        "livecodebench/lc1": (3, 1), "livecodebench/abc1_a": (1, 1)}
    assert summary["dataset"].startswith("livecodebench:") and summary["complete"] is True
    records = [json.loads(x) for x in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert [r["verdict"] for r in records] == ["AC", "WA", "AC", "UNGRADABLE"]
    assert "only Python" in records[3]["reason"]


# ------------------------------------------------------------------------------ judge failures

FAILING_CHECKER = """#include <fstream>
#include <string>
// Compares one token; "boom" in the output makes it fail (exit 3) while it accepts the jury's
// answer: a FAIL the output provokes.
int main(int, char **argv) {
    std::ifstream out(argv[2]), ans(argv[3]);
    std::string got, want;
    out >> got;
    ans >> want;
    if (got == "boom")
        return 3;
    return got == want ? 0 : 1;
}
"""


def stepfun_dataset(path: Path, checker: str = FAILING_CHECKER) -> Path:
    """Two problems in the CF-Div2-Stepfun schema: 1000A with wcmp, 1000B with `checker`."""
    def row(i, pid, check):
        return {"id": i, "problem_id": pid, "problem_desc": "Print the sum.", "time_limit_ms": 2000,
                "memory_limit_MB": 256, "checker": check,
                "test_cases": [{"input": "1 2\n", "output": "3\n"}, {"input": "5 5\n", "output": "10\n"}]}
    return write_jsonl(path, [row(1, "codeforces/1000A", "wcmp"), row(2, "codeforces/1000B", checker)])


SUM = "a, b = map(int, input().split())\nprint(a + b)\n"


def test_a_checker_fail_the_output_provokes_is_the_sample_s_wa(tmp_path, audited_host):
    """A checker that FAILs on a sample's output ("boom") but accepts the jury's answer of the
    same test failed because of the output, not the jury: the test is WA and the sample counts
    (it used to be a FAIL left out of the metrics, so printing "boom" cost a model nothing)."""
    data = stepfun_dataset(tmp_path / "cf.jsonl")
    gens = write_jsonl(tmp_path / "gens.jsonl", [
        {"problem_id": "1000A", "language": "python", "code": SUM},
        {"problem_id": "1000B", "language": "python", "code": SUM},
        {"problem_id": "1000B", "language": "python", "code": "print('boom')\n"},
        {"problem_id": "1000B", "language": "python", "code": "print(0)\n"},
    ])
    out = judge_cli("eval", str(gens), "--dataset", str(data), "--out", str(tmp_path / "out"),
                    "--jobs", "1", "--slot-base", SLOT_BASE, "--no-progress", "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["complete"] is True and summary["excluded"]["count"] == 0
    assert {p: (d["n"], d["c"]) for p, d in summary["problems"].items()} == {
        "codeforces/1000A": (1, 1), "codeforces/1000B": (3, 1)}
    records = [json.loads(x) for x in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert [(r["verdict"], r["counted"]) for r in records] == [
        ("AC", True), ("AC", True), ("WA", True), ("WA", True)]
    assert records[2]["tests"][0]["checker_message"].startswith(
        "the checker failed on this output but accepts the jury's answer")


@pytest.mark.parametrize("checker, message", [
    ("#include <cstdio>\nint main() { this is not C++ }\n", "the checker does not compile"),
    ("#include <cstdio>\nint main() { return 3; }\n",
     "the checker says FAIL to the jury's own answer of test 1"),
    # Every test's answer is tried, not only the first: test 2's answer is 10.
    ("#include <fstream>\n#include <string>\nint main(int, char **argv) {\n"
     "    std::ifstream ans(argv[3]); std::string a; ans >> a; return a == \"10\" ? 3 : 0; }\n",
     "the checker says FAIL to the jury's own answer of test 2"),
])
def test_a_checker_that_cannot_judge_stops_the_run_before_judging(tmp_path, audited_host,
                                                                  checker, message):
    """Custom checkers are compiled and tried on the jury's answer once per problem, before any
    sample is judged: a broken one is one clear error naming the problem, exit 2."""
    data = stepfun_dataset(tmp_path / "cf.jsonl", checker)
    gens = write_jsonl(tmp_path / "gens.jsonl", [
        {"problem_id": "1000A", "language": "python", "code": SUM},
        {"problem_id": "1000B", "language": "python", "code": SUM}])
    out = judge_cli("eval", str(gens), "--dataset", str(data), "--out", str(tmp_path / "out"),
                    "--jobs", "1", "--slot-base", SLOT_BASE, "--no-progress")
    assert out.returncode == 2, out.stderr
    assert "codeforces/1000B" in out.stderr and message in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
    db = sqlite3.connect(tmp_path / "out" / "results.db")
    assert db.execute("SELECT COUNT(*) FROM judgments").fetchone()[0] == 0


def test_ungradable_code_counts_as_a_failed_sample(tmp_path, audited_host):
    """A fenced block without a language tag and a `swift` row are failed samples (UNGRADABLE)
    with their reason, so writing unsupported code never scores better than writing wrong
    code; --lang gives untagged blocks a language; --skip-ungradable leaves them out."""
    data = stepfun_dataset(tmp_path / "cf.jsonl")
    gens = write_jsonl(tmp_path / "gens.jsonl", [
        {"problem_id": "1000A", "language": "python", "code": SUM},
        {"problem_id": "1000A", "completion": f"```\n{SUM}```"},
        {"problem_id": "1000A", "language": "swift", "code": "print(1)"},
    ])

    def evaluate(*extra):
        out = judge_cli("eval", str(gens), "--dataset", str(data), "--out",
                        str(tmp_path / f"out{len(extra)}{'-'.join(extra)}"), "--jobs", "1",
                        "--slot-base", SLOT_BASE, "--no-progress", "--json", *extra)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)

    plain = evaluate()
    assert plain["problems"]["codeforces/1000A"]["n"] == 3
    assert plain["problems"]["codeforces/1000A"]["c"] == 1
    assert plain["verdicts"] == {"AC": 1, "UNGRADABLE": 2}
    tagged = evaluate("--lang", "python")
    assert (tagged["problems"]["codeforces/1000A"]["n"], tagged["problems"]["codeforces/1000A"]["c"]) == (3, 2)
    skipping = evaluate("--skip-ungradable")
    assert (skipping["problems"]["codeforces/1000A"]["n"], skipping["complete"]) == (1, True)
    assert any("--skip-ungradable" in w for w in skipping["warnings"])


# `judge eval` on a host without Racket: the registry's racket entry names a program that is not
# there, as `judge doctor` and the grader see a toolchain the host lacks.
WITHOUT_RACKET = ("from dataclasses import replace; from judge.languages import LANGUAGES; "
                  "LANGUAGES['racket'] = replace(LANGUAGES['racket'], "
                  "run=('no-such-racket', 'code.rkt')); from judge.cli import main; main()")
RACKET_SUM = "#lang racket/base\n(displayln (+ (read) (read)))\n"


def judge_eval_without_racket(*args, cache: Path):
    """`judge eval` with its own cache and no audit (--allow-unaudited with no record never
    audits): what is tested is which samples count, not the host's limits."""
    env = {**os.environ, **scaled_time_factors_env(), "JUDGE_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-c", WITHOUT_RACKET, "eval", *args,
                           "--allow-unaudited"],
                          capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=scaled(900_000) / 1000)


@pytest.mark.slow
def test_a_code_fence_cannot_choose_a_skip(tmp_path, require_sandbox):
    """Issue 43, finding 6: a row without `language` whose completion fences its code as
    ```racket, on a host without Racket, was SKIPPED and left out, so a model could trade a
    failure for an exclusion by naming a language the host lacks (avg@n 1/2 instead of 1/3
    here). What the fence chose is the model's: UNGRADABLE, counted, and the run warns on
    stderr and in summary.json that the host lacks the toolchain. A row whose `language` (or
    --lang) names Racket is still SKIPPED, and summary.json says why (named-language), as it
    does for a row naming a problem the dataset lacks (named-problem)."""
    data = stepfun_dataset(tmp_path / "cf.jsonl")
    gens = write_jsonl(tmp_path / "gens.jsonl", [
        {"problem_id": "1000A", "completion": f"Sum:\n```python\n{SUM}```\n"},
        {"problem_id": "1000A", "completion": "Zero:\n```python\nprint(0)\n```\n"},
        {"problem_id": "1000A", "completion": f"Sum:\n```racket\n{RACKET_SUM}```\n"},
        {"problem_id": "1000A", "language": "racket", "code": RACKET_SUM},
        {"problem_id": "1000Z", "language": "python", "code": SUM},
    ])

    def evaluate(name, *extra):
        done = judge_eval_without_racket(
            str(gens), "--dataset", str(data), "--out", str(tmp_path / name), "--jobs", "1",
            "--slot-base", SLOT_BASE, "--no-progress", "--json", *extra, cache=tmp_path / "cache")
        assert done.returncode == 3, done.stderr          # incomplete: rows 4 and 5 are left out
        return done, json.loads(done.stdout), [
            json.loads(line) for line in (tmp_path / name / "results.jsonl").read_text().splitlines()]

    done, summary, records = evaluate("fenced")
    assert summary["problems"]["codeforces/1000A"]["n"] == 3
    assert summary["avg_at_n"] == pytest.approx(1 / 3)
    assert summary["verdicts"] == {"AC": 1, "UNGRADABLE": 1, "WA": 1}
    fenced = records[2]
    assert (fenced["verdict"], fenced["counted"], fenced["language"]) == ("UNGRADABLE", True, "racket")
    assert fenced["missing_toolchain"] == "racket" and fenced["exclusion_evidence"] is None
    assert "code fence" in fenced["reason"]
    lacking = [w for w in summary["warnings"] if "lacks the racket toolchain" in w]
    assert len(lacking) == 1 and "rows 3)" in lacking[0], summary["warnings"]
    assert "lacks the racket toolchain" in done.stderr
    assert summary["excluded"]["by_verdict"] == {"SKIPPED": 2}
    skipped = {entry["row"]: entry["exclusion_evidence"] for entry in summary["skipped"]}
    assert skipped[4]["kind"] == "named-language" and "row's language" in skipped[4]["detail"]
    assert skipped[5]["kind"] == "named-problem" and "1000Z" in skipped[5]["detail"]
    assert [e["exclusion_evidence"]["kind"] for e in summary["excluded"]["samples"]] == [
        "named-language", "named-problem"]
    # --lang racket names it too: the fenced sample is then the run's choice, SKIPPED.
    _, named, records = evaluate("named", "--lang", "racket")
    assert named["problems"]["codeforces/1000A"]["n"] == 2
    assert records[2]["verdict"] == "SKIPPED" and "--lang" in records[2]["exclusion_evidence"]["detail"]
    assert not any("lacks the racket toolchain" in w for w in named["warnings"])


def test_a_host_that_failed_its_audit_is_refused_unless_allowed(tmp_path, audited_host,
                                                                 configure):
    """The host's audit record decides whether its numbers are trusted: a FAIL there makes eval
    refuse before judging (exit 2, one line naming the failure); --allow-unaudited evaluates and
    marks summary, terminal and report UNAUDITED; with no record at all it never audits."""
    from judge.audit import languages_here, record
    from judge.audit.runner import broken_switches
    from judge.evaluate.provenance import sandbox_mode
    cache = tmp_path / "cache"
    configure(cache_dir=cache)
    mode = sandbox_mode(int(SLOT_BASE))
    key = record.host_key(mode.cgroup, mode.uid_mode, languages_here(), broken_switches())
    failure = "cpp touch 1.1x ML: OK at 1100 MB"
    record.store(key, record.AuditOutcome(record.AuditStatus.FAIL, True, "2026-12-04T00:00:00",
                                          40.0, languages_here(), 50, [failure]))
    data = stepfun_dataset(tmp_path / "cf.jsonl")
    gens = write_jsonl(tmp_path / "gens.jsonl",
                       [{"problem_id": "1000A", "language": "python", "code": SUM}])

    def evaluate(out: str, *extra: str, cache_dir: Path = cache):
        return judge_cli("eval", str(gens), "--dataset", str(data), "--out", str(tmp_path / out),
                         "--jobs", "1", "--slot-base", SLOT_BASE, "--no-progress", *extra,
                         env={"JUDGE_CACHE_DIR": str(cache_dir)})

    refused = evaluate("refused")
    assert refused.returncode == 2, refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert failure in refused.stderr and "--allow-unaudited" in refused.stderr
    assert str(record.record_path(key)) in refused.stderr
    assert not (tmp_path / "refused" / "results.db").exists()

    allowed = evaluate("allowed", "--allow-unaudited", "--json")
    assert allowed.returncode == 0, allowed.stderr
    summary = json.loads(allowed.stdout)
    provenance = summary["provenance"]
    assert provenance["trusted"] is False and provenance["audit"]["status"] == "FAIL"
    assert provenance["audit"]["outcome"]["failures"] == [failure]
    assert summary["warnings"][0].startswith("UNAUDITED") and failure in summary["warnings"][0]
    assert summary["problems"]["codeforces/1000A"]["c"] == 1
    assert "UNAUDITED" in (tmp_path / "allowed" / "report.html").read_text()
    terminal = evaluate("allowed", "--allow-unaudited")
    assert terminal.returncode == 0 and "UNAUDITED" in terminal.stdout + terminal.stderr

    never = evaluate("never", "--allow-unaudited", "--json", cache_dir=tmp_path / "empty")
    assert never.returncode == 0, never.stderr
    audit = json.loads(never.stdout)["provenance"]["audit"]
    assert audit["status"] == "NOT RUN" and "outcome" not in audit
    assert not list((tmp_path / "empty").glob("audit/*.json"))     # and it did not audit


# ------------------------------------------------------------------------------ bad input

@pytest.mark.parametrize("make, message", [
    (lambda d: ["eval", str(d / "missing.jsonl")], "no such file"),
    (lambda d: ["eval", str(write_bad(d))], "not valid JSON"),
    (lambda d: ["eval", str(write_ok(d)), "--dataset", "nosuch:x"], "unknown kind"),
    (lambda d: ["eval", str(write_ok(d)), "--lang", "cobol"], "--lang: unknown language 'cobol'"),
    (lambda d: ["eval", str(write_ok(d)), "--dataset", "livecodebench:" + str(d / "none.jsonl")],
     "no such file"),
    (lambda d: ["eval", str(write_ok(d)), "--standings", str(d / "nodir")], "not a directory"),
    (lambda d: ["eval", str(write_ok(d)), "--jobs", "0"], "at least 1"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, make, message):
    out = judge_cli(*make(tmp_path), "--out", str(tmp_path / "out"), timeout=120)
    assert out.returncode == 2, (out.stdout, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], out.stderr
    assert "Traceback" not in out.stderr


def write_bad(d: Path) -> Path:
    path = d / "bad.jsonl"
    path.write_text('{"problem_id": "2020A", "code": "x"}\n{oops\n')
    return path


def write_ok(d: Path) -> Path:
    return write_jsonl(d / "ok.jsonl", [{"problem_id": "2020A", "language": "cpp", "code": "int main(){}"}])
