"""The sandbox's limits and figures for well-behaved programs: CPU and wall time, memory,
output, exit codes and signals, refused syscalls, stdin/stdout plumbing, the filesystem, slot
reuse, the cgroup-less mode, CPython and the JVM, bad inputs, and the unprivileged mode.

Timing precision belongs in benchmarks (DESIGN.md §6): the tolerances here are generous, the
bounds on limits are not."""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sysconfig
import tempfile
import textwrap
from pathlib import Path

import pytest

from conftest import assert_no_leftovers, next_slot, processes_of_uid, run
from judge import JudgeError
from judge.sandbox import Limits, Sandbox, SandboxError

pytestmark = pytest.mark.sandbox

MiB = 1 << 20
REPO = Path(__file__).resolve().parent.parent
JAVA = ["/usr/bin/java", "-XX:+UseSerialGC", "-Xmx544m", "-Xss64m", "Main"]
TIMER_SLACK_MS = 20


def _unsandboxed_cpu_ms(argv: list[str], cwd: Path, cpu: int) -> float:
    """CPU time of one unsandboxed run, from getrusage of the children, pinned like a run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, cwd=cwd, check=True, stdout=subprocess.DEVNULL,
                   preexec_fn=lambda: os.sched_setaffinity(0, {cpu}))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000


# -- CPU time -------------------------------------------------------------------------------

def test_cpu_time_below_the_limit_matches_an_unsandboxed_run(sb, box):
    # Calibrate the spinner to about 300 ms on this machine.
    probe = _unsandboxed_cpu_ms([str(box / "spin"), "iters", "50"], box, sb.cpu)
    iters = max(10, int(50 * 300 / max(probe, 1)))
    argv = ["./spin", "iters", str(iters)]
    truth = min(_unsandboxed_cpu_ms([str(box / "spin"), "iters", str(iters)], box, sb.cpu)
                for _ in range(2))
    results = [sb.run(argv, Limits(time_limit_ms=5000)) for _ in range(2)]
    for r in results:
        assert r.status == "OK", r
        assert r.exit_code == 0 and r.killed_by is None
        assert r.sources["cpu"] in ("cgroup-v1", "cgroup-v2", "rusage")
    measured = min(r.cpu_time_ms for r in results)
    assert abs(measured - truth) <= 0.2 * truth, (measured, truth)
    assert min(r.wall_time_ms for r in results) >= measured * 0.9
    assert_no_leftovers(sb.slot, sb._process.pid)


@pytest.mark.parametrize("limit_ms", [250, 700])
def test_cpu_time_over_the_limit_is_tle_by_the_cpu_timer(sb, limit_ms):
    # A generous wall limit: on a loaded machine the CPU limit must still be the one that hits.
    limits = Limits(time_limit_ms=limit_ms, wall_time_limit_ms=10 * limit_ms)
    r = sb.run(["./spin", "ms", "-1"], limits)
    assert r.status == "TLE", r
    assert r.killed_by == "cpu-timer"
    assert r.signal == 9 and r.exit_code is None
    assert limit_ms * 0.98 <= r.cpu_time_ms <= limit_ms + TIMER_SLACK_MS, r
    assert r.wall_time_ms < limits.wall_ms, r
    assert_no_leftovers(sb.slot, sb._process.pid)


def test_spinner_just_under_the_limit_is_ok(sb):
    r = sb.run(["./spin", "ms", "150"], Limits(time_limit_ms=600))
    assert r.status == "OK", r
    assert 150 <= r.cpu_time_ms <= 600


def test_sleeping_past_the_wall_limit_is_tle_by_the_wall_timer(sb):
    limits = Limits(time_limit_ms=200, wall_time_limit_ms=600)
    r = sb.run(["./sleeper", "100000"], limits)
    assert r.status == "TLE", r
    assert r.killed_by == "wall-timer"
    assert 600 <= r.wall_time_ms <= 600 + 250, r
    assert r.cpu_time_ms < 50, r
    assert_no_leftovers(sb.slot, sb._process.pid)


def test_default_wall_limit_is_max_of_twice_and_one_second_more(sb):
    r = sb.run(["./sleeper", "100000"], Limits(time_limit_ms=100))
    assert r.status == "TLE" and r.killed_by == "wall-timer", r
    assert 1100 <= r.wall_time_ms <= 1100 + 250, r


# -- memory ---------------------------------------------------------------------------------

@pytest.mark.parametrize("mib", [16, 64])
def test_memory_below_the_limit_is_measured(sb, mib):
    r, out, _ = run(sb, ["./mem", str(mib)], Limits(memory_limit_mb=256))
    assert r.status == "OK", r
    assert out.strip() == f"touched {mib} MiB"
    assert mib * 1024 <= r.memory_kb <= (mib + 8) * 1024, r
    assert r.sources["memory"] in ("cgroup-v1", "cgroup-v2", "rusage")


def test_memory_over_the_limit_is_mle(sb):
    r = sb.run(["./mem", "400"], Limits(memory_limit_mb=128))
    assert r.status == "MLE", r
    # The kernel's limit sits a little above the stated one; never far.
    assert 128 * 1024 < r.memory_kb <= (128 + 128 // 8 + 4) * 1024 + 1024, r
    assert_no_leftovers(sb.slot, sb._process.pid)


# -- output ---------------------------------------------------------------------------------

def test_output_flood_is_ole_and_bounded(sb, tmp_path):
    sink = tmp_path / "out"
    r = sb.run(["./flood", "-1"], Limits(output_limit_mb=1, time_limit_ms=5000), stdout=sink)
    assert r.status == "OLE", r
    assert r.killed_by == "output"
    assert 1 * MiB < r.output_bytes <= 1 * MiB + 2 * MiB, r
    assert sink.stat().st_size <= 1 * MiB
    assert r.wall_time_ms < 2000, r
    assert_no_leftovers(sb.slot, sb._process.pid)


def test_output_up_to_the_limit_is_kept_whole(sb, tmp_path):
    sink = tmp_path / "out"
    r = sb.run(["./flood", "3"], Limits(output_limit_mb=4), stdout=sink)
    assert r.status == "OK", r
    assert r.output_bytes == 3 * MiB
    assert sink.read_bytes() == b"x" * (3 * MiB)


def test_stderr_flood_is_dropped_not_blocking(sb):
    r = sb.run(["./flood", "64", "2"], Limits(time_limit_ms=3000, stderr_limit_mb=1))
    assert r.status == "OK", r
    assert r.output_bytes == 0


# -- exit codes, signals, refused syscalls ----------------------------------------------------

@pytest.mark.parametrize("code", [1, 7, 255])
def test_exit_code_is_re(sb, code):
    r = sb.run(["./exitcode", str(code)], Limits())
    assert r.status == "RE", r
    assert r.exit_code == code and r.signal is None


@pytest.mark.parametrize("signo", [6, 8, 11])
def test_signal_death_is_re(sb, signo):
    r = sb.run(["./raise", str(signo)], Limits())
    assert r.status == "RE", r
    assert r.signal == signo and r.exit_code is None


def test_refused_syscall_is_rf_and_named(sb):
    r = sb.run(["./syscalls", "ptrace"], Limits())
    assert r.status == "RF", r
    assert r.syscall == "ptrace" and r.killed_by == "seccomp"


def test_missing_program_is_a_judge_error_not_a_verdict(sb):
    r = sb.run(["./no-such-program"], Limits())
    assert r.status == "SE", r
    assert "no-such-program" in (r.error or "")


# -- stdin / stdout -------------------------------------------------------------------------

def test_stdin_as_bytes(sb):
    payload = b"hello sandbox\n" + bytes(range(256)) * 4096
    with tempfile.TemporaryFile() as out:
        r = sb.run(["./echo"], Limits(), stdin=payload, stdout=out)
        out.seek(0)
        assert out.read() == payload
    assert r.status == "OK" and r.output_bytes == len(payload), r


def test_stdin_as_path_and_stdout_to_a_path(sb, tmp_path):
    source, sink = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_bytes(b"1 2 3\n4 5 6\n")
    r = sb.run(["./echo"], Limits(), stdin=source, stdout=sink)
    assert r.status == "OK", r
    assert sink.read_bytes() == b"1 2 3\n4 5 6\n"


def test_stdin_as_fd_and_stdout_to_a_binary_file(sb, tmp_path):
    source = tmp_path / "in.txt"
    source.write_bytes(b"via a descriptor\n")
    fd = os.open(source, os.O_RDONLY)
    try:
        with open(tmp_path / "out.bin", "wb") as sink:
            r = sb.run(["./echo"], Limits(), stdin=fd, stdout=sink)
    finally:
        os.close(fd)
    assert r.status == "OK", r
    assert (tmp_path / "out.bin").read_bytes() == b"via a descriptor\n"


def test_no_stdin_reads_eof(sb):
    r, out, _ = run(sb, ["./echo"], Limits())
    assert r.status == "OK" and out == "", r


# -- filesystem -----------------------------------------------------------------------------

def test_box_is_read_only(sb, box):
    r, out, _ = run(sb, ["./files", "write", "/box/created-by-the-run", "/box/spin"], Limits())
    assert r.status == "OK", r
    assert "write /box/created-by-the-run fail EROFS" in out
    assert "write /box/spin fail" in out
    assert not (box / "created-by-the-run").exists()


def test_tmp_is_writable_and_cleaned_between_runs(sb):
    for _ in range(3):
        r, out, _ = run(sb, ["./tmpcheck"], Limits())
        assert r.status == "OK", r   # exit 0: the marker file and directory were written
        assert out.strip() == "entries 0"


def test_one_slot_serves_fifty_runs(sb):
    pid = sb._process.pid
    for i in range(50):
        r = sb.run(["./exitcode", str(i)], Limits(time_limit_ms=1000))
        assert r.status == ("OK" if i == 0 else "RE"), (i, r)
        assert r.exit_code == i
    assert sb._process.pid == pid
    assert_no_leftovers(sb.slot, pid)


def test_slot_uses_cgroups_here_when_root(sb):
    if os.geteuid() != 0:
        pytest.skip("cgroups are only used as root on this machine")
    assert sb.cgroup in ("v1", "v2"), sb.cgroup
    assert sb.uid_mode == "separate"
    r = sb.run(["./mem", "8"], Limits())
    assert r.sources == {"cpu": f"cgroup-{sb.cgroup}", "memory": f"cgroup-{sb.cgroup}"}, r


# -- the cgroup-less mode -------------------------------------------------------------------

def test_cgroup_none_enforces_time_and_memory(make_sandbox):
    sb = make_sandbox(cgroup="none")
    assert sb.cgroup == "none"
    ok, out, _ = run(sb, ["./mem", "16"], Limits(memory_limit_mb=64))
    assert ok.status == "OK" and out.strip() == "touched 16 MiB", ok
    assert 16 * 1024 <= ok.memory_kb <= 24 * 1024, ok
    assert ok.sources == {"cpu": "rusage", "memory": "rusage"}
    tle = sb.run(["./spin", "ms", "-1"], Limits(time_limit_ms=300, wall_time_limit_ms=3000))
    assert tle.status == "TLE" and tle.killed_by == "cpu-timer", tle
    assert tle.cpu_time_ms <= 300 + TIMER_SLACK_MS, tle
    mle = sb.run(["./mem", "400"], Limits(memory_limit_mb=64))
    assert mle.status == "MLE", mle
    # Without a memory cgroup the bound is the address-space safety net: 4 x limit + 1 GiB.
    assert mle.memory_kb <= (4 * 64 + 1024) * 1024, mle
    wall = sb.run(["./sleeper", "100000"], Limits(time_limit_ms=100, wall_time_limit_ms=400))
    assert wall.status == "TLE" and wall.killed_by == "wall-timer", wall


def test_cgroup_none_runs_a_two_thread_program(make_sandbox):
    """A legitimate program with two threads must work in every mode."""
    sb = make_sandbox(cgroup="none")
    r, out, err = run(sb, ["./threads", "2", "100"], Limits(memory_limit_mb=256))
    assert r.status == "OK", (r, err)
    assert out.strip() == "2 threads done"
    assert 200 * 0.8 <= r.cpu_time_ms <= 200 * 1.2 + 20, r


# -- CPython and the JVM --------------------------------------------------------------------

def test_cpython_program(make_sandbox):
    sb = make_sandbox(policy="python")
    numbers = list(range(1, 10001))
    r, out, err = run(sb, ["/usr/bin/python3", "sum.py"], Limits(time_limit_ms=5000),
                      stdin=" ".join(map(str, numbers)).encode())
    assert r.status == "OK", (r, err)
    assert out.strip() == str(sum(numbers))
    assert r.memory_kb < 64 * 1024, r


def test_jvm_program_with_four_threads(make_sandbox, java_available):
    sb = make_sandbox(policy="java")
    n = 2_000_000
    r, out, err = run(sb, JAVA + ["4", str(n)], Limits(time_limit_ms=10000, memory_limit_mb=768))
    assert r.status == "OK", (r, err[-2000:])
    # XOR with i < 4 permutes each aligned block of 4, so every thread sums 0..n-1.
    assert out.strip() == f"threads 4 sum {4 * (n * (n - 1) // 2)}", out
    assert r.memory_kb < 768 * 1024, r


# -- bad inputs -----------------------------------------------------------------------------

def test_missing_box_is_refused(tmp_path):
    with pytest.raises(SandboxError):
        Sandbox(box=tmp_path / "missing")
    assert issubclass(SandboxError, JudgeError)


@pytest.mark.parametrize("field", ["time_limit_ms", "memory_limit_mb", "output_limit_mb",
                                   "processes", "file_size_limit_mb", "wall_time_limit_ms"])
@pytest.mark.parametrize("value", [-1, 0])
def test_non_positive_limits_are_refused(field, value):
    with pytest.raises(JudgeError):
        Limits(**{field: value})


def test_unknown_policy_and_cgroup_mode_are_refused(box):
    with pytest.raises(JudgeError):
        Sandbox(box=box, policy="cobol")
    with pytest.raises(JudgeError):
        Sandbox(box=box, cgroup="v3")


def test_empty_argv_is_refused(sb):
    with pytest.raises(JudgeError):
        sb.run([], Limits())


# -- the unprivileged mode ------------------------------------------------------------------

UNPRIVILEGED_SCRIPT = textwrap.dedent("""
    import json, sys
    from judge.sandbox import Limits, Sandbox
    box, slot = sys.argv[1], int(sys.argv[2])
    out = {}
    with Sandbox(box=box, slot=slot) as sb:
        out["cgroup"], out["uid_mode"] = sb.cgroup, sb.uid_mode
        cases = {
            "ok": (["./mem", "16"], Limits(memory_limit_mb=64)),
            "tle": (["./spin", "ms", "-1"], Limits(time_limit_ms=300, wall_time_limit_ms=3000)),
            "mle": (["./mem", "400"], Limits(memory_limit_mb=64)),
            "rf": (["./syscalls", "ptrace"], Limits()),
            "ps": (["./ps"], Limits()),
        }
        for name, (argv, limits) in cases.items():
            out[name] = sb.run(argv, limits).to_dict()
    print(json.dumps(out))
