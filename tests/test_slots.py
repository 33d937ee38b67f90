"""Sandbox slot numbers (judge/sandbox/slots.py). A slot is a sandbox uid, so two sandboxes alive
at once must never share one: every user of the judge takes its slots from a range of its own,
and the ranges never meet on a host of any size up to MAX_CPUS, however many slots each user may
ask for. An interactive test's interactor runs on a slot of its own too. The registry's facts
about the supervisor (the slot numbers it takes, the host uid of a slot) are checked against
the supervisor itself."""
from __future__ import annotations

import inspect
import itertools
import os
import time
from pathlib import Path

import pytest

from conftest import next_slot, processes_of_uid, quiet_cpu, scaled
from judge import JudgeError
from judge.sandbox import slots


def _held(user: slots.SlotRange, cpus: int) -> list[range]:
    """The slots a user holds on a host of `cpus` CPUs, by default and at the most it may ask
    for, with the slots their interactors run on."""
    held = []
    for count in (user.default_count(cpus), user.size):
        taken = user.take(count)
        held += [taken, range(slots.interactor_slot(taken[0]),
                              slots.interactor_slot(taken[-1]) + 1)]
    return held


def test_no_two_users_share_a_slot_on_any_host_of_1_to_1024_cpus():
    assert len({user.user for user in slots.USERS}) == len(slots.USERS)
    for cpus in range(1, slots.MAX_CPUS + 1):
        spans = sorted((r.start, r.stop, user.user) for user in slots.USERS
                       for r in _held(user, cpus))
        assert spans[0][0] >= 0 and spans[-1][1] <= slots.SLOT_COUNT
        for (_, stop, user), (start, _, other) in itertools.pairwise(spans):
            assert user == other or stop <= start, (cpus, user, other)


def test_every_range_holds_a_slot_for_each_cpu_of_the_largest_host():
    for user in slots.USERS:
        assert user.default_count(slots.MAX_CPUS) == min(user.size, slots.MAX_CPUS)
        assert user.default_count(1) == 1
    many = (slots.EVALUATION, slots.LIBRARY_GRADE, slots.LIBRARY_EVALUATE, slots.SERVICE,
            slots.RAY_WORKERS)
    assert all(user.size >= slots.MAX_CPUS for user in many)
    assert slots.TESTS.size >= 32 * slots.TEST_BLOCK     # 32 pytest processes at once


def test_a_user_asking_for_more_than_its_range_is_refused():
    with pytest.raises(JudgeError, match="judge serve"):
        slots.SERVICE.take(slots.SERVICE.size + 1)
    with pytest.raises(JudgeError, match="0 slots"):
        slots.EVALUATION.take(0)
    # An operator's own first slot (--slot-base) may go anywhere its interactors still fit.
    assert slots.SERVICE.take(4, first=100) == range(100, 104)
    with pytest.raises(JudgeError, match="interactor"):
        slots.SERVICE.take(4, first=slots.RUN_SLOTS - 2)
    with pytest.raises(JudgeError, match="interactor"):
        slots.interactor_slot(slots.RUN_SLOTS)


def test_the_cpu_of_a_slot_is_the_usable_cpus_in_turn():
    assert [slots.cpu_of(i, [3, 5, 7]) for i in range(7)] == [3, 5, 7, 3, 5, 7, 3]
    assert slots.cpu_of(0) in os.sched_getaffinity(0)


def test_every_user_takes_its_slots_from_the_registry():
    from judge import api
    from judge.audit.runner import ProbeRunner
    from judge.evaluate.tasks import EvalConfig
    from judge.grade import Grader
    from judge.sandbox import Sandbox
    from judge.service.settings import Settings

    settings = Settings(slots=3)
    assert settings.slot_numbers == range(slots.SERVICE.first, slots.SERVICE.first + 3)
    assert Settings(slots=2, slot_base=100).slot_numbers == range(100, 102)
    with pytest.raises(ValueError, match="interactor"):
        Settings(slots=2, slot_base=slots.RUN_SLOTS - 1)
    assert Settings().slots == slots.SERVICE.default_count()
    assert api._grade_slots.slots == slots.LIBRARY_GRADE.take(slots.LIBRARY_GRADE.default_count())
    assert api._evaluate_slots.slots == slots.LIBRARY_EVALUATE.take(slots.LIBRARY_EVALUATE.size)
    assert inspect.signature(ProbeRunner).parameters["slot"].default == slots.AUDIT.first
    assert EvalConfig(generations=[]).slot_base is None    # EVALUATION's, or RAY_WORKERS'
    for single in (Grader, Sandbox):
        assert inspect.signature(single).parameters["slot"].default == slots.COMMAND.first


def test_a_grader_slot_leaves_room_for_its_interactor():
    from judge.grade import Grader
    with pytest.raises(JudgeError, match="interactor"):
        Grader(slot=slots.RUN_SLOTS)


def test_the_interactor_runs_on_a_slot_of_its_own(require_sandbox):
    """The submission and the interactor are two sandboxes alive at once: they never share a
    uid (they used to run on the grader's one slot number)."""
    from judge.grade import Grader
    from judge.problems.registry import resolve
    problem = resolve("pack/guess-the-number")
    solution = (Path(__file__).parents[1] / "problems" / "pack" / "guess-the-number"
                / "sol.cpp").read_text()
    with Grader(slot=next_slot(), cpu=quiet_cpu()) as grader:
        result = grader.grade(solution, "cpp", problem)
        assert result.verdict in ("AC", "BUSY"), result
        interactor = grader._interactors
        assert interactor is not None and interactor._sandbox is not None
        assert interactor._sandbox.slot == slots.interactor_slot(grader.slot) != grader.slot


def test_the_supervisor_takes_every_slot_and_maps_it_to_its_host_uid(box, make_sandbox):
    """The registry's SLOT_COUNT and host_uid are the supervisor's: the last slot starts, one
    more is refused, and a slot's program runs as host uid host_uid(slot)."""
    from judge.sandbox import Limits, Sandbox, SandboxError
    with Sandbox(box=box, slot=slots.SLOT_COUNT - 1):    # started, nothing run (not our uid)
        pass
    with pytest.raises(SandboxError):
        Sandbox(box=box, slot=slots.SLOT_COUNT).start()
    slot = slots.interactor_slot(next_slot())            # a high one, of this test process
    sb = make_sandbox(slot=slot)
    if sb.uid_mode != "separate":
        pytest.skip("not root: programs run as the judge's own uid")
    assert slots.HOST_UID_BASE > int(Path("/proc/sys/kernel/overflowuid").read_text())
    assert slots.host_uid(slots.SLOT_COUNT - 1) < 2 ** 31
    read, write = os.pipe()
    try:
        pending = sb.begin(["/bin/cat"], Limits(time_limit_ms=scaled(5000)), stdin=read)
        os.close(read)
        read = -1
        deadline = time.monotonic() + scaled(10_000) / 1000
        seen = processes_of_uid(slots.host_uid(slot))
        while not any("cat" in process for process in seen) and time.monotonic() < deadline:
            time.sleep(0.02)
            seen = processes_of_uid(slots.host_uid(slot))
    finally:
        if read >= 0:
            os.close(read)
        os.close(write)
    assert pending.wait().status == "OK"
    assert any("cat" in process for process in seen), seen
