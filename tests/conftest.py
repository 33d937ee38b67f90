"""Shared fixtures of the sandbox tests (docs/design/8-tests.md §8, tests).

- `box`: a session temp dir (mode 755, readable by the sandbox uid) holding the test programs of
  tests/programs: the C ones compiled statically, the Python ones copied, Main.java compiled.
- `sandbox_available()`: can a sandbox start here at all?
- `require_sandbox`: skips a sandbox test when it cannot; with JUDGE_REQUIRE_SANDBOX=1 (CI) every
  skip, of any test, is turned into a failure.
- `audited_host`: the host's audit record exists (evaluations then never audit first).
- `assert_no_leftovers(slot, supervisor_pid)`: nothing of a run survives on the host (no process
  of the slot's uid or its interactors'), in the v1
  hierarchies and the v2 one (`slot_parents()`: where the judge puts its slot directories).
- `assert_dead_supervisors_swept(pids)`: once a new slot has started, no directory of a
  supervisor killed with SIGKILL is left in any hierarchy.
- Modes: `SUITE_CGROUP` is the mode the sandboxes of the suite use by default (JUDGE_CGROUP,
  else auto). `make test` runs the whole suite once with the default and the sandbox, hostile
  and grading suites again with JUDGE_CGROUP=none; tests whose expectation differs by mode
  branch on `sb.cgroup`. `HOST_CGROUP_MODES` are the modes this host offers ("none" always).
- Time scale: JUDGE_TEST_TIME_SCALE (a float, default 1; e.g. 8 in the emulated cgroup v2 VM,
  which runs programs 5-10x slower) multiplies, through `scaled()`, the limits and wall-clock
  bounds of the tests where timing is not the point, and the slack of the timer checks. What is
  asserted stays the same: a TLE must still be a TLE by the CPU timer within the (scaled) slack,
  an OK must still be OK.
"""
from __future__ import annotations

import concurrent.futures
import dataclasses
import functools
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import slot_blocks

from judge import config
from judge.languages import LANGUAGES
from judge.sandbox import slots

# The judge's configuration, resolved from the suite's environment before any test changes it;
# a test changes fields of it through `configure`, never through the environment.
config.current()

PROGRAMS = Path(__file__).resolve().parent / "programs"
# The embedded pack's sources (generators, references, wrong solutions): not shipped.
PACK_SOURCES = Path(__file__).resolve().parents[1] / "problems" / "pack"
REQUIRE_ENV = "JUDGE_REQUIRE_SANDBOX"
CGROUP_ENV = "JUDGE_CGROUP"
SCALE_ENV = "JUDGE_TEST_TIME_SCALE"
V1_CONTROLLERS = ("memory", "pids", "cpuacct")
LEAF_NAME = "judge-leaf"    # the judge's own processes' cgroup under a v2 slot parent
# Slots of this suite: a block of its own for this pytest process (tests/slot_blocks.py), so
# that the per-uid leftover check only ever sees our own runs.
SLOT_BASE = slot_blocks.claim()
NEIGHBOUR_SLOT = SLOT_BASE + slot_blocks.NEIGHBOUR
# `judge eval --slot-base` of the tests: test_eval.py +0 (2 jobs), test_eval_resume.py +4,
# test_api.py +8, test_eval_agreement.py +10 (2), test_interactive.py +12 (2),
# test_eval_lcb_agreement.py +14 (2).
EVAL_SLOTS = SLOT_BASE + slot_blocks.EVALUATIONS.start
_slots = itertools.count()


def require_sandbox_env() -> bool:
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0")


def next_slot() -> int:
    return SLOT_BASE + slot_blocks.SANDBOXES[next(_slots) % len(slot_blocks.SANDBOXES)]


