"""`judge exec` and `judge doctor` from the command line: exit codes, JSON, one-line errors."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RESULT_FIELDS = {"status", "exit_code", "signal", "cpu_time_ms", "wall_time_ms", "memory_kb",
                 "output_bytes", "killed_by", "syscall", "sources", "error", "setup_cpu_ms",
                 "undelivered_bytes", "waiting_ms"}


def judge(*args, cwd=ROOT, stdin=None):
    return subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=300, input=stdin)


def test_exec_json_reports_a_run_result(require_sandbox, box):
    out = judge("exec", "--json", "--box", str(box), "--", "./exitcode", "3")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert set(result) == RESULT_FIELDS
    assert result["status"] == "RE" and result["exit_code"] == 3


def test_exec_imports_no_other_command(require_sandbox, box):
    """`judge exec` imports its own command's module, not the others' (evaluation, the web
    service): their imports cost every command tenths of a second."""
    # `judge exec` ends with os._exit: the modules are listed on the way out.
    code = ("import os, sys\nfrom judge.cli import main\nend = os._exit\n"
            "def listed(code):\n"
            "    print(' '.join(sorted(m for m in sys.modules if m.startswith('judge.'))))\n"
            "    sys.stdout.flush()\n"
            "    end(code)\n"
            "os._exit = listed\nmain()")
    done = subprocess.run([sys.executable, "-c", code, "exec", "--box", str(box), "--",
                           "./exitcode"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    modules = set(done.stdout.split())
    commands = {m for m in modules if m.startswith("judge.cli.") and m.endswith("_cmd")}
    assert commands == {"judge.cli.exec_cmd"}, commands
    assert not {m for m in modules if m.startswith(("judge.evaluate", "judge.service"))}, modules


def test_exec_cgroup_mode_from_the_option_and_the_environment(require_sandbox, box):
    """--cgroup none, or JUDGE_CGROUP=none: the no-cgroup mode, which refuses process
    creation; an explicit --cgroup wins over the environment."""
    def exec_json(*args, env=None):
        environment = {**os.environ, **(env or {})}
        done = subprocess.run([sys.executable, "-c", "from judge.cli import main; main()",
                               "exec", "--json", "--box", str(box), *args],
                              capture_output=True, text=True, cwd=ROOT, timeout=300,
                              env=environment)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)
    for result in (exec_json("--cgroup", "none", "--", "./zombie", "3"),
                   exec_json("--", "./zombie", "3", env={"JUDGE_CGROUP": "none"})):
        assert result["status"] == "RF" and result["syscall"] in ("fork", "vfork", "clone"), result
        assert result["sources"]["processes"] == "threads-only", result
    if os.geteuid() == 0:
        result = exec_json("--cgroup", "auto", "--", "./zombie", "3", env={"JUDGE_CGROUP": "none"})
        assert result["status"] == "OK" and result["sources"]["cpu"].startswith("cgroup-"), result


def test_exec_into_a_pipe_read_late_keeps_the_limits(require_sandbox, box):
    """`judge exec -- ./flood 1 1 spin | (sleep 2; wc -c)`: a reader that starts late gets every
    byte, and the program still ends on its CPU limit, not blocked in write (wall TLE)."""
    command = (f"{sys.executable} -c 'from judge.cli import main; main()' exec --box {box} "
               "--time-limit 500 -- ./flood 1 1 spin | (sleep 2; wc -c)")
    done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)
    assert done.stdout.strip() == str(1 << 20), done
    assert "judge: TLE, cpu 5" in done.stderr and "warning" not in done.stderr, done.stderr


def test_exec_into_a_closed_pipe_warns_about_the_lost_output(require_sandbox, box):
    command = (f"{sys.executable} -c 'from judge.cli import main; main()' exec --box {box} "
               "-- ./flood 1 | true")
    done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)
    assert "judge: OK" in done.stderr, done.stderr
    # `true` may exit before or after the first 64 KiB fill the pipe: those count as delivered.
    lost = re.search(r"warning: (\d+) bytes of the program's output never reached", done.stderr)
    assert lost and (1 << 20) - (1 << 16) <= int(lost.group(1)) <= 1 << 20, done.stderr


def test_exec_of_a_name_lookup_says_why_it_is_refused(require_sandbox, box):
    """getpwnam of an unknown user asks NSS, which opens a socket (nscd): RF, and the message
    says that a name lookup is what opened it."""
    out = judge("exec", "--policy", "python", "--box", str(box), "--", "python3", "-c",
                "import pwd; pwd.getpwnam('nobody-here')")
    assert out.returncode == 0, out.stderr
    assert "judge: RF" in out.stderr and "refused syscall socket" in out.stderr, out.stderr
    assert "a name lookup (getpwnam, getaddrinfo, NSS) opens a socket" in out.stderr


def test_exec_echoes_stdout_and_reads_stdin_file(require_sandbox, tmp_path):
    (tmp_path / "in.txt").write_text("21 21\n")
    tmp_path.chmod(0o755)
    out = judge("exec", "--policy", "python", "--box", str(tmp_path), "--stdin",
                str(tmp_path / "in.txt"), "--", "python3", "-c",
                "print(sum(map(int, input().split())))")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "42"
    assert "judge: OK" in out.stderr


def test_exec_stdout_to_file_and_limits(require_sandbox, box, tmp_path):
    target = tmp_path / "out.bin"
    out = judge("exec", "--json", "--box", str(box), "--time-limit", "200", "--wall-limit", "5000",
                "--stdout", str(target), "--", "./spin", "ms", "2000")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["status"] == "TLE" and result["killed_by"] == "cpu-timer"
    assert target.exists()


@pytest.mark.parametrize("args, message", [
    (["exec"], "no command"),
    (["exec", "--box", "/no/such/dir", "--", "true"], "--box"),
    (["exec", "--time-limit", "-5", "--", "true"], "time limit"),
    (["exec", "--memory-limit", "0", "--", "true"], "memory limit"),
    # Absurd limits: above every maximum, not finite, or past what the supervisor's u64 holds.
    (["exec", "--time-limit", "18446744073710", "--", "true"], "time limit"),
    (["exec", "--wall-limit", "18446744073710", "--", "true"], "wall time limit"),
    (["exec", "--memory-limit", "17592186044416", "--", "true"], "memory limit"),
    (["exec", "--output-limit", "1e300", "--", "true"], "output limit"),
    (["exec", "--output-limit", "nan", "--", "true"], "output limit"),
    (["exec", "--output-limit", "inf", "--", "true"], "output limit"),
    (["exec", "--processes", "4294967296", "--", "true"], "processes"),
    (["exec", "--policy", "cobol", "--", "true"], "policy"),
    (["exec", "--stdin", "/no/such/file", "--", "true"], "--stdin"),
])
def test_exec_bad_usage_is_one_line_and_exit_2(args, message):
    out = judge(*args)
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert message in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args, message", [
    (["exec", "--", "/nonexistent"], "cannot execute /nonexistent"),
    (["exec", "--json", "--", "no-such-command"], "cannot execute no-such-command"),
])
def test_exec_of_a_missing_program_is_usage_error(require_sandbox, args, message):
    """The sandbox could not start the command the caller named: bad usage, not a result."""
    out = judge(*args)
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert message in out.stderr and "Traceback" not in out.stderr and not out.stdout
    assert len(out.stderr.strip().splitlines()) == 1


def test_doctor_json_on_a_machine_with_the_features(require_sandbox):
    out = judge("doctor", "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout)
    checks = {c["name"]: c for c in report["checks"]}
    assert report["ok"] is True
    for name in ("user namespaces", "seccomp", "pidfd", "sandbox", "cgroup v1", "cgroup v2",
                 "cpu clocks", "language cpp", "language java", "language python"):
        assert name in checks, name
    for name in ("user namespaces", "seccomp", "pidfd", "cpu clocks", "sandbox", "vsock"):
        assert checks[name]["ok"], checks[name]
    assert "refused in the sandbox" in checks["vsock"]["detail"], checks["vsock"]
    assert all(c["without"] for c in checks.values() if not c["ok"])
    lcb = checks["python environment livecodebench"]
    assert lcb["ok"] and "numpy" in lcb["detail"] and "for livecodebench" in lcb["detail"], lcb


def test_run_shows_the_failing_test_s_stderr_with_control_characters_written_out(tmp_path):
    program = tmp_path / "boom.py"
    program.write_text("import sys\nsys.stderr.write('\\x1b]0;title\\x07 why\\n')\n"
                       "raise ValueError('the reason')\n")
    out = judge("run", str(program), "--problem", "2020A", "--lang", "python")
    assert out.returncode == 1, out.stderr              # not AC
    assert "stderr of test 1" in out.stdout and "ValueError: the reason" in out.stdout
    assert "\\x1b]0;title\\x07 why" in out.stdout and "\x1b" not in out.stdout
    shown = json.loads(judge("run", str(program), "--problem", "2020A", "--lang", "python",
                             "--json").stdout)
    assert shown["tests"][0]["stderr_tail"].endswith("ValueError: the reason\n")


def test_doctor_reports_the_cgroup_detection_the_sandbox_uses(require_sandbox):
    """The doctor's cgroup checks come from the sandbox's own detection (native/shared/cgroups.h):
    the mode a started slot picked is one the doctor calls usable, and auto prefers v2."""
    out = judge("doctor", "--json")
    checks = {c["name"]: c for c in json.loads(out.stdout)["checks"]}
    picked = re.search(r"cgroup=(\w+),", checks["sandbox"]["detail"]).group(1)
    if picked != "none":
        assert checks[f"cgroup {picked}"]["ok"], (picked, checks[f"cgroup {picked}"])
    if picked == "v1" and os.environ.get("JUDGE_CGROUP", "auto") == "auto":
        assert not checks["cgroup v2"]["ok"], checks["cgroup v2"]


def test_doctor_names_the_busy_clock_the_sandbox_uses(require_sandbox):
    """Which clock a starved run's outside work is measured on (docs/design/3-isolation.md §3.8), as
    a started slot reports it; "none" (no run can be BUSY) is a warning, not a failure."""
    from judge.sandbox import Sandbox
    out = judge("doctor", "--json")
    busy = {c["name"]: c for c in json.loads(out.stdout)["checks"]}["busy clock"]
    with Sandbox(box=None) as sb:
        clock = sb.busy_clock
    assert busy["detail"].startswith(f"{clock}: ") and busy["ok"] == (clock != "none"), busy
    assert not busy["required"] and busy["without"], busy


def test_exec_more_arguments_than_the_supervisor_takes_is_refused(require_sandbox):
    out = judge("exec", "--", "true", *["x"] * 300)
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert "at most 256 arguments" in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("argv, env, message", [
    (["true", "a" * (1 << 20)], None, "at most 1048576"),
    (["true", "a\0b"], None, "NUL"),
    (["true"], {f"V{i}": "1" for i in range(200)}, "environment variables"),
])
def test_requests_the_supervisor_cannot_take_are_judge_errors(require_sandbox, box, argv, env, message):
    from judge import JudgeError
    from judge.sandbox import Sandbox
    with Sandbox(box=box) as sb:
        with pytest.raises(JudgeError, match=message):
            sb.run(argv, env=env)
        assert sb.run(["./exitcode", "0"]).status == "OK"   # the slot is still usable


def test_doctor_says_whether_the_sandbox_uids_are_free_on_this_host(tmp_path):
    """Sandbox programs run as host uids 200000-265535 (judge/sandbox/slots.py): an account or
    a rootless container's subordinate range there would share per-user counts with them."""
    from judge.doctor import sandbox_uid_check
    passwd, subuid, subgid = (tmp_path / name for name in ("passwd", "subuid", "subgid"))
    passwd.write_text("root:x:0:0::/root:/bin/sh\nalice:x:1000:1000::/home/alice:/bin/sh\n")
    subuid.write_text("alice:100000:65536\n")
    subgid.write_text("")
    check = sandbox_uid_check(passwd, subuid, subgid)
    assert check.ok and "200000-265535" in check.detail, check
    passwd.write_text(passwd.read_text() + "bob:x:200007:200007::/home/bob:/bin/sh\n")
    subgid.write_text("alice:100000:65536\ncarol:231072:65536\n")
    check = sandbox_uid_check(passwd, subuid, subgid)
    assert not check.ok and check.without, check
    assert "bob (uid 200007)" in check.detail and "carol" in check.detail
    assert "alice" not in check.detail

