"""The reward API on a real multi-node Ray cluster (judge.reward with `ray=`, through
judge.evaluate.ray_gradings): the same scores as in this process, from workers on every node
kept warm across calls, each batch's repeats graded once, each call's problems its own, the
options travelling, a BUSY grading judged again on one worker, the reward-hacking doors ending as
the submission's failure, and nothing left behind on `close`. No wall-clock bound is asserted."""
from __future__ import annotations

import json
import pickle

import pytest
from ray_cluster import RAY_SLOT, assert_no_worker_left, worker_processes
from test_reward import COMPLETIONS, DOUBLE, HALF, RIGHT, SPIN, fenced, trl_columns
from test_ungameable import MINUS_ONE, doors, problem_rows

from conftest import scaled
from judge.verdicts import Verdict

ray = pytest.importorskip("ray", reason="judge[ray] is not installed (make setup installs it)")

from judge.reward import CodeReward  # noqa: E402


def on_ray(cluster, **options) -> CodeReward:
    return CodeReward(ray=cluster.address, ray_slot_base=RAY_SLOT, **options)


def graded_by_node(reward: CodeReward) -> dict[str, int]:
    assert reward.on_ray is not None and reward.on_ray.cluster is not None
    return {n["node_id"]: n["graded"] for n in reward.on_ray.cluster.nodes_used.values()}


def test_the_cluster_gives_the_scores_of_this_process_from_every_node(cluster):
    completions = COMPLETIONS + [SPIN]
    columns = {**trl_columns(len(completions)), "time_limit_ms": [500] * len(completions)}
    local = CodeReward().grade_batch(completions, columns)
    with on_ray(cluster) as reward:
        remote = reward.grade_batch(completions, columns)
        assert [g.score for g in remote] == [1.0, 0.5, 0.0, 0.0, 0.0, 0.0]
        assert remote == local
        # A worker still starting when a batch began joins a later one (on a loaded machine
        # one node's may start well after the other's): with both up, a batch of distinct
        # programs reaches both nodes.
        late = [h.ready_ref for h in reward.on_ray.cluster.late]
        ray.wait(late, num_returns=len(late), timeout=scaled(300_000) / 1000)
        variants = [fenced(f"# {i}\nprint(int(input()) * 2)\n") for i in range(12)]
        assert reward(completions=variants, **trl_columns(12)) == [1.0] * 12
        graded = graded_by_node(reward)
        assert len(graded) == 2 and all(n > 0 for n in graded.values()), graded
        # The next call finds the same workers, warm; repeats of one completion are graded once.
        pids = sorted(worker_processes())
        before = sum(graded.values())
        assert reward(completions=[RIGHT] * 6, **trl_columns(6)) == [1.0] * 6
        assert sum(graded_by_node(reward).values()) == before + 1
        assert sorted(worker_processes()) == pids
    assert_no_worker_left()


def test_options_travel_and_each_call_has_its_own_problems(cluster):
    with on_ray(cluster, stop_at_first_failure=True) as reward:
        stopped = reward.grade_batch([HALF], trl_columns(1))[0]
        assert (stopped.score, stopped.passed, stopped.ran) == (0.5, 2, 3)
        # Two calls whose rows give their problems one id but different tests.
        doubled = {"id": ["same"], "inputs": [DOUBLE["inputs"]], "outputs": [DOUBLE["outputs"]]}
        tripled = {**doubled, "outputs": [["3\n", "6\n", "9\n", "12\n"]]}
        assert reward(completions=[RIGHT], **doubled) == [1.0]
        assert reward(completions=[RIGHT], **tripled) == [0.0]
        copy = pickle.loads(pickle.dumps(reward))
    assert_no_worker_left()
    # A pickled copy (a trainer shipping its reward to its own workers) connects anew: here
    # once the first one has given the cluster's CPUs back.
    assert copy.on_ray is not None and copy.on_ray.cluster is None
    with copy:
        assert copy(completions=[fenced("print(int(input()) * 3)\n")], **tripled) == [1.0]
    assert_no_worker_left()


def test_a_busy_grading_is_judged_again_on_one_worker(cluster, monkeypatch):
    """The machine starving a batch's grading is simulated by answering the batch's first
    grading of the loop BUSY (what a starved worker sends); the reward must not give None for it
    but judge it again alone, on one worker, and give the TLE the loop earns."""
    from judge.evaluate.ray_pool import RayCluster
    real = RayCluster.judge_kept
    calls: list[int | None] = []

    def starved_first(self, tasks, workers=None):
        calls.append(workers)
        outcomes = real(self, tasks, workers)
        if len(calls) == 1:
            for outcome in outcomes.values():
                if "while True" in outcome.task.source:
                    outcome.record = {**outcome.record, "verdict": str(Verdict.BUSY)}
        return outcomes

    monkeypatch.setattr(RayCluster, "judge_kept", starved_first)
    columns = {**trl_columns(2), "time_limit_ms": [300] * 2}
    with on_ray(cluster) as reward:
        graded = reward.grade_batch([SPIN, RIGHT], columns)
    assert [(g.score, g.verdict) for g in graded] == [(0.0, "TLE"), (1.0, "AC")]
    assert calls == [None, 1]
    assert_no_worker_left()


def test_no_door_through_the_cluster_is_no_reward(cluster, tmp_path):
    """The reward-hacking suite's doors (tests/test_ungameable.py) as completions graded on the
    cluster: none gets None (no reward: a judge failure) or more than a plain wrong answer."""
    dataset = tmp_path / "problems.jsonl"
    dataset.write_text("".join(json.dumps(r) + "\n" for r in problem_rows()))
    tried = doors()
    completions = [f"```{d.language}\n{d.code}```\n" for d in tried]
    nothing = [f"```{d.language}\n{MINUS_ONE.get(d.language, '')}```" for d in tried]
    columns = {"problem_id": [d.problem for d in tried], "language": [d.language for d in tried]}
    with on_ray(cluster, dataset=str(dataset)) as reward:
        scores = reward(completions=completions, **columns)
        baseline = reward(completions=nothing, **columns)
    wrong = [f"{door.name} on {door.problem}: reward {score} (a plain wrong answer: {base})"
             for door, score, base in zip(tried, scores, baseline, strict=True)
             if score is None or base is None or score > base or score == 1.0]
    assert not wrong, "\n".join(wrong)
    assert_no_worker_left()
