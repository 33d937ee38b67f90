"""The audit's probes: self-timed spinners, memory touchers, hostile programs and repeated runs,
each compared with what a correct judge must report.

A spinner is self-timed: each of its threads spins until its own thread CPU clock reaches the
asked time, then the program prints its own process CPU time. However fast the CPU runs at the
moment, the work therefore really uses that much CPU, and the program's own figure (from the
same kernel clocks) is the reference the sandbox's CPU time is held against."""
from __future__ import annotations

import functools
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from judge.audit.runner import ProbeRun, ProbeRunner
from judge.checkers.interactor import submission_limits
from judge.cpus import usable_cpus
from judge.languages import Language
from judge.sandbox import Limits
from judge.verdicts import KilledBy, Status

# The problem every probe is graded as (before the language's time factor).
TIME_LIMIT_MS = 500
MEMORY_LIMIT_MB = 256          # Java: 1.1x stays below -Xmx544m
TIME_FRACTIONS = (0.5, 0.9, 1.1, 2.0)
MEMORY_FRACTIONS = (0.5, 0.9, 1.1)
OOM_FRACTION = 1.5             # C++ only: past the cgroup's hard limit, killed by the kernel
STACK_FRACTION = 0.8

# Pass thresholds. docs/design/7-audit.md §7 (audit) has the benchmark targets (1% or 2 ms,
# TL + 5 ms, spread 2%/5%); the audit runs on machines that may be shared and busy, so it passes
# with looser bounds and prints the figures so that anyone can hold them against the targets.
# The sandbox's CPU time against the program's own process CPU clock: it may be above it by this
# much (the sandbox also counts the exec before the program's clock is read and the exit after
# it: ~0.1 ms for C++, ~3 ms for Python, ~5-10 ms for the JVM) ...
CPU_ERROR = 0.05
CPU_ERROR_MS = 15.0
# ... plus the resolution of the program's own clock, where it is coarser than the kernel's: the
# JVM's getProcessCpuTime (Java, Kotlin, Scala) and Bash's read of /proc/self/stat count 10 ms
# clock ticks, Racket's current-process-milliseconds and R's proc.time whole milliseconds, all
# rounded down ...
CLOCK_TICK_MS = {"java": 10.0, "kotlin": 10.0, "scala": 10.0, "bash": 10.0, "racket": 1.0,
                 "r": 1.0}
# ... plus the CPU a runtime spends after the program's last clock read, where it is more than
# the 15 ms above covers with room: Rscript tears down its session (measured 12.4-16.1 ms above
# the probe's own figure in eight runs, and bare the same) ...
EXIT_MS = {"r": 10.0}
# ... and below it by no more than this: a sandbox that counts less than the program used is wrong.
CPU_UNDER = 0.005
CPU_UNDER_MS = 2.0
# The sandbox's CPU time against the kernel's rusage of a bare run of the same input (C++ and
# Python agree within a millisecond) ...
BARE_ERROR = 0.05
BARE_ERROR_MS = 15.0
# ... plus what the runtime itself does differently outside: the JVM's container support reads
# the host's cgroup files, which the sandbox does not show it (~15-25 ms more CPU when bare).
BARE_RUNTIME_MS = {"java": 30.0, "kotlin": 30.0, "scala": 30.0}
OVERSHOOT_MS = 25.0            # CPU time past the limit when killed
# Memory probes are about memory: CPU enough that touching pages on a loaded or emulated machine
# (page faults cost far more CPU there) never ends them as TLE.
MEMORY_PROBE_TIME_LIMIT_MS = 20_000
WALL_OVERSHOOT_MS = 250.0
MEMORY_ERROR_MB = 2.0          # |peak - (size + baseline)|, plus 1% of the size
MEMORY_ERROR_SHARE = 0.01
# A runtime's own bookkeeping that grows with what the program holds, part of the peak a correct
# judge reports: Go's heap bitmap, 2 bits per 8-byte word of heap (1/32), which it clears for
# every span it hands out (measured: +3.5% of 127 and of 230 MiB).
MEMORY_RUNTIME_SHARE = {"go": 1 / 32}
# The baseline (a run that touches nothing) may use up to this share of the memory limit, and
# more only where the runtime's start-up alone needs it: Racket CS loads its boot images, which
# with the probe's FFI come to 62-65 MiB of a 256 MiB limit.
BASELINE_SHARE = 0.25
RUNTIME_BASELINE_SHARE = {"racket": 0.3}
SPREAD_SERIAL = 0.05
SPREAD_LOADED = 0.15
TARGET_SPREAD = {"serial": 0.02, "loaded": 0.05}   # docs/design/7-audit.md §7
TARGET_OVERSHOOT_MS = 5.0                            # docs/design/7-audit.md §7
OVERHEAD_FRACTION = 0.4        # the spinner that measures the runtime's own CPU cost
STABILITY_FRACTION = 0.6
ATTEMPTS = 3                   # tries of a timing probe that lands on the wrong side
# Interaction probes: round trips timed by the interactor, and the bound a median must stay
# under (a round trip is two pipe hops and each side's supervisor relaying: ~0.1 ms idle).
ROUND_TRIPS = 1000
ROUND_TRIPS_QUICK = 200
ROUND_TRIP_LIMIT_MS = 2.0
SYSCALLS = ("ptrace", "mount", "unshare", "setns", "clone", "chroot", "bpf", "perf_event_open",
            "io_uring_setup", "userfaultfd", "keyctl", "kexec_load", "init_module")
