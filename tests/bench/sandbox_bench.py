"""The execution core: per-run overhead, CPU-time precision and memory measurement."""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.table import Table

from judge.sandbox import Limits, Sandbox, run_once

# The sandbox tests' own programs: exitcode with no argument is an empty program, `spin iters N`
# burns N million iterations, `mem N` touches N MiB.
PROGRAMS = Path(__file__).resolve().parents[1] / "programs"
USED = ("exitcode", "spin", "mem")
RUNS = 300
COLD_RUNS = 40
CLI_RUNS = 10
SPACED_RUNS = 40
SPACING_S = 0.03


def build(box: Path) -> None:
    for source in (PROGRAMS / f"{name}.c" for name in USED):
        subprocess.run(["gcc", "-O2", "-static", "-o", str(box / source.stem), str(source)],
                       check=True)


def per_run_ms(fn, runs: int) -> float:
    for _ in range(3):
        fn()
    start = time.perf_counter()
    for _ in range(runs):
        fn()
    return (time.perf_counter() - start) / runs * 1e3


def bare_spawn(path: str) -> None:
    pid = os.posix_spawn(path, [path], {})
    os.waitpid(pid, 0)


def bwrap_command(box: Path) -> list[str] | None:
    bwrap = shutil.which("bwrap")
    if not bwrap:
        return None
    return [bwrap, "--unshare-all", "--die-with-parent", "--ro-bind", "/usr", "/usr",
            "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
            "--symlink", "usr/bin", "/bin", "--ro-bind", str(box), "/box", "--chdir", "/box",
            "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "/box/exitcode"]


def interleaved_ms(fns: dict, runs: int) -> dict:
    """Median ms of each function, called in turn (one of each a round), so that the machine's
    load falls on all of them alike."""
    for fn in fns.values():
        fn()
    times: dict = {name: [] for name in fns}
    for _ in range(runs):
        for name, fn in fns.items():
            start = time.perf_counter()
            fn()
            times[name].append((time.perf_counter() - start) * 1e3)
    return {name: statistics.median(t) for name, t in times.items()}


def judge_exec_command(box: Path) -> list[str]:
    """`judge exec` as a user types it: a fresh Python process, the CLI's imports included."""
    return [sys.executable, "-c", "from judge.cli import main; main()", "exec", "--box", str(box),
            "--", "./exitcode"]


def spaced_ms(fn, runs: int, gap_s: float = SPACING_S) -> float:
    """Median time of one call made gap_s after the last has ended: what a test pays that
    comes after a checker, or after a run of tens of milliseconds."""
    times = []
    for _ in range(runs):
        time.sleep(gap_s)
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def overhead(console: Console, box: Path) -> None:
    limits = Limits(time_limit_ms=1000)
    empty = str(box / "exitcode")
    rows = []
    bare = per_run_ms(lambda: bare_spawn(empty), RUNS)
    bare_spaced = spaced_ms(lambda: bare_spawn(empty), SPACED_RUNS)
    rows.append(("bare posix_spawn + waitpid", bare, bare_spaced, ""))
    with Sandbox(box=box) as sandbox:
        warm = per_run_ms(lambda: sandbox.run(["./exitcode"], limits), RUNS)
        spaced = spaced_ms(lambda: sandbox.run(["./exitcode"], limits), SPACED_RUNS)
        cgroup = sandbox.cgroup
    rows.append((f"judge warm slot (cgroup {cgroup})", warm, spaced, "<= 1.5x"))
    with Sandbox(box=box, cgroup="none") as sandbox:
        rows.append(("judge warm slot (no cgroup)",
                     per_run_ms(lambda: sandbox.run(["./exitcode"], limits), RUNS),
                     spaced_ms(lambda: sandbox.run(["./exitcode"], limits), SPACED_RUNS), ""))
    command = bwrap_command(box)
    cold_paths = {"judge cold one-shot": lambda: run_once(["./exitcode"], limits, box=box)}
    if command:
        cold_paths["bubblewrap (bwrap)"] = lambda: subprocess.run(command, check=True)
    for name, ms in interleaved_ms(cold_paths, COLD_RUNS).items():
        rows.append((name, ms, None, "<= bwrap" if command and name.startswith("judge") else ""))
    # End to end, as a shell runs them: the judge's CLI process against bwrap's (the row above).
    cli = judge_exec_command(box)
    cli_paths = {"judge exec (CLI process, end to end)":
                 lambda: subprocess.run(cli, check=True, stderr=subprocess.DEVNULL),
                 "python -c pass (the interpreter's own start)":
                 lambda: subprocess.run([sys.executable, "-c", "pass"], check=True)}
    for name, ms in interleaved_ms(cli_paths, CLI_RUNS).items():
        rows.append((name, ms, None, ""))
    table = Table(title="per-run overhead: empty static program (spaced: each run "
                        f"{SPACING_S * 1e3:.0f} ms after the last, as after a checker)")
    for column in ("path", "ms / run", "x bare spawn", "spaced ms", "spaced x bare", "target"):
        table.add_column(column, justify="right")
    for name, ms, spaced_run, target in rows:
        table.add_row(name, f"{ms:.3f}", f"{ms / bare:.2f}",
                      f"{spaced_run:.3f}" if spaced_run is not None else "",
                      f"{spaced_run / bare_spaced:.2f}" if spaced_run is not None else "", target)
    console.print(table)


@contextmanager
def busy_cores():
    """Every core busy with a plain spinning process for the duration."""
    procs = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(os.cpu_count() or 1)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait()


def true_cpu_ms(path: str, millions: str) -> float:
    """CPU time of the spinner run bare, from the kernel's rusage of the child."""
    pid = os.posix_spawn(path, [path, "iters", millions], {}, file_actions=[
        (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0)])
    _, _, usage = os.wait4(pid, 0)
    return (usage.ru_utime + usage.ru_stime) * 1e3


def calibrate(path: str, target_ms: float = 300) -> str:
    """Millions of spinner iterations that take about target_ms of CPU."""
    n = 10
    while True:
        spent = true_cpu_ms(path, str(n))
        if spent > 30:
            return str(max(1, round(n * target_ms / spent)))
        n *= 4


def cpu_precision(console: Console, box: Path) -> None:
    spin = str(box / "spin")
    arg = calibrate(spin)
    table = Table(title="CPU time of a calibrated ~300 ms spinner, 20 runs")
    for column in ("load", "true ms (bare, median)", "judge ms (median)", "error", "spread max-min", "spread %"):
        table.add_column(column, justify="right")
    for label, load in (("serial", None), ("every core busy", busy_cores)):
        ctx = load() if load else contextmanager(lambda: (yield))()
        with ctx:
            truth = statistics.median(true_cpu_ms(spin, arg) for _ in range(10))
            with Sandbox(box=box) as sandbox:
                times = [sandbox.run(["./spin", "iters", arg], Limits(time_limit_ms=5000)).cpu_time_ms
                         for _ in range(20)]
        median = statistics.median(times)
        spread = max(times) - min(times)
        table.add_row(label, f"{truth:.1f}", f"{median:.1f}", f"{median - truth:+.2f} ms",
                      f"{spread:.1f} ms", f"{spread / median * 100:.1f}%")
    console.print(table)
    with Sandbox(box=box) as sandbox:
        overshoot = []
        for _ in range(10):
            result = sandbox.run(["./spin", "iters", str(int(arg) * 10)], Limits(time_limit_ms=200))
            overshoot.append(result.cpu_time_ms - 200)
    console.print(f"TLE at 200 ms: CPU time past the limit when killed: median "
                  f"{statistics.median(overshoot):.2f} ms, max {max(overshoot):.2f} ms (target <= 5 ms)")


def memory_precision(console: Console, box: Path) -> None:
    # `mem N` mallocs N blocks of 1 MiB; glibc maps each with one page of its own on top.
    table = Table(title="peak memory: measured vs touched")
    for column in ("touched MiB", "true MiB (with malloc's pages)", "measured MiB",
                   "measured - true", "baseline (0 MiB) MiB", "source"):
        table.add_column(column, justify="right")
    with Sandbox(box=box) as sandbox:
        baseline = sandbox.run(["./mem", "0"], Limits(memory_limit_mb=512)).memory_kb / 1024
        for mib in (64, 128, 256):
            true = mib * (1 + 4096 / 2**20)
            result = sandbox.run(["./mem", str(mib)], Limits(memory_limit_mb=512))
            measured = result.memory_kb / 1024
            table.add_row(str(mib), f"{true:.2f}", f"{measured:.2f}", f"{measured - true:+.2f}",
                          f"{baseline:.2f}", result.sources["memory"])
    console.print(table)


def run(console: Console) -> None:
    with tempfile.TemporaryDirectory(prefix="judge-bench-") as tmp:
        box = Path(tmp)
        os.chmod(box, 0o755)
        build(box)
        overhead(console, box)
        cpu_precision(console, box)
        memory_precision(console, box)
