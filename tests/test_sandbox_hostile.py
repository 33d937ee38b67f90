"""The hostile suite (docs/design/3-isolation.md §3 isolation, §8 tests): programs that attack the
sandbox. Every case asserts its status, the bound it must meet (time, memory, output) and that
nothing of it is left on the host afterwards (assert_no_leftovers, also run by the fixture when the
slot closes).

The suite runs in the cgroup mode JUDGE_CGROUP names (`make test` runs it with the default and
again with "none"); where the verdict differs by mode the test branches on `sb.cgroup`: without
a cgroup, programs may start threads but no processes (RF). Limits and wall-clock bounds where
timing is not the point go through `scaled()` (JUDGE_TEST_TIME_SCALE, see conftest)."""
from __future__ import annotations

import os
import re
import select
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from conftest import (
    NEIGHBOUR_SLOT,
    V1_CONTROLLERS,
    assert_dead_supervisors_swept,
    assert_no_leftovers,
    children_of,
    host_uid,
    is_alive,
    is_parked_child,
    memory_bound_kb,
    next_slot,
    processes_of_uid,
    run,
    scaled,
    slot_dir_name,
    slot_parents,
    supervisor_dirs,
)
from judge.sandbox import Limits, Sandbox, SandboxError, run_once
from judge.sandbox.environment import DEFAULT_ENV

pytestmark = pytest.mark.sandbox

MiB = 1 << 20
REPO = Path(__file__).resolve().parent.parent
SLACK_MS = scaled(20)           # one process: the CPU timer fires within a few ms
# Many processes: on a loaded machine killing them all takes a while, and they run meanwhile.
MULTI_SLACK_MS = scaled(100)
JAVA = ["/usr/bin/java", "-XX:+UseSerialGC", "-Xmx544m", "-Xss64m", "Main"]
PROCESS_CREATION = {"fork", "vfork", "clone"}


def clean(sb) -> None:
    assert_no_leftovers(sb.slot, sb._process.pid)


def assert_process_creation_refused(r) -> None:
    """Without a cgroup the run may not start a process: RF naming the call."""
    assert r.status == "RF" and r.killed_by == "seccomp", r
    assert r.syscall in PROCESS_CREATION, r


# -- processes and CPU ----------------------------------------------------------------------

def test_fork_bomb(sb):
    limits = Limits(time_limit_ms=500, wall_time_limit_ms=scaled(5000), processes=64)
    r = sb.run(["./forkbomb"], limits)
    if sb.cgroup == "none":
        assert_process_creation_refused(r)
    else:
        assert r.status == "TLE", r
        assert r.cpu_time_ms <= 500 + MULTI_SLACK_MS, r
    assert r.wall_time_ms <= limits.wall_ms + scaled(200), r
    clean(sb)
    after = sb.run(["./exitcode", "0"], Limits())
    assert after.status == "OK", after   # the slot survives a fork bomb


def test_memory_bomb(sb):
    limits = Limits(memory_limit_mb=64, time_limit_ms=scaled(3000))
    r = sb.run(["./membomb"], limits)
    assert r.status == "MLE", r
    assert 64 * 1024 < r.memory_kb <= memory_bound_kb(sb, 64), r
    assert r.wall_time_ms < limits.wall_ms, r
    clean(sb)


def test_memory_bomb_in_four_processes(sb):
    r = sb.run(["./membomb", "4"], Limits(memory_limit_mb=64, time_limit_ms=scaled(3000)))
    if sb.cgroup == "none":
        assert_process_creation_refused(r)
    else:
        assert r.status == "MLE", r
        assert 64 * 1024 < r.memory_kb <= memory_bound_kb(sb, 64), r
    clean(sb)


def test_single_process_memory_hog_up_to_2gb(sb):
    """One process touching pages in a loop up to 2 GiB under 128 MiB: MLE, promptly (well
    before the generous time limits), and not far past the limit: without a cgroup the memory
    watch kills it at the limit, not the address-space net at 4x."""
    limits = Limits(memory_limit_mb=128, time_limit_ms=scaled(5000),
                    wall_time_limit_ms=scaled(20000))
    r = sb.run(["./mem", "2048"], limits)
    assert r.status == "MLE", r
    assert 128 * 1024 < r.memory_kb <= memory_bound_kb(sb, 128), r
    if sb.cgroup == "none":
        assert r.killed_by == "memory", r
        assert r.memory_kb <= 128 * 1.25 * 1024 + 16 * 1024, r
    clean(sb)


def test_children_holding_memory_together(sb):
    """Six children alive at once, each holding 60 MB, under 128 MB: with a cgroup their
    memory adds up (MLE); without one nothing would add it up, so they cannot be made (RF)."""
    limits = Limits(memory_limit_mb=128, time_limit_ms=scaled(5000),
                    wall_time_limit_ms=scaled(20000))
    r, out, _ = run(sb, ["./memkids", "6", "60", "3"], limits)
    assert "held" not in out, (r, out)
    if sb.cgroup == "none":
        assert_process_creation_refused(r)
    else:
        assert r.status == "MLE", (r, out)
        assert 128 * 1024 < r.memory_kb <= memory_bound_kb(sb, 128), r
    clean(sb)


def test_cpu_of_unwaited_children_counts(sb):
    """SIGCHLD ignored: 30 children, one after the other, each burning 15 ms of CPU and reaped
    by the kernel (nobody's rusage gets their CPU), 450 ms in all under a 300 ms limit. With a
    cgroup the children's CPU counts: TLE by the CPU timer; without one they cannot be made."""
    limits = Limits(time_limit_ms=300, wall_time_limit_ms=scaled(10000))
    r, out, _ = run(sb, ["./forkcpu", "30", "15"], limits)
    if sb.cgroup == "none":
        assert_process_creation_refused(r)
        assert "forked" not in out, out
    else:
        assert r.status == "TLE" and r.killed_by == "cpu-timer", (r, out)
        assert 300 <= r.cpu_time_ms <= 300 + MULTI_SLACK_MS, r
    clean(sb)


def test_threads_cpu_time_adds_up(sb):
    """Threads work in every mode, the no-cgroup one included, and their CPU adds up."""
    r, out, err = run(sb, ["./threads", "2", "300"], Limits(time_limit_ms=scaled(2000)))
    assert r.status == "OK", (r, err)
    assert out.strip() == "2 threads done"
    assert 600 * 0.85 <= r.cpu_time_ms <= 600 * 1.2 + SLACK_MS, r
    if sb.cgroup == "none":
        assert r.sources["processes"] == "threads-only", r


def test_threads_burning_cpu_forever(sb):
    r = sb.run(["./threads", "8", "-1"], Limits(time_limit_ms=500,
                                                wall_time_limit_ms=scaled(5000)))
    assert r.status == "TLE" and r.killed_by == "cpu-timer", r
    assert 490 <= r.cpu_time_ms <= 500 + SLACK_MS, r
    clean(sb)


