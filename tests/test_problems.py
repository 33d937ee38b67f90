"""Problems: the CF-Div2-Stepfun loader (through `datasets`), the embedded pack (its rows read
with pyarrow), the registry, the pack's sources and `judge problems list|show`."""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import PACK_SOURCES as PACK_SRC
from judge import JudgeError  # noqa: E402
from judge.problems import registry, stepfun  # noqa: E402
from judge.problems.model import Problem  # noqa: E402
from judge.problems.model import TestCase as Case

ROOT = Path(__file__).resolve().parents[1]

SCHEMA = pa.schema([
    ("id", pa.int64()),
    ("problem_id", pa.string()),
    ("problem_desc", pa.string()),
    ("time_limit_ms", pa.int64()),
    ("memory_limit_MB", pa.int64()),
    ("checker", pa.string()),
    ("test_cases", pa.list_(pa.struct([("input", pa.string()), ("output", pa.string())]))),
])

CUSTOM_CHECKER = '#include <cstdio>\nint main(int argc, char** argv) { return 0; }\n'


def rows(n: int = 3, start: int = 0) -> list[dict]:
    out = []
    for i in range(start, start + n):
        out.append({
            "id": i,
            "problem_id": f"codeforces/{1900 + i}B",
            "problem_desc": f"# Problem {i}\n\nAdd the numbers.\n",
            "time_limit_ms": 1000 + i,
            "memory_limit_MB": 256,
            "checker": CUSTOM_CHECKER if i % 3 == 2 else "wcmp",
            "test_cases": [{"input": f"{i} 1\n", "output": f"{i + 1}\n"},
                           {"input": "2 2\n", "output": "4\n"}],
        })
    return out


def write_parquet(path: Path, data: list[dict], schema=SCHEMA) -> Path:
    pq.write_table(pa.Table.from_pylist(data, schema=schema), path)
    return path


def write_jsonl(path: Path, data: list[dict]) -> Path:
    text = "".join(json.dumps(r) + "\n" for r in data)
    if path.name.endswith(".gz"):
        with gzip.open(path, "wt") as f:
            f.write(text)
    else:
        path.write_text(text)
    return path


@pytest.fixture
def spy_load_dataset(monkeypatch):
    """Records every datasets.load_dataset call (and still performs it)."""
    calls = []
    real = datasets.load_dataset

    def spy(*args, **kwargs):
        calls.append((args, kwargs))
        return real(*args, **kwargs)

    monkeypatch.setattr(datasets, "load_dataset", spy)
    return calls


# ------------------------------------------------------------------------------------ loader

def test_parquet_in_the_stepfun_schema_loads_through_datasets(tmp_path, spy_load_dataset):
    path = write_parquet(tmp_path / "cf.parquet", rows(3))
    problems = stepfun.load_stepfun(str(path))
    assert spy_load_dataset and spy_load_dataset[0][0][0] == "parquet"
    assert [p.id for p in problems] == ["codeforces/1900B", "codeforces/1901B", "codeforces/1902B"]
    p = problems[1]
    assert isinstance(p, Problem)
    assert p.title == "Problem 1"
    assert p.time_limit_ms == 1001 and p.memory_limit_mb == 256
    assert p.checker == "wcmp" and not p.has_custom_checker
    assert p.tests == (Case(b"1 1\n", b"2\n"), Case(b"2 2\n", b"4\n"))
    assert problems[2].has_custom_checker and problems[2].checker == CUSTOM_CHECKER
    assert p.metadata["row_id"] == 1


def test_directory_of_parquet_and_of_jsonl(tmp_path, spy_load_dataset):
    d = tmp_path / "parts"
    d.mkdir()
    write_parquet(d / "part-0.parquet", rows(2, 0))
    write_parquet(d / "part-1.parquet", rows(2, 2))
    (d / "README.md").write_text("not data")
    ids = [p.id for p in stepfun.load_stepfun(str(d))]
    assert sorted(ids) == [f"codeforces/{1900 + i}B" for i in range(4)]

    j = tmp_path / "jsonl"
    j.mkdir()
    write_jsonl(j / "a.jsonl", rows(2, 0))
    write_jsonl(j / "b.jsonl.gz", rows(1, 5))
    problems = stepfun.load_stepfun(str(j))
    assert sorted(p.id for p in problems) == ["codeforces/1900B", "codeforces/1901B",
                                              "codeforces/1905B"]
    assert {c[0][0] for c in spy_load_dataset} == {"parquet", "json"}