@functools.cache
def quiet_cpu() -> int:
    """The CPU the suite's sandboxes pin their runs to unless a test says otherwise: the one
    other work on the machine left the most room on when the suite started. A CPU-bound test
    program sharing its CPU with a busy process gets half of it, and the wall timer then rightly
    calls its run BUSY instead of the TLE the test is about."""
    from judge.cpus import idlest_cpu, usable_cpus
    return idlest_cpu(usable_cpus())


class CpuWatch:
    """How much of a CPU's time went to anything but idling while a block ran, measured from
    outside the sandbox: the wall clock less /proc/stat's idle and iowait, which a NO_HZ kernel
    accounts exactly, at idle entry and exit (docs/design/3-isolation.md §3.8).

        with CpuWatch(sb.cpu) as watch:
            r = sb.run(...)
        watch.others_ms(r)      # what the CPU did beyond the run's own CPU time

    A test that expects a wall-timer TLE from a program that waits on itself allows BUSY only
    when the CPU really served others for more than half the run: on a loaded machine that is
    what BUSY is for, on a quiet one the TLE stands."""

    def __init__(self, cpu: int) -> None:
        self.cpu = cpu
        self.busy_ms = 0.0

    def _idle_ms(self) -> float:
        with open("/proc/stat") as stat:
            for line in stat:
                if line.startswith(f"cpu{self.cpu} "):
                    idle, iowait = line.split()[4:6]
                    return (int(idle) + int(iowait)) * 1000 / os.sysconf("SC_CLK_TCK")
        raise AssertionError(f"/proc/stat has no cpu{self.cpu}")

    def __enter__(self) -> CpuWatch:
        self._start = (time.monotonic(), self._idle_ms())
        return self

    def __exit__(self, *exc) -> None:
        wall = (time.monotonic() - self._start[0]) * 1000
        self.busy_ms = wall - (self._idle_ms() - self._start[1])

    def others_ms(self, run) -> float:
        return self.busy_ms - run.cpu_time_ms

    def starved(self, run, slack_ms: float = 100) -> bool:
        """Whether others had the CPU for more than half of the run's wall time."""
        return self.others_ms(run) > run.wall_time_ms / 2 - scaled(slack_ms)


def _time_scale() -> float:
    raw = os.environ.get(SCALE_ENV, "").strip()
    try:
        value = float(raw) if raw else 1.0
    except ValueError:
        raise pytest.UsageError(f"{SCALE_ENV}={raw!r} is not a number") from None
    if not value > 0:
        raise pytest.UsageError(f"{SCALE_ENV} must be positive, got {raw!r}")
    return value


TIME_SCALE = _time_scale()


def scaled(ms: float) -> int:
    """A limit, a wall-clock bound or a timer slack stretched for a slow machine."""
    return int(round(ms * TIME_SCALE))


def grade_to_a_verdict(grader, source: str, lang: str, problem, **kwargs):
    """A run starved of CPU has no verdict yet (BUSY): it is judged again, as eval does."""
    result = grader.grade(source, lang, problem, **kwargs)
    for _ in range(3):
        if result.verdict != "BUSY":
            break
        result = grader.grade(source, lang, problem, **kwargs)
    return result


def scaled_problem(problem_id: str):
    """A problem of the embedded pack, with its time limit stretched for a slow machine."""
    import dataclasses

    from judge.problems.registry import resolve
    problem = resolve(problem_id)
    if TIME_SCALE == 1:
        return problem
    return dataclasses.replace(problem, time_limit_ms=scaled(problem.time_limit_ms))


# The languages' default time factors; with JUDGE_TEST_TIME_SCALE the judge's CLI in the tests
# runs with them stretched by it (JUDGE_TIME_FACTORS): the verdicts stay the same.
TIME_FACTORS = {name: language.time_factor for name, language in LANGUAGES.items()}


def scaled_time_factors_env() -> dict[str, str]:
    """The environment entry that stretches the judge's time factors by the time scale."""
    if TIME_SCALE == 1:
        return {}
    return {"JUDGE_TIME_FACTORS": ",".join(f"{lang}={factor * TIME_SCALE:g}"
                                           for lang, factor in TIME_FACTORS.items())}