def test_double_fork_setsid_orphan_dies_with_the_run(sb):
    limits = Limits(time_limit_ms=scaled(2000))
    r, out, _ = run(sb, ["./orphan"], limits)
    if sb.cgroup == "none":
        assert_process_creation_refused(r)
        assert out == "", out
    else:
        assert r.status == "OK", r
        assert re.fullmatch(r"orphan \d+", out.strip()), out
        # The run ends when the main process exits, not when the orphan is done (never).
        assert r.wall_time_ms < scaled(1000), r
        assert r.cpu_time_ms <= limits.time_limit_ms, r
    clean(sb)   # no process of uid 200000+slot is left: the orphan was killed and reaped


def test_a_one_shot_leaves_nothing_once_its_supervisor_is_gone(box, require_sandbox, tmp_path):
    """run_once returns before its slot is torn down (the supervisor ends with the reply and
    cleans up unwaited): the orphan its run left is still killed, and the slot's cgroup
    directories still removed."""
    slot = next_slot()
    # run_once's own steps, with the supervisor's pid taken before it can be gone.
    sandbox = Sandbox(box=box, slot=slot, one_shot=True).start()
    assert sandbox._process is not None
    supervisor = sandbox._process.pid
    try:
        r = sandbox.run(["./orphan"], Limits(time_limit_ms=scaled(2000)), stdout=tmp_path / "out")
    finally:
        sandbox.close(wait=False)
    assert r.status in ("OK", "RF"), r    # RF: without a cgroup a run may not fork
    deadline = time.monotonic() + scaled(10_000) / 1000
    while is_alive(supervisor) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not is_alive(supervisor), f"the one-shot's supervisor {supervisor} did not end"
    assert not supervisor_dirs(supervisor), supervisor_dirs(supervisor)
    assert_no_leftovers(slot, supervisor)


def test_a_one_shot_slot_starts_a_fresh_supervisor_for_each_run(box, require_sandbox):
    with Sandbox(box=box, slot=next_slot(), one_shot=True) as sb:
        for code in ("0", "3"):
            r = sb.run(["./exitcode", code], Limits())
            assert r.exit_code == int(code) and not r.error, r


def test_zombies_are_reaped(sb):
    r, out, _ = run(sb, ["./zombie", "40"], Limits(processes=64, time_limit_ms=scaled(1000)))
    if sb.cgroup == "none":
        assert_process_creation_refused(r)
    else:
        assert r.status == "OK", r
        assert out.strip() == "40 zombies"
        assert r.wall_time_ms < scaled(2000), r
    clean(sb)


def test_process_limit_holds(sb):
    r, out, _ = run(sb, ["./zombie", "40"], Limits(processes=10, time_limit_ms=scaled(1000)))
    if sb.cgroup == "none":
        assert_process_creation_refused(r)
        return
    assert r.status == "OK", r
    made = int(out.split()[0])
    # The limit counts the program: 9 children (zombies still count), then fork fails with
    # EAGAIN; on cgroup v1 a spawner thread shares the run's pids cgroup and must not take one.
    assert made == 9, out


def test_sigxcpu_and_sigterm_ignored_still_tle(sb):
    r = sb.run(["./ignore_signals"], Limits(time_limit_ms=400, wall_time_limit_ms=scaled(4000)))
    assert r.status == "TLE" and r.killed_by == "cpu-timer", r
    assert r.cpu_time_ms <= 400 + SLACK_MS, r
    clean(sb)


def test_signals_ignored_while_sleeping_still_wall_tle(sb):
    limits = Limits(time_limit_ms=100, wall_time_limit_ms=scaled(500))
    r = sb.run(["./sleeper", "100000"], limits)
    assert r.status == "TLE" and r.killed_by == "wall-timer", r
    assert limits.wall_ms <= r.wall_time_ms <= limits.wall_ms + scaled(200), r
    clean(sb)


# -- a supervisor killed with SIGKILL ----------------------------------------------------------

def test_supervisor_killed_mid_run_is_swept_by_the_next_slot(make_sandbox):
    """kill -9 of a supervisor while its run sleeps: it cannot clean up, so the next slot that
    starts (any slot) kills what is left of its runs and removes its slot directories, in
    every hierarchy."""
    outcome: dict = {}
    started = threading.Event()

    def sleep_in_the_slot():
        # Created here: a Sandbox belongs to the thread that created it.
        victim = make_sandbox()
        outcome["victim"] = victim
        started.set()
        try:
            outcome["result"] = victim.run(["./sleeper", "100000"],
                                           Limits(time_limit_ms=100,
                                                  wall_time_limit_ms=scaled(60000)))
        except SandboxError as exc:
            outcome["error"] = exc

    runner = threading.Thread(target=sleep_in_the_slot)
    runner.start()
    assert started.wait(scaled(10000) / 1000), "the slot never started"
    victim = outcome["victim"]
    pid = victim._process.pid
    deadline = time.monotonic() + scaled(10000) / 1000
    # The program's uid: the slot's own as root, the judge's own (mapped) otherwise.
    uid = host_uid(victim.slot) if victim.uid_mode == "separate" else os.getuid()
    while not any(p.split()[1] == "sleeper" for p in processes_of_uid(uid)):
        assert time.monotonic() < deadline and runner.is_alive(), ("the run never started",
                                                                     outcome)
        time.sleep(0.01)
    if victim.cgroup != "none":
        assert supervisor_dirs(pid), "the running slot has no cgroup directory"
    [init] = children_of(pid)
    os.kill(pid, 9)
    victim._process.wait(timeout=scaled(10))
    runner.join(timeout=scaled(30))
    assert not runner.is_alive() and "error" in outcome, outcome

    successor = make_sandbox()
    after = successor.run(["./exitcode", "0"], Limits())
    assert after.status == "OK", after
    assert_dead_supervisors_swept([pid])
    deadline = time.monotonic() + scaled(10000) / 1000
    while ((processes_of_uid(host_uid(victim.slot)) or is_alive(init) or _tasks_of(init) > 1)
           and time.monotonic() < deadline):
        time.sleep(0.02)   # the init and its threads dead: it can be reaped at the next close
    assert_no_leftovers(victim.slot, pid)
    # The orphaned init was re-parented to the judge (its subreaper), which reaps it at a slot's
    # start or close: a judge that rebuilds killed slots for days must not collect their zombies.
    make_sandbox.close(successor)
    assert not Path(f"/proc/{init}").exists(), f"the killed supervisor's init {init} is left"


def _tasks_of(pid: int) -> int:
    """How many threads of a process are left (a zombie leader's threads may still be exiting,
    and until they have it cannot be reaped)."""
    try:
        return len(list(Path(f"/proc/{pid}/task").iterdir()))
    except OSError:
        return 0


