"""LiveCodeBench / CodeContests loaders on small fixtures in the exact schemas, and the
benchmarks' own output comparisons."""
import base64
import json
import pickle
import zlib

import pytest

from judge import JudgeError
from judge.checkers.dataset_comparators import (
    DATASET_COMPARATORS,
    check_codecontests,
    check_lcb,
    check_lcb_functional,
    compare_as_dataset,
)
from judge.problems import codecontests as cc
from judge.problems import livecodebench as lcb


@pytest.fixture(autouse=True)
def offline_hub(monkeypatch):
    """The hub is unreachable here; offline mode makes that fail at once instead of retrying."""
    import datasets
    import huggingface_hub.constants as hc

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True, raising=False)
    monkeypatch.setattr(hc, "HF_HUB_OFFLINE", True, raising=False)


def compress(obj_str: str) -> str:
    return base64.b64encode(zlib.compress(pickle.dumps(obj_str))).decode()


# ----------------------------------------------------------------------------- LiveCodeBench

def lcb_row(qid, date, *, platform="atcoder", functional=False, private=None, compressed=False,
            difficulty="easy"):
    if functional:
        public = [{"input": "[1, 2]\n3", "output": "[0, 1]", "testtype": "functional"}]
        priv = private or [{"input": "[5]\n5", "output": "[0]", "testtype": "functional"}]
        meta = {"func_name": "twoSum"}
        starter = "class Solution:\n    def twoSum(self, nums: List[int], target: int) -> List[int]:\n        "
    else:
        public = [{"input": "1 2\n", "output": "3\n", "testtype": "stdin"}]
        priv = private or [{"input": "5 7\n", "output": "12\n", "testtype": "stdin"},
                           {"input": "0 0\n", "output": "0\n", "testtype": "stdin"}]
        meta = {}
        starter = ""
    priv_json = json.dumps(priv)
    return {
        "question_title": f"Title {qid}",
        "question_content": f"Statement of {qid}",
        "platform": platform,
        "question_id": qid,
        "contest_id": "abc" + qid,
        "contest_date": date,
        "starter_code": starter,
        "difficulty": difficulty,
        "public_test_cases": json.dumps(public),
        "private_test_cases": compress(priv_json) if compressed else priv_json,
        "metadata": json.dumps(meta),
    }


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture
def lcb_dir(tmp_path):
    d = tmp_path / "lcb"
    d.mkdir()
    write_jsonl(d / "test.jsonl", [
        lcb_row("p1", "2023-05-01T00:00:00"),
        lcb_row("p2", "2024-08-01T00:00:00", compressed=True),
    ])
    write_jsonl(d / "test2.jsonl", [
        lcb_row("p3", "2025-02-28T00:00:00", platform="leetcode", functional=True, compressed=True,
                difficulty="medium"),
        lcb_row("p4", "2025-03-01T00:00:00"),
    ])
    return d


def test_release_file_mapping():
    assert lcb.release_files("release_v1") == ["test.jsonl"]
    assert lcb.release_files("release_v3") == ["test.jsonl", "test2.jsonl", "test3.jsonl"]
    assert lcb.release_files("v2") == ["test2.jsonl"]
    assert lcb.release_files("v2_v4") == ["test2.jsonl", "test3.jsonl", "test4.jsonl"]
    assert len(lcb.release_files("release_latest")) == 6
    for bad in ("release_v0", "v0", "v3_v2", "latest", ""):
        with pytest.raises(JudgeError):
            lcb.release_files(bad)