SUITE_CGROUP = os.environ.get(CGROUP_ENV) or "auto"


# -- pytest plumbing -------------------------------------------------------------------------

def pytest_configure(config):
    config.addinivalue_line("markers", "sandbox: needs a working sandbox (set on every test that "
                            f"uses require_sandbox); with {REQUIRE_ENV}=1 a skip of such a test "
                            "is a failure")
    config.addinivalue_line("markers", "java: runs Java (set on tests parametrized with java or "
                            "using java_available); the JVM makes them the slowest of a kind")
    config.addinivalue_line("markers", "slow: takes more than a few seconds (a whole audit, an "
                            "evaluation, a container, hundreds of gradings); `make test-fast` "
                            "leaves these out")
    config.addinivalue_line("markers", "browser: renders the HTML report in headless Chromium")
    config.addinivalue_line("markers", "cgroup_layout(mode): tests the judge under one cgroup "
                            "layout (v1, v2); skipped, even with the require variable, on a "
                            "host that has another layout")


def _foreign_cgroup_layout(item) -> str | None:
    """The cgroup layout a test is for, when this host does not have it."""
    marker = item.get_closest_marker("cgroup_layout")
    return marker.args[0] if marker and marker.args[0] not in HOST_CGROUP_MODES else None


def _runs_java(item) -> bool:
    params = getattr(item, "callspec", None)
    return "java_available" in item.fixturenames or (
        params is not None and "java" in (str(v) for v in params.params.values()))


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "require_sandbox" in item.fixturenames:
            item.add_marker(pytest.mark.sandbox)
        if _runs_java(item):
            item.add_marker(pytest.mark.java)
        # A whole `judge eval` in a subprocess, after the host's audit on a fresh machine.
        if "audited_host" in item.fixturenames:
            item.add_marker(pytest.mark.slow)
        layout = _foreign_cgroup_layout(item)
        if layout:
            item.add_marker(pytest.mark.skip(
                reason=f"tests the cgroup {layout} layout; this host has {HOST_CGROUP_MODES[0]}"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    # On a machine that has everything (CI sets the variable), no test may skip: a skip
    # anywhere could hide a sandbox test or a toolchain the Makefile failed to install.
    if not report.skipped or not require_sandbox_env():
        return
    if hasattr(report, "wasxfail"):
        return
    if _foreign_cgroup_layout(item):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    report.outcome = "failed"
    report.longrepr = f"test skipped while {REQUIRE_ENV}=1: {reason}"


# -- the sandbox check -------------------------------------------------------------------------

@functools.cache
def _sandbox_status() -> tuple[bool, str]:
    try:
        from judge.sandbox import Limits, Sandbox
    except Exception as exc:  # pragma: no cover - import problems are reported as the reason
        return False, f"cannot import judge.sandbox: {exc!r}"
    try:
        with Sandbox(slot=SLOT_BASE + slot_blocks.PROBE) as sb:
            result = sb.run(["/bin/true"], Limits(time_limit_ms=scaled(2000)))
            mode = sb.cgroup
    except Exception as exc:
        return False, f"the sandbox cannot start: {exc}"
    if result.status != "OK":
        return False, f"/bin/true in the sandbox gave {result}"
    # A mode asked for in the environment must be the one the sandboxes get.
    if SUITE_CGROUP != "auto" and mode != SUITE_CGROUP:
        return False, f"{CGROUP_ENV}={SUITE_CGROUP} but the sandbox uses cgroup mode {mode}"
    return True, ""


def sandbox_available() -> bool:
    return _sandbox_status()[0]


@pytest.fixture(scope="session")
def require_sandbox():
    ok, reason = _sandbox_status()
    if not ok:
        if require_sandbox_env():
            pytest.fail(f"{REQUIRE_ENV}=1 but {reason}")
        pytest.skip(reason)


@pytest.fixture(scope="session")
def audited_host(require_sandbox):
    """The host's audit record (judge/audit/record.py) exists before an evaluation test starts:
    the once-per-host `judge audit --quick` that the first `judge eval` runs is spent here, once,
    and no evaluation's output carries its notice. A host that fails the audit fails this."""
    script = ("from judge.evaluate.provenance import establish; "
              f"print(establish([], {next_slot()}, False, lambda _: None).audit.status.value)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={**os.environ, **scaled_time_factors_env()},
                          timeout=scaled(900_000) / 1000)
    if done.returncode != 0:
        pytest.fail(f"this host's audit record could not be made: {done.stderr[-3000:]}")


# -- the box of test programs ------------------------------------------------------------------

def _compile_c(source: Path, out_dir: Path) -> tuple[str, str | None]:
    target = out_dir / source.stem
    proc = subprocess.run(["gcc", "-O2", "-static", "-pthread", "-Wall", "-o", str(target),
                           str(source)], capture_output=True, text=True)
    return source.name, (proc.stderr if proc.returncode else None)


def _compile_java(source: Path, out_dir: Path) -> tuple[str, str | None]:
    if shutil.which("javac") is None:
        return source.name, None  # the Java tests skip (a failure under JUDGE_REQUIRE_SANDBOX)
    proc = subprocess.run(["javac", "-d", str(out_dir), str(source)], capture_output=True,
                          text=True)
    return source.name, (proc.stderr if proc.returncode else None)


@pytest.fixture(scope="session")
def box():
    directory = Path(tempfile.mkdtemp(prefix="judge-test-box-"))
    directory.chmod(0o755)
    jobs = [(_compile_java, s) for s in sorted(PROGRAMS.glob("*.java"))]
    jobs += [(_compile_c, s) for s in sorted(PROGRAMS.glob("*.c"))]
    with concurrent.futures.ThreadPoolExecutor(max_workers=(os.cpu_count() or 2) + 1) as pool:
        results = list(pool.map(lambda job: job[0](job[1], directory), jobs))
    failures = [f"{name}:\n{err}" for name, err in results if err]
    if failures:
        shutil.rmtree(directory, ignore_errors=True)
        raise RuntimeError("cannot build the test programs:\n" + "\n".join(failures))
    for script in PROGRAMS.glob("*.py"):
        shutil.copy(script, directory / script.name)
    for entry in directory.iterdir():
        entry.chmod(0o755 if entry.is_file() and os.access(entry, os.X_OK) else 0o644)
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="session")
def java_available(box):
    if not (box / "Main.class").exists() or shutil.which("java") is None:
        pytest.skip("no JDK (javac/java) on this machine")
    return True


# -- leftovers -------------------------------------------------------------------------------

def host_uid(slot: int) -> int:
    return slots.host_uid(slot)


def uids_of_slot(slot: int) -> list[int]:
    """The host uids a grading slot's programs run as: its own and its interactors'."""
    if slot >= slots.RUN_SLOTS:
        return [host_uid(slot)]
    return [host_uid(slot), host_uid(slots.interactor_slot(slot))]


def _exe_and_parent(pid: str) -> tuple[str, str]:
    """A process's executable and its parent's pid (a thread's pid gives its process's)."""
    status = dict(line.split(":", 1) for line in
                  Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    if status["Tgid"].strip() != pid:
        raise ValueError(f"{pid} is a thread")
    return os.readlink(f"/proc/{pid}/exe"), status["PPid"].strip()


def is_parked_child(pid: str) -> bool:
    """The child a slot's init forks ahead of the next run and keeps parked in its seccomp
    filter until the request comes (native/supervisor/child.c): it has not exec'd, so its executable
    is the supervisor's, as are its parent's (the init) and its grandparent's (the outer
    supervisor). A run's leftover cannot pass for one: the supervisor's executable is not in
    the sandbox."""
    try:
        exe, parent = _exe_and_parent(pid)
        parent_exe, grandparent = _exe_and_parent(parent)
        grandparent_exe, _ = _exe_and_parent(grandparent)
    except (OSError, KeyError, ValueError):
        return False
    return (exe == parent_exe == grandparent_exe and "supervisor" in Path(exe).name
            and is_alive(int(parent)))


def processes_of_uid(uid: int) -> list[str]:
    """'pid comm state' of every host process whose real or effective uid is `uid`, but the
    slots' parked children (is_parked_child)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or is_parked_child(entry.name):
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        uids = fields.get("Uid", "").split()
        if str(uid) in uids[:2]:
            found.append(f"{entry.name} {fields.get('Name', '?').strip()} "
                         f"{fields.get('State', '?').strip()}")
    return found


def _unescape(field: str) -> str:
    """mountinfo writes space, tab, newline and backslash as \\ooo."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), field)


def _cgroup_mounts() -> list[tuple[str, str, str, set[str]]]:
    """(fstype, mount root, mount point, super options) of every cgroup mount we can see."""
    mounts = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        before, sep, after = line.partition(" - ")
        if not sep:
            continue
        fields, tail = before.split(), after.split()
        if len(fields) < 5 or len(tail) < 3 or tail[0] not in ("cgroup", "cgroup2"):
            continue
        mounts.append((tail[0], _unescape(fields[3]), _unescape(fields[4]),
                       set(tail[2].split(","))))
    return mounts


def _under_mount(mount_root: str, mount_point: str, path: str) -> Path | None:
    """Where cgroup `path` (as /proc/self/cgroup names it) is seen in a mount of the hierarchy
    whose root field is `mount_root` (a container sees its own cgroup as its mount's root)."""
    root = mount_root.rstrip("/")
    if root and path != root and not path.startswith(root + "/"):
        return None
    return Path(mount_point) / path[len(root):].lstrip("/")


def own_cgroups() -> dict[str, Path]:
    """This process's cgroup directory in each hierarchy the judge uses: "memory", "cpuacct",
    "pids" (v1) and "unified" (v2), where mounted."""
    paths = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        hierarchy, controllers, path = line.split(":", 2)
        if hierarchy == "0" and controllers == "":
            paths["unified"] = path
        for controller in controllers.split(","):
            if controller in V1_CONTROLLERS:
                paths[controller] = path
    dirs = {}
    # The last mount of a hierarchy is the visible one: a container engine mounts a hidden
    # read-only copy first.
    for fstype, root, point, options in _cgroup_mounts():
        keys = ["unified"] if fstype == "cgroup2" else [c for c in V1_CONTROLLERS if c in options]
        for key in keys:
            if key in paths:
                found = _under_mount(root, point, paths[key])
                if found is not None and found.is_dir():
                    dirs[key] = found
    return dirs


def slot_parents() -> dict[str, Path]:
    """Where the judge makes its slot directories (`slot_dir_name`): on v1 the own
    cgroup in each of memory, cpuacct and pids; on v2 the own cgroup B, or its parent when the
    judge has moved itself into B/judge-leaf. Read afresh each time: the first v2 slot moves
    this very process."""
    parents = own_cgroups()
    unified = parents.get("unified")
    if unified is not None and unified.name == LEAF_NAME:
        parents["unified"] = unified.parent
    return parents


def v2_controllers() -> set[str]:
    """The controllers the v2 hierarchy offers the judge's slot parent (none on a v1 host)."""
    parent = slot_parents().get("unified")
    try:
        return set((parent / "cgroup.controllers").read_text().split()) if parent else set()
    except OSError:
        return set()


def host_cgroup_modes() -> list[str]:
    """The cgroup modes this host offers the suite, as root: "v2" when the v2 hierarchy has
    memory and pids for the slot parent, "v1" when the v1 memory, cpuacct and pids hierarchies
    are mounted and writable, and always "none"."""
    modes = []
    if os.geteuid() == 0:
        if {"memory", "pids"} <= v2_controllers():
            modes.append("v2")
        parents = slot_parents()
        if all(c in parents and os.access(parents[c], os.W_OK) for c in V1_CONTROLLERS):
            modes.append("v1")
    return modes + ["none"]


HOST_CGROUP_MODES = host_cgroup_modes()


def slot_dir_name(slot: int, supervisor_pid: int) -> str:
    """judge-<supervisor pid>-slot<N>-ns<pid namespace>: the pid means something only in the
    pid namespace the name carries (ours: the supervisors run in it)."""
    return f"judge-{supervisor_pid}-slot{slot}-ns{os.stat('/proc/self/ns/pid').st_ino}"


def slot_cgroup_dirs(slot: int, supervisor_pid: int) -> list[Path]:
    return [d / slot_dir_name(slot, supervisor_pid) for d in slot_parents().values()]


def supervisor_dirs(supervisor_pid: int) -> list[Path]:
    """Every slot directory of one supervisor, in every hierarchy."""
    return [entry for parent in slot_parents().values()
            for entry in parent.glob(f"judge-{supervisor_pid}-slot*") if entry.is_dir()]


def supervisor_pids_of(parent_pid: int) -> list[int]:
    """The pids of the sandbox supervisors whose parent is `parent_pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        if ppid == parent_pid and comm.startswith("judge-superv"):
            found.append(int(entry.name))
    return found


def assert_dead_supervisors_swept(pids: list[int], timeout_s: float = 10) -> None:
    """For supervisors killed with SIGKILL (which cannot clean up): once another slot has
    started, none of their slot directories is left in any hierarchy. The sweep may run just
    after the new slot said it is ready, so this waits for it, up to a (scaled) bound."""
    for pid in pids:
        assert not is_alive(pid), f"supervisor {pid} is still alive"
    deadline = time.monotonic() + timeout_s * TIME_SCALE
    while True:
        left = [d for pid in pids for d in supervisor_dirs(pid)]
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert not left, f"slot directories of dead supervisors {pids} were not swept: {left}"


def memory_bound_kb(sb, limit_mb: int) -> int:
    """The most a run of `sb` may be seen holding under a limit of limit_mb: with a memory
    cgroup the kernel's limit (limit + limit/8 + 4 MiB) plus 1 MiB; without one the resident
    memory watch's bound, 1.25 x limit + 16 MiB."""
    if sb.cgroup == "none":
        return int(limit_mb * 1.25 * 1024) + 16 * 1024
    return (limit_mb + limit_mb // 8 + 4 + 1) * 1024


def is_alive(pid: int) -> bool:
    """Running (not a zombie, not gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def assert_no_leftovers(slot: int, supervisor_pid: int | None = None) -> None:
    """No host process runs as the slot's uid, and the slot's cgroups hold no run: while the
    supervisor lives its slot directories may exist with no process in them; once
    it is gone they must be gone too. Only that supervisor's directory for the slot is looked at,
    so other sandboxes running at the same time do not disturb the check."""
    for uid in uids_of_slot(slot):
        left = processes_of_uid(uid)
        assert not left, f"processes of slot {slot} (uid {uid}) survived: {left}"
    if supervisor_pid is None:
        return
    alive = is_alive(supervisor_pid)
    for hierarchy, parent in slot_parents().items():
        directory = parent / slot_dir_name(slot, supervisor_pid)
        if not directory.exists():
            continue
        assert alive, f"cgroup {directory} outlived its supervisor {supervisor_pid}"
        # Between runs the supervisor keeps the next run's cgroup ready; on cgroup v1 the last
        # run's stays too, until the next run is under way (each then holds a spawner thread
        # of the slot's init, native/shared/spawner.c, and no other task). Finished runs'
        # directories are removed after the reply, so for a moment there may be one more, and a
        # directory listed here may be gone when it is read.
        ready = 1 if hierarchy == "unified" else 2
        deadline = time.monotonic() + scaled(5000) / 1000
        while (len(children := _run_directories(directory)) > ready
               and time.monotonic() < deadline):
            time.sleep(0.02)
        assert len(children) <= ready, f"cgroup {directory} still holds {children} after the run"
        inits = {str(pid) for pid in children_of(supervisor_pid)}
        for cgroup in [directory, *children]:
            try:
                tasks = set((cgroup / "cgroup.procs").read_text().split())
            except FileNotFoundError:
                continue   # removed by the supervisor just now
            left = {task for task in tasks - inits if not is_parked_child(task)}
            assert not left, f"cgroup {cgroup} still holds processes {left}"


def children_of(pid: int) -> list[int]:
    """The pids of a process's children (for a supervisor: the slot's init)."""
    children: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            pass
    return children


def _run_directories(slot_directory: Path) -> list[Path]:
    try:
        return [p for p in slot_directory.iterdir() if p.is_dir()]
    except FileNotFoundError:
        return []


# -- sandboxes for the tests -----------------------------------------------------------------

class SandboxFactory:
    """Opens started sandboxes on fresh slots; at teardown closes them and checks that nothing
    of them is left on the host."""

    def __init__(self, box: Path) -> None:
        self.box = box
        self.opened = []

    def __call__(self, **kwargs):
        from judge.sandbox import Sandbox
        kwargs.setdefault("box", self.box)
        kwargs.setdefault("slot", next_slot())
        kwargs.setdefault("cpu", quiet_cpu())
        sb = Sandbox(**kwargs).start()
        self.opened.append(sb)
        return sb

    def close(self, sb) -> None:
        """Closes one sandbox and asserts that its processes and cgroups are gone."""
        pid = sb._process.pid if sb._process is not None else None
        sb.close()
        assert_no_leftovers(sb.slot, pid)

    def close_all(self) -> None:
        while self.opened:
            sb = self.opened.pop()
            if sb._process is not None:
                self.close(sb)


@pytest.fixture
def make_sandbox(box, require_sandbox):
    factory = SandboxFactory(box)
    try:
        yield factory
    finally:
        factory.close_all()


@pytest.fixture
def configure(monkeypatch):
    """Changes fields of the judge's configuration (judge/config.py) for one test."""
    def apply(**changes) -> None:
        monkeypatch.setattr(config, "_current", dataclasses.replace(config.current(), **changes))
    return apply


@pytest.fixture
def sb(make_sandbox):
    """A fresh native-policy slot for one test."""
    return make_sandbox()



def parse_lines(text: str, pattern: str) -> list[re.Match]:
    return [m for m in (re.match(pattern, line) for line in text.splitlines()) if m]


def run(sb, argv, limits=None, **kwargs):
    """Runs argv in `sb`; returns (RunResult, stdout text, stderr text)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        result = sb.run(list(argv), limits, stdout=out, stderr=err, **kwargs)
        out.seek(0)
        err.seek(0)
        return result, out.read().decode(errors="replace"), err.read().decode(errors="replace")


@pytest.fixture(scope="module")
def cluster(audited_host):
    """A real multi-node Ray cluster on this machine (ray.cluster_utils.Cluster): a head and a
    worker node of one CPU each (tests add the nodes they need), this process connected."""
    import logging

    import ray
    from ray.cluster_utils import Cluster
    from ray_cluster import NODE, free_port
    c = Cluster(initialize_head=True, head_node_args={**NODE, "include_dashboard": False,
                                                      "ray_client_server_port": free_port()})
    c.add_node(**NODE)
    c.wait_for_nodes()
    ray.init(address=c.address, log_to_driver=False, logging_level=logging.WARNING)
    try:
        yield c
    finally:
        ray.shutdown()
        c.shutdown()