def test_the_sweep_takes_a_zombie_for_dead_and_a_live_supervisor_for_alive(box, require_sandbox):
    """Slot directories named for a pid whose process is a zombie (dead, its parent has yet to
    reap it) or gone are swept by the next slot; those of a live process are left alone. So are
    those of a session leader that is gone while its session lives on, as a killed supervisor's
    does in its init (its pid then names a session, not a process: Linux 6.1 answers
    pidfd_open with EINVAL there, not ESRCH)."""
    with Sandbox(box=box, slot=next_slot(), one_shot=True) as sb:
        mode = sb.cgroup
        supervisor = sb._process.pid
    if mode == "none":   # a skip would fail CI: without cgroups no slot directory is made
        assert not supervisor_dirs(supervisor), supervisor_dirs(supervisor)
        return
    hierarchies = ["unified"] if mode == "v2" else list(V1_CONTROLLERS)
    live = subprocess.Popen(["sleep", "60"])
    gone = subprocess.Popen(["true"])
    gone.wait()
    zombie = os.fork()
    if zombie == 0:
        os._exit(0)
    # A session leader that leaves a process of its session behind, and is reaped.
    leader = subprocess.Popen(["sh", "-c", "sleep 60 & echo $!"], start_new_session=True,
                              stdout=subprocess.PIPE, text=True)
    session_member = int(leader.stdout.readline())
    leader.wait()
    made = {pid: [slot_parents()[h] / slot_dir_name(next_slot(), pid) for h in hierarchies]
            for pid in (live.pid, gone.pid, zombie, leader.pid)}
    try:
        time.sleep(0.1)   # the child has exited: a zombie until it is reaped below
        for directory in (d for dirs in made.values() for d in dirs):
            directory.mkdir()
        assert run_once(["./exitcode"], Limits(), box=box, slot=next_slot()).status == "OK"
        deadline = time.monotonic() + scaled(10_000) / 1000
        dead = (gone.pid, zombie, leader.pid)
        while any(d.exists() for pid in dead for d in made[pid]) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not [d for pid in dead for d in made[pid] if d.exists()], made
        assert all(d.exists() for d in made[live.pid]), made[live.pid]
    finally:
        live.kill()
        live.wait()
        os.kill(session_member, 9)
        leader.stdout.close()
        os.waitpid(zombie, 0)
        for directory in (d for dirs in made.values() for d in dirs):
            if directory.exists():
                directory.rmdir()
    assert not supervisor_dirs(supervisor)


def test_a_slot_whose_supervisor_was_killed_between_runs_starts_afresh(make_sandbox):
    """kill -9 of an idle supervisor: the next run fails, and the one after it gets a fresh
    supervisor instead of sending into the dead one's socket again."""
    sb = make_sandbox()
    dead = sb._process.pid
    os.kill(dead, 9)
    sb._process.wait(timeout=scaled(10))
    # The slot's init dies with it (PR_SET_PDEATHSIG): its end of the socket closes.
    assert select.select([sb._sock], [], [], scaled(10000) / 1000)[0], "the init outlived it"
    with pytest.raises(SandboxError, match="gone"):
        sb.run(["./exitcode", "0"], Limits())
    after = sb.run(["./exitcode", "0"], Limits())
    assert after.status == "OK", after
    assert sb._process.pid != dead
    assert_dead_supervisors_swept([dead])


# -- memory-backed files --------------------------------------------------------------------

def test_tmp_filler_is_bounded(make_sandbox):
    sb = make_sandbox(tmp_size_mb=32)
    r, out, _ = run(sb, ["./tmpfill"], Limits(memory_limit_mb=256, file_size_limit_mb=64))
    assert r.status == "OK", (r, out)   # exit 0: a write failed with ENOSPC or EFBIG
    assert re.search(r"errno=(ENOSPC|EFBIG)", out), out
    written = int(out.rsplit("MiB=", 1)[1])
    assert written <= 32, out
    assert r.memory_kb <= (32 + 16) * 1024, r
    # ... and the next run of the slot gets an empty /tmp again.
    again, out, _ = run(sb, ["./tmpcheck"], Limits())
    assert again.status == "OK" and out.strip() == "entries 0", (again, out)
    clean(sb)


def test_tmp_filler_under_a_small_memory_limit(sb):
    r, out, _ = run(sb, ["./tmpfill"], Limits(memory_limit_mb=32, time_limit_ms=scaled(1000)))
    assert r.status in ("MLE", "OK"), (r, out)
    if r.status == "OK":
        assert re.search(r"errno=(ENOSPC|EFBIG)", out), out
    assert r.memory_kb <= memory_bound_kb(sb, 32), r
    clean(sb)


def test_files_held_in_tmp_count_as_memory(sb):
    """128 MiB written into /tmp (a tmpfs) and held: memory that no RSS or address-space limit
    sees. With a memory cgroup its pages are charged to the run; without one the watchdog adds
    the tmpfs's usage itself (it was OK at 904 KB under 16 MB)."""
    r, out, _ = run(sb, ["./tmphold", "128", "300"], Limits(memory_limit_mb=16,
                                                           time_limit_ms=scaled(2000)))
    assert r.status == "MLE", (r, out)


@pytest.mark.parametrize("how", ["glibc", "multiprocessing"])
def test_shared_memory_is_in_tmp_and_goes_with_it(make_sandbox, how):
    """POSIX shared memory (shm_open; sem_open too) lives in /dev/shm, a link to /tmp: an object
    a run leaves behind is gone for the slot's next run."""
    sb = make_sandbox(policy="python")
    argv = ["/usr/bin/python3", "hostile.py", "shm", "judge-left", how]
    r, out, err = run(sb, argv, Limits(time_limit_ms=scaled(3000)))
    if how == "multiprocessing" and sb.cgroup == "none":
        assert_process_creation_refused(r)   # SharedMemory starts a resource tracker process
        clean(sb)
        return
    assert r.status == "OK" and out.splitlines() == ["before", "made /tmp/judge-left"], (r, out,
                                                                                        err)
    again, out, err = run(sb, argv, Limits(time_limit_ms=scaled(3000)))
    assert again.status == "OK" and out.splitlines()[0] == "before", (again, out, err)
    clean(sb)


def test_shared_memory_is_bounded_like_tmp(make_sandbox):
    """Writing a shared-memory object stops at /tmp's cap, not past it."""
    sb = make_sandbox(tmp_size_mb=16, policy="python")
    r, out, err = run(sb, ["/usr/bin/python3", "hostile.py", "shm-fill"],
                      Limits(memory_limit_mb=256, file_size_limit_mb=64,
                             time_limit_ms=scaled(3000)))
    assert r.status == "OK" and out.startswith("errno=ENOSPC "), (r, out, err)
    assert int(out.rsplit("MiB=", 1)[1]) <= 16, out
    clean(sb)


def test_pipe_buffers_cannot_be_grown(sb):
    """F_SETPIPE_SZ would hold up to 64 MiB of kernel memory per uid outside every limit but a
    memory cgroup: refused (EPERM) in every mode, so pipes keep their default 64 KiB and the
    open-files limit bounds what they hold."""
    r, out, _ = run(sb, ["./pipegrow"], Limits())
    assert r.status == "OK" and out.strip() == "refused EPERM", (r, out)


def test_sysinfo_shows_the_run_not_the_host(sb):
    """sysinfo(2) used to return the host's load averages, free RAM and process count, which
    /proc hides: two runs could watch each other through them. The supervisor answers it with
    the run's own figures, so glibc's sysconf(_SC_PHYS_PAGES) (which reads it) still works."""
    r, out, _ = run(sb, ["./sysinfo"], Limits(memory_limit_mb=256))
    assert r.status == "OK", (r, out)
    fields = dict(item.split("=") for item in out.split())
    assert fields["loads"] == "0,0,0" and fields["procs"] == "1", out
    assert int(fields["totalram"]) == int(fields["freeram"]) == 256 << 20, out
    assert int(fields["phys_pages"]) * int(fields["pagesize"]) == 256 << 20, out
    assert int(fields["nprocs"]) >= 1, out
    bad, out, _ = run(sb, ["./sysinfo", "bad"], Limits())
    assert bad.status == "OK" and out.strip() == "rc=-1 errno=Bad address", (bad, out)