def test_lcb_directory_versions_and_decoding(lcb_dir, tmp_path):
    cache = str(tmp_path / "cache")
    v1 = lcb.load_livecodebench(lcb_dir, release="release_v1", cache_dir=cache)
    assert [p.id for p in v1] == ["livecodebench/p1", "livecodebench/p2"]
    v2 = lcb.load_livecodebench(lcb_dir, release="release_v2", cache_dir=cache)
    assert [p.id for p in v2] == [f"livecodebench/p{i}" for i in range(1, 5)]
    only2 = lcb.load_livecodebench(lcb_dir, release="v2", cache_dir=cache)
    assert [p.id for p in only2] == ["livecodebench/p3", "livecodebench/p4"]
    assert len(lcb.load_livecodebench(lcb_dir, cache_dir=cache)) == 4     # default: all files
    with pytest.raises(JudgeError, match="test3.jsonl"):
        lcb.load_livecodebench(lcb_dir, release="release_v3", cache_dir=cache)

    p2 = v2[1]
    # The compressed private tests decode to the same tests as the plain JSON ones.
    assert p2.tests == v2[0].tests
    assert p2.tests[0].input == b"1 2\n" and p2.tests[1].output == b"12\n" and len(p2.tests) == 3
    assert p2.checker == "lcb" and p2.time_limit_ms == 6000 and p2.memory_limit_mb == 4096
    assert p2.metadata["testtype"] == "stdin" and p2.metadata["num_public_tests"] == 1
    assert p2.title == "Title p2" and p2.statement == "Statement of p2"

    p3 = v2[2]
    assert p3.checker == "lcb-functional"
    assert p3.metadata["func_name"] == "twoSum" and p3.metadata["testtype"] == "functional"
    assert p3.metadata["starter_code"].startswith("class Solution:")
    assert p3.metadata["platform"] == "leetcode"
    assert p3.tests[0].input == b"[1, 2]\n3" and p3.tests[1].output == b"[0]"


def test_lcb_date_and_other_filters(lcb_dir, tmp_path):
    cache = str(tmp_path / "cache")
    got = lcb.load_livecodebench(lcb_dir, start_date="2024-08-01", end_date="2025-02-28",
                                 cache_dir=cache)
    assert [p.id for p in got] == ["livecodebench/p2", "livecodebench/p3"]      # inclusive bounds
    got = lcb.load_livecodebench(lcb_dir, start_date="2025-01-01", cache_dir=cache)
    assert [p.id for p in got] == ["livecodebench/p3", "livecodebench/p4"]
    got = lcb.load_livecodebench(lcb_dir, platforms=["LeetCode"], cache_dir=cache)
    assert [p.id for p in got] == ["livecodebench/p3"]
    got = lcb.load_livecodebench(lcb_dir, difficulties=["medium"], cache_dir=cache)
    assert [p.id for p in got] == ["livecodebench/p3"]
    with pytest.raises(JudgeError, match="after"):
        lcb.load_livecodebench(lcb_dir, start_date="2025-01-01", end_date="2024-01-01")
    with pytest.raises(JudgeError, match="bad date"):
        lcb.load_livecodebench(lcb_dir, start_date="last week")


def test_lcb_single_file_and_parquet(tmp_path):
    import datasets

    rows = [lcb_row("q1", "2024-09-01T00:00:00", compressed=True),
            lcb_row("q2", "2024-10-01T00:00:00", functional=True, platform="leetcode")]
    f = write_jsonl(tmp_path / "lcb.jsonl", rows)
    cache = str(tmp_path / "cache")
    assert [p.id for p in lcb.load_livecodebench(f, cache_dir=cache)] == \
        ["livecodebench/q1", "livecodebench/q2"]
    with pytest.raises(JudgeError, match="single file"):
        lcb.load_livecodebench(f, release="release_v1")
    pq = tmp_path / "lcb.parquet"
    datasets.Dataset.from_list(rows).to_parquet(str(pq))
    got = lcb.load_livecodebench(pq, cache_dir=cache)
    assert [len(p.tests) for p in got] == [3, 2]


def test_hostile_pickle_is_refused_and_never_runs(tmp_path):
    marker = tmp_path / "pwned"

    class Evil:
        def __reduce__(self):
            import os
            return (os.system, (f"touch {marker}",))

    evil = base64.b64encode(zlib.compress(pickle.dumps(Evil()))).decode()
    with pytest.raises(JudgeError, match="refused"):
        lcb.decode_private_tests(evil)
    assert not marker.exists()

    # Same through the loader: the error names the row.
    row = lcb_row("bad", "2024-09-01T00:00:00")
    row["private_test_cases"] = evil
    with pytest.raises(JudgeError, match=r"row 0 \(bad\)"):
        lcb.problem_from_row(row, 0)
    assert not marker.exists()

    # Class-free but not a string: refused too.
    not_str = base64.b64encode(zlib.compress(pickle.dumps([{"input": "1", "output": "1"}]))).decode()
    with pytest.raises(JudgeError, match="not a JSON string"):
        lcb.decode_private_tests(not_str)
    # A builtin reached through the protocol-2 global opcode is refused as well.
    builtin = base64.b64encode(zlib.compress(pickle.dumps(len, protocol=2))).decode()
    with pytest.raises(JudgeError, match="refused"):
        lcb.decode_private_tests(builtin)
    for garbage in ("not base64 !!", base64.b64encode(b"not zlib").decode()):
        with pytest.raises(JudgeError):
            lcb.decode_private_tests(garbage)


