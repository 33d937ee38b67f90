"""`judge audit --target`: the adapters say the limits in each sandbox's own options, the host-side
sweep kills only the probe's own processes, and whole audits of real targets on this machine
come out as they must: the judge's own `judge serve` holds every limit, a plain subprocess
shows what rlimits do not enforce, bubblewrap what isolation without limits gives, and a judge
serve told 4x the memory limit (the test-only break switch) is caught."""
from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import processes_of_uid, uids_of_slot
from judge import JudgeError, config
from judge.audit.target_audit import KINDS, Status, TargetAudit, TargetProbe, TargetReport, audit_target
from judge.audit.target_host import HostSnapshot, kill_marked, marked_processes, new_marker
from judge.audit.target_report import load, to_json
from judge.audit.targets import CommandTarget, JudgeServeTarget, TargetLimits, url_target
from judge.audit.targets.http import HttpTarget
from serving import take_slots

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-c", "import sys; sys.argv[0] = 'judge'; from judge.cli import main; main()"]
BWRAP = ("bwrap --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --unshare-all "
         "--die-with-parent")
# The isolation probes: what a sandbox that isolates at all holds, whatever its limits.
ISOLATION = ("lingering", "net-loopback", "net-host", "fs-read", "fs-write")
LIMITS = TargetLimits()
# The judge's /run_code has one time limit, CPU and wall: 3 s of it lets a busy machine slow the
# memory and figure probes threefold before the wall clock, not the limit they test, stops them.
ROOMY = TargetLimits(cpu_s=3.0, wall_s=6.0)


def judge(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    environment.pop("JUDGE_AUDIT_BREAK", None)
    environment.update(env or {})
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=600,
                          env=environment, cwd=ROOT)


def statuses(report: TargetReport) -> dict[str, Status]:
    return {p.key: p.status for p in report.probes}


def assert_every_probe_ran(report: TargetReport) -> None:
    assert [p.key for p in report.probes] == list(KINDS), [p.key for p in report.probes]


# -- the adapters ------------------------------------------------------------------------------
def wrapped(spec: str) -> list[str]:
    target = CommandTarget(name=spec, prefix=spec.split())
    return target.wrapping(LIMITS).prefix


@pytest.mark.parametrize("spec, options", [
    ("firejail --quiet", ["firejail", "--rlimit-cpu=1", "--timeout=00:00:02",
                          f"--rlimit-as={256 << 20}", f"--rlimit-fsize={16 << 20}",
                          "--rlimit-nproc=16", "--quiet"]),
    ("nsjail -Mo --chroot / --", ["nsjail", "--rlimit_cpu", "1", "--time_limit", "2",
                                  "--cgroup_mem_max", str(256 << 20), "--rlimit_as", "256",
                                  "--rlimit_fsize", "16", "--cgroup_pids_max", "16",
                                  "--rlimit_nproc", "16", "-Mo", "--chroot", "/", "--"]),
    ("podman run --rm -i debian", ["podman", "run", "--memory", "256m", "--memory-swap", "256m",
                                   "--pids-limit", "16", "--ulimit", "cpu=1:2", "--rm", "-i",
                                   "debian"]),
])
def test_each_adapter_says_the_limits_in_its_own_options(spec, options, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/" + name)
    assert wrapped(spec) == options


def test_rlimits_and_bwrap_say_what_they_cannot_enforce():
    plain = CommandTarget.parse("none")
    said = plain.say(LIMITS)
    assert plain.kind == "none" and plain.prefix == []
    assert not said.offered("wall") and said.offered("cpu") and said.offered("memory")
    assert "not a pipe" in said.option("output") and "root is exempt" in said.option("processes")
    rlimits = plain.wrapping(LIMITS).rlimits
    assert len(rlimits) == 4 and all(soft <= hard for soft, hard in rlimits.values())


def test_the_break_switch_makes_an_adapter_tell_four_times_the_memory(monkeypatch):
    target = HttpTarget(name="x", url="http://127.0.0.1:1")
    assert target.request("", LIMITS)["memory_limit_MB"] == 256
    monkeypatch.setattr(config, "_current", dataclasses.replace(
        config.current(), audit_break=frozenset({"memory"})))
    assert target.request("", LIMITS)["memory_limit_MB"] == 1024
    assert target.say(LIMITS).option("memory") == "memory_limit_MB=1024"


def test_targets_are_parsed_or_refused_in_one_line():
    assert isinstance(url_target("judge"), JudgeServeTarget)
    local = url_target("http://127.0.0.1:8080")
    assert local.local and local.url.endswith("/run_code")   # type: ignore[attr-defined]
    assert not url_target("https://sandbox.example.com/run_code").local
    with pytest.raises(JudgeError, match="neither"):
        url_target("sandbox.example.com")
    with pytest.raises(JudgeError, match="not installed"):
        CommandTarget.parse("no-such-sandbox-xyz --flag")


# -- the host-side sweep -----------------------------------------------------------------------
def test_the_sweep_kills_only_processes_with_the_marker():
    marker, other = new_marker(), new_marker()
    mine = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", marker])
    theirs = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", other,
                               marker + "x", "x" + marker])
    try:
        # Popen returns once a child's exec has begun, before the kernel has set its command
        # line up: until then /proc shows it empty.
        deadline = time.monotonic() + 10
        while marked_processes(other) != [theirs.pid] and time.monotonic() < deadline:
            time.sleep(0.01)
        while marked_processes(marker) != [mine.pid] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert marked_processes(marker) == [mine.pid]
        assert kill_marked(marker) == 1
        assert mine.wait(timeout=10) == -9
        assert theirs.poll() is None and marked_processes(marker) == []
    finally:
        theirs.kill()
        mine.kill()
        theirs.wait()
        mine.wait()


