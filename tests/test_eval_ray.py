"""judge eval --ray on a real multi-node Ray cluster on this machine (ray.cluster_utils.Cluster:
a head and a worker node of one CPU each, more nodes added by the tests that need them).

- the same metrics as a local `--jobs 2` run, on the pack and on a generated 200-sample set;
- a worker killed mid-run and a node removed mid-run: their tasks are graded again elsewhere,
  reported, and nothing is lost or counted twice;
- nodes whose sandbox cannot start or whose audit record FAILed are refused and reported;
- the driver killed with SIGKILL: the same command again judges nothing that was stored;
- --ray alone starts a local Ray instance.

Sandbox slots: the Ray workers of this module use RAY_SLOT_BASE and up, the RAY part of the
pytest process's own block (tests/slot_blocks.py). Nothing here asserts a wall-clock bound: the
machine is shared; only progress deadlines, scaled, are waited on.
"""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from ray_cluster import (
    LOCAL_SLOT,
    NODE,
    RAY_SLOT,
    assert_no_worker_left,
    wait_until,
    worker_processes,
)

from conftest import PACK_SOURCES, scaled, scaled_time_factors_env

ray = pytest.importorskip("ray", reason="judge[ray] is not installed (make setup installs it)")

from judge import config  # noqa: E402
from judge.evaluate.ray_pool import CLIENT_INIT_ATTEMPTS, RayCluster  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# What summary.json says about the samples, everything but timing, provenance and the cluster.
METRIC_KEYS = ("num_samples", "num_problems", "avg_at_n", "pass_at_k", "spread", "problems",
               "by_language", "verdicts", "verdicts_by_language", "ratings", "skipped", "limits",
               "complete", "excluded")


# ------------------------------------------------------------------------------ inputs

def pack_rows() -> list[dict]:
    """Every reference and wrong solution of the pack (C++, Python, Java): `make bench`'s set."""
    from tests.bench.eval_bench import generations
    return [json.loads(line) for line in _bench_jsonl(generations).splitlines()]


def _bench_jsonl(make) -> str:
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "gens.jsonl"
        make(path)
        return path.read_text()