def test_private_tests_round_trip():
    tests = [{"input": "x" * 1000, "output": "ü", "testtype": "stdin"}]
    assert lcb.decode_private_tests(lcb.encode_private_tests(tests)) == tests
    assert lcb.decode_private_tests(json.dumps(tests)) == tests


@pytest.mark.parametrize("mutate,match", [
    (lambda r: r.pop("question_content"), "missing field 'question_content'"),
    (lambda r: r.update(public_test_cases="{not json"), "public_test_cases is not JSON"),
    (lambda r: r.update(public_test_cases=json.dumps([{"input": 1}])), r"public_test_cases\[0\]"),
    (lambda r: r.update(public_test_cases=json.dumps(
        [{"input": "", "output": "", "testtype": "weird"}])), "unknown testtype"),
    (lambda r: r.update(metadata="[1]"), "metadata"),
    (lambda r: r.update(public_test_cases="[]", private_test_cases=""), "no tests"),
])
def test_lcb_malformed_rows_name_the_row(mutate, match):
    row = lcb_row("m1", "2024-09-01T00:00:00")
    mutate(row)
    with pytest.raises(JudgeError, match=match) as e:
        lcb.problem_from_row(row, 7)
    assert "row 7" in str(e.value)


def test_lcb_functional_without_func_name():
    row = lcb_row("f1", "2024-09-01T00:00:00", functional=True)
    row["metadata"] = "{}"
    with pytest.raises(JudgeError, match="func_name"):
        lcb.problem_from_row(row, 0)


def test_hub_unreachable_is_a_clear_error(tmp_path):
    with pytest.raises(JudgeError, match="livecodebench: cannot load"):
        lcb.load_livecodebench("livecodebench/code_generation_lite", release="release_v1",
                               cache_dir=str(tmp_path / "c"))
    with pytest.raises(JudgeError, match="codecontests: cannot load"):
        cc.load_codecontests("deepmind/code_contests", cache_dir=str(tmp_path / "c"))
    with pytest.raises(JudgeError, match="no such file"):
        lcb.load_livecodebench(str(tmp_path / "missing.jsonl"))
    with pytest.raises(JudgeError, match="no such file"):
        cc.load_codecontests("./nope")


# ----------------------------------------------------------------------------- CodeContests

def cc_row(name, *, rating=1500, tl=(2, 500_000_000), mem=256 << 20):
    return {
        "name": name,
        "description": f"Statement of {name}",
        "public_tests": {"input": ["1 2\n"], "output": ["3\n"]},
        "private_tests": {"input": ["5 5\n"], "output": ["10\n"]},
        "generated_tests": {"input": ["0 0\n", "9 1\n"], "output": ["0\n", "10\n"]},
        "source": 2,
        "difficulty": 8,
        "solutions": {"language": [2, 3], "solution": ["int main(){}", "print(sum(map(int,input().split())))"]},
        "incorrect_solutions": {"language": [4], "solution": ["class Main {}"]},
        "cf_contest_id": 1500,
        "cf_index": "B",
        "cf_points": 1000.0,
        "cf_rating": rating,
        "cf_tags": ["math"],
        "is_description_translated": False,
        "untranslated_description": "",
        "time_limit": None if tl is None else {"seconds": tl[0], "nanos": tl[1]},
        "memory_limit_bytes": mem,
        "input_file": "",
        "output_file": "",
    }