def test_single_jsonl_gz_file(tmp_path):
    path = write_jsonl(tmp_path / "cf.jsonl.gz", rows(2))
    problems = stepfun.load_stepfun(str(path))
    assert problems[0].tests[0].output == b"1\n"


@pytest.mark.parametrize("field,value,fragment", [
    ("time_limit_ms", -5, "time_limit_ms"),
    ("memory_limit_MB", 0, "memory_limit_MB"),
    ("problem_id", None, "missing field problem_id"),
    ("test_cases", [], "test_cases' is empty"),
    ("checker", None, "missing field checker"),
    ("checker", "no such checker!", "checker"),
])
def test_malformed_parquet_rows_raise_judge_error_naming_the_row(tmp_path, field, value,
                                                                 fragment):
    data = rows(3)
    data[1][field] = value
    path = write_parquet(tmp_path / "bad.parquet", data)
    with pytest.raises(JudgeError) as err:
        stepfun.load_stepfun(str(path))
    msg = str(err.value)
    assert "\n" not in msg
    assert "row 1" in msg and "bad.parquet" in msg and fragment in msg


@pytest.mark.parametrize("mutate,fragment", [
    (lambda r: r.update(time_limit_ms="fast"), "time_limit_ms"),
    (lambda r: r.update(time_limit_ms=1.5), "time_limit_ms"),
    (lambda r: r.update(memory_limit_MB=True), "memory_limit_MB"),
    (lambda r: r.update(problem_desc=7), "problem_desc"),
    (lambda r: r.update(test_cases="not json"), "test_cases"),
    (lambda r: r.update(test_cases=[{"input": "1"}]), "test case 1 output"),
    (lambda r: r.update(test_cases=[["1", "2"]]), "test case 1"),
    (lambda r: r.pop("memory_limit_MB"), "missing field memory_limit_MB"),
    (lambda r: r.update(interactor="wcmp"), "interactor must be a testlib interactor's source"),
    (lambda r: r.update(interactor=7), "interactor must be a testlib interactor's source"),
    (lambda r: r.update(checker=""), "field 'checker' is empty"),
])
def test_malformed_rows_wrong_types(mutate, fragment):
    row = rows(1)[0]
    mutate(row)
    with pytest.raises(JudgeError) as err:
        stepfun.row_to_problem(row, "src: row 0")
    assert fragment in str(err.value) and "row 0" in str(err.value)


def test_test_cases_as_json_string_and_float_limits_are_accepted():
    row = rows(1)[0]
    row["test_cases"] = json.dumps(row["test_cases"])
    row["time_limit_ms"] = 2000.0
    p = stepfun.row_to_problem(row, "r")
    assert p.time_limit_ms == 2000 and len(p.tests) == 2


def test_an_interactor_column_makes_a_problem_interactive(tmp_path):
    interactor = '#include "testlib.h"\nint main(int argc, char *argv[]) {\n'
    data = rows(3)
    data[0].update(interactor=interactor, checker="")        # the interactor's word is final
    data[1].update(interactor=interactor, checker="wcmp")    # then a checker on its output
    data[2]["interactor"] = None                              # an ordinary problem
    for path in (write_jsonl(tmp_path / "mixed.jsonl", data),):
        problems = stepfun.load_stepfun(str(path))
        assert [(p.is_interactive, p.checker) for p in problems] == [
            (True, ""), (True, "wcmp"), (False, data[2]["checker"])]
        assert problems[0].interactor == interactor


def test_missing_column_and_unreadable_files(tmp_path):
    schema = pa.schema([f for f in SCHEMA if f.name != "checker"])
    data = [{k: v for k, v in r.items() if k != "checker"} for r in rows(2)]
    path = write_parquet(tmp_path / "nochecker.parquet", data, schema)
    with pytest.raises(JudgeError, match="missing column checker"):
        stepfun.load_stepfun(str(path))
    garbage = tmp_path / "garbage.parquet"
    garbage.write_bytes(b"this is not parquet")
    with pytest.raises(JudgeError, match="garbage.parquet"):
        stepfun.load_stepfun(str(garbage))
    with pytest.raises(JudgeError, match="no such file"):
        stepfun.load_stepfun(str(tmp_path / "absent.parquet"))
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(JudgeError, match="no .parquet or .jsonl"):
        stepfun.load_stepfun(str(empty))


def test_duplicate_problem_ids(tmp_path):
    data = rows(2)
    data[1]["problem_id"] = data[0]["problem_id"]
    with pytest.raises(JudgeError, match="duplicate problem_id"):
        stepfun.load_stepfun(str(write_parquet(tmp_path / "dup.parquet", data)))