MiB = 1024.0


@dataclass
class Probe:
    group: str            # time | memory | isolation | stability
    language: str
    name: str
    expected: str
    measured: str
    passed: bool
    note: str = ""
    figures: dict = field(default_factory=dict)
    # Not passed, and not proof of a fault either: the wall timer stopped a CPU-bound probe
    # before its CPU limit because the machine gave it under half a CPU.
    inconclusive: bool = False

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Overhead:
    """The CPU time a self-timed spinner's process uses beyond what its thread spins: the
    runtime's startup, its other threads (the JVM's JIT and GC) and its exit. Measured in the
    sandbox with a generous limit; the OK probes spin that much less, to land at their share of
    the limit."""
    spin_ms: float
    sandbox_ms: float
    own_ms: float | None
    bare_ms: float

    @property
    def ms(self) -> float:
        return max(0.0, self.sandbox_ms - self.spin_ms)


def _own_cpu(run: ProbeRun) -> float | None:
    """The process CPU time the spinner read from its own clock just before it exited."""
    for line in run.text.splitlines():
        words = line.split()
        if len(words) == 2 and words[0] == "process_cpu_ms":
            try:
                # The clock started at fork; the sandbox's set-up before exec is not the
                # program's, and the sandbox does not count it.
                return float(words[1]) - run.result.setup_cpu_ms
            except ValueError:
                return None
    return None


def _agrees(sandbox_ms: float, own_ms: float | None, language: str) -> bool:
    """The sandbox's CPU time is the program's own figure, or a little above it."""
    if own_ms is None:
        return False
    error = sandbox_ms - own_ms
    over = (max(CPU_ERROR * own_ms, CPU_ERROR_MS) + CLOCK_TICK_MS.get(language, 0.0)
            + EXIT_MS.get(language, 0.0))
    return -_under_allowance(own_ms) <= error <= over


def _under_allowance(ms: float) -> float:
    """How far the sandbox's CPU figure may fall below a clock the program read itself: the
    two clocks are sampled microseconds apart."""
    return max(CPU_UNDER * ms, CPU_UNDER_MS)


def _spun(run: ProbeRun, spin_ms: float) -> bool:
    """The sandbox counted at least what the spinner's threads spun, less the set-up before exec
    (which their clocks include and the sandbox does not count)."""
    r = run.result
    return r.cpu_time_ms >= spin_ms - r.setup_cpu_ms - _under_allowance(spin_ms)


def _bare_close(sandbox_ms: float, bare_ms: float, language: str) -> bool:
    return abs(sandbox_ms - bare_ms) <= (max(BARE_ERROR * bare_ms, BARE_ERROR_MS)
                                         + BARE_RUNTIME_MS.get(language, 0.0))


def _bare_tolerance(language: str) -> str:
    extra = BARE_RUNTIME_MS.get(language)
    return (f"±{BARE_ERROR:.0%} or {BARE_ERROR_MS:.0f} ms"
            + (f", + {extra:g} ms for the runtime's own work outside" if extra else ""))


def _own_text(sandbox_ms: float, own_ms: float | None) -> str:
    if own_ms is None:
        return "no CPU figure from the program"
    return f"own clock {own_ms:.1f} ms ({sandbox_ms - own_ms:+.1f} ms)"


def _tick_text(language: str) -> str:
    tick, exit_ms = CLOCK_TICK_MS.get(language), EXIT_MS.get(language)
    return ((f", + its {tick:g} ms clock tick" if tick else "")
            + (f", + {exit_ms:g} ms for the runtime's exit" if exit_ms else ""))


def _stopped_at_limit(run: ProbeRun, tl: int, figures: dict, note: str
                      ) -> tuple[bool, float, str]:
    """A program meant to cross the CPU limit: TLE by the CPU timer within OVERSHOOT_MS of it
    (noted past the target overshoot). Returns (passed, ms past the limit, the note)."""
    r = run.result
    over = r.cpu_time_ms - tl
    figures["past_limit_ms"] = round(over, 3)
    passed = r.status == Status.TLE and r.killed_by == KilledBy.CPU_TIMER and over <= OVERSHOOT_MS
    if passed and over > TARGET_OVERSHOOT_MS:
        note = _join(note, f"past the target of TL + {TARGET_OVERSHOOT_MS:g} ms")
    return passed, over, note