def test_what_a_sandbox_leaves_in_its_working_directory_is_a_leftover(tmp_path):
    audit = TargetAudit(CommandTarget.parse("none"))
    before = HostSnapshot.take()
    (tmp_path / "oom").touch()          # what podman's conmon leaves after an OOM kill
    audit.leftovers(before, tmp_path)
    left = audit.probes[0]
    assert left.key == "leftovers" and left.status is Status.BROKEN
    assert str(tmp_path / "oom") in left.details["files"]


# -- the report --------------------------------------------------------------------------------
def test_a_report_round_trips_through_its_json_with_its_verdicts(tmp_path):
    report = TargetReport("t", "none", True, LIMITS, {"memory": "RLIMIT_AS=256 MB"},
                          [TargetProbe("memory", Status.BROKEN, "ran 512 MB",
                                       "a 512 MB program under 256 MB ran to its end (exit 0)")])
    path = tmp_path / "a.json"
    path.write_text(to_json([report]))
    data = json.loads(path.read_text())
    assert data["ok"] is False and data["targets"][0]["broken"] == 1
    assert data["targets"][0]["verdicts"] == [
        "memory limit: NOT ENFORCED — a 512 MB program under 256 MB ran to its end (exit 0)"]
    assert load(path)[0] == report
    path.write_text("{}")
    with pytest.raises(JudgeError, match="not a saved target audit"):
        load(path)


@pytest.mark.parametrize("args, said", [
    (["--target", "ftp://x"], "neither"),
    (["--target", "judge", "--quick"], "for the judge's own audit"),
    (["--compare", "/nonexistent/a.json"], "cannot read"),
    (["--target", "http://127.0.0.1:1"], "cannot run the probe program (ConnectionRefusedError"),
    (["--target-cmd", "sh -c 'echo no sandbox here >&2; exit 3'"],
     "cannot run the probe program (exit 3): no sandbox here"),
])
def test_the_cli_refuses_bad_input_in_one_line(args, said):
    done = judge("audit", *args)
    assert done.returncode == 2 and said in done.stderr
    # one line of error, after any "… auditing" progress line
    assert [line for line in done.stderr.splitlines() if not line.startswith("…")] == [
        done.stderr.splitlines()[-1]] and "Traceback" not in done.stderr


# -- whole audits of real targets --------------------------------------------------------------
@pytest.fixture
def serve_target(require_sandbox):
    slot = take_slots(1)
    yield JudgeServeTarget(name="judge", slot_base=slot, slots=1)
    assert not [p for uid in uids_of_slot(slot) for p in processes_of_uid(uid)]


def test_the_judge_holds_every_limit(serve_target):
    report = audit_target(serve_target, ROOMY)
    assert_every_probe_ran(report)
    got = statuses(report)
    # Whatever the machine's load: nothing is broken (the leftovers probe aside: on a shared host
    # another program's files and cgroups appear in the snapshot too), the limits that a busy
    # machine cannot blur hold, and so does the isolation.
    assert [p.verdict for p in report.broken if p.key != "leftovers"] == []
    for key in ("wall", "cpu-figure", "memory-figure", "processes", "threads", *ISOLATION,
                "fs-shadow", "throughput"):
        assert got[key] is Status.HELD, report.probe(key)
    assert got["memory"] in (Status.HELD, Status.UNKNOWN)