def test_memfd_filler_stops_at_the_file_size_limit(sb):
    r, out, _ = run(sb, ["./memfd", "write"], Limits(memory_limit_mb=256, file_size_limit_mb=32))
    if sb.cgroup == "none":   # nothing would charge a memfd's pages: refused
        assert r.status == "RF" and r.syscall == "memfd_create", (r, out)
        return
    assert r.status == "OK", (r, out)
    assert "errno=EFBIG" in out and int(out.rsplit("MiB=", 1)[1]) <= 32, out
    assert r.memory_kb <= (32 + 16) * 1024, r
    clean(sb)


def test_memfd_mapped_past_the_memory_limit_is_mle(sb):
    r = sb.run(["./memfd", "map", "400"], Limits(memory_limit_mb=64, file_size_limit_mb=1024,
                                                 time_limit_ms=scaled(1000)))
    if sb.cgroup == "none":
        assert r.status == "RF" and r.syscall == "memfd_create", r
    else:
        assert r.status == "MLE", r
        assert r.memory_kb <= memory_bound_kb(sb, 64), r
    clean(sb)


def test_many_memfds_cannot_hold_more_than_the_memory_limit(sb):
    """Sixteen memfds of 32 MiB each (file size limit 32 MiB) try to hold 512 MiB of memory with
    a 64 MiB limit: the run must not get there (host memory is the victim otherwise). With a
    memory cgroup the pages are charged (MLE); without one nothing would bound them, so
    memfd_create is refused (RF)."""
    r, out, _ = run(sb, ["./memfd", "many", "512"],
                    Limits(memory_limit_mb=64, file_size_limit_mb=32, time_limit_ms=scaled(3000)))
    assert "held 512" not in out, (r, out)
    if sb.cgroup == "none":
        assert r.status == "RF" and r.syscall == "memfd_create", (r, out)
    else:
        assert r.status == "MLE", (r, out)
    clean(sb)


# -- the filesystem -------------------------------------------------------------------------

def _lines(out: str, op: str) -> dict[str, str]:
    found = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0] == op:
            found[parts[1]] = " ".join(parts[2:])
    return found


def test_host_files_cannot_be_read(sb, box, tmp_path):
    secret = tmp_path / "host-secret.txt"
    secret.write_text("the expected answer\n")
    secret.chmod(0o644)
    tmp_path.chmod(0o755)
    link = box / "link-to-secret"
    if not link.is_symlink():
        link.symlink_to(secret)
    targets = ["/etc/shadow", "/etc/hostname", "/root", "/root/.bashrc", "/work",
               str(REPO / "setup.py"), str(secret), "/box/link-to-secret", "/box/../etc/shadow",
               "/proc/1/root", "/proc/1/environ", "/proc/1/cwd", "/proc/1/mem",
               "/dev/sda", "/dev/vda", "/dev/mem", "/dev/kmsg", "/sys", "/sys/kernel",
               "/home", str(Path.home())]
    r, out, _ = run(sb, ["./files", "read"] + targets, Limits())
    assert r.status == "OK", r
    results = _lines(out, "read")
    assert set(results) == set(targets), out
    opened = {path: res for path, res in results.items() if not res.startswith("fail")}
    assert not opened, opened
    clean(sb)


def test_nothing_outside_box_and_tmp_can_be_written(sb, box):
    targets = ["/box/new", "/box/spin", "/etc/passwd", "/etc/new", "/usr/bin/new", "/new",
               "/bin/sh", "/dev/new", "/dev/sda", "/proc/sysrq-trigger",
               "/proc/sys/kernel/hostname", "/proc/sys/vm/drop_caches", "/proc/1/mem",
               "/sys/fs/cgroup/new", str(REPO / "new-file"), "/root/new"]
    r, out, _ = run(sb, ["./files", "write"] + targets + ["/tmp/ok", "/dev/null"], Limits())
    assert r.status == "OK", r
    results = _lines(out, "write")
    assert results.get("/tmp/ok", "").startswith("ok"), out
    assert results.get("/dev/null", "").startswith("ok"), out
    written = {p: res for p, res in results.items() if p in targets and not res.startswith("fail")}
    assert not written, written
    assert not (box / "new").exists() and not (REPO / "new-file").exists()
    clean(sb)


def test_root_holds_only_the_sandbox_tree(sb):
    r, out, _ = run(sb, ["./files", "list", "/", "/dev", "/etc", "/var", "/var/lib"], Limits())
    assert r.status == "OK", r
    entries: dict[str, set[str]] = {}
    for line in out.splitlines():
        parts = line.split()
        if parts[0] == "entry":
            entries.setdefault(parts[1], set()).add(parts[2])
    assert {"box", "tmp", "proc", "dev", "usr"} <= entries["/"], entries
    assert not entries["/"] & {"root", "home", "work", "sys", "srv", "mnt", "opt"}, entries
    # /var only for GHC's package database.
    assert entries.get("/var", set()) <= {"lib"}, entries
    assert entries.get("/var/lib", set()) <= {"ghc"}, entries
    assert entries["/dev"] <= {"null", "zero", "full", "random", "urandom", "fd", "stdin",
                               "stdout", "stderr", "pts", "ptmx", "shm"}, entries["/dev"]
    assert "shadow" not in entries["/etc"] and "hostname" not in entries["/etc"], entries["/etc"]


def _first(pattern: str) -> list[str]:
    found = sorted(Path("/").glob(pattern.lstrip("/")))
    return [str(found[0])] if found else []


def test_toolchain_configuration_reads_as_on_the_host_and_is_read_only(sb):
    """The runtimes' configuration bound into the root (native/supervisor/mounts.c) reads as on the
    host, a single bound file reached through its alternatives link (fpc.cfg) too, and none of it,
    nor a new file beside it, can be written."""
    files = [p for p in ["/etc/fpc.cfg", "/etc/mono/config", "/etc/R/Renviron.site",
                         "/etc/racket/config.rktd", *_first("/etc/php/*/cli/php.ini"),
                         *_first("/var/lib/ghc/package.conf.d/base-*.conf")]
             if os.path.isfile(p)]
    if not files:
        pytest.skip("none of the runtimes whose configuration the sandbox binds is installed")
    r, out, _ = run(sb, ["./files", "read", *files], Limits())
    assert r.status == "OK", r
    assert _lines(out, "read") == {
        p: f"ok {min(4096, os.path.getsize(p))}" for p in files}, out
    beside = [str(Path(p).parent / "new") for p in files] + ["/var/new"]
    r, out, _ = run(sb, ["./files", "write", *files, *beside], Limits())
    assert r.status == "OK", r
    written = _lines(out, "write")
    assert set(written) == set(files + beside) and all(
        res.startswith("fail") for res in written.values()), out
    # Not only the files' owner: the mounts themselves are read-only, nosuid and nodev.
    r, out, _ = run(sb, ["/bin/cat", "/proc/self/mountinfo"], Limits())
    assert r.status == "OK", r
    options = {line.split()[4]: set(line.split()[5].split(",")) for line in out.splitlines()}
    bound = [p for p in ("/etc/fpc-3.2.2.cfg", "/etc/mono", "/etc/R", "/etc/racket", "/etc/php",
                         "/var/lib/ghc") if os.path.exists(p)]
    for path in bound:
        assert {"ro", "nosuid", "nodev"} <= options.get(path, set()), (path, out)
    clean(sb)