def generated_rows(count: int = 200) -> list[dict]:
    """`count` samples over the pack's problems: their C++ and Python solutions and wrong
    answers, and 2020A's runtime error and compile errors, each in three variants (a comment),
    so that most samples repeat a program (judged once) and 80-odd programs are judged."""
    programs = []
    for problem_dir in sorted(p for p in PACK_SOURCES.iterdir() if p.is_dir()):
        meta = json.loads((problem_dir / "problem.json").read_text())
        names = ["sol.cpp", "wa.cpp", "sol.py", "wa.py"]
        if problem_dir.name == "codeforces-2020A":
            names += ["re.cpp", "ce.cpp", "re.py"]
        for name in names:
            if (problem_dir / name).exists():
                programs.append((meta["problem_id"], "cpp" if name.endswith(".cpp") else "python",
                                 (problem_dir / name).read_text()))
    rows = []
    index: dict[str, int] = {}
    for i in range(count):
        problem_id, language, code = programs[i % len(programs)]
        mark = "//" if language == "cpp" else "#"
        variant = (i // len(programs)) % 3
        rows.append({"problem_id": problem_id, "language": language,
                     "sample_index": index.setdefault(problem_id, 0),
                     "code": f"{code}\n{mark} variant {variant}\n"})
        index[problem_id] += 1
    return rows


def write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


# ------------------------------------------------------------------------------ helpers

def metrics(summary: dict) -> dict:
    """The summary's metrics, as JSON text per key (byte-identical means equal here). The re-run
    record is not among them: which TLEs were close enough to the limit to be judged again, and
    which of those came back AC, is how loaded the machine was in each run (the final verdicts
    it led to are compared sample by sample, and are in the metrics; the re-run rule is checked
    in assert_same_results)."""
    return {k: json.dumps(summary.get(k), sort_keys=True) for k in METRIC_KEYS}


def assert_same_results(remote, local) -> None:
    """`remote` (summary, samples) has the metrics of `local`. When the machine starved a run
    into BUSY in one evaluation but not in the other (no verdict: left out of the metrics, which
    then differ by that sample), the metrics cannot agree; every sample judged in both must
    still have the same verdict, and the test says which samples the machine spoiled."""
    (r_summary, r_samples), (l_summary, l_samples) = remote, local
    busy = {r["row"] for r in r_samples + l_samples if r["verdict"] == "BUSY"}
    r_busy = {r["row"] for r in r_samples if r["verdict"] == "BUSY"}
    l_busy = {r["row"] for r in l_samples if r["verdict"] == "BUSY"}
    verdicts = {r["row"]: r["verdict"] for r in r_samples if r["row"] not in busy}
    assert verdicts == {r["row"]: r["verdict"] for r in l_samples if r["row"] not in busy}
    # The re-run rule held in both: with more than one slot, every TLE that stands was re-run,
    # but for an interactive submission stopped for idleness.
    for samples in (r_samples, l_samples):
        due = [r for r in samples if r["verdict"] == "TLE" and r["tests"][-1]["killed_by"] != "idle"]
        assert all(r.get("reruns") == 1 for r in due), [r for r in due if r.get("reruns") != 1]
    if r_busy == l_busy:
        assert metrics(r_summary) == metrics(l_summary)
    else:
        import warnings
        warnings.warn(f"the machine starved rows {sorted(r_busy ^ l_busy)} into BUSY in one run "
                      "only: their metrics were not compared", stacklevel=2)


def of(result) -> tuple[dict, list[dict]]:
    return result.summary, result.samples


def of_dir(out: Path) -> tuple[dict, list[dict]]:
    return (json.loads((out / "summary.json").read_text()),
            [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()])


def evaluate(gens: Path, out: Path, **options):
    from judge.evaluate.runner import evaluate as run
    from judge.evaluate.tasks import EvalConfig
    return run(EvalConfig(generations=gens, out=out, progress=False, **options))


def stored(out: Path) -> dict[str, tuple[int, str]]:
    """key -> (run id, state) of the committed results."""
    path = out / "results.db"
    if not path.exists():
        return {}
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
        try:
            return {k: (r, s) for k, r, s in db.execute("SELECT key, run_id, state FROM results")}
        finally:
            db.close()
    except sqlite3.OperationalError:
        return {}


def judgments(out: Path) -> list[tuple[str, int, str]]:
    db = sqlite3.connect(f"file:{out / 'results.db'}?mode=ro", uri=True, timeout=10)
    try:
        return list(db.execute("SELECT key, run_id, phase FROM judgments"))
    finally:
        db.close()


def assert_judged_once(out: Path) -> None:
    """No judgment key was judged twice in one phase of the evaluation: a task retried after a
    lost worker is stored once."""
    seen: dict[tuple[str, str], int] = {}
    for key, _, phase in judgments(out):
        seen[(key, phase)] = seen.get((key, phase), 0) + 1
    twice = {k: n for k, n in seen.items() if n > 1}
    assert not twice, f"judged more than once: {twice}"


# ------------------------------------------------------------------------------ fixtures

@pytest.fixture(scope="module")
def gens_200(tmp_path_factory) -> Path:
    return write(tmp_path_factory.mktemp("gen200") / "gens.jsonl", generated_rows())


@pytest.fixture(scope="module")
def local_200(gens_200, tmp_path_factory, audited_host):
    """The reference: the 200-sample set judged locally with --jobs 2."""
    return evaluate(gens_200, tmp_path_factory.mktemp("local200"), jobs=2, slot_base=LOCAL_SLOT)


# ------------------------------------------------------------------------------ tests

def test_bare_ray_option_means_local():
    from judge.cli.eval_cmd import _ray_address, optional_ray_value
    assert optional_ray_value(["eval", "g.jsonl", "--ray"]) == ["eval", "g.jsonl", "--ray=local"]
    assert optional_ray_value(["eval", "--ray", "g.jsonl"]) == ["eval", "--ray=local", "g.jsonl"]
    assert optional_ray_value(["eval", "g.jsonl", "--ray", "--jobs", "2"])[2] == "--ray=local"
    assert optional_ray_value(["eval", "g.jsonl", "--ray", "auto"]) == ["eval", "g.jsonl", "--ray",
                                                                         "auto"]
    assert optional_ray_value(["run", "--ray"]) == ["run", "--ray"]
    for good in ("local", "auto", "10.0.0.1:6379", "ray://head:10001"):
        assert _ray_address(good)
    for bad in ("g.jsonl", "ray://", "head", ":6379"):
        assert not _ray_address(bad)


def test_pack_on_ray_equals_local(cluster, tmp_path):
    gens = write(tmp_path / "pack.jsonl", pack_rows())
    local = evaluate(gens, tmp_path / "local", jobs=2, slot_base=LOCAL_SLOT)
    remote = evaluate(gens, tmp_path / "ray", ray=cluster.address, slot_base=RAY_SLOT)
    assert_same_results(of(remote), of(local))
    info = remote.summary["cluster"]
    assert len(info["nodes"]) == 2 and all(n["samples"] > 0 for n in info["nodes"]), info["nodes"]
    assert not info["refused"] and not info["faults"]
    # Every TLE (or BUSY, on a starved machine) is named with the node and CPU of its standing
    # judgment (the re-run).
    tles = [r for r in remote.samples if r["verdict"] in ("TLE", "BUSY")]
    assert tles and len(info["tle"]) == len(tles)
    assert all(t["node"] and t["cpu"] is not None and t["reruns"] == 1 for t in info["tle"])
    assert all(r["graded_by"]["node_id"] for r in remote.samples if "key" in r)
    assert "graded on node" in (tmp_path / "ray" / "report.html").read_text()
    assert_judged_once(tmp_path / "ray")
    assert_no_worker_left()


def test_generated_set_on_ray_equals_local(cluster, gens_200, local_200, tmp_path):
    remote = evaluate(gens_200, tmp_path / "ray", ray=cluster.address, slot_base=RAY_SLOT)
    assert remote.summary["num_samples"] == 200
    assert_same_results(of(remote), of(local_200))
    assert remote.summary["run"]["unique_programs"] == local_200.summary["run"]["unique_programs"]
    assert_judged_once(tmp_path / "ray")
    assert_no_worker_left()


def _run_in_thread(gens: Path, out: Path, **options):
    box: dict = {}

    def target():
        try:
            box["result"] = evaluate(gens, out, **options)
        except BaseException as exc:    # handed to the test
            box["error"] = exc
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread, box


def _finish(thread, box):
    thread.join(scaled(600_000) / 1000)
    assert not thread.is_alive(), "the evaluation did not finish"
    if "error" in box:
        raise box["error"]
    return box["result"]


def test_a_worker_killed_mid_run_loses_nothing(cluster, gens_200, local_200, tmp_path):
    out = tmp_path / "ray"
    thread, box = _run_in_thread(gens_200, out, ray=cluster.address, slot_base=RAY_SLOT)
    wait_until(lambda: len(stored(out)) >= 5 and worker_processes(), "the first results")
    victim = worker_processes()[0]
    os.kill(victim, signal.SIGKILL)
    result = _finish(thread, box)
    info = result.summary["cluster"]
    assert len(info["faults"]) >= 1, info
    assert info["faults"][0]["event"] == "worker lost"
    assert info["retried"] >= 1 and info["lost"] == 0
    assert any("replaced_by_slot" in f for f in info["faults"])     # the node still lives
    assert_same_results(of(result), of(local_200))
    assert any("lost mid-run" in w for w in result.summary["warnings"])
    assert_judged_once(out)
    assert_no_worker_left()


def test_a_node_removed_mid_run_loses_nothing(cluster, gens_200, local_200, tmp_path):
    node = cluster.add_node(**NODE)
    cluster.wait_for_nodes()
    out = tmp_path / "ray"
    thread, box = _run_in_thread(gens_200, out, ray=cluster.address, slot_base=RAY_SLOT)
    wait_until(lambda: len(stored(out)) >= 5 and len(worker_processes()) >= 3,
               "the first results on three nodes")
    cluster.remove_node(node)
    result = _finish(thread, box)
    info = result.summary["cluster"]
    assert info["faults"] and info["retried"] >= 1 and info["lost"] == 0, info
    assert {f["node_id"] for f in info["faults"]} == {node.node_id}
    assert not any("replaced_by_slot" in f for f in info["faults"])  # a removed node gets none
    assert_same_results(of(result), of(local_200))
    assert_judged_once(out)
    assert_no_worker_left()


def test_nodes_that_cannot_judge_are_refused(cluster, tmp_path, configure):
    """A node whose sandbox cannot start and one whose audit record FAILed get no sample; the
    report names both, and the others grade everything."""
    from judge.audit import languages_here, record
    from judge.audit.runner import broken_switches
    from judge.evaluate.provenance import sandbox_mode
    failed_cache = tmp_path / "failed-cache"
    mode = sandbox_mode(LOCAL_SLOT)
    configure(cache_dir=failed_cache)
    key = record.host_key(mode.cgroup, mode.uid_mode, languages_here(), broken_switches())
    failure = "cpp touch 1.1x ML: OK at 1100 MB"
    record.store(key, record.AuditOutcome(record.AuditStatus.FAIL, True, "2026-12-04T00:00:00",
                                          40.0, languages_here(), 50, [failure]))
    configure(cache_dir=config.Config.from_environ().cache_dir)
    no_sandbox = cluster.add_node(**NODE, env_vars={"JUDGE_SUPERVISOR": "/bin/false"})
    unaudited = cluster.add_node(**NODE, env_vars={"JUDGE_CACHE_DIR": str(failed_cache)})
    cluster.wait_for_nodes()
    try:
        gens = write(tmp_path / "gens.jsonl", generated_rows(30))
        result = evaluate(gens, tmp_path / "ray", ray=cluster.address, slot_base=RAY_SLOT)
    finally:
        cluster.remove_node(no_sandbox)
        cluster.remove_node(unaudited)
    info = result.summary["cluster"]
    refused = {r["node_id"]: r["error"] for r in info["refused"]}
    assert set(refused) == {no_sandbox.node_id, unaudited.node_id}, info["refused"]
    assert failure in refused[unaudited.node_id] and "audit" in refused[unaudited.node_id]
    assert {n["node_id"] for n in info["nodes"]}.isdisjoint(refused)
    assert result.summary["complete"] and result.summary["num_samples"] == 30
    assert any("refused work" in w for w in result.summary["warnings"])
    assert_no_worker_left()


def _cli(gens: Path, out: Path, ray_option: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "from judge.cli import main; main()", "eval",
                             str(gens), "--out", str(out), "--slot-base", str(RAY_SLOT),
                             "--no-progress", "--json", *ray_option],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **scaled_time_factors_env()})


