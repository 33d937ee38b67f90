"""Graders and sandboxes under threads.

A Grader or Sandbox belongs to the thread that created it: another thread gets a JudgeError,
not wrong verdicts. Graders of different threads, each on its own slot, grade side by side with
every verdict right, and once they are closed nothing of theirs is left in the cgroup
hierarchies or among the host's processes; a slot whose thread ends without closing it removes
its cgroup directories too."""
from __future__ import annotations

import gc
import os
import threading
import time
from pathlib import Path

import pytest

from conftest import (
    PACK_SOURCES,
    assert_no_leftovers,
    next_slot,
    scaled,
    scaled_problem,
    slot_parents,
    supervisor_dirs,
)
from judge import JudgeError
from judge.grade import Grader
from judge.languages import get_language
from judge.sandbox import Limits, Sandbox
from judge.verdicts import Verdict

pytestmark = pytest.mark.sandbox

# Cheap submissions with known verdicts: every C++ one, and Python only where it stops at the
# first test (a Python AC pays an interpreter start per test). two-sum has a custom checker,
# which puts the checker's slot to work as well.
SUBMISSIONS = [
    (slug, kind, lang, file)
    for slug in ("two-sum", "min-gap", "word-reverse", "range-sum")
    for kind, lang, file in (("AC", "cpp", "sol.cpp"), ("WA", "cpp", "wa.cpp"),
                             ("WA", "python", "wa.py"))
] + [("word-reverse", "AC", "python", "sol.py")]
OWNER_MESSAGE = "belongs to the thread that created it; create one per thread"


def in_another_thread(action):
    """Runs action() in a new thread; returns the exception it raised, or None."""
    raised = []

    def call():
        try:
            action()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            raised.append(exc)

    thread = threading.Thread(target=call)
    thread.start()
    thread.join()
    return raised[0] if raised else None


def submission(slug: str, file: str) -> str:
    return (PACK_SOURCES / slug / file).read_text()


def slot_directories(slots: list[int]) -> list[Path]:
    """The slot directories of any supervisor on these slots, in every hierarchy."""
    return [entry for parent in slot_parents().values() for slot in slots
            for entry in parent.glob(f"judge-*-slot{slot}-ns*") if entry.is_dir()]


# -- one owner ---------------------------------------------------------------------------------

def test_a_grader_used_from_another_thread_raises(require_sandbox):
    problem = scaled_problem("pack/min-gap")
    source = submission("min-gap", "sol.cpp")
    with Grader(slot=next_slot()) as grader:
        error = in_another_thread(lambda: grader.grade(source, "cpp", problem))
        assert isinstance(error, JudgeError), error
        assert f"a Grader {OWNER_MESSAGE}" in str(error)
        error = in_another_thread(grader.close)
        assert isinstance(error, JudgeError) and OWNER_MESSAGE in str(error), error
        # The refused uses left the grader as it was for its own thread. A TLE or BUSY is
        # confirmed by a re-run, as judge eval does: one run of this AC (14 ms of CPU) was a
        # TLE in make test with a spinning process and an emulated VM taking both cores.
        result = grader.grade(source, "cpp", problem)
        if result.verdict in (Verdict.TLE, Verdict.BUSY):
            result = grader.grade(source, "cpp", problem)
        assert result.verdict == "AC", [(t.verdict, t.cpu_time_ms, t.wall_time_ms, t.checker_message,
                                         t.run) for t in result.tests if t.verdict != "AC"]


def test_a_sandbox_used_from_another_thread_raises(make_sandbox):
    sb = make_sandbox()
    for action in (lambda: sb.run(["./exitcode", "0"], Limits()), sb.close):
        error = in_another_thread(action)
        assert isinstance(error, JudgeError), error
        assert f"a Sandbox {OWNER_MESSAGE}" in str(error)
    assert sb.run(["./exitcode", "0"], Limits()).status == "OK"


# -- graders side by side --------------------------------------------------------------------

def _wrong(index: int, n: int, slug: str, lang: str, kind: str, result) -> tuple:
    last = result.tests[-1] if result.tests else None
    return (index, n, slug, lang, kind, result.verdict,
            last.checker_message if last else result.compile.log[:200])