def test_no_host_process_is_visible(sb):
    marker = subprocess.Popen(["sleep", "30"])
    try:
        r, out, _ = run(sb, ["./ps"], Limits())
    finally:
        marker.kill()
        marker.wait()
    assert r.status == "OK", r
    seen = [line.split() for line in out.splitlines()]
    comms = {parts[1] for parts in seen}
    pids = {int(parts[0]) for parts in seen}
    assert "sleep" not in comms and "python" not in comms and "pytest" not in comms, out
    assert len(seen) <= 2, out            # the namespace's init and the program itself
    assert 1 in pids, out
    clean(sb)


def test_staged_checker_files_are_private_to_the_judge(require_sandbox):
    """A custom checker and the answers it reads are staged on the host for the checker's
    sandbox: no other host user may reach them (they were world-readable under /tmp)."""
    from judge.checkers.runner import CheckerRunner
    from judge.compiler import Compiler
    from judge.problems import registry
    problem = registry.resolve("pack/two-sum")
    staging = Path(tempfile.gettempdir())
    before = set(staging.glob("judge-checker-*"))
    compiler = Compiler(slot=next_slot())
    runner = CheckerRunner(compiler, slot=compiler.slot)
    try:
        result = runner.check(problem.checker, b"5 10\n3 7 5 5 1\n", b"4 3\n", b"1 2\n")
        assert result.verdict == "OK", result
        created = set(staging.glob("judge-checker-*")) - before
        assert created, "the checker was staged somewhere else"
        for directory in created:
            assert directory.stat().st_mode & 0o077 == 0, oct(directory.stat().st_mode)
            assert directory.stat().st_uid == os.geteuid()
    finally:
        runner.close()
        compiler.close()


# -- the network ----------------------------------------------------------------------------

@pytest.fixture
def listener():
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    server.settimeout(0.3)
    yield server
    server.close()


def _assert_no_connection(server: socket.socket) -> None:
    try:
        conn, peer = server.accept()
    except TimeoutError:
        return
    conn.close()
    pytest.fail(f"the sandbox reached the host listener from {peer}")


def test_network_socket_is_refused_by_the_native_policy(sb, listener):
    port = listener.getsockname()[1]
    r = sb.run(["./connect", "tcp", str(port)], Limits())
    assert r.status == "RF" and r.syscall == "socket", r
    _assert_no_connection(listener)
    clean(sb)


def test_host_loopback_is_unreachable_with_sockets_allowed(make_sandbox, listener):
    """The run's 127.0.0.1 is its own namespace's loopback, where nothing listens on the host
    listener's port: refused there, and the host's listener sees nothing."""
    sb = make_sandbox(policy="java")   # the JVM's policy allows sockets
    port = listener.getsockname()[1]
    for host in ("127.0.0.1", "0.0.0.0"):
        r, out, _ = run(sb, ["./connect", "tcp", str(port), host], Limits())
        assert r.status == "OK", r
        assert out.strip() == "fail ECONNREFUSED", out
    _assert_no_connection(listener)
    clean(sb)


def test_the_run_sees_no_interface_but_its_loopback(make_sandbox):
    """No interface but lo, so no route off it: an address outside (TEST-NET-1) is unreachable."""
    sb = make_sandbox(policy="java")
    r, out, err = run(sb, ["/usr/bin/python3", "hostile.py", "interfaces"],
                      Limits(time_limit_ms=scaled(3000)))
    assert r.status == "OK" and out.strip() == "lo", (r, out, err)
    r, out, _ = run(sb, ["./connect", "tcp", "80", "192.0.2.1"], Limits())
    assert r.status == "OK" and out.strip() == "fail ENETUNREACH", (r, out)
    clean(sb)


LOOPBACK_LIMITS = Limits(time_limit_ms=scaled(3000), wall_time_limit_ms=scaled(10000))


def _loopback_exchange(port: int, hold_s: float) -> list[str]:
    return ["/usr/bin/python3", "hostile.py", "loopback", str(port), str(hold_s)]


def test_a_program_talks_to_itself_over_its_loopback(make_sandbox, listener):
    """lo is up in the slot's namespace (native/supervisor/network.c): a server and its client in
    one run, on the very port the host's listener holds."""
    sb = make_sandbox(policy="java")
    r, out, err = run(sb, _loopback_exchange(listener.getsockname()[1], 0), LOOPBACK_LIMITS)
    assert r.status == "OK" and out.startswith("exchanged PING "), (r, out, err)
    _assert_no_connection(listener)
    clean(sb)


def test_two_slots_bind_the_same_port_at_once(make_sandbox, listener):
    """Each slot has a loopback of its own: two runs hold the host listener's port at the same
    time, and neither reaches the other or the host."""
    argv = _loopback_exchange(listener.getsockname()[1], scaled(1000) / 1000)
    slots = [make_sandbox(policy="java") for _ in range(2)]
    outs = [tempfile.TemporaryFile() for _ in slots]
    pending = [sb.begin(argv, LOOPBACK_LIMITS, stdout=out) for sb, out in zip(slots, outs, strict=True)]
    spans = []
    for begun, out in zip(pending, outs, strict=True):
        r = begun.wait()
        out.seek(0)
        text = out.read().decode()
        out.close()
        assert r.status == "OK" and text.startswith("exchanged PING "), (r, text)
        spans.append([float(t) for t in text.split()[2:4]])
    assert max(start for start, _ in spans) < min(end for _, end in spans), spans
    _assert_no_connection(listener)
    for sb in slots:
        clean(sb)


# -- signals to everything ------------------------------------------------------------------

def test_kill_minus_one_harms_nothing_outside(sb):
    neighbour_uid = host_uid(NEIGHBOUR_SLOT)   # a slot uid this suite never runs as
    outside = [subprocess.Popen(["sleep", "30"])]     # the judge's own uid
    if os.geteuid() == 0:
        outside.append(subprocess.Popen(["setpriv", f"--reuid={neighbour_uid}",
                                         f"--regid={neighbour_uid}", "--clear-groups",
                                         "sleep", "30"]))
    try:
        time.sleep(0.05)
        supervisor = sb._process.pid
        r, out, _ = run(sb, ["./killall"], Limits())
        assert r.status == "OK", (r, out)
        # Every thread of the slot's init was aimed at: on cgroup v1 the two spawner threads
        # too, which the next run needs.
        threads = out.count("tgkill(1, ")
        assert threads == (3 if sb.cgroup == "v1" else 1), out
        assert all(proc.poll() is None for proc in outside)
        assert os.getpid() and sb._process.poll() is None
        assert sb._process.pid == supervisor
        after = sb.run(["./exitcode", "3"], Limits())   # the slot's init survived too
        assert after.status == "RE" and after.exit_code == 3, after
    finally:
        for proc in outside:
            proc.kill()
            proc.wait()
    clean(sb)


