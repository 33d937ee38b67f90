"""cgroup v1: each run's child is forked by a spawner thread of the slot's init that waits in
the run's cgroups (native/shared/spawner.c), so it is born there. A v1 migration waits an RCU grace
period when the last one is older than one; runs spaced out must not pay that on their wall
time, and the thread in the run's cgroups must change no figure and no limit."""
from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

import pytest

from conftest import children_of, is_parked_child, slot_dir_name, slot_parents

pytestmark = [pytest.mark.sandbox, pytest.mark.cgroup_layout("v1")]

SPACING_S = 0.03   # longer than a grace period: a migration this far apart waits for one
ROUNDS = 15


@pytest.fixture
def sb(make_sandbox, require_sandbox):
    sandbox = make_sandbox()
    if sandbox.cgroup != "v1":
        pytest.skip(f"the suite's cgroup mode is {sandbox.cgroup}")
    return sandbox


def _tasks(directory: Path) -> set[int]:
    return {int(t) for t in (directory / "tasks").read_text().split()}


def test_the_next_runs_cgroups_hold_a_thread_of_the_init_and_its_parked_child(sb):
    """Between runs two run directories exist in every v1 hierarchy: the next run's, with the
    spawner that forked its child and that child, parked until the request comes
    (native/supervisor/child.c), and the last run's, whose spawner stays there until the next run is
    under way (it then moves on and removes it). Each holds one thread of the slot's init (the
    init's main thread stays outside), and nothing else but the parked child."""
    assert sb.run(["./exitcode"]).status == "OK"
    children = children_of(sb._process.pid)
    assert len(children) == 1, children
    init = children[0]
    threads = {int(t.name) for t in Path(f"/proc/{init}/task").iterdir()}
    deadline = time.monotonic() + 10
    for hierarchy, parent in slot_parents().items():
        if hierarchy == "unified":
            continue
        slot = parent / slot_dir_name(sb.slot, sb._process.pid)
        while True:   # the spawner moves in and removes the directory it left, off the reply
            runs = sorted(p for p in slot.iterdir() if p.is_dir())
            held = [{t for t in _tasks(r) if not is_parked_child(str(t))} for r in runs]
            parked = [t for r in runs for t in _tasks(r) if is_parked_child(str(t))]
            if (len(runs) == 2 and all(len(h) == 1 for h in held) and len(parked) == 1
                    or time.monotonic() > deadline):
                break
            time.sleep(0.01)
        assert len(runs) == 2, runs
        spawners = set().union(*held)
        assert all(len(h) == 1 for h in held), held
        assert spawners <= threads - {init}, (spawners, threads, init)
        assert len(parked) == 1 and parked[0] in children_of(init), (parked, children_of(init))


def _bare_migration_ms() -> float:
    """The wall time of a child that moves itself into a fresh v1 cgroup and exits, spaced as
    the runs below: the wait the spawners save, measured on this host now."""
    parent = slot_parents()["pids"]
    probe = parent / f"judge-spawner-test-{os.getpid()}"
    probe.mkdir()
    try:
        times = []
        for _ in range(ROUNDS):
            time.sleep(SPACING_S)
            start = time.perf_counter()
            pid = os.fork()
            if pid == 0:
                try:
                    (probe / "cgroup.procs").write_text("0")
                finally:
                    os._exit(0)
            os.waitpid(pid, 0)
            times.append((time.perf_counter() - start) * 1e3)
        return statistics.median(times)
    finally:
        probe.rmdir()


def test_runs_spaced_out_do_not_wait_for_a_grace_period(sb):
    """The baseline is measured in the same test: where a bare migration spaced like these runs
    costs no grace period (another kernel), there is nothing to compare."""
    migration = _bare_migration_ms()
    if migration < 3:
        pytest.skip(f"a spaced v1 migration costs {migration:.1f} ms here: no grace-period wait")
    walls = []
    for _ in range(ROUNDS):
        time.sleep(SPACING_S)
        start = time.perf_counter()
        r = sb.run(["./exitcode"])
        walls.append((time.perf_counter() - start) * 1e3)
        assert r.status == "OK", r
    # A run costs a few ms on a busy machine; one that migrated would cost the wait on top.
    assert statistics.median(walls) < migration, (walls, migration)