def test_hub_offline_fails_with_a_clear_error(monkeypatch, tmp_path, spy_load_dataset):
    import huggingface_hub.constants as hc

    before = (datasets.config.HF_HUB_OFFLINE, hc.HF_HUB_OFFLINE)
    monkeypatch.setattr(stepfun, "_hub_reachable", lambda *a, **k: False)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path)  # no cached copy
    with pytest.raises(JudgeError) as err:
        stepfun.load_stepfun(stepfun.HUB_ID)
    msg = str(err.value)
    assert stepfun.HUB_ID in msg and "release_v1" in msg and "\n" not in msg
    # It really went through datasets.load_dataset with the hub id and config.
    assert spy_load_dataset[0][0][:2] == (stepfun.HUB_ID, "release_v1")
    assert spy_load_dataset[0][1]["split"] == "test"
    # Offline mode was only switched on for the call.
    assert (datasets.config.HF_HUB_OFFLINE, hc.HF_HUB_OFFLINE) == before


def test_title_from_statement():
    assert stepfun.title_from_statement("# A. Find It\nbody", "x") == "Find It"
    assert stepfun.title_from_statement("\n\n**Sum**\n", "x") == "Sum"
    assert stepfun.title_from_statement("", "fallback") == "fallback"


# -------------------------------------------------------------------------------------- pack

def test_pack_is_small_and_in_the_schema():
    files = [p for p in registry.PACK_DIR.rglob("*") if p.is_file()]
    assert registry.PACK_FILE in files
    assert sum(p.stat().st_size for p in files) < 10 * 1024 * 1024
    schema = pq.read_schema(registry.PACK_FILE)
    # The benchmark's columns, then the loader's optional one for interactive problems.
    assert [f.name for f in schema] == [*SCHEMA.names, "interactor"]
    assert schema.field("test_cases").type == SCHEMA.field("test_cases").type


def test_pack_rows_are_read_without_datasets_into_the_same_problems(spy_load_dataset):
    registry.clear_cache()
    problems = registry.list_problems()
    assert not spy_load_dataset          # pyarrow alone reads the pack's rows
    # ... which are the rows `datasets` reads, through the same row conversion.
    assert problems == stepfun.load_stepfun(str(registry.PACK_FILE))
    assert spy_load_dataset and spy_load_dataset[0][0][0] == "parquet"
    ids = [p.id for p in problems]
    assert "codeforces/2020A" in ids
    pack = [p for p in problems if p.id.startswith("pack/")]
    assert len(pack) >= 6
    checkers = {("custom" if p.has_custom_checker else p.checker) for p in pack
                if not p.is_interactive}
    assert {"wcmp", "lcmp", "yesno", "rcmp6", "custom"} <= checkers
    assert [p.id for p in pack if p.is_interactive] == ["pack/guess-the-number"]
    assert any(p.time_limit_ms <= 500 for p in pack)
    for p in problems:
        assert p.tests and p.time_limit_ms > 0 and p.memory_limit_mb > 0 and p.title
        assert all(isinstance(t.input, bytes) and isinstance(t.output, bytes) for t in p.tests)


