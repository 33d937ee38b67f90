"""`judge audit`: the real audit passes on this machine, a deliberately broken configuration
makes it fail, bad usage is exit 2, and the host facts turn into the right warnings.

No timing is asserted here beyond what the audit itself decides (docs/design/8-tests.md §8, tests):
the audit's own thresholds are the looser ones meant for shared machines (§7). Only the tests'
own wall-clock bounds are stretched by JUDGE_TEST_TIME_SCALE (see conftest)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from conftest import next_slot, scaled
from judge.audit import AUDIT_LANGUAGES, PROBED_LANGUAGES, host, parse_languages, probes
from judge.audit.host import HostFacts
from judge.audit.runner import PROGRAMS, SOURCES, ProbeRun, ProbeRunner
from judge.languages import LANGUAGES, get_language
from judge.sandbox import Limits, RunResult

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-c", "import sys; sys.argv[0] = 'judge'; from judge.cli import main; main()"]


def judge(*args: str, env: dict | None = None, timeout: int = 900) -> subprocess.CompletedProcess:
    environment = dict(os.environ)
    environment["PYTHONPATH"] = str(ROOT) + os.pathsep + environment.get("PYTHONPATH", "")
    environment.pop("JUDGE_AUDIT_BREAK", None)
    environment.update(env or {})
    return subprocess.run([*CLI, *args], capture_output=True, text=True,
                          timeout=scaled(timeout * 1000) / 1000,
                          env=environment, cwd=ROOT)


def report_of(done: subprocess.CompletedProcess) -> dict:
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        pytest.fail(f"no JSON report (exit {done.returncode}): {done.stdout[-2000:]}\n"
                    f"{done.stderr[-4000:]}")


def failures(report: dict, *, real_only: bool = False) -> list[str]:
    return [f"{p['language']} {p['name']}: expected {p['expected']}, measured {p['measured']} "
            f"{p['note']}" for p in report["probes"]
            if not p["passed"] and not (real_only and p["inconclusive"])]


# -- usage ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["cobol", "cpp,brainfuck", "verilog"])
def test_unknown_or_unsupported_language_is_bad_usage(spec):
    done = judge("audit", "--lang", spec, "--quick")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "judge:" in done.stderr


def test_all_is_every_language_with_a_probe_program():
    languages, explicit = parse_languages("all")
    assert explicit and [lang.name for lang in languages] == list(PROBED_LANGUAGES)
    assert [lang.name for lang in parse_languages(None)[0]] == list(AUDIT_LANGUAGES)
    # Every language a submission may be in has one, but Verilog (a simulation can only read
    # simulated time); every probe program named is there.
    competitive = {name for name, lang in LANGUAGES.items() if not lang.compatible_only}
    assert competitive - set(PROBED_LANGUAGES) == {"verilog"}
    assert all((PROGRAMS / source).is_file() for source in SOURCES.values())


def test_unknown_probe_group_is_bad_usage():
    done = judge("audit", "--only", "speed")
    assert done.returncode == 2, done.stdout + done.stderr


def test_unusable_cpu_is_bad_usage():
    done = judge("audit", "--only", "isolation", "--lang", "cpp", "--cpu", "4095")
    assert done.returncode == 2, done.stdout + done.stderr


# -- host facts ----------------------------------------------------------------------------------

def _sysfs(root: Path, governors: dict[int, str | None], siblings: dict[int, str]) -> str:
    for cpu, governor in governors.items():
        base = root / f"cpu{cpu}"
        (base / "topology").mkdir(parents=True)
        (base / "topology" / "thread_siblings_list").write_text(siblings.get(cpu, str(cpu)) + "\n")
        if governor is not None:
            (base / "cpufreq").mkdir()
            (base / "cpufreq" / "scaling_governor").write_text(governor + "\n")
    return str(root)


def _facts(root: str, cpus: list[int], load: float = 0.1, cgroup: str = "v1",
           sources: dict | None = None) -> HostFacts:
    return HostFacts(cpus=cpus, governors=host.governors(cpus, root),
                     smt_groups=host.smt_groups(cpus, root), load_average=(load, load, load),
                     kernel="test", cpu_model="test", cgroup=cgroup,
                     sources=sources if sources is not None else {"cpu": ["cgroup-v1"],
                                                                  "memory": ["cgroup-v1"]})


def test_parse_cpu_list():
    assert host.parse_cpu_list("0-3,8,10-11\n") == [0, 1, 2, 3, 8, 10, 11]
    assert host.parse_cpu_list("5") == [5]


def test_quiet_host_has_no_warnings(tmp_path):
    root = _sysfs(tmp_path, {0: "performance", 1: "performance"}, {})
    facts = _facts(root, [0, 1])
    assert facts.governors == {"performance": [0, 1]}
    assert facts.smt_groups == []
    assert host.warnings(facts) == []


def test_untrustworthy_host_gets_each_warning(tmp_path):
    root = _sysfs(tmp_path, {0: "powersave", 1: "powersave", 2: "ondemand", 3: "performance"},
                  {0: "0,2", 2: "0,2", 1: "1,3", 3: "1,3"})
    facts = _facts(root, [0, 1, 2, 3], load=9.5, cgroup="none",
                   sources={"cpu": ["rusage"], "memory": ["rusage"]})
    assert facts.smt_groups == [[0, 2], [1, 3]]
    text = "\n".join(host.warnings(facts))
    assert "'powersave' on CPUs 0,1" in text and "performance" in text
    assert "'ondemand' on CPUs 2" in text
    assert "CPUs 0,2 are SMT siblings" in text and "CPUs 1,3 are SMT siblings" in text
    assert "load average 9.50" in text
    assert "no cgroup" in text
    assert "cpu figures came from rusage" in text and "memory figures came from rusage" in text


def test_missing_cpufreq_is_unknown(tmp_path):
    root = _sysfs(tmp_path, {0: None, 1: None}, {})
    facts = _facts(root, [0, 1])
    assert facts.governors == {"unknown": [0, 1]}
    assert any("governor unknown" in w for w in host.warnings(facts))


def test_smt_siblings_outside_the_usable_cpus_do_not_count(tmp_path):
    root = _sysfs(tmp_path, {0: "performance", 1: "performance"}, {0: "0,4", 1: "1,5"})
    assert _facts(root, [0, 1]).smt_groups == []


# -- self-timed spinners ---------------------------------------------------------------------------

def test_python_spinner_times_itself():
    """`cpu MS`: the thread spins until its own CPU clock reaches MS, whatever the CPU's speed,
    and the program reports its process CPU time, which includes the spin."""
    done = subprocess.run([sys.executable, str(PROGRAMS / "probe.py")], input="cpu 60\n",
                          capture_output=True, text=True, timeout=scaled(60_000) / 1000)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\n")
    assert lines[0] == "ok"
    words = lines[1].split()
    assert words[0] == "process_cpu_ms" and float(words[1]) >= 60.0


def _run_with_output(text: str) -> ProbeRun:
    result = RunResult("OK", 0, None, 100.0, 110.0, 1024, len(text), None, None)
    return ProbeRun(result, text.encode(), Limits(), "WA")


def test_own_cpu_figure_is_parsed():
    assert probes._own_cpu(_run_with_output("ok\nprocess_cpu_ms 812.25\n")) == 812.25
    assert probes._own_cpu(_run_with_output("ok\nprocess_cpu_ms 560\n")) == 560.0
    assert probes._own_cpu(_run_with_output("ok\n")) is None
    assert probes._own_cpu(_run_with_output("")) is None


def test_sandbox_cpu_must_agree_with_the_programs_own_clock():
    # A little above the program's own figure is right: the sandbox also counts exec and exit.
    assert probes._agrees(503.2, 500.0, "python")
    assert probes._agrees(500.0, 500.0, "cpp")
    # Far above, or below by more than a rounding: the sandbox measured wrong.
    assert not probes._agrees(600.0, 500.0, "cpp")
    assert not probes._agrees(480.0, 500.0, "cpp")
    assert not probes._agrees(500.0, None, "cpp")
    # Java's own figure counts 10 ms ticks rounded down: that much more is allowed.
    assert probes._agrees(534.0, 500.0, "java") and not probes._agrees(534.0, 500.0, "cpp")


@pytest.mark.parametrize("status, cpu_ms, wall_ms, starved", [
    ("BUSY", 922.7, 2000.0, True),     # the sandbox saw it wait for a CPU: inconclusive
    ("TLE", 400.0, 2000.0, True),      # under half a CPU, stopped by the wall: inconclusive
    ("TLE", 1200.0, 2000.0, False),    # it had its CPU: the wall limit decided
    ("OK", 400.0, 500.0, False),
])
def test_a_starved_probe_is_inconclusive_not_failed(status, cpu_ms, wall_ms, starved):
    result = RunResult(status, None, 9, cpu_ms, wall_ms, 1024, 0, "wall-timer", None)
    run = ProbeRun(result, b"", Limits(time_limit_ms=1000, wall_time_limit_ms=2000), status)
    assert probes._starved(run) is starved


# -- every language's probe program, through the grading path --------------------------------------

NEW_LANGUAGES = [name for name in PROBED_LANGUAGES if name not in AUDIT_LANGUAGES]
SPIN_MS, TOUCH_MB, SLEEP_MS = 150, 64, 300


@pytest.fixture(scope="module")
def probe_runner(require_sandbox):
    with ProbeRunner(slot=next_slot()) as runner:
        yield runner


@pytest.mark.sandbox
@pytest.mark.parametrize("name", NEW_LANGUAGES)
def test_each_languages_probe_does_what_its_modes_say(probe_runner, name):
    """The probe builds, and graded under generous limits: `cpu MS` uses MS of CPU and says so
    (the sandbox agrees with its own clock), `mem MB` peaks MB above `mem 0`, and `sleep MS`
    waits MS of wall time without using CPU."""
    language = get_language(name)
    if not language.available:
        pytest.skip(f"{name}: toolchain not installed")
    cpu, idle, touch, sleep = probe_runner.run_many(
        language, [f"cpu {SPIN_MS}", "mem 0", f"mem {TOUCH_MB}", f"sleep {SLEEP_MS}"],
        time_limit_ms=scaled(5000), memory_limit_mb=256)
    assert [run.result.status for run in (cpu, idle, touch, sleep)] == ["OK"] * 4, cpu.text
    assert [run.text.split()[0] for run in (cpu, idle, touch, sleep)] == ["ok"] * 4
    own = probes._own_cpu(cpu)
    assert own is not None and own >= SPIN_MS - probes.CLOCK_TICK_MS.get(name, 0.0) - 5
    assert probes._agrees(cpu.result.cpu_time_ms, own, name), (cpu.result.cpu_time_ms, own)
    share = probes.MEMORY_RUNTIME_SHARE.get(name, 0.0)
    grown_mb = (touch.result.memory_kb - idle.result.memory_kb) / 1024
    assert abs(grown_mb - TOUCH_MB * (1 + share)) <= probes.MEMORY_ERROR_MB + TOUCH_MB * 0.01, \
        grown_mb
    assert sleep.result.wall_time_ms >= SLEEP_MS
    assert sleep.result.wall_time_ms - sleep.result.cpu_time_ms >= SLEEP_MS - 20


@pytest.mark.sandbox
@pytest.mark.slow
def test_audit_of_other_languages_passes_on_this_machine(require_sandbox, tmp_path):
    chosen = [name for name in ("go", "javascript", "lua") if get_language(name).available]
    if not chosen:
        pytest.skip("none of go, node, lua installed")
    done = judge("audit", "--lang", ",".join(chosen), "--quick", "--json",
                 env={"JUDGE_CACHE_DIR": str(tmp_path)})
    report = report_of(done)
    assert not list(tmp_path.glob("audit/*.json"))   # not the defaults: not the host's record
    assert not failures(report, real_only=True), "\n".join(failures(report))
    if report["inconclusive"]:
        warnings.warn("judge audit inconclusive on a busy machine: " + "; ".join(failures(report)),
                      stacklevel=1)
    else:
        assert report["ok"] and done.returncode == 0, done.stderr[-3000:]
    for name in chosen:
        probed = {(p["group"], p["name"]) for p in report["probes"] if p["language"] == name}
        assert {("time", "spinner 0.9x TL"), ("time", "spinner 1.1x TL"),
                ("time", "sleep (wall clock)"), ("memory", "touch 0.9x ML"),
                ("memory", "touch 1.1x ML")} <= probed


# -- the real audit ------------------------------------------------------------------------------

@pytest.mark.sandbox
@pytest.mark.slow
def test_audit_passes_on_this_machine(require_sandbox, tmp_path):
    done = judge("audit", "--quick", "--json", env={"JUDGE_CACHE_DIR": str(tmp_path)})
    report = report_of(done)
    # An audit of the defaults and every group is the host's record, the one judge eval reads.
    (kept,) = (json.loads(p.read_text()) for p in (tmp_path / "audit").glob("*.json"))
    assert kept["key"]["cgroup"] == report["host"]["cgroup"]
    assert kept["outcome"]["status"] == ("INCONCLUSIVE" if report["inconclusive"] else
                                         "PASS" if report["ok"] else "FAIL")
    # On a shared machine a CPU-bound probe may get under half a CPU, and then the wall timer
    # rightly stops it before its CPU limit: the audit says so (exit 1, "inconclusive") rather
    # than pass. Anything else that does not pass is a real fault.
    assert not failures(report, real_only=True), "\n".join(failures(report))
    if report["inconclusive"]:
        assert done.returncode == 1 and not report["ok"]
        warnings.warn("judge audit inconclusive on a busy machine: " + "; ".join(failures(report)), stacklevel=1)
    else:
        assert report["ok"] and done.returncode == 0, done.stderr[-3000:]
    probes = report["probes"]
    assert {p["group"] for p in probes} == {"time", "memory", "isolation", "interaction",
                                            "stability"}
    languages = {p["language"] for p in probes}
    assert "cpp" in languages and "python" in languages
    names = {(p["language"], p["name"]) for p in probes}
    for fraction in ("0.5", "0.9", "1.1", "2.0"):
        assert ("cpp", f"spinner {fraction}x TL") in names
    for syscall in ("ptrace", "mount", "unshare", "bpf"):
        assert ("cpp", f"syscall {syscall}") in names
    # One query's round trip through both slots, timed by the interactor, beside bare pipes.
    (round_trip,) = (p for p in probes if p["name"].startswith("round trip program"))
    assert round_trip["passed"] and round_trip["language"] == "cpp"
    figures = round_trip["figures"]
    assert 0 < figures["bare_median_us"] and 0 < figures["median_us"] <= figures["p90_us"]
    (idle,) = (p for p in probes if p["name"].startswith("idleness"))
    assert idle["passed"], idle
    # The figures are the sandbox's own, with where they came from.
    assert report["host"]["cgroup"] in ("v1", "v2", "none")
    assert set(report["host"]["sources"]) == {"cpu", "memory"}
    touched = next(p for p in probes if p["language"] == "cpp" and p["name"] == "touch 0.9x ML")
    assert touched["figures"]["status"] == "OK"
    assert touched["figures"]["peak_mb"] > touched["figures"]["size_mb"]
    for language in languages:
        over = next(p for p in probes if p["language"] == language and p["name"] == "spinner 1.1x TL")
        if not over["inconclusive"]:
            assert over["figures"]["status"] == "TLE" and over["figures"]["killed_by"] == "cpu-timer"
            assert over["figures"]["cpu_time_ms"] >= over["figures"]["time_limit_ms"]
        under = next(p for p in probes if p["language"] == language and p["name"] == "spinner 0.9x TL")
        if under["passed"]:
            # The self-timed spinner's own clock is the reference the sandbox is held against.
            figures = under["figures"]
            assert figures["own_cpu_ms"] is not None
            # The spin counts from the fork, with the sandbox's own set-up before exec (well
            # under a few ms), which the run's figure leaves out.
            assert figures["cpu_time_ms"] >= figures["spin_ms"] - scaled(5)
            assert figures["cpu_time_ms"] < figures["time_limit_ms"]


@pytest.mark.sandbox
def test_audit_table_output(require_sandbox):
    done = judge("audit", "--quick", "--lang", "cpp", "--only", "isolation")
    assert "judge audit" in done.stdout and "fork bomb" in done.stdout
    if "audit INCONCLUSIVE" in done.stdout and "audit FAILED" not in done.stdout:
        return   # a busy machine starved a probe's run: it says so instead of failing it
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "audit passed" in done.stdout


@pytest.mark.sandbox
@pytest.mark.slow
def test_audit_catches_a_memory_limit_that_is_not_enforced(require_sandbox, tmp_path):
    done = judge("audit", "--quick", "--lang", "cpp", "--only", "memory", "--json",
                 env={"JUDGE_AUDIT_BREAK": "memory", "JUDGE_CACHE_DIR": str(tmp_path)})
    report = report_of(done)
    assert not list(tmp_path.glob("audit/*.json"))   # a partial audit is not the host's record
    assert done.returncode == 1 and not report["ok"]
    assert report["broken"] == ["memory"]
    by_name = {p["name"]: p for p in report["probes"]}
    over = by_name["touch 1.1x ML"]
    assert not over["passed"]
    assert over["figures"]["status"] == "OK"          # the run was allowed 4x the memory
    assert by_name["touch 1.5x ML"]["passed"] is False
    assert by_name["touch 0.5x ML"]["passed"]         # the rest still measures right
    assert by_name["baseline (touches nothing)"]["passed"]