# -- refused system calls -------------------------------------------------------------------

@pytest.mark.parametrize("name", ["ptrace", "mount", "unshare", "chroot", "io_uring_setup", "bpf",
                                  "perf_event_open", "userfaultfd", "setns", "keyctl"])
def test_privileged_syscall_is_rf(sb, name):
    r, out, _ = run(sb, ["./syscalls", name], Limits())
    assert r.status == "RF", (r, out)
    assert r.syscall == name and r.killed_by == "seccomp", r
    assert out == "", out   # the call never returned to the program
    clean(sb)


def test_clone_with_namespace_flags_is_rf(sb):
    r = sb.run(["./syscalls", "clone"], Limits())
    assert r.status == "RF" and r.syscall == "clone", r
    clean(sb)


@pytest.mark.parametrize("policy", ["java", "mono", "general"])
@pytest.mark.parametrize("attempt", ["idle-init", "renice-init"])
def test_a_program_cannot_slow_the_slots_init(sb, policy, attempt):
    """The init relays an interaction's messages and switches its own scheduling policy back
    before each check falls due; a failed switch back is a judge failure (SE). Policies that
    let a runtime set its threads' priorities (sched_setscheduler, setpriority) must not let a
    program reach the init, pid 1 of its namespace: moving it to SCHED_IDLE would make that
    switch back fail and turn the submission's run into a judge failure. The unprivileged mode
    tries the same (test_sandbox_limits.UNPRIVILEGED_SCRIPT)."""
    r, out, _ = run(sb, ["./syscalls", attempt], Limits(), policy=policy)
    if r.status == "RF":   # this policy refuses the call outright
        assert r.syscall in ("sched_setscheduler", "setpriority"), r
    else:
        assert r.status == "OK" and out == f"{attempt} returned -1 errno EPERM\n", (r, out)
    clean(sb)


def test_a_parked_child_never_runs_a_request_of_another_policy(sb):
    """The next run's child is forked and confined before its request, with the last request's
    filter (native/supervisor/child.c): a request with another policy has that child killed and gets
    one of its own. Runs alternating a policy that allows an AF_INET socket (java) with one that
    refuses it (native) each get their own policy's verdict, however often they alternate."""
    for _ in range(3):
        r, out, _ = run(sb, ["./syscalls", "socket"], Limits(), policy="java")
        assert r.status == "OK" and out.startswith("socket returned"), (r, out)
        r, out, _ = run(sb, ["./syscalls", "socket"], Limits(), policy="native")
        assert r.status == "RF" and r.syscall == "socket", (r, out)
        assert out == "", out
    clean(sb)


def _parked_children(sb) -> list[int]:
    """The children the slot's init keeps parked for the next run (none while it forks its
    child afresh); it forks one just after a reply, so a slot that parks is waited for."""
    [init] = children_of(sb._process.pid)
    return [pid for pid in children_of(init) if is_parked_child(str(pid))]


def _wait_parked(sb, expected: int) -> list[int]:
    deadline = time.monotonic() + scaled(5000) / 1000
    while len(parked := _parked_children(sb)) != expected and time.monotonic() < deadline:
        time.sleep(0.01)
    return parked


def test_a_slot_that_alternates_policies_stops_parking_children_it_would_kill(sb):
    """A child parked with one policy is killed when the next request has another. A slot
    whose runs alternate (a checker between tests) parks none once it has killed one, and parks
    again after two requests in a row of the same shape; every run keeps its own policy's
    verdict throughout."""
    def java_socket_is_ok():
        r, out, _ = run(sb, ["./syscalls", "socket"], Limits(), policy="java")
        assert r.status == "OK" and out.startswith("socket returned"), (r, out)

    def native_socket_is_rf():
        r, _, _ = run(sb, ["./syscalls", "socket"], Limits(), policy="native")
        assert r.status == "RF" and r.syscall == "socket", r

    java_socket_is_ok()
    assert len(_wait_parked(sb, 1)) == 1, "a slot's first run parks the next run's child"
    for _ in range(2):
        native_socket_is_rf()
        java_socket_is_ok()
    time.sleep(0.2)   # room for a child the init would wrongly fork after the reply
    assert _parked_children(sb) == [], "alternating runs still park a child each"
    java_socket_is_ok()
    assert len(_wait_parked(sb, 1)) == 1, "two runs of one shape in a row park again"
    native_socket_is_rf()
    clean(sb)


def test_a_parked_child_gets_the_request_s_input_directory_and_program(sb):
    """What the request decides reaches the parked child without a call its filter must allow:
    its standard input (put at fd 0 while it is parked), its working directory (a child of
    another one is replaced), its program found on PATH. Alternating them, each run sees its
    own."""
    for i in range(3):
        payload = f"input {i}\n".encode()
        r, out, _ = run(sb, ["./echo"], Limits(), stdin=payload)
        assert r.status == "OK" and out == payload.decode(), (r, out)
        r, out, _ = run(sb, ["/box/echo"], Limits(), stdin=payload * 2, cwd="/tmp")
        assert r.status == "OK" and out == payload.decode() * 2, (r, out)
        r, out, _ = run(sb, ["echo"], Limits(), stdin=payload, env={"PATH": "/nowhere:/box"})
        assert r.status == "OK" and out == payload.decode(), (r, out)
    r, _, _ = run(sb, ["no-such-program"], Limits(), env={"PATH": "/nowhere:/box"})
    assert r.status == "SE" and "cannot execute no-such-program" in (r.error or ""), r
    clean(sb)


@pytest.mark.parametrize("abi", ["i386", "x32"])
def test_foreign_abi_is_rf(sb, abi):
    r, out, _ = run(sb, ["./syscalls", abi], Limits())
    assert r.status == "RF", (r, out)
    assert r.killed_by == "seccomp", r
    assert out == "", out
    clean(sb)


# -- descriptors and environment ------------------------------------------------------------

def test_no_descriptors_leak_into_the_program(box, make_sandbox, tmp_path):
    leaked = os.open(tmp_path / "leak", os.O_CREAT | os.O_RDWR)
    os.set_inheritable(leaked, True)
    try:
        sb = make_sandbox()
        r, out, _ = run(sb, ["./fds"], Limits(), stdin=b"x")
        assert r.status == "OK", r
        assert sorted(out.split()) == ["0", "1", "2"], out
        with tempfile.TemporaryFile() as sink:
            bare = sb.run(["./fds"], Limits(), stdout=sink)
            sink.seek(0)
            assert sorted(sink.read().decode().split()) == ["0", "1", "2"]
        assert bare.status == "OK", bare
    finally:
        os.close(leaked)
    clean(sb)


def test_host_environment_does_not_leak(make_sandbox, monkeypatch):
    monkeypatch.setenv("JUDGE_TEST_SECRET", "s3cr3t-value")
    monkeypatch.setenv("HOME", "/root")
    sb = make_sandbox()
    r, out, _ = run(sb, ["./env"], Limits())
    assert r.status == "OK", r
    assert "s3cr3t-value" not in out and "JUDGE_TEST_SECRET" not in out, out
    assert "HOME=/root" not in out, out
    assert dict(line.split("=", 1) for line in out.splitlines()) == DEFAULT_ENV, out
    clean(sb)