def _cpu_stdin(spin_ms: float, threads: int = 1) -> str:
    return f"cpu {spin_ms:.1f} {threads}"


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _pct(value: float, reference: float) -> str:
    if reference <= 0:
        return "n/a"
    return f"{(value - reference) / reference * 100:+.1f}%"


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


def _attempts_note(run: ProbeRun, attempts: int, tl: int) -> str:
    r = run.result
    notes = []
    if attempts > 1:
        notes.append(f"attempt {attempts} of {ATTEMPTS} (borderline or busy-machine re-runs)")
    if r.killed_by == KilledBy.WALL_TIMER and r.wall_time_ms > 0:
        share = r.cpu_time_ms / r.wall_time_ms
        notes.append(f"the wall timer fired first: the program got {share:.0%} of a CPU, the "
                     "machine is too busy to test the CPU limit")
    return _join(*notes)


def _starved(run: ProbeRun) -> bool:
    """The wall timer ended a run that never reached its CPU limit, having had less than half a
    CPU (the wall limit is at least twice the CPU limit): the CPU limit was never put to test.
    The sandbox calls such a run BUSY when it waited for a CPU more than half the time; one
    that got under half a CPU for another reason (a slow machine) is still TLE by the wall."""
    r = run.result
    if r.status == Status.BUSY:
        return True
    return (r.status == Status.TLE and r.killed_by == KilledBy.WALL_TIMER and
            r.cpu_time_ms < run.limits.time_limit_ms and r.wall_time_ms > 0 and
            r.cpu_time_ms / r.wall_time_ms < 0.5)


def _status(run: ProbeRun) -> str:
    r = run.result
    extra = r.killed_by or ""
    if r.syscall:
        extra = r.syscall
    return f"{r.status}({extra})" if extra and r.status != "OK" else r.status