def test_a_judge_told_four_times_the_memory_limit_is_caught(serve_target, monkeypatch):
    monkeypatch.setattr(config, "_current", dataclasses.replace(
        config.current(), audit_break=frozenset({"memory"})))
    report = audit_target(serve_target, ROOMY)
    memory = report.probe("memory")
    assert memory is not None and memory.status is Status.BROKEN, memory
    assert memory.verdict.startswith("memory limit: NOT ENFORCED — a 512 MB program under 256 MB")
    assert report.target.endswith("[JUDGE_AUDIT_BREAK=memory]") and "test-only" in report.notes[0]


def test_bubblewrap_isolates_but_enforces_only_what_rlimits_do(require_sandbox):
    if shutil.which("bwrap") is None or subprocess.run(
            [*BWRAP.split(), "true"], capture_output=True).returncode != 0:
        pytest.skip("bubblewrap is not installed or cannot make its namespaces here")
    report = audit_target(CommandTarget.parse(BWRAP))
    assert_every_probe_ran(report)
    got = statuses(report)
    for key in ("memory", *ISOLATION):
        assert got[key] is Status.HELD, report.probe(key)
    # RLIMIT_CPU is per process, there is no wall clock, a pipe has no size limit; bwrap's rusage
    # is its own, not its program's (it does not reap it).
    for key in ("cpu-procs", "wall", "output", "cpu-figure"):
        assert got[key] is Status.BROKEN, report.probe(key)
    if os.geteuid() == 0:
        assert got["processes"] is Status.BROKEN and got["fs-shadow"] is Status.BROKEN


HOSTILE_TEXT = "\x1b]0;owned\x07\x1b[2J\x9b31m\u202eevil"


def test_a_target_s_terminal_escapes_never_reach_the_terminal(tmp_path):
    """Every string of a report comes from the target (or from a saved file given to --compare):
    its escape sequences, C1 controls and bidirectional overrides are written out, never sent."""
    probe = TargetProbe("memory", Status.BROKEN, HOSTILE_TEXT, HOSTILE_TEXT)
    report = TargetReport(HOSTILE_TEXT, "none", True, LIMITS, {"memory": HOSTILE_TEXT}, [probe],
                          notes=[HOSTILE_TEXT])
    saved = tmp_path / "hostile.json"
    saved.write_text(to_json([report]))
    assert load(saved)[0] == report                     # the JSON keeps the text, escaped
    assert all(ord(c) < 0x80 for c in saved.read_text())
    shown = judge("audit", "--compare", str(saved), env={"COLUMNS": "200"})
    assert shown.returncode == 1, shown.stderr[-2000:]
    for raw in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert raw not in shown.stdout + shown.stderr
    assert "\\x1b]0;owned" in shown.stdout and "\\u202eevil" in shown.stdout
    refused = judge("audit", "--compare", str(tmp_path / "gone\x1b[2J.json"))
    assert refused.returncode == 2 and "cannot read" in refused.stderr
    assert "\x1b" not in refused.stderr and "gone\\x1b[2J" in refused.stderr


def test_the_cli_shows_what_rlimits_do_not_enforce_and_compares_saved_reports(tmp_path):
    done = judge("audit", "--target-cmd", "none", "--json")
    assert done.returncode == 1, done.stderr[-2000:]
    saved = tmp_path / "none.json"
    saved.write_text(done.stdout)
    report = load(saved)[0]
    got = statuses(report)
    assert_every_probe_ran(report)
    assert got["cpu"] is Status.HELD and got["memory"] is Status.HELD
    for key in ("cpu-procs", "wall", "output", "lingering", "net-loopback", "fs-read", "fs-write"):
        assert got[key] is Status.BROKEN, report.probe(key)
    assert got["leftovers"] is not Status.UNKNOWN
    assert "wall-clock limit: NOT ENFORCED — a program sleeping 5 s under a 2 s limit ran to its " \
           "end (exit 0)" in json.loads(done.stdout)["targets"][0]["verdicts"]
    shown = judge("audit", "--compare", str(saved), "--compare", str(saved), env={"COLUMNS": "200"})
    assert shown.returncode == 1
    assert "wall-clock limit: NOT ENFORCED" in shown.stdout
    assert shown.stdout.count("RLIMIT_AS=256 MB") == 2     # one column a report