# -- CPython and the JVM --------------------------------------------------------------------

@pytest.fixture
def py_sb(make_sandbox):
    return make_sandbox(policy="python")


def test_cpython_socket_is_rf(py_sb):
    r = py_sb.run(["/usr/bin/python3", "hostile.py", "socket"], Limits(time_limit_ms=scaled(3000)))
    assert r.status == "RF" and r.syscall == "socket", r
    clean(py_sb)


def test_the_program_holds_no_capability_and_cannot_gain_one(py_sb):
    """Every capability set of the program is empty, the bounding set included (its child drops
    every capability the kernel knows before its request, native/supervisor/child.c), and
    no_new_privs and the filter are in force."""
    code = ("import sys; s = dict(l.split(':', 1) for l in open('/proc/self/status')); "
            "print(' '.join(f'{k}={s[k].strip()}' for k in sys.argv[1:]))")
    fields = ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp"]
    for _ in range(2):   # the first run's child is forked for its request, the next one ahead
        r, out, err = run(py_sb, ["/usr/bin/python3", "-c", code, *fields],
                          Limits(time_limit_ms=scaled(3000)))
        assert r.status == "OK", (r, err)
        assert out.split() == [f"{k}=0000000000000000" for k in fields[:5]] + [
            "NoNewPrivs=1", "Seccomp=2"], out
    clean(py_sb)


def test_cpython_cannot_read_host_files(py_sb):
    r, out, err = run(py_sb, ["/usr/bin/python3", "hostile.py", "files"],
                      Limits(time_limit_ms=scaled(3000)))
    assert r.status == "OK", (r, err)
    lines = out.splitlines()
    assert len(lines) == 4 and all(" fail " in line for line in lines), out


def test_cpython_memory_bomb_is_mle(py_sb):
    r = py_sb.run(["/usr/bin/python3", "hostile.py", "memory"],
                  Limits(time_limit_ms=scaled(5000), memory_limit_mb=128))
    assert r.status == "MLE", r
    assert r.memory_kb <= memory_bound_kb(py_sb, 128), r
    clean(py_sb)


def test_cpython_spinner_is_tle(py_sb):
    r = py_sb.run(["/usr/bin/python3", "hostile.py", "spin"],
                  Limits(time_limit_ms=500, wall_time_limit_ms=scaled(5000)))
    assert r.status == "TLE" and r.killed_by == "cpu-timer", r
    assert r.cpu_time_ms <= 500 + SLACK_MS, r
    clean(py_sb)


def test_cpython_pause_is_allowed(py_sb):
    """pause() is harmless (the wall timer bounds it) and legitimate programs use it."""
    r, out, err = run(py_sb, ["/usr/bin/python3", "hostile.py", "pause"],
                      Limits(time_limit_ms=scaled(3000), wall_time_limit_ms=scaled(10000)))
    assert r.status == "OK" and out.strip() == "woke", (r, out, err)
    clean(py_sb)


def test_supervisor_command_line_shows_no_host_path(py_sb, box):
    """/proc/1/cmdline inside the sandbox is the slot's supervisor: it carried the box's host
    path and the bind sources."""
    r, out, err = run(py_sb, ["/usr/bin/python3", "hostile.py", "cmdline"],
                      Limits(time_limit_ms=scaled(3000)))
    assert r.status == "OK", (r, err)
    assert str(box) not in out and "--box" not in out and "--sock" not in out, out
    clean(py_sb)


def test_host_wide_proc_files_are_hidden(py_sb):
    """/proc holds the processes of the run and nothing else: the host's load, memory,
    interrupts, kernel symbols and CPU counters are side channels no runtime needs."""
    r, out, err = run(py_sb, ["/usr/bin/python3", "hostile.py", "host-proc"],
                      Limits(time_limit_ms=scaled(3000)))
    assert r.status == "OK", (r, err)
    assert out.strip() == "own status True", out
    clean(py_sb)


def test_tmp_is_not_executable(py_sb):
    """A program may write a file to /tmp, never execute it."""
    r, out, err = run(py_sb, ["/usr/bin/python3", "hostile.py", "tmp-exec"],
                      Limits(time_limit_ms=scaled(3000)))
    assert r.status == "OK" and out.strip() == "refused PermissionError", (r, out, err)
    clean(py_sb)


def test_cpython_fork(py_sb):
    """os.fork() under the python policy: fine with a cgroup; RF without one."""
    r, out, err = run(py_sb, ["/usr/bin/python3", "hostile.py", "fork"],
                      Limits(time_limit_ms=scaled(3000)))
    if py_sb.cgroup == "none":
        assert_process_creation_refused(r)
        assert "forked" not in out, out
    else:
        assert r.status == "OK" and out.strip() == "forked", (r, out, err)
    clean(py_sb)


def test_jvm_threads_work_and_spinning_threads_are_tle(make_sandbox, java_available):
    sb = make_sandbox(policy="java")
    limits = Limits(time_limit_ms=scaled(10000), memory_limit_mb=768)
    r, out, err = run(sb, JAVA + ["4", "1000000"], limits)
    assert r.status == "OK", (r, err[-2000:])
    assert out.strip() == f"threads 4 sum {4 * (1000000 * 999999 // 2)}", out
    spin = sb.run(JAVA + ["8", "-1"], Limits(time_limit_ms=1500, wall_time_limit_ms=scaled(15000),
                                             memory_limit_mb=768))
    assert spin.status == "TLE" and spin.killed_by == "cpu-timer", spin
    assert spin.cpu_time_ms <= 1500 + MULTI_SLACK_MS, spin
    clean(sb)


# -- limits the supervisor is handed ----------------------------------------------------------