class Audit:
    """Runs the probes of the selected languages; `probes` collects the results."""

    def __init__(self, runner: ProbeRunner, languages: list[Language], *, quick: bool = False,
                 progress: Callable[[str], None] | None = None) -> None:
        self.runner = runner
        self.languages = languages
        self.quick = quick
        self.progress = progress or (lambda message: None)
        self.probes: list[Probe] = []
        self.overheads: dict[str, Overhead] = {}
        self.baselines_kb: dict[str, int] = {}
        self.sources: dict[str, set[str]] = {}

    # -- plumbing ----------------------------------------------------------------------------
    def _add(self, probe: Probe) -> Probe:
        self.probes.append(probe)
        return probe

    def _run(self, language: Language, stdin: str, time_limit_ms: int = TIME_LIMIT_MS,
             memory_limit_mb: int = MEMORY_LIMIT_MB) -> ProbeRun:
        return self._run_many(language, [stdin], time_limit_ms, memory_limit_mb)[0]

    def _run_many(self, language: Language, inputs: list[str], time_limit_ms: int = TIME_LIMIT_MS,
                  memory_limit_mb: int = MEMORY_LIMIT_MB) -> list[ProbeRun]:
        runs = self.runner.run_many(language, inputs, time_limit_ms=time_limit_ms,
                                    memory_limit_mb=memory_limit_mb)
        for run in runs:
            for figure in ("cpu", "memory"):
                self.sources.setdefault(figure, set()).add(run.result.sources[figure])
        return runs

    def _limits(self, language: Language):
        return self.runner.judged_limits(language, TIME_LIMIT_MS, MEMORY_LIMIT_MB)

    # -- time --------------------------------------------------------------------------------
    def measure_overhead(self, language: Language) -> Overhead:
        """Runs a spinner of OVERHEAD_FRACTION x the limit with a generous limit: what its
        process uses beyond the spin is the runtime's own cost. The sandbox's figure must be the
        program's own (and close to a bare run's)."""
        tl = self._limits(language).time_limit_ms
        spin = OVERHEAD_FRACTION * tl
        stdin = _cpu_stdin(spin)
        runs = self._run_many(language, [stdin] * 2, TIME_LIMIT_MS * 20)
        # Noise only ever adds CPU time: the smaller of two runs is the better estimate.
        run = min(runs, key=lambda p: p.result.cpu_time_ms)
        r = run.result
        own = _own_cpu(run)
        bare = min(self.runner.bare_cpu_ms(language, stdin) for _ in range(2))
        overhead = Overhead(spin, r.cpu_time_ms, own, bare)
        self.overheads[language.name] = overhead
        ok = (all(p.result.status == "OK" and _agrees(p.result.cpu_time_ms, _own_cpu(p), language.name)
                  for p in runs)
              and _bare_close(r.cpu_time_ms, bare, language.name))
        self._add(Probe(
            "time", language.name, "runtime overhead (spinner, generous limit)",
            f"OK; sandbox CPU = the program's own clock (up to +{CPU_ERROR:.0%} or "
            f"{CPU_ERROR_MS:.0f} ms{_tick_text(language.name)}) ≈ bare rusage "
            f"({_bare_tolerance(language.name)})",
            f"{_status(run)}; spins {spin:.0f} ms: sandbox {r.cpu_time_ms:.1f} ms, "
            f"{_own_text(r.cpu_time_ms, own)}, bare {bare:.1f} ms ({_pct(r.cpu_time_ms, bare)}); "
            f"the runtime's own {overhead.ms:.1f} ms",
            ok, figures={**asdict(overhead), "overhead_ms": round(overhead.ms, 3),
                         "cpu_times_ms": [p.result.cpu_time_ms for p in runs],
                         "own_cpu_ms": [_own_cpu(p) for p in runs]}))
        return overhead

    def time_probes(self, language: Language) -> None:
        self.progress(f"{language.name}: the runtime's own CPU cost")
        limits = self._limits(language)
        overhead = self.measure_overhead(language).ms
        for fraction in TIME_FRACTIONS:
            self.progress(f"{language.name}: spinner at {fraction}x the time limit")
            self._spinner_probe(language, fraction, limits.time_limit_ms, overhead)
        self.progress(f"{language.name}: sleeping program")
        self._sleep_probe(language, limits)
        if language.name in ("cpp", "java"):
            self._thread_probes(language, limits.time_limit_ms)

    def _spinner_probe(self, language: Language, fraction: float, tl: int,
                       overhead: float) -> None:
        """A program that spins `fraction` of the time limit: under it, OK with the CPU time its
        own clock and a bare run agree with; over it, TLE by the CPU timer within the overshoot
        bound."""
        target = fraction * tl
        expect_ok = fraction < 1
        # Under the limit the thread spins less by the runtime's own cost, for the process
        # to land at its share; over it, the thread alone spins past the limit.
        spin = max(0.0, target - overhead) if expect_ok else target
        stdin = _cpu_stdin(spin)
        run, attempts = self._time_run(language, stdin, expect_ok)
        r = run.result
        figures = {"fraction": fraction, "time_limit_ms": tl, "spin_ms": round(spin, 3),
                   "cpu_time_ms": r.cpu_time_ms, "wall_time_ms": r.wall_time_ms,
                   "setup_cpu_ms": r.setup_cpu_ms, "status": r.status,
                   "killed_by": r.killed_by, "attempts": attempts}
        note = _attempts_note(run, attempts, tl)
        if expect_ok:
            passed, expected, measured = self._under_limit(
                language, run, stdin, figures, spin, overhead, check_bare=fraction in (
                    (0.9,) if self.quick else (0.5, 0.9)))
        else:
            passed, over, note = _stopped_at_limit(run, tl, figures, note)
            measured = f"{_status(run)}, {r.cpu_time_ms:.1f} ms ({over:+.1f} ms past the limit)"
            if r.status == "OK":
                measured += f"; {_own_text(r.cpu_time_ms, _own_cpu(run))}"
            expected = f"TLE at {tl} ms (its thread alone spins {spin:.0f} ms)"
        self._add(Probe("time", language.name, f"spinner {fraction}x TL", expected, measured,
                        passed, note, figures, inconclusive=not passed and _starved(run)))

    def _under_limit(self, language: Language, run: ProbeRun, stdin: str, figures: dict,
                     spin: float, overhead: float, check_bare: bool) -> tuple[bool, str, str]:
        """A spinner under the limit: OK, its CPU time the program's own clock's and, where
        asked, a bare run's. Returns (passed, expected, measured)."""
        r = run.result
        tl = figures["time_limit_ms"]
        target = figures["fraction"] * tl
        own = _own_cpu(run)
        bare = None
        if check_bare:
            bare = self.runner.bare_cpu_ms(language, stdin)
            if not _bare_close(r.cpu_time_ms, bare, language.name):
                # One bare run is one sample of a noisy machine: the smaller of two.
                bare = min(bare, self.runner.bare_cpu_ms(language, stdin))
        figures.update(own_cpu_ms=own, bare_cpu_ms=bare)
        if own is not None:
            figures["error_ms"] = round(r.cpu_time_ms - own, 3)
        bare_ok = bare is None or _bare_close(r.cpu_time_ms, bare, language.name)
        passed = (r.status == "OK" and _agrees(r.cpu_time_ms, own, language.name)
                  and _spun(run, spin) and bare_ok)
        expected = (f"OK, CPU ≈ {target:.0f} ms (spins {spin:.0f} + runtime "
                    f"{overhead:.0f}) = own clock" + (", ≈ bare" if bare is not None else ""))
        measured = (f"{_status(run)}, {r.cpu_time_ms:.1f} ms ({r.cpu_time_ms / tl:.2f}x TL); "
                    f"{_own_text(r.cpu_time_ms, own)}"
                    + ("" if bare is None else
                       f"; bare {bare:.1f} ms ({_pct(r.cpu_time_ms, bare)})"))
        return passed, expected, measured

    def _sleep_probe(self, language: Language, limits: Limits) -> None:
        """A program that sleeps: TLE by the wall timer, at the wall limit, with little CPU."""
        run = self._run(language, "sleep 60000")
        r = run.result
        wall = limits.wall_ms
        self._add(Probe(
            "time", language.name, "sleep (wall clock)", f"TLE by the wall timer at {wall} ms",
            f"{_status(run)}, wall {r.wall_time_ms:.0f} ms, CPU {r.cpu_time_ms:.1f} ms",
            r.status == Status.TLE and r.killed_by == KilledBy.WALL_TIMER
            and -1 <= r.wall_time_ms - wall <= WALL_OVERSHOOT_MS and r.cpu_time_ms < limits.time_limit_ms,
            figures={"wall_limit_ms": wall, "wall_time_ms": r.wall_time_ms,
                     "cpu_time_ms": r.cpu_time_ms, "killed_by": r.killed_by}))

    def _time_run(self, language: Language, stdin: str, expect_ok: bool) -> tuple[ProbeRun, int]:
        """On a busy machine the wall timer may stop a spinner before the CPU limit does, and a
        spinner just under the limit may cross it when its runtime has a costly start. Like the
        judge's borderline re-runs, such a run is tried again (up to ATTEMPTS) before it counts.
        A spinner whose thread alone spins past the limit and comes back OK is not re-run: no
        machine makes that right."""
        for attempt in range(1, ATTEMPTS + 1):
            run = self._run(language, stdin)
            r = run.result
            if expect_ok:
                again = r.status in (Status.TLE, Status.BUSY)
            else:
                again = _starved(run) or (r.status == Status.TLE and r.killed_by != KilledBy.CPU_TIMER)
            if not again:
                return run, attempt
            if attempt < ATTEMPTS:
                time.sleep(attempt * (1.0 if _starved(run) else 0.2))   # let a busy spell pass
        return run, ATTEMPTS

    def _thread_probes(self, language: Language, tl: int) -> None:
        for share, expect_ok in ((0.3, True), (0.7, False)):
            self.progress(f"{language.name}: 2 threads x {share}x the time limit")
            per_thread = share * tl
            total = 2 * per_thread
            run, attempts = self._time_run(language, _cpu_stdin(per_thread, 2), expect_ok)
            note = _attempts_note(run, attempts, tl)
            r = run.result
            own = _own_cpu(run)
            figures = {"threads": 2, "spin_ms_per_thread": round(per_thread, 3),
                       "cpu_time_ms": r.cpu_time_ms, "wall_time_ms": r.wall_time_ms,
                       "own_cpu_ms": own, "status": r.status, "killed_by": r.killed_by,
                       "attempts": attempts}
            if expect_ok:
                passed = (r.status == "OK" and _agrees(r.cpu_time_ms, own, language.name)
                          and _spun(run, total))
                self._add(Probe("time", language.name, f"2 threads x {share}x TL",
                                f"OK, CPU ≥ 2 × {per_thread:.0f} = {total:.0f} ms, = own clock",
                                f"{_status(run)}, {r.cpu_time_ms:.1f} ms; {_own_text(r.cpu_time_ms, own)}",
                                passed, note, figures, inconclusive=not passed and _starved(run)))
            else:
                passed, over, note = _stopped_at_limit(run, tl, figures, note)
                self._add(Probe("time", language.name, f"2 threads x {share}x TL",
                                f"TLE at {tl} ms (needs ≥ 2 × {per_thread:.0f} = {total:.0f} ms)",
                                f"{_status(run)}, {r.cpu_time_ms:.1f} ms ({over:+.1f} ms past the limit)",
                                passed, note, figures, inconclusive=not passed and _starved(run)))

    # -- memory ------------------------------------------------------------------------------
    def memory_probes(self, language: Language) -> None:
        self.progress(f"{language.name}: memory probes")
        limit_mb = self._limits(language).memory_limit_mb
        baseline_run = self._run(language, "mem 0", MEMORY_PROBE_TIME_LIMIT_MS)
        baseline_kb = baseline_run.result.memory_kb
        self.baselines_kb[language.name] = baseline_kb
        baseline_mb = baseline_kb / MiB
        self._add(Probe("memory", language.name, "baseline (touches nothing)",
                        "OK; the runtime's own peak",
                        f"{_status(baseline_run)}, {baseline_mb:.1f} MiB",
                        baseline_run.result.status == "OK"
                        and baseline_mb < limit_mb * RUNTIME_BASELINE_SHARE.get(language.name,
                                                                                BASELINE_SHARE),
                        figures={"memory_kb": baseline_kb}))
        fractions = MEMORY_FRACTIONS + ((OOM_FRACTION,) if language.name == "cpp" else ())
        for fraction in fractions:
            target_mb = fraction * limit_mb
            share = MEMORY_RUNTIME_SHARE.get(language.name, 0.0)
            size_mb = max(0.0, target_mb - baseline_mb) / (1 + share)
            run = self._run(language, f"mem {size_mb:.3f}", MEMORY_PROBE_TIME_LIMIT_MS)
            r = run.result
            peak_mb = r.memory_kb / MiB
            expected_peak = size_mb * (1 + share) + baseline_mb
            figures = {"fraction": fraction, "memory_limit_mb": limit_mb, "size_mb": round(size_mb, 3),
                       "baseline_mb": round(baseline_mb, 3), "expected_peak_mb": round(expected_peak, 3),
                       "peak_mb": round(peak_mb, 3), "status": r.status, "killed_by": r.killed_by}
            touched = (f"touches {size_mb:.1f} MiB + baseline {baseline_mb:.1f}"
                       + (f" + the runtime's {share:.1%} of it" if share else ""))
            if fraction < 1:
                error = peak_mb - expected_peak
                figures["error_mb"] = round(error, 3)
                passed = (r.status == "OK" and
                          abs(error) <= MEMORY_ERROR_MB + MEMORY_ERROR_SHARE * size_mb)
                expected = f"OK, peak ≈ {expected_peak:.1f} MiB ({touched})"
                measured = f"{_status(run)}, peak {peak_mb:.1f} MiB ({error:+.2f} MiB)"
            else:
                passed = r.status == Status.MLE
                how = "killed by the kernel (OOM)" if fraction > 1.125 else "peak over the limit"
                expected = f"MLE ({how}; {touched})"
                measured = f"{_status(run)}, peak {peak_mb:.1f} MiB"
            self._add(Probe("memory", language.name, f"touch {fraction}x ML", expected, measured,
                            passed, figures=figures))
        if language.name == "cpp":
            size_mb = STACK_FRACTION * limit_mb
            run = self._run(language, f"stack {size_mb:.3f}", MEMORY_PROBE_TIME_LIMIT_MS)
            r = run.result
            peak_mb = r.memory_kb / MiB
            self._add(Probe("memory", language.name, f"recursion, {STACK_FRACTION}x ML of stack",
                            f"OK (stack limit = memory limit), peak ≈ {size_mb + baseline_mb:.1f} MiB",
                            f"{_status(run)}, peak {peak_mb:.1f} MiB",
                            r.status == "OK" and peak_mb >= size_mb,
                            figures={"stack_mb": size_mb, "peak_mb": round(peak_mb, 3),
                                     "status": r.status, "signal": r.signal}))

    # -- isolation ---------------------------------------------------------------------------
    def isolation_probes(self, language: Language) -> None:
        name = language.name
        if name == "cpp":
            self.progress("cpp: isolation probes")
            self._output_flood(language)
            self._fork_bomb(language)
            self._network(language)
            self._read_only(language)
            self._process_view(language)
            self._syscalls(language)
        elif name == "java":
            self.progress("java: network probe")
            self._network(language)

    # -- interaction ---------------------------------------------------------------------------
    def interaction_probes(self, language: Language) -> None:
        """An interactive test's round trip (the program's answer to one query, through both
        pipes and both supervisors), timed by the interactor and held against the same two
        programs joined by bare pipes; and a program that never answers, which must end as
        TLE killed by "idle" at the wall limit."""
        self.progress(f"{language.name}: interaction round trips")
        rounds = ROUND_TRIPS_QUICK if self.quick else ROUND_TRIPS
        test = self.runner.interact(language, rounds, TIME_LIMIT_MS * 20, MEMORY_LIMIT_MB)
        sandboxed = [int(line) / 1e3 for line in (test.output or b"").split()]
        bare = [ns / 1e3 for ns in self.runner.bare_round_trips(language, rounds).round_trips_ns]
        complete = test.verdict == "AC" and len(sandboxed) == rounds and len(bare) == rounds
        median = statistics.median(sandboxed) if complete else float("nan")
        p90 = _percentile(sandboxed, 0.9) if complete else float("nan")
        bare_median = statistics.median(bare) if complete else float("nan")
        self._add(Probe(
            "interaction", language.name, f"round trip program ↔ interactor ({rounds} queries)",
            f"AC; median round trip ≤ {ROUND_TRIP_LIMIT_MS:.0f} ms (bare pipes beside it)",
            f"{test.verdict}; median {median:.0f} µs, p90 {p90:.0f} µs; bare pipes median "
            f"{bare_median:.0f} µs ({median / bare_median:.1f}x)" if complete else
            f"{test.verdict}: {test.checker_message[:200]}",
            complete and median <= ROUND_TRIP_LIMIT_MS * 1000,
            figures={"rounds": rounds, "median_us": round(median, 1), "p90_us": round(p90, 1),
                     "bare_median_us": round(bare_median, 1),
                     "bare_p90_us": round(_percentile(bare, 0.9), 1) if complete else None}))
        self.progress(f"{language.name}: interaction idleness")
        idle = self.runner.interact(language, 0, TIME_LIMIT_MS, MEMORY_LIMIT_MB)
        limits = submission_limits(self._limits(language))
        run = idle.run
        assert run is not None
        self._add(Probe(
            "interaction", language.name, "idleness (both wait on each other)",
            f"TLE, killed by idle at the wall limit ({limits.wall_ms} ms), interactor not charged",
            f"{idle.verdict}, killed by {run.killed_by}, wall {run.wall_time_ms:.0f} ms, "
            f"CPU {run.cpu_time_ms:.1f} ms",
            idle.verdict == "TLE" and run.killed_by == KilledBy.IDLE
            and limits.wall_ms <= run.wall_time_ms <= limits.wall_ms + WALL_OVERSHOOT_MS,
            figures={"wall_time_ms": run.wall_time_ms, "cpu_time_ms": run.cpu_time_ms}))

    def _output_flood(self, language: Language) -> None:
        limits = self._limits(language)
        run = self._run(language, "flood")
        r = run.result
        cap = limits.output_limit_mb * (1 << 20)
        passed = r.status == "OLE" and r.output_bytes <= cap + (8 << 20)
        self._add(Probe("isolation", language.name, "output flood",
                        f"OLE at {limits.output_limit_mb:g} MiB",
                        f"{_status(run)}, {r.output_bytes / (1 << 20):.1f} MiB written",
                        passed, figures={"output_bytes": r.output_bytes, "status": r.status},
                        inconclusive=not passed and _starved(run)))

    def _leftovers(self, tag: str) -> list[str]:
        """Host processes still carrying the fork bomb's name (fork keeps it; the tag is unique
        to this audit, so a concurrent audit's runs are not mistaken for ours)."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                comm = (entry / "comm").read_text().strip()
            except OSError:
                continue
            if comm == tag:
                found.append(f"{entry.name} {comm}")
        return found

    def _fork_bomb(self, language: Language) -> None:
        tag = f"jab{os.getpid():x}{int(time.time()) % 4096:x}"[:15]
        run = self._run(language, f"forkbomb {tag}")
        left = self._leftovers(tag)
        for _ in range(10):
            if not left:
                break
            time.sleep(0.1)
            left = self._leftovers(tag)
        r = run.result
        self._add(Probe("isolation", language.name, "fork bomb",
                        "not OK; no process left on the host",
                        f"{_status(run)}; {len(left)} left on the host" + (f": {left[:5]}" if left else ""),
                        r.status not in (Status.OK, Status.SE) and not left,
                        figures={"status": r.status, "killed_by": r.killed_by, "tag": tag,
                                 "leftovers": left}))

    def _network(self, language: Language) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            listener.bind(("127.0.0.1", 0))
            listener.listen(8)
            listener.setblocking(False)
            port = listener.getsockname()[1]
            run = self._run(language, f"connect {port}")
            accepted = 0
            while True:
                try:
                    conn, _ = listener.accept()
                    conn.close()
                    accepted += 1
                except (BlockingIOError, OSError):
                    break
        finally:
            listener.close()
        r = run.result
        said = run.text.strip().splitlines()[0] if run.text.strip() else ""
        how = f"refused syscall {r.syscall}" if r.status == "RF" else said or r.status
        self._add(Probe("isolation", language.name, "network (127.0.0.1 listener)",
                        "connection fails; the listener sees nothing",
                        f"{_status(run)}: {how}; listener accepted {accepted}",
                        accepted == 0 and "connected" not in said.split() and r.status != Status.SE,
                        figures={"port": port, "status": r.status, "output": said,
                                 "syscall": r.syscall, "accepted": accepted}))

    def _read_only(self, language: Language) -> None:
        paths = ["/box/judge-audit-probe", "/usr/judge-audit-probe", "/judge-audit-probe"]
        run = self._run(language, "write " + " ".join(paths))
        lines = dict(line.split(" ", 1) for line in run.text.strip().splitlines() if " " in line)
        host = [self.runner.box / "judge-audit-probe", Path("/usr/judge-audit-probe")]
        leaked = [str(p) for p in host if p.exists()]
        refused = [p for p in paths if lines.get(p, "").startswith("failed")]
        self._add(Probe("isolation", language.name, "read-only filesystem",
                        "writing /box, /usr and / fails",
                        "; ".join(f"{p}: {lines.get(p, 'no answer')}" for p in paths)
                        + (f"; FOUND ON HOST: {leaked}" if leaked else ""),
                        run.result.status == "OK" and len(refused) == len(paths) and not leaked,
                        figures={"answers": lines, "host_files": leaked}))

    def _process_view(self, language: Language) -> None:
        run = self._run(language, "ps")
        seen = [line.split(" ", 1) for line in run.text.strip().splitlines() if " " in line]
        own = os.getpid()
        own_comm = Path(f"/proc/{own}/comm").read_text().strip()
        host_like = [f"{pid} {comm}" for pid, comm in seen
                     if comm not in ("code.exe", "judge-superviso") or pid == str(own)]
        self._add(Probe("isolation", language.name, "process view",
                        f"only the sandbox's own processes; not the audit (pid {own}, {own_comm})",
                        f"{len(seen)} visible: " + ", ".join(f"{p} {c}" for p, c in seen[:6]),
                        run.result.status == "OK" and bool(seen) and not host_like,
                        figures={"visible": seen, "audit_pid": own}))

    def _syscalls(self, language: Language) -> None:
        runs = self._run_many(language, [f"syscall {name}" for name in SYSCALLS])
        for name, run in zip(SYSCALLS, runs, strict=True):
            r = run.result
            self._add(Probe("isolation", language.name, f"syscall {name}", f"RF naming {name}",
                            f"{_status(run)}" + ("" if r.status == "RF" else f": {run.text.strip()}"),
                            r.status == "RF" and r.syscall == name,
                            figures={"status": r.status, "syscall": r.syscall}))

    # -- stability -----------------------------------------------------------------------------
    def stability_probes(self, language: Language) -> None:
        """The same self-timed spinner many times: its CPU time is nearly constant by
        construction, so the spread of the sandbox's figures is the judge's own noise."""
        tl = self._limits(language).time_limit_ms
        spin = STABILITY_FRACTION * tl
        stdin = _cpu_stdin(spin)
        repetitions = 5 if self.quick else 20
        # A generous limit: this measures the spread of CPU time, and with every core busy the
        # wall timer of the problem's own limit would stop the runs first.
        generous = TIME_LIMIT_MS * 10
        for label, threshold, target, loaded in (
                ("serial", SPREAD_SERIAL, TARGET_SPREAD["serial"], False),
                ("every core busy", SPREAD_LOADED, TARGET_SPREAD["loaded"], True)):
            earlier = ""
            for attempt in (1, 2):
                self.progress(f"{language.name}: {repetitions} identical runs, {label}")
                workers = self._busy_cores() if loaded else []
                try:
                    runs = self._run_many(language, [stdin] * repetitions, generous)
                    bare = self.runner.bare_cpu_ms(language, stdin)
                finally:
                    self._stop(workers)
                name = label + (f" ({len(workers)} spinners)" if loaded else "")
                probe = self._stability(language, name, runs, threshold, target, spin, bare)
                if earlier:
                    probe.note = _join(earlier, probe.note)
                if probe.passed or attempt == 2:
                    self._add(probe)
                    break
                # A burst of outside load can spoil one series: measure a second one, and say so.
                earlier = (f"series 2 of 2: the first one's spread was "
                           f"{probe.figures['spread']:.2%}")
                time.sleep(1.0)

    def _stability(self, language: Language, label: str, runs: list[ProbeRun], threshold: float,
                   target: float, spin: float, bare: float) -> Probe:
        times = [r.result.cpu_time_ms for r in runs]
        own = [_own_cpu(r) for r in runs]
        statuses = sorted({r.result.status for r in runs})
        median = statistics.median(times)
        spread = (max(times) - min(times)) / median if median else float("inf")
        mean = statistics.fmean(times) if times else 0.0
        cv = statistics.pstdev(times) / mean if mean else float("inf")
        walls = [r.result.wall_time_ms for r in runs]
        errors = [t - o for t, o in zip(times, own, strict=True) if o is not None]
        agree = all(_agrees(t, o, language.name) for t, o in zip(times, own, strict=True))
        worst = max(errors, key=abs) if errors else None
        return Probe(
            "stability", language.name, f"{len(runs)} runs, {label}",
            f"all OK; spread (max−min)/median < {threshold:.0%}; each = own clock",
            f"{'/'.join(statuses)}; median {median:.1f} ms, spread {max(times) - min(times):.1f} ms "
            f"= {spread:.2%}, CV {cv:.2%}; vs own clock: "
            + ("no figure" if worst is None else f"worst {worst:+.1f} ms") + f"; bare {bare:.1f} ms "
            f"({_pct(median, bare)}); wall median {statistics.median(walls):.0f} ms",
            statuses == ["OK"] and spread < threshold and agree,
            "" if spread < target else f"above the benchmark target of {target:.0%}",
            figures={"cpu_times_ms": times, "own_cpu_ms": own, "wall_times_ms": walls,
                     "spread": spread, "cv": cv, "spin_ms": spin, "bare_cpu_ms": bare,
                     "worst_error_ms": worst})

    def _busy_cores(self) -> list[subprocess.Popen]:
        workers = []
        for cpu in usable_cpus():
            workers.append(subprocess.Popen(
                [sys.executable, "-c", "while True: pass"], stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                preexec_fn=functools.partial(os.sched_setaffinity, 0, {cpu})))
        time.sleep(0.3)
        return workers

    @staticmethod
    def _stop(workers: list[subprocess.Popen]) -> None:
        for worker in workers:
            try:
                os.kill(worker.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for worker in workers:
            worker.wait()