def test_codecontests_parquet_directory(tmp_path):
    import datasets

    d = tmp_path / "cc"
    (d / "data").mkdir(parents=True)
    datasets.Dataset.from_list([cc_row("1500_B. Sum"), cc_row("x", rating=0, tl=None, mem=0)]) \
        .to_parquet(str(d / "data" / "test-00000-of-00001.parquet"))
    datasets.Dataset.from_list([cc_row("train one")]) \
        .to_parquet(str(d / "data" / "train-00000-of-00001.parquet"))
    cache = str(tmp_path / "cache")
    got = cc.load_codecontests(d, split="test", cache_dir=cache)
    assert [p.id for p in got] == ["codecontests/1500_B. Sum", "codecontests/x"]
    p, q = got
    assert p.checker == "codecontests" and p.rating == 1500 and q.rating is None
    assert p.time_limit_ms == 2500 and q.time_limit_ms == cc.DEFAULT_TIME_LIMIT_MS
    assert p.memory_limit_mb == 256 and q.memory_limit_mb == cc.DEFAULT_MEMORY_LIMIT_MB
    assert [t.input for t in p.tests] == [b"1 2\n", b"5 5\n", b"0 0\n", b"9 1\n"]
    assert p.metadata["test_counts"] == {"public": 1, "private": 1, "generated": 2}
    assert p.metadata["source"] == "codeforces" and p.metadata["difficulty"] == "B"
    assert p.metadata["cf_index"] == "B" and p.metadata["num_solutions"] == 2
    assert [x.id for x in cc.load_codecontests(d, split="train", cache_dir=cache)] == \
        ["codecontests/train one"]
    pub = cc.load_codecontests(d, test_sets=["public"], names=["x"], cache_dir=cache)
    assert len(pub) == 1 and len(pub[0].tests) == 1
    sols = cc.load_codecontests(d, include_solutions=True, cache_dir=cache)[0]
    assert sols.metadata["solutions"][0] == ("cpp", "int main(){}")
    assert sols.metadata["solutions"][1][0] == "python3"
    assert sols.metadata["incorrect_solutions"] == [("java", "class Main {}")]


def test_codecontests_language_enum_and_jsonl(tmp_path):
    assert cc.LANGUAGES == {0: "unknown", 1: "python2", 2: "cpp", 3: "python3", 4: "java"}
    f = write_jsonl(tmp_path / "cc.jsonl", [cc_row("a", tl=(1, 0))])
    p = cc.load_codecontests(f, cache_dir=str(tmp_path / "cache"))[0]
    assert p.time_limit_ms == 1000 and len(p.tests) == 4


@pytest.mark.parametrize("mutate,match", [
    (lambda r: r.pop("name"), "missing 'name'"),
    (lambda r: r.update(public_tests={"input": ["1"], "output": []}), "1 inputs but 0 outputs"),
    (lambda r: r.update(private_tests="oops"), "private_tests"),
    (lambda r: r.update(time_limit={"seconds": "soon"}), "time_limit"),
    (lambda r: r.update(memory_limit_bytes="lots"), "memory_limit_bytes"),
    (lambda r: r.update(public_tests=None, private_tests=None, generated_tests=None), "no tests"),
])
def test_codecontests_malformed_rows_name_the_row(mutate, match):
    row = cc_row("bad one")
    mutate(row)
    with pytest.raises(JudgeError, match=match) as e:
        cc.problem_from_row(row, 3)
    assert "codecontests row 3" in str(e.value)


# ----------------------------------------------------------------------------- comparators

@pytest.mark.parametrize("out,ans,verdict", [
    (b"3\n", b"3", "OK"),
    (b"  1 2 3  \r\n\n", b"1 2 3\n", "OK"),                   # whole-text and per-line strip
    (b"1  2   3\n", b"1 2 3\n", "OK"),                        # via Decimal tokens
    (b"1.50\n", b"1.5\n", "OK"),                              # Decimal equality
    (b"1e2\n", b"100\n", "OK"),
    (b"0.3333\n", b"0.333\n", "WA"),                          # no tolerance
    (b"Yes\n", b"yes\n", "WA"),                               # case matters
    (b"1\n2\n", b"1 2\n", "WA"),                              # line counts must match
    (b"1\n\n2\n", b"1\n2\n", "WA"),                           # inner empty line counts
    (b"a b\n", b"a  b\n", "WA"),                              # non-numeric needs exact line
    (b"", b"\n", "OK"),
    (b"NaN\n", b"NaN\n", "OK"),                               # equal strings before Decimal
])
def test_lcb_comparator(out, ans, verdict):
    assert check_lcb(b"", out, ans)[0] == verdict