""")


def test_unprivileged_mode(box, require_sandbox, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("needs root to switch to uid 65534")
    python = Path("/usr/bin/python3")
    if not python.exists():
        pytest.skip("no system python3")
    scripts = Path(tempfile.mkdtemp(prefix="judge-unpriv-"))
    try:
        scripts.chmod(0o755)
        script = scripts / "unprivileged.py"
        script.write_text(UNPRIVILEGED_SCRIPT)
        script.chmod(0o644)
        site = sysconfig.get_paths()["purelib"]
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{REPO}:{site}",
               "PYTHONDONTWRITEBYTECODE": "1"}
        proc = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                               str(python), str(script), str(box), str(next_slot())],
                              env=env, capture_output=True, text=True, timeout=60)
    finally:
        for entry in scripts.iterdir():
            entry.unlink()
        scripts.rmdir()
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["cgroup"] == "none" and out["uid_mode"] == "mapped-self", out
    ok, tle, mle, rf = out["ok"], out["tle"], out["mle"], out["rf"]
    assert ok["status"] == "OK" and 16 * 1024 <= ok["memory_kb"] <= 24 * 1024, ok
    assert tle["status"] == "TLE" and tle["killed_by"] == "cpu-timer", tle
    assert tle["cpu_time_ms"] <= 300 + TIMER_SLACK_MS, tle
    assert mle["status"] == "MLE", mle
    assert rf["status"] == "RF" and rf["syscall"] == "ptrace", rf
    assert out["ps"]["status"] == "OK", out["ps"]
    # Nothing of it is left running as nobody: no supervisor, no program.
    names = {"judge-superviso", "mem", "spin", "syscalls", "ps"}
    leftovers = [p for p in processes_of_uid(65534) if p.split()[1] in names]
    assert not leftovers, leftovers