@pytest.mark.parametrize("threads", [2, 4])
@pytest.mark.slow
def test_graders_of_their_own_threads_grade_side_by_side(require_sandbox, threads):
    """200 submissions over `threads` threads, each with its own Grader on its own slot."""
    total = 200
    slots = [next_slot() for _ in range(threads)]
    problems = {slug: scaled_problem(f"pack/{slug}") for slug, *_ in SUBMISSIONS}
    sources = {(slug, file): submission(slug, file) for slug, _, _, file in SUBMISSIONS}
    wrong: list[tuple] = []

    def grade_share(index: int) -> None:
        with Grader(slot=slots[index]) as grader:
            # Each thread starts at another submission: the same sources meet in the compile
            # cache from different threads, at different times.
            for n in range(index, total, threads):
                slug, kind, lang, file = SUBMISSIONS[(n + index * 5) % len(SUBMISSIONS)]
                try:
                    result = grader.grade(sources[slug, file], lang, problems[slug])
                except Exception as exc:  # noqa: BLE001 - reported with the wrong verdicts
                    wrong.append((index, n, slug, lang, kind, repr(exc)))
                    continue
                if result.verdict in (Verdict.TLE, Verdict.BUSY) and kind != result.verdict:
                    confirm.append((index, n, slug, lang, kind, file))
                elif result.verdict != kind:
                    wrong.append(_wrong(index, n, slug, lang, kind, result))

    confirm: list[tuple] = []
    workers = [threading.Thread(target=grade_share, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    # As judge eval does: a TLE graded beside other slots (or a run starved into BUSY) is not
    # final until a re-run alone confirms it; a busy 2-core machine makes such TLEs.
    with Grader(slot=slots[0]) as grader:
        for index, n, slug, lang, kind, file in confirm:
            result = grader.grade(sources[slug, file], lang, problems[slug])
            if result.verdict != kind:
                wrong.append(_wrong(index, n, slug, lang, kind, result))
    assert not wrong, wrong
    assert not slot_directories(slots), slot_directories(slots)
    for slot in slots:
        assert_no_leftovers(slot)


def test_a_slot_whose_thread_ends_unclosed_removes_its_cgroup_directories(box, require_sandbox):
    """The supervisor dies with the thread that started it (PR_SET_PDEATHSIG): told so, it
    still removes its cgroup directories, without waiting for another slot to sweep them."""
    slot = next_slot()
    abandoned: list[Sandbox] = []

    def use_and_abandon():
        sb = Sandbox(box=box, slot=slot).start()
        abandoned.append(sb)
        assert sb.run(["./exitcode", "0"], Limits()).status == "OK"

    assert in_another_thread(use_and_abandon) is None
    supervisor = abandoned.pop()._process
    supervisor.wait(timeout=scaled(10))
    assert supervisor.returncode >= 0, f"the supervisor was killed by signal {-supervisor.returncode}"
    assert not supervisor_dirs(supervisor.pid), supervisor_dirs(supervisor.pid)
    deadline = time.monotonic() + scaled(10)
    while time.monotonic() < deadline:
        try:
            assert_no_leftovers(slot)
            break
        except AssertionError:
            time.sleep(0.05)
    assert_no_leftovers(slot)
    gc.collect()   # the abandoned Sandbox: its socket and pipe go with it


# -- the compile cache -----------------------------------------------------------------------

@pytest.mark.slow
def test_staging_never_writes_into_the_compile_cache(require_sandbox, monkeypatch, tmp_path,
                                                     configure):
    """Staging hard-links a build from the cache into the run box. A second stager racing into
    the same box (what a Grader shared by two threads did) found the name taken, and the copy
    it fell back to wrote through that name into another build's cache entry, which every
    later grading of that program, in any process, then ran. (A cache of its own: failing, the
    test would do just that.)"""
    configure(cache_dir=tmp_path / "cache")
    with Grader(slot=next_slot()) as grader:
        first = grader.compiler.compile(submission("min-gap", "sol.cpp"), get_language("cpp"))
        second = grader.compiler.compile(submission("min-gap", "wa.cpp"), get_language("cpp"))
        cached = first.artifacts / "code.exe"
        before = cached.read_bytes()
        real_link = os.link

        def racing_link(source, target, *args, **kwargs):
            real_link(cached, target)   # the other stager got there first
            return real_link(source, target, *args, **kwargs)

        monkeypatch.setattr(os, "link", racing_link)
        with pytest.raises(FileExistsError):
            grader._stage(second.artifacts)
        monkeypatch.setattr(os, "link", real_link)
        assert cached.read_bytes() == before