def test_resume_after_the_driver_is_killed(cluster, gens_200, local_200, tmp_path):
    out = tmp_path / "ray"
    # SIGTERM: a clean stop (exit 130), what was judged is kept.
    proc = _cli(gens_200, out, ["--ray", cluster.address])
    wait_until(lambda: len(stored(out)) >= 3, "the first results", proc=proc)
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=scaled(120_000) / 1000)
    assert proc.returncode == 130, stderr
    assert "resume" in stderr and "Traceback" not in stderr, stderr
    after_term = len(stored(out))
    assert_no_worker_left()
    # SIGKILL: the workers die with their driver, the store keeps what was committed.
    proc = _cli(gens_200, out, ["--ray", cluster.address])
    wait_until(lambda: len(stored(out)) >= after_term + 10, "more results", proc=proc)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate()
    first = stored(out)
    assert first, "nothing was stored before the kill"
    assert_no_worker_left()          # the driver's workers die with it
    proc = _cli(gens_200, out, ["--ray", cluster.address])
    stdout, stderr = proc.communicate(timeout=scaled(600_000) / 1000)
    assert proc.returncode == 0, stderr
    summary = json.loads(stdout)
    assert_same_results(of_dir(out), of(local_200))
    assert summary["run"]["from_store"] >= sum(1 for _, s in first.values() if s == "final")
    # What the killed driver stored final was judged in its run only.
    final_first = {k for k, (_, s) in first.items() if s == "final"}
    runs = {k: {r for key, r, _ in judgments(out) if key == k} for k in final_first}
    assert all(len(r) == 1 for r in runs.values()), runs
    assert_judged_once(out)
    assert_no_worker_left()