def test_looking_up_a_pack_problem_does_not_import_datasets():
    """`datasets` costs most of a second of CPU to import: every command that looks a pack
    problem up (judge run, judge eval on the pack) would pay it."""
    code = ("import sys; from judge.problems import registry; "
            "assert registry.resolve('two-sum').tests; "
            "assert 'datasets' not in sys.modules, 'datasets was imported'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_pack_2020A_answers_are_digit_sums():
    p = registry.resolve("2020A")
    assert p.title == "Find Minimum Operations"
    assert p.time_limit_ms == 1000 and p.memory_limit_mb == 256
    assert p.checker in ("ncmp", "wcmp")
    assert len(p.tests) >= 10

    def answer(n: int, k: int) -> int:
        if k == 1:
            return n
        s = 0
        while n:
            n, d = divmod(n, k)
            s += d
        return s

    saw_k1_max = saw_k_gt_n = False
    for t in p.tests:
        data = list(map(int, t.input.split()))
        cases = list(zip(data[1::2], data[2::2], strict=True))
        assert len(cases) == data[0] <= 10**4
        assert all(1 <= n <= 10**9 and 1 <= k <= 10**9 for n, k in cases)
        assert [int(x) for x in t.output.split()] == [answer(n, k) for n, k in cases]
        saw_k1_max |= (10**9, 1) in cases
        saw_k_gt_n |= any(k > n >= 10**8 for n, k in cases)
    assert saw_k1_max and saw_k_gt_n


def test_resolve_ids():
    a = registry.resolve("2020A")
    assert a.id == "codeforces/2020A"
    assert registry.resolve("codeforces/2020A") is a
    assert registry.resolve("2020a") is a
    assert registry.resolve("cf/2020A") is a
    assert registry.resolve("two-sum").id == "pack/two-sum"
    assert registry.resolve("pack/two-sum").id == "pack/two-sum"
    assert registry.candidate_ids("1950F2") == ["codeforces/1950F2"]


def test_unknown_id_says_where_it_looked(tmp_path):
    with pytest.raises(JudgeError) as err:
        registry.resolve("9999Z")
    msg = str(err.value)
    assert "9999Z" in msg and str(registry.PACK_FILE) in msg and "codeforces/9999Z" in msg
    path = write_parquet(tmp_path / "mine.parquet", rows(2))
    with pytest.raises(JudgeError) as err:
        registry.resolve("no-such-problem", str(path))
    msg = str(err.value)
    assert str(path) in msg and str(registry.PACK_FILE) in msg and "pack/no-such-problem" in msg


def test_resolve_in_a_dataset_then_the_pack_and_cache(tmp_path, monkeypatch):
    path = write_parquet(tmp_path / "mine.parquet", rows(2))
    registry.clear_cache()
    calls = []
    real, real_pack = registry.load_stepfun, registry.load_parquet_file
    monkeypatch.setattr(registry, "load_stepfun", lambda src: calls.append(src) or real(src))
    monkeypatch.setattr(registry, "load_parquet_file",
                        lambda src: calls.append(str(src)) or real_pack(src))
    assert registry.resolve("1901B", str(path)).time_limit_ms == 1001
    assert registry.resolve("codeforces/1900B", str(path)).id == "codeforces/1900B"
    assert registry.resolve("2020A", str(path)).id == "codeforces/2020A"  # falls back to pack
    assert len(registry.list_problems(str(path))) == 2
    registry.list_problems()
    assert calls == [str(path.resolve()), str(registry.PACK_FILE)]  # each source loaded once


# ------------------------------------------------------------------------------ pack sources

def problem_dirs() -> list[Path]:
    return sorted(p.parent for p in PACK_SRC.glob("*/problem.json"))


def test_every_pack_problem_has_its_sources():
    dirs = problem_dirs()
    assert len(dirs) >= 7
    ids = set()
    for d in dirs:
        meta = json.loads((d / "problem.json").read_text())
        ids.add(meta["problem_id"])
        for name in ("gen.py", "sol.cpp", "sol.py", "Main.java", "statement.md"):
            assert (d / name).is_file(), f"{d.name}/{name}"
    assert ids == {p.id for p in registry.list_problems()}
    cf = PACK_SRC / "codeforces-2020A"
    for name in ("wa", "tle", "mle", "re", "ce"):
        assert (cf / f"{name}.cpp").is_file() and (cf / f"{name}.py").is_file()
        java = cf / f"{name.upper()}.java"
        assert f"public class {name.upper()}" in java.read_text()


def _run_gen(d: Path, out: Path) -> dict[str, str]:
    subprocess.run([sys.executable, str(d / "gen.py"), str(out)], check=True, timeout=300)
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(out.glob("*.in"))}


@pytest.mark.slow
def test_generators_are_deterministic_and_match_the_pack(tmp_path):
    by_id = {p.id: p for p in registry.list_problems()}
    for d in problem_dirs():
        first = _run_gen(d, tmp_path / d.name / "a")
        second = _run_gen(d, tmp_path / d.name / "b")
        assert first == second, f"{d.name}: gen.py is not deterministic"
        pid = json.loads((d / "problem.json").read_text())["problem_id"]
        inputs = [(tmp_path / d.name / "a" / n).read_bytes() for n in sorted(first)]
        assert inputs == [t.input for t in by_id[pid].tests], \
            f"{d.name}: the pack is stale; rerun build_pack.py"


def test_pack_statement_and_checker_match_sources():
    for d in problem_dirs():
        meta = json.loads((d / "problem.json").read_text())
        p = registry.resolve(meta["problem_id"])
        assert p.statement == (d / "statement.md").read_text()
        assert p.time_limit_ms == meta["time_limit_ms"]
        assert p.memory_limit_mb == meta["memory_limit_MB"]
        if meta["checker"] == "custom":
            assert p.checker == (d / meta["checker_file"]).read_text()
        else:
            assert p.checker == meta["checker"]