def test_lcb_functional_comparator():
    assert check_lcb_functional(b"", b"[0, 1]\n", b"[0,1]")[0] == "OK"
    assert check_lcb_functional(b"", b"2.0", b"2")[0] == "OK"
    assert check_lcb_functional(b"", b"true", b"true")[0] == "OK"
    assert check_lcb_functional(b"", b"[1, 0]", b"[0, 1]")[0] == "WA"
    assert check_lcb_functional(b"", b"\"abc\"", b"\"abd\"")[0] == "WA"
    assert check_lcb_functional(b"", b"Traceback ...", b"1")[0] == "WA"


@pytest.mark.parametrize("out,ans,verdict", [
    (b"YES\n", b"yes", "OK"),                                 # case-insensitive
    (b"1\n2\t3\r\n", b"1 2 3", "OK"),                         # any whitespace
    (b"0.1000001", b"0.1", "OK"),                             # |a-b| < 1e-5
    (b"0.10002", b"0.1", "WA"),
    (b"100000.000001", b"100000", "OK"),                      # absolute, not relative
    (b"1000000000.1", b"1000000000", "WA"),
    (b"+5", b"5", "OK"),
    (b"1e-6", b"0", "OK"),
    (b"9007199254740993", b"9007199254740992", "OK"),         # ints compared as doubles
    (b"abc", b"abd", "WA"),
    (b"1 2", b"1 2 3", "WA"),
    (b"nan", b"nan", "OK"),                                   # equal token lists pass first
    (b"nan 1", b"nan 2", "WA"),
    (b"1_0", b"10", "WA"),                                    # not a number for absl
    (b"", b"", "OK"),
])
def test_codecontests_comparator(out, ans, verdict):
    assert check_codecontests(b"", out, ans)[0] == verdict


def test_registry():
    assert set(DATASET_COMPARATORS) == {"lcb", "lcb-functional", "codecontests", "sandboxfusion"}
    assert compare_as_dataset("codecontests", b"", b"1", b"1")[0] == "OK"
    with pytest.raises(JudgeError):
        compare_as_dataset("nope", b"", b"", b"")


# ----------------------------------------------------------------------------- one way to name problems

def _judge_cli(*args, cwd=None):
    import os
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=300, cwd=cwd,
                          env={**os.environ, "HF_HUB_OFFLINE": "1"})


@pytest.mark.slow
def test_problems_and_run_take_the_same_dataset_names_as_eval(lcb_dir, tmp_path, require_sandbox):
    """`livecodebench:DIR?...` names the same problems in `judge problems list|show` and
    `judge run` as in `judge eval` (run and problems used to know Stepfun sources only)."""
    spec = f"livecodebench:{lcb_dir}?release=v2"
    listed = _judge_cli("problems", "list", "--json", "--dataset", spec)
    assert listed.returncode == 0, listed.stderr
    assert [p["id"] for p in json.loads(listed.stdout)] == ["livecodebench/p3", "livecodebench/p4"]
    shown = _judge_cli("problems", "show", "p3", "--json", "--dataset", spec)
    assert shown.returncode == 0 and json.loads(shown.stdout)["id"] == "livecodebench/p3", shown
    assert json.loads(shown.stdout)["time_rule"] == "wall"          # LiveCodeBench's 6 s a test
    assert "6000 ms wall" in _judge_cli("problems", "list", "--dataset", spec).stdout
    solution = tmp_path / "sol.py"
    solution.write_text("a, b = map(int, input().split())\nprint(a + b)\n")
    graded = _judge_cli("run", str(solution), "--problem", "p4", "--json", "--dataset", spec)
    assert graded.returncode == 0, graded.stdout + graded.stderr
    assert json.loads(graded.stdout)["verdict"] == "AC"
    assert json.loads(graded.stdout)["wall_time_limit_ms"] == 6000
    unknown = _judge_cli("run", str(solution), "--problem", "p1", "--dataset", spec)
    assert unknown.returncode == 2 and "unknown problem 'p1'" in unknown.stderr, unknown.stderr