def test_a_ray_client_address(cluster, tmp_path):
    """--ray ray://HOST:PORT: the driver is a Ray Client, no node of the cluster."""
    port = cluster.head_node._ray_params.ray_client_server_port
    gens = write(tmp_path / "gens.jsonl", generated_rows(12))
    proc = _cli(gens, tmp_path / "out", ["--ray", f"ray://127.0.0.1:{port}"])
    stdout, stderr = proc.communicate(timeout=scaled(600_000) / 1000)
    assert proc.returncode == 0, stderr
    summary = json.loads(stdout)
    assert summary["complete"] and summary["num_samples"] == 12
    assert len(summary["cluster"]["nodes"]) == 2 and not summary["cluster"]["refused"]
    assert_no_worker_left()


def test_bare_ray_starts_a_local_instance(tmp_path, audited_host):
    gens = write(tmp_path / "gens.jsonl", generated_rows(12))
    env_gone = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    proc = subprocess.Popen([sys.executable, "-c", "from judge.cli import main; main()", "eval",
                             str(gens), "--out", str(tmp_path / "out"), "--slot-base",
                             str(RAY_SLOT), "--no-progress", "--json", "--ray"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**env_gone, **scaled_time_factors_env()})
    stdout, stderr = proc.communicate(timeout=scaled(600_000) / 1000)
    assert proc.returncode == 0, stderr
    summary = json.loads(stdout)
    assert summary["cluster"]["address"] == "local" and summary["num_samples"] == 12
    assert summary["complete"]
    assert_no_worker_left()


class _FlakyClientServer:
    """Stands in for the ray module: its server fails to start the client's session `failures`
    times (as Ray Client does on a loaded machine), then connects."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0

    def init(self, **_options) -> None:
        self.calls += 1
        if self.calls <= self.failures:
            raise ConnectionAbortedError("Initialization failure from server:\n")


def _pool_connecting_to(ray_module) -> RayCluster:
    pool = RayCluster.__new__(RayCluster)
    pool.ray, pool.address = ray_module, "ray://127.0.0.1:1"
    return pool


def test_a_session_the_client_server_failed_to_start_is_asked_for_again(monkeypatch):
    monkeypatch.setattr(time, "sleep", lambda _s: None)
    flaky = _FlakyClientServer(failures=2)
    _pool_connecting_to(flaky)._init_with_retries({})
    assert flaky.calls == 3


def test_a_client_server_that_keeps_failing_is_one_error(monkeypatch):
    monkeypatch.setattr(time, "sleep", lambda _s: None)
    failing = _FlakyClientServer(failures=99)
    with pytest.raises(ConnectionAbortedError):
        _pool_connecting_to(failing)._init_with_retries({})
    assert failing.calls == CLIENT_INIT_ATTEMPTS