def test_supervisor_saturates_huge_limits(sb):
    """`Limits` refuses absurd values; a request that carries one anyway (a client of the
    protocol that skips the checks) must not wrap the supervisor's ms-to-ns arithmetic into a
    deadline in the past."""
    limits = Limits()
    object.__setattr__(limits, "time_limit_ms", (1 << 63) // 1000)
    object.__setattr__(limits, "wall_time_limit_ms", (1 << 63) // 1000)
    r = sb.run(["./exitcode", "0"], limits)
    assert r.status == "OK", r
    clean(sb)


# -- output nobody reads ------------------------------------------------------------------

def _read_all_later(fd: int, delay_s: float, got: list) -> threading.Thread:
    """Starts a reader that waits delay_s, then reads fd to its end into got."""
    def read_later():
        time.sleep(delay_s)
        with os.fdopen(fd, "rb") as reader:
            got.append(reader.read())
    thread = threading.Thread(target=read_later)
    thread.start()
    return thread


def test_a_reader_that_waits_changes_nothing_for_the_program(sb):
    """The program writes 1 MiB into a pipe whose reader starts only after the run, then spins:
    the supervisor keeps the bytes the pipe cannot take, so the program reaches its CPU limit
    (not a wall TLE while blocked in write or starved by a spinning supervisor), and the reader
    gets every byte afterwards. The wall limit leaves a busy machine room to give the program
    its 500 ms (a starved run is BUSY, not the TLE this is about); the reader starts only after
    it, so a program blocked in write until then would still end by the wall clock."""
    read_end, write_end = os.pipe()
    got: list = []
    limits = Limits(time_limit_ms=500, wall_time_limit_ms=scaled(4000))
    reader = _read_all_later(read_end, (limits.wall_ms + scaled(1000)) / 1000, got)
    try:
        r = sb.run(["./flood", "1", "1", "spin"], limits, stdout=write_end)
    finally:
        os.close(write_end)
        reader.join(timeout=scaled(30))
    assert r.status == "TLE" and r.killed_by == "cpu-timer", r
    assert 500 <= r.cpu_time_ms <= 500 + SLACK_MS, r
    assert got == [b"x" * MiB] and r.undelivered_bytes == 0, (r, [len(g) for g in got])
    clean(sb)


@pytest.mark.parametrize("reader", ["pipe", "terminal"])
def test_a_reader_that_never_reads_cannot_hold_the_judge(make_sandbox, reader):
    """Nobody ever reads the pipe or the terminal: the run ends on its own figures, the bytes
    the destination could not take wait for the slot's delivery time and are then reported as
    undelivered (before, the program blocked in write until its wall limit, and a terminal
    blocked the supervisor in write() for ever)."""
    delivery_ms = scaled(1000)
    sb = make_sandbox(delivery_timeout_ms=delivery_ms)
    read_end, write_end = os.openpty() if reader == "terminal" else os.pipe()
    limits = Limits(time_limit_ms=scaled(2000))
    bound_s = (limits.wall_ms + delivery_ms) / 1000 + scaled(5000) / 1000
    # A slot belongs to its thread, so the run stays here; should it hang, a reader wakes up
    # after the bound and unblocks it, and the time taken fails the test instead of hanging it.
    rescue = threading.Timer(bound_s, lambda: _read_until_closed(read_end))
    rescue.daemon = True
    rescue.start()
    started = time.monotonic()
    try:
        r = sb.run(["./flood", "4"], limits, stdout=write_end)
        elapsed = time.monotonic() - started
    finally:
        rescue.cancel()
        os.close(write_end)
    assert elapsed < bound_s, f"the run took {elapsed:.1f} s"
    assert r.status == "OK" and r.output_bytes == 4 * MiB, r
    assert 0 < r.undelivered_bytes < 4 * MiB, r
    os.close(read_end)
    clean(sb)


def _read_until_closed(fd: int) -> None:
    try:
        while os.read(fd, 1 << 16):
            pass
    except OSError:
        pass


def test_a_reader_that_goes_away_loses_the_output_not_the_verdict(sb):
    """`judge exec ... | head -c 0`: the reader is gone before the run; the program's writes
    still succeed (the supervisor drains its pipe), the run is judged as usual, and every byte
    is reported undelivered."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        r = sb.run(["./flood", "1"], Limits(), stdout=write_end)
    finally:
        os.close(write_end)
    assert r.status == "OK" and r.output_bytes == MiB and r.undelivered_bytes == MiB, r
    clean(sb)



@pytest.mark.parametrize("mib, status", [(1, "OK"), (2, "OLE")])
def test_a_pipe_reader_gets_exactly_what_the_output_limit_keeps(sb, mib, status):
    """Into a pipe the supervisor splices the program's bytes as they come (an interaction's
    path): the count stays exact, a program at its limit keeps every byte in order, and one
    past it is OLE with the reader given no byte beyond the limit."""
    read_end, write_end = os.pipe()
    got: list = []
    reader = _read_all_later(read_end, 0, got)
    try:
        r = sb.run(["./flood", str(mib)], Limits(output_limit_mb=1), stdout=write_end)
    finally:
        os.close(write_end)
        reader.join(timeout=scaled(30))
    assert r.status == status, r
    assert got[0] == b"x" * len(got[0]) and len(got[0]) + r.undelivered_bytes <= MiB, (r, len(got[0]))
    if status == "OK":
        assert r.output_bytes == MiB and got == [b"x" * MiB] and r.undelivered_bytes == 0, r
    else:
        assert r.killed_by == "output" and r.output_bytes > MiB, r
    clean(sb)

# -- socket families: no network in any policy ------------------------------------------------

def socket_attempt(sb, family: int, kind: int):
    return run(sb, ["/usr/bin/python3", "hostile.py", "family", str(int(family)), str(int(kind))],
               Limits(time_limit_ms=scaled(3000)))


@pytest.mark.parametrize("family, kind", [
    (socket.AF_VSOCK, socket.SOCK_STREAM), (socket.AF_NETLINK, socket.SOCK_RAW),
    (socket.AF_PACKET, socket.SOCK_RAW),
    # The kernel reads the family as an int: high bits must not smuggle AF_VSOCK past the filter.
    ((1 << 32) | socket.AF_VSOCK, socket.SOCK_STREAM),
], ids=["vsock", "netlink", "packet", "vsock-high-bits"])
def test_java_policy_refuses_sockets_the_net_namespace_does_not_confine(make_sandbox, family, kind):
    """vsock is not network-namespaced (a program bound a host vsock port through the java
    policy): every family but unix and inet is RF, whichever program runs under the filter."""
    sb = make_sandbox(policy="java")
    r, out, err = socket_attempt(sb, family, kind)
    assert r.status == "RF" and r.syscall == "socket", (r, out, err)
    assert "created" not in out, out
    clean(sb)


@pytest.mark.parametrize("family", [socket.AF_UNIX, socket.AF_INET], ids=["unix", "inet"])
def test_java_policy_keeps_the_sockets_the_jvm_uses(make_sandbox, family):
    sb = make_sandbox(policy="java")
    r, out, err = socket_attempt(sb, family, socket.SOCK_STREAM)
    assert r.status == "OK" and out.strip() == "created", (r, out, err)
    clean(sb)


PLANT_IN_THE_BOX = r"""
import os
os.makedirs("/box/deep/er", exist_ok=True)
open("/box/deep/er/file", "w").write("left behind")
os.chmod("/box/deep/er", 0)
os.chmod("/box/deep", 0)
os.symlink("/etc/passwd", "/box/link") if hasattr(os, "symlink") else None
"""


@pytest.mark.parametrize("emptying_fails", [False, True])
def test_a_tmpfs_box_is_emptied_whatever_a_program_left(make_sandbox, monkeypatch, emptying_fails):
    """Directories a program made and locked, and what it planted, are gone from the box the
    judge empties for the next run (Sandbox.empty_box); a box that cannot be emptied costs a
    restart of the slot, which brings a new tmpfs."""
    from judge.sandbox import box_files
    sb = make_sandbox(box=None, box_tmpfs_mb=2, policy="python")
    r, out, err = run(sb, ["python3", "-c", PLANT_IN_THE_BOX], Limits(time_limit_ms=scaled(5000)))
    assert r.status in ("OK", "RF"), (r, err)      # the link may be a refused call
    assert "deep" in os.listdir(sb.box_fd)
    supervisor = sb._process.pid
    if emptying_fails:
        def cannot(box: int) -> None:
            raise PermissionError("a directory nobody may enter")
        monkeypatch.setattr(box_files, "empty", cannot)
    box = sb.empty_box()
    assert os.listdir(box) == []
    assert (sb._process.pid != supervisor) is emptying_fails
    assert run(sb, ["python3", "-c", "print(1)"])[0].status == "OK"