def test_two_sum_checker_verdicts_on_hostile_output(tmp_path):
    p = registry.resolve("pack/two-sum")
    src = tmp_path / "checker.cpp"
    src.write_text(p.checker)
    exe = tmp_path / "checker"
    subprocess.run(["g++", "-std=c++20", "-O2", "-o", str(exe), str(src)], check=True,
                   timeout=300)
    inp, ans = tmp_path / "in", tmp_path / "ans"
    inp.write_bytes(b"5 10\n3 7 5 5 1\n")
    ans.write_bytes(b"1 2\n")

    def verdict(output: bytes, answer: bytes = b"1 2\n") -> int:
        out = tmp_path / "out"
        out.write_bytes(output)
        ans.write_bytes(answer)
        r = subprocess.run([str(exe), str(inp), str(out), str(ans)], capture_output=True,
                           timeout=60)
        assert r.stderr.strip(), "the checker explains itself on stderr"
        return r.returncode

    assert verdict(b"1 2\n") == 0
    assert verdict(b"4 3") == 0          # another valid pair, any order
    assert verdict(b"  2\n\n1  \n") == 0
    assert verdict(b"3 3\n") == 1        # same position twice
    assert verdict(b"1 3\n") == 1        # wrong sum
    assert verdict(b"-1\n") == 1         # a pair exists
    assert verdict(b"6 1\n") == 1        # out of range
    assert verdict(b"") == 2             # nothing
    assert verdict(b"1") == 2            # missing token
    assert verdict(b"one two") == 2      # garbage
    assert verdict(b"1 2 3") == 2        # extra output
    assert verdict(b"01 2") == 2         # not a canonical integer
    assert verdict(b"9" * 5_000_000) == 2  # a huge token
    assert verdict(bytes(range(256)) * 1000) == 2  # binary junk
    assert verdict(b"1 2\n", answer=b"-1\n") == 3  # the participant beats the jury: FAIL
    assert verdict(b"-1\n", answer=b"2 3\n") == 3  # the jury's pair is invalid: FAIL


# ----------------------------------------------------------------------------------------- CLI

def _cli(*args):
    from typer.testing import CliRunner

    from judge.cli import problems_cmd  # noqa: F401  (registers the commands)
    from judge.cli.app import app

    return CliRunner().invoke(app, list(args))


def test_cli_list_and_show_json():
    r = _cli("problems", "list", "--json")
    assert r.exit_code == 0, r.output
    listed = {p["id"]: p for p in json.loads(r.output)}
    assert listed["codeforces/2020A"]["checker"] in ("ncmp", "wcmp")
    assert listed["pack/two-sum"]["checker"] == "custom"
    assert listed["codeforces/2020A"]["tests"] == len(registry.resolve("2020A").tests)

    r = _cli("problems", "show", "2020A", "--json")
    assert r.exit_code == 0, r.output
    shown = json.loads(r.output)
    assert shown["id"] == "codeforces/2020A" and shown["time_limit_ms"] == 1000
    assert shown["sample"]["input"].startswith("6\n") and "Find Minimum" in shown["statement"]


def test_cli_table_and_errors(tmp_path):
    r = _cli("problems", "list")
    assert r.exit_code == 0 and "codeforces/2020A" in r.output and "custom" in r.output
    r = _cli("problems", "show", "two-sum")
    assert r.exit_code == 0 and "Two Sum" in r.output
    r = _cli("problems", "show", "nope-nope")
    assert r.exit_code == 2 and "unknown problem" in r.output
    r = _cli("problems", "list", "--dataset", str(tmp_path / "absent.parquet"))
    assert r.exit_code == 2 and "no such file" in r.output
    path = write_parquet(tmp_path / "mine.parquet", rows(2))
    r = _cli("problems", "list", "--dataset", str(path), "--json")
    assert r.exit_code == 0 and len(json.loads(r.output)) == 2


def test_loading_local_problems_touches_no_network(tmp_path):
    """The embedded pack and a local file load without any name lookup or connection (the
    datasets library counts downloads with a request to S3 unless told not to)."""
    local = write_jsonl(tmp_path / "rows.jsonl", rows(2))
    probe = (
        "import sys\n"
        "def refuse(event, args):\n"
        "    if event in ('socket.getaddrinfo', 'socket.connect'):\n"
        "        raise SystemExit(f'network: {event} {args}')\n"
        "sys.addaudithook(refuse)\n"
        "from judge.problems import registry\n"
        f"print(len(registry.list_problems()), len(registry.list_problems({str(local)!r})))\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=300, env={**os.environ, "HF_HOME": str(tmp_path / "hf")})
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.split()[1] == "2"
