"""`judge audit --target`: the probes run against any sandbox (a SandboxFusion-compatible URL,
the judge's own `judge serve`, or a command-line sandbox), each held / broken / could not tell,
with its figure and a one-line verdict.

Every probe is safe for the host the target runs on: it asks for at most a small multiple of
the limit it tests (3x the CPU time, 2x the memory, 8x the output and the process cap, one
detached process that ends itself) and stops there, so a target that enforces nothing still
cannot hurt the host; the audit kills what a probe leaves running, found by a marker no other
process has."""
from __future__ import annotations

import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path

from judge import JudgeError, config
from judge.audit.probes import CPU_ERROR, CPU_ERROR_MS, CPU_UNDER, CPU_UNDER_MS
from judge.audit.target_host import (
    OUTSIDE,
    HostSnapshot,
    Listener,
    Sentinel,
    host_address,
    kill_marked,
    marked_processes,
    new_marker,
    reaches_outside,
)
from judge.audit.targets.base import OUTPUT_FACTOR, Answer, Said, Target, TargetLimits

PROGRAM = Path(__file__).resolve().parent / "programs" / "target_probe.py"
CPU_FACTOR = 3              # the CPU probe asks for 3x the CPU limit
MEMORY_FACTOR = 2           # the memory probe for 2x the memory limit, in steps of MEMORY_STEP_MB
MEMORY_STEP_MB = 16
PROCESS_FACTOR = 8          # the process and thread probes ask for 8x the cap
SPINNERS = 2                # the CPU probe across processes
LINGER_S = 20.0             # how long the detached process of the lingering probe lives at most
LINGER_LOOK_S = 1.0         # how long after the answer the audit looks for it
FIGURE_CPU_SHARE = 0.25     # the CPU-figure probe spins a quarter of the limit: a busy machine
                            # can slow it fourfold before the wall clock stops it
FIGURE_MEMORY_SHARE = 0.5   # the memory-figure probe touches half the limit ...
MEMORY_FIGURE_ERROR_MB = 4.0    # ... and the figure may be off by this plus 2% of it
MEMORY_FIGURE_SHARE = 0.02
LEAK_SHARE = 0.1            # the memory a run may reach past its limit before it is stopped
CPU_SLACK = 0.25            # CPU across processes may pass the limit by a quarter (plus 50 ms)
STARVED = 0.8               # a probe stopped before this share of a limit proves nothing
CLOCK_SHARE = 0.9           # a run this near the wall-clock limit was stopped by it
THROUGHPUT_RUNS = 10
THROUGHPUT_PARALLEL = 4


class Status(StrEnum):
    HELD = "held"
    BROKEN = "broken"
    UNKNOWN = "could not tell"
    FIGURE = "figure"          # a measurement, not a limit (what the program sees)


@dataclass(frozen=True)
class Kind:
    """A probe: the line of the report, and the words of its verdict."""
    key: str
    title: str                 # "CPU limit"
    held: str                  # "enforced"
    broken: str                # "NOT ENFORCED"


KINDS = {k.key: k for k in (
    Kind("cpu", "CPU limit", "enforced", "NOT ENFORCED"),
    Kind("cpu-procs", "CPU limit across processes", "enforced", "NOT ENFORCED"),
    Kind("wall", "wall-clock limit", "enforced", "NOT ENFORCED"),
    Kind("memory", "memory limit", "enforced", "NOT ENFORCED"),
    Kind("memory-seen", "memory the program sees", "", ""),
    Kind("memory-figure", "peak memory figure", "accurate", "WRONG"),
    Kind("cpu-figure", "CPU time figure", "accurate", "WRONG"),
    Kind("output", "output limit", "enforced", "NOT ENFORCED"),
    Kind("processes", "process cap", "enforced", "NOT ENFORCED"),
    Kind("threads", "thread cap", "enforced", "NOT ENFORCED"),
    Kind("lingering", "processes after the answer", "none left", "LEFT RUNNING"),
    Kind("net-loopback", "network: host loopback", "unreachable", "REACHABLE"),
    Kind("net-host", "network: host address", "unreachable", "REACHABLE"),
    Kind("net-outside", "network: outside", "unreachable", "REACHABLE"),
    Kind("fs-read", "host /tmp file", "hidden", "VISIBLE"),
    Kind("fs-shadow", "host /etc/shadow", "hidden", "READABLE"),
    Kind("fs-write", "write to host /tmp", "refused", "WRITTEN"),
    Kind("throughput", "trivial runs", "all ran", "SOME FAILED"),
    Kind("leftovers", "host leftovers after the audit", "none", "LEFT BEHIND"),
)}


@dataclass
class TargetProbe:
    key: str
    status: Status
    figure: str                # short, for a table cell
    why: str                   # the rest of the verdict line
    details: dict = field(default_factory=dict)

    @property
    def verdict(self) -> str:
        """"memory limit: NOT ENFORCED — a 512 MB program under 256 MB ran to its end"."""
        kind = KINDS[self.key]
        word = {Status.HELD: kind.held, Status.BROKEN: kind.broken,
                Status.UNKNOWN: "could not tell", Status.FIGURE: ""}[self.status]
        return f"{kind.title}: {word} — {self.why}" if word else f"{kind.title}: {self.why}"

    def to_dict(self) -> dict:
        return {**asdict(self), "status": self.status.value, "title": KINDS[self.key].title,
                "verdict": self.verdict}

    @classmethod
    def from_dict(cls, data: dict) -> TargetProbe:
        return cls(data["key"], Status(data["status"]), data["figure"], data["why"],
                   data.get("details", {}))


@dataclass
class TargetReport:
    target: str
    kind: str
    local: bool
    limits: TargetLimits
    options: dict[str, str]
    probes: list[TargetProbe] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0

    @property
    def broken(self) -> list[TargetProbe]:
        return [p for p in self.probes if p.status is Status.BROKEN]

    def probe(self, key: str) -> TargetProbe | None:
        return next((p for p in self.probes if p.key == key), None)

    def to_dict(self) -> dict:
        return {"target": self.target, "kind": self.kind, "local": self.local,
                "limits": self.limits.to_dict(), "options": self.options,
                "ok": not self.broken, "held": sum(p.status is Status.HELD for p in self.probes),
                "broken": len(self.broken),
                "could_not_tell": sum(p.status is Status.UNKNOWN for p in self.probes),
                "elapsed_s": round(self.elapsed_s, 1), "notes": self.notes,
                "verdicts": [p.verdict for p in self.probes],
                "probes": [p.to_dict() for p in self.probes]}

    @classmethod
    def from_dict(cls, data: dict) -> TargetReport:
        return cls(data["target"], data["kind"], data["local"], TargetLimits(**data["limits"]),
                   data["options"], [TargetProbe.from_dict(p) for p in data["probes"]],
                   data.get("notes", []), data.get("elapsed_s", 0.0))


def _f(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


class TargetAudit:
    """`TargetAudit(target, limits).run()` -> TargetReport."""

    def __init__(self, target: Target, limits: TargetLimits | None = None,
                 progress: Callable[[str], None] | None = None) -> None:
        self.target, self.limits = target, limits or TargetLimits()
        self.progress = progress or (lambda message: None)
        self.marker = new_marker()
        self.source = PROGRAM.read_text()
        self.probes: list[TargetProbe] = []
        self.said: Said

    # -- running -------------------------------------------------------------------------------
    def run_probe(self, mode: str, *args: object) -> Answer:
        answer = self.target.run(self.source, [self.marker, mode, *map(str, args)], self.limits)
        if self.target.local:
            kill_marked(self.marker)
        return answer

    def add(self, key: str, status: Status, figure: str, why: str, **details) -> None:
        self.probes.append(TargetProbe(key, status, figure, why, details))

    def by_the_clock(self, answer: Answer) -> bool:
        """Whether a run ended at the target's wall-clock limit (then a probe of another limit
        it was stopped by proves nothing about that limit). A target without one has no clock
        to be stopped by: only the audit's own bound, far past every probe's work."""
        if not self.said.offered("wall"):
            return False
        took = answer.wall_s if answer.wall_s is not None else answer.request_s
        return took >= self.said.wall_s * CLOCK_SHARE

    def failed_to_run(self, key: str, answer: Answer) -> bool:
        """A run the target could not make at all proves nothing either way."""
        if answer.error:
            self.add(key, Status.UNKNOWN, "error", f"the target could not run the probe: "
                     f"{answer.error[:200]}", answer=answer.status)
            return True
        return False

    def run(self) -> TargetReport:
        workdir = Path(tempfile.mkdtemp(prefix="judge-audit-work-"))
        workdir.chmod(0o755)          # a sandbox that drops its uid still starts there
        self.target.workdir = workdir
        try:
            return self._run(workdir)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)

    def _run(self, workdir: Path) -> TargetReport:
        started = time.monotonic()
        before = HostSnapshot.take() if self.target.local else None
        weakened = "memory" in config.current().audit_break
        try:
            self.target.start()
            self.said = self.target.say(self.limits)
            name = self.target.name + (" [JUDGE_AUDIT_BREAK=memory]" if weakened else "")
            report = TargetReport(name, self.target.kind, self.target.local,
                                  self.limits, {k: self.said.option(k) for k in
                                                ("cpu", "wall", "memory", "output", "processes")},
                                  notes=list(self.target.notes))
            if weakened:
                report.notes.insert(0, "test-only break switch JUDGE_AUDIT_BREAK=memory is on: the "
                                    "target was told 4x the memory limit, and this audit is meant "
                                    "to catch it")
            self.check()
            for step in (self.cpu, self.cpu_across_processes, self.wall, self.memory,
                         self.memory_seen, self.memory_figure, self.cpu_figure, self.output,
                         self.processes, self.lingering, self.network, self.files,
                         self.throughput):
                self.progress(step.__name__.replace("_", " "))
                step()
        finally:
            self.target.close()
        if before is not None:
            self.leftovers(before, workdir)
        else:
            self.add("leftovers", Status.UNKNOWN, "remote", "the target is not on this host")
        report.probes = self.probes
        report.elapsed_s = time.monotonic() - started
        return report

    def check(self) -> None:
        """Fails at once, in one line, when the target cannot run the probe program at all
        (nothing answers at the URL, no python3 in the image, a prefix that does not run)."""
        answer = self.run_probe("trivial")
        if not answer.done:
            said = " | ".join(answer.stderr.strip().splitlines()[-3:])[-300:] or "no output"
            raise JudgeError(f"{self.target.name} cannot run the probe program "
                             f"({answer.error or answer.status}): {said}")

    # -- time ----------------------------------------------------------------------------------
    def cpu(self) -> None:
        limit = self.limits.cpu_s
        asked = limit * CPU_FACTOR
        answer = self.run_probe("cpu", int(asked * 1000))
        if self.failed_to_run("cpu", answer):
            return
        own = max((_f(v) or 0.0 for v in answer.lines("cpu")), default=0.0) / 1000
        if answer.done:
            self.add("cpu", Status.BROKEN, f"ran {own:.2f} s",
                     f"a {asked:g} s CPU program under {limit:g} s ran to its end ({answer.status})",
                     own_cpu_s=own, reported_cpu_s=answer.cpu_s)
            return
        # The larger of the two: a figure below the program's own clock is wrong (and the CPU
        # figure probe says so), not proof that the program stopped sooner.
        used = max(own, answer.cpu_s or 0.0)
        over_ms = (used - limit) * 1000
        details = {"own_cpu_s": own, "reported_cpu_s": answer.cpu_s, "overshoot_ms": round(over_ms, 1),
                   "answer": answer.status}
        if used < limit * STARVED:
            self.add("cpu", Status.UNKNOWN, f"stopped at {used:.2f} s",
                     f"stopped after only {used:.2f} s of CPU: the machine was too busy, or the wall "
                     f"clock stopped it first ({answer.status})", **details)
        elif over_ms > limit * 1000 * LEAK_SHARE + 50:
            self.add("cpu", Status.BROKEN, f"{used:.2f} s",
                     f"stopped only after {used:.2f} s of CPU under {limit:g} s ({answer.status})", **details)
        else:
            self.add("cpu", Status.HELD, f"{used:.2f} s ({over_ms:+.0f} ms)",
                     f"stopped after {used:.2f} s of CPU under {limit:g} s, overshoot {over_ms:+.0f} ms "
                     f"({answer.status})", **details)

    def cpu_across_processes(self) -> None:
        limit = self.limits.cpu_s
        answer = self.run_probe("cpu-procs", SPINNERS, int(limit * CPU_FACTOR * 1000))
        if self.failed_to_run("cpu-procs", answer):
            return
        each = [max((_f(v) or 0.0 for v in answer.lines(f"c{i}")), default=0.0) / 1000
                for i in range(SPINNERS)]
        total = sum(each)
        details = {"each_cpu_s": each, "reported_cpu_s": answer.cpu_s, "answer": answer.status}
        if answer.done or total > limit * (1 + CPU_SLACK) + 0.05:
            self.add("cpu-procs", Status.BROKEN, f"{total:.2f} s",
                     f"{SPINNERS} processes used {total:.2f} s of CPU in all under {limit:g} s "
                     f"({'each ran to its end' if answer.done else answer.status})", **details)
        elif self.by_the_clock(answer) and answer.last("cpus") == "1" \
                and self.said.wall_s <= limit and total >= limit * STARVED:
            self.add("cpu-procs", Status.HELD, f"{total:.2f} s, 1 CPU",
                     f"{SPINNERS} processes had one CPU between them, so the wall clock at "
                     f"{self.said.wall_s:g} s held them to {total:.2f} s of CPU in all "
                     f"({answer.status})", **details)
        elif total < limit * STARVED or self.by_the_clock(answer):
            self.add("cpu-procs", Status.UNKNOWN, f"{total:.2f} s",
                     f"{SPINNERS} processes had only {total:.2f} s of CPU in all when the "
                     f"{'wall clock' if self.by_the_clock(answer) else 'target'} stopped them: the "
                     f"machine gave them too little CPU to tell a CPU limit ({answer.status})",
                     **details)
        else:
            self.add("cpu-procs", Status.HELD, f"{total:.2f} s",
                     f"{SPINNERS} processes were stopped after {total:.2f} s of CPU in all under "
                     f"{limit:g} s ({answer.status})", **details)

    def wall(self) -> None:
        wall = self.said.wall_s
        asked = wall * 2 + 1
        answer = self.run_probe("sleep", int(asked * 1000))
        if self.failed_to_run("wall", answer):
            return
        took = answer.wall_s if answer.wall_s is not None else answer.request_s
        details = {"reported_wall_s": answer.wall_s, "request_s": round(answer.request_s, 3),
                   "answer": answer.status}
        if answer.done:
            self.add("wall", Status.BROKEN, f"slept {asked:g} s",
                     f"a program sleeping {asked:g} s under a {wall:g} s limit ran to its end "
                     f"({answer.status})", **details)
        else:
            self.add("wall", Status.HELD, f"{took:.2f} s ({(took - wall) * 1000:+.0f} ms)",
                     f"a sleeping program was stopped after {took:.2f} s under {wall:g} s "
                     f"({answer.status})", **details)

    def cpu_figure(self) -> None:
        spin_ms = int(self.limits.cpu_s * 1000 * FIGURE_CPU_SHARE)
        answer = self.run_probe("cpu", spin_ms)
        if self.failed_to_run("cpu-figure", answer):
            return
        own = _f(answer.last("cpu"))
        if not answer.done or own is None:
            self.add("cpu-figure", Status.UNKNOWN, "no run",
                     f"a {spin_ms} ms CPU program did not run to its end ({answer.status})")
            return
        if answer.cpu_s is None:
            wall = "" if answer.wall_s is None else f"; its wall-clock figure was {answer.wall_s:.3f} s"
            self.add("cpu-figure", Status.UNKNOWN, "none reported",
                     f"the target reports no CPU time for a {own:.0f} ms CPU program{wall}",
                     own_cpu_ms=own, reported_wall_s=answer.wall_s)
            return
        error = answer.cpu_s * 1000 - own
        high, low = own * CPU_ERROR + CPU_ERROR_MS, own * CPU_UNDER + CPU_UNDER_MS
        status = Status.HELD if -low <= error <= high else Status.BROKEN
        self.add("cpu-figure", status, f"{error:+.1f} ms",
                 f"reported {answer.cpu_s * 1000:.1f} ms for a program whose own clock read "
                 f"{own:.1f} ms ({error:+.1f} ms; allowed -{low:.0f}..+{high:.0f})",
                 own_cpu_ms=own, reported_cpu_ms=answer.cpu_s * 1000)

    # -- memory --------------------------------------------------------------------------------
    def memory(self) -> None:
        limit = self.limits.memory_mb
        asked = limit * MEMORY_FACTOR
        answer = self.run_probe("mem", asked, MEMORY_STEP_MB)
        if self.failed_to_run("memory", answer):
            return
        reached = int(_f(answer.last("mem")) or 0)
        details = {"reached_mb": reached, "reported_mb": answer.memory_mb, "answer": answer.status}
        if answer.done:
            self.add("memory", Status.BROKEN, f"ran {asked} MB",
                     f"a {asked} MB program under {limit} MB ran to its end ({answer.status})", **details)
        elif reached > limit * (1 + LEAK_SHARE):
            self.add("memory", Status.BROKEN, f"{reached} MB",
                     f"a program held {reached} MB under {limit} MB before it was stopped "
                     f"({answer.status})", **details)
        else:
            self.stopped("memory", answer, f"a program asking for {asked} MB", "memory",
                         f"<{reached + MEMORY_STEP_MB} MB", f" after {reached} MB under {limit} MB",
                         details)

    def memory_seen(self) -> None:
        answer = self.run_probe("see")
        if self.failed_to_run("memory-seen", answer):
            return
        seen = {key: answer.last(key) for key in ("rlimit_as_mb", "cgroup_memory_mb",
                                                  "memtotal_mb", "cpus", "pid", "uid")}
        def mb(key: str) -> str:
            value = seen[key] or "unseen"
            return f"{value} MB" if value.isdigit() else value
        text = (f"RLIMIT_AS {mb('rlimit_as_mb')}, cgroup memory limit {mb('cgroup_memory_mb')}, "
                f"MemTotal {mb('memtotal_mb')}, {seen['cpus']} CPUs, pid {seen['pid']}, "
                f"uid {seen['uid']}")
        figure = next((f"{seen[k]} MB ({k.split('_')[0]})" for k in ("cgroup_memory_mb", "rlimit_as_mb")
                       if (seen[k] or "").isdigit()), f"no limit; MemTotal {seen['memtotal_mb']}")
        self.add("memory-seen", Status.FIGURE, figure, text, **seen)

    def memory_figure(self) -> None:
        size = int(self.limits.memory_mb * FIGURE_MEMORY_SHARE)
        baseline = self.run_probe("mem", 0, MEMORY_STEP_MB)
        answer = self.run_probe("mem", size, MEMORY_STEP_MB)
        if self.failed_to_run("memory-figure", answer) or self.failed_to_run("memory-figure", baseline):
            return
        if not (answer.done and baseline.done):
            self.add("memory-figure", Status.UNKNOWN, "no run",
                     f"a {size} MB program did not run to its end ({answer.status})")
        elif answer.memory_mb is None or baseline.memory_mb is None:
            self.add("memory-figure", Status.UNKNOWN, "none reported",
                     f"the target reports no peak memory for a {size} MB program")
        else:
            held = answer.memory_mb - baseline.memory_mb
            error = held - size
            allowed = MEMORY_FIGURE_ERROR_MB + size * MEMORY_FIGURE_SHARE
            status = Status.HELD if abs(error) <= allowed else Status.BROKEN
            self.add("memory-figure", status, f"{error:+.1f} MB",
                     f"reported {answer.memory_mb:.1f} MB for {size} MB over a baseline of "
                     f"{baseline.memory_mb:.1f} MB ({error:+.1f} MB; allowed ±{allowed:.1f})",
                     reported_mb=answer.memory_mb, baseline_mb=baseline.memory_mb)

    # -- output and processes ------------------------------------------------------------------
    def output(self) -> None:
        limit = self.limits.output_mb
        asked = limit * OUTPUT_FACTOR
        answer = self.run_probe("output", asked)
        if self.failed_to_run("output", answer):
            return
        got = answer.stdout_bytes / (1 << 20)
        details = {"received_mb": round(got, 2), "answer": answer.status}
        if answer.done:
            self.add("output", Status.BROKEN, f"wrote {asked} MB",
                     f"a program wrote all {asked} MB of stdout under {limit} MB; {got:.0f} MB came "
                     f"back ({answer.status})", **details)
        else:
            self.stopped("output", answer, f"a program writing {asked} MB", "output",
                         f"{got:.1f} MB back", f"; {got:.1f} MB came back", details)

    def stopped(self, key: str, answer: Answer, doing: str, what: str, figure: str, after: str,
                details: dict) -> None:
        """A probe of a limit that the target stopped: held, unless the wall clock stopped it."""
        if self.by_the_clock(answer):
            self.add(key, Status.UNKNOWN, f"timed out, {figure}", f"{doing} was stopped by the "
                     f"time limit, not for its {what}{after} ({answer.status})", **details)
        else:
            self.add(key, Status.HELD, f"stopped, {figure}",
                     f"{doing} was stopped{after} ({answer.status})", **details)

    def processes(self) -> None:
        for key, mode in (("processes", "procs"), ("threads", "threads")):
            cap = self.limits.processes
            asked = cap * PROCESS_FACTOR
            answer = self.run_probe(mode, asked)
            if self.failed_to_run(key, answer):
                continue
            got = _f(answer.last(mode))
            offered = self.said.offered("processes")
            details = {"reached": got, "refused": answer.last("refused"), "answer": answer.status}
            if got is None:
                self.add(key, Status.UNKNOWN, "no count",
                         f"the program was stopped before it could count ({answer.status})", **details)
            elif got >= asked:
                self.add(key, Status.BROKEN, f"{got:.0f} at once",
                         f"{got:.0f} {mode.replace('procs', 'processes')} at once under a cap of {cap}",
                         **details)
            elif offered and got > cap * 2:
                self.add(key, Status.BROKEN, f"{got:.0f} at once",
                         f"refused only at {got:.0f} under a cap of {cap}", **details)
            else:
                self.add(key, Status.HELD, f"refused at {got:.0f}",
                         f"refused at {got:.0f} {mode.replace('procs', 'processes')} (asked {cap}"
                         f"{'' if offered else '; the target has no option: its own cap'})", **details)

    def lingering(self) -> None:
        answer = self.target.run(self.source, [self.marker, "linger", str(LINGER_S)], self.limits)
        if self.failed_to_run("lingering", answer):
            return
        if not self.target.local:
            self.add("lingering", Status.UNKNOWN, "remote", "the target is not on this host")
            return
        time.sleep(LINGER_LOOK_S)
        left = marked_processes(self.marker)
        killed = kill_marked(self.marker)
        if left:
            self.add("lingering", Status.BROKEN, f"{len(left)} left",
                     f"a detached process the program started was still running {LINGER_LOOK_S:g} s "
                     f"after the answer ({killed} killed by the audit)", pids=left)
        else:
            self.add("lingering", Status.HELD, "none",
                     f"nothing the program started was running {LINGER_LOOK_S:g} s after the answer "
                     f"({answer.status})")

    # -- isolation -----------------------------------------------------------------------------
    def network(self) -> None:
        self.reach("net-loopback", "127.0.0.1", "the host's loopback")
        address = host_address()
        if address is None:
            self.add("net-host", Status.UNKNOWN, "no address", "this host has no global IPv4 address")
        else:
            self.reach("net-host", address, f"the host's address {address}")
        host, port = OUTSIDE
        answer = self.run_probe("connect", host, port)
        if self.failed_to_run("net-outside", answer):
            return
        if "connected" in answer.stdout.split():
            self.add("net-outside", Status.BROKEN, "connected",
                     f"the program opened a TCP connection to {host}:{port}")
        elif answer.last("refused") is None:
            self.add("net-outside", Status.UNKNOWN, "no answer",
                     f"the run ended before its connection to {host}:{port} did ({answer.status})")
        elif not reaches_outside():
            self.add("net-outside", Status.UNKNOWN, "host offline",
                     f"this host cannot reach {host}:{port} itself, so the program's failure proves nothing")
        else:
            self.add("net-outside", Status.HELD, "refused",
                     f"the program could not reach {host}:{port}, which this host reaches "
                     f"({answer.last('refused')})")

    def reach(self, key: str, address: str, where: str) -> None:
        with Listener(address) as listener:
            answer = self.run_probe("connect", address, listener.port)
            time.sleep(0.3)
            reached = [r for r in listener.reached if self.marker.encode() in r]
        if self.failed_to_run(key, answer):
            return
        said = answer.last("refused") or ("connected" if "connected" in answer.stdout.split() else
                                          f"nothing: the run ended first, {answer.status}")
        if reached:
            self.add(key, Status.BROKEN, "connected",
                     f"the program connected to a listener on {where}")
        elif not self.target.local:
            self.add(key, Status.UNKNOWN, "remote",
                     f"the target is not on this host (the program says: {said})")
        else:
            self.add(key, Status.HELD, "no connection",
                     f"no connection reached a listener on {where} (the program says: {said})")

    def files(self) -> None:
        with Sentinel(self.marker) as sentinel:
            answer = self.run_probe("files", sentinel.path, sentinel.written)
            written = sentinel.written.is_file()
        if answer.error:
            for key in ("fs-read", "fs-shadow", "fs-write"):
                self.failed_to_run(key, answer)
            return
        if not self.target.local:
            for key in ("fs-read", "fs-shadow", "fs-write"):
                self.add(key, Status.UNKNOWN, "remote", "the target is not on this host")
            return
        if answer.last("sentinel") == sentinel.content:
            self.add("fs-read", Status.BROKEN, "read", f"the program read {sentinel.path} on the host")
        else:
            self.add("fs-read", Status.HELD, "not seen",
                     f"the program could not read a file put in the host's /tmp "
                     f"({answer.last('sentinel-error') or 'another file there'})")
        try:
            host_shadow = len(Path("/etc/shadow").read_text())
        except OSError:
            host_shadow = None
        shadow = _f(answer.last("shadow"))
        if shadow is not None and host_shadow is not None and int(shadow) == host_shadow:
            self.add("fs-shadow", Status.BROKEN, "read",
                     f"the program read the host's /etc/shadow ({host_shadow} bytes)")
        else:
            seen = (answer.last("shadow-error") or "no answer" if shadow is None else
                    f"an /etc/shadow of its own, {shadow:.0f} bytes")
            self.add("fs-shadow", Status.HELD, "not read", f"the program could not read it ({seen})")
        if written:
            self.add("fs-write", Status.BROKEN, "written",
                     f"the program created {sentinel.written} on the host")
        else:
            what = answer.last("write-error") or "its /tmp is its own"
            self.add("fs-write", Status.HELD, "refused",
                     f"nothing the program wrote reached the host's /tmp ({what})")

    # -- throughput and leftovers --------------------------------------------------------------
    def throughput(self) -> None:
        started = time.monotonic()
        serial = [self.run_probe("trivial") for _ in range(THROUGHPUT_RUNS)]
        serial_rate = THROUGHPUT_RUNS / (time.monotonic() - started)
        answers: list[Answer] = []
        lock = threading.Lock()

        def worker() -> None:
            for _ in range(THROUGHPUT_RUNS // THROUGHPUT_PARALLEL + 1):
                answer = self.target.run(self.source, [self.marker, "trivial"], self.limits)
                with lock:
                    answers.append(answer)

        started = time.monotonic()
        threads = [threading.Thread(target=worker) for _ in range(THROUGHPUT_PARALLEL)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        parallel_rate = len(answers) / (time.monotonic() - started)
        failed = [a for a in serial + answers if not (a.done and a.completed)]
        figure = f"{serial_rate:.1f}/s, {parallel_rate:.1f}/s x{THROUGHPUT_PARALLEL}"
        why = (f"{serial_rate:.1f} trivial runs a second one at a time, {parallel_rate:.1f} "
               f"{THROUGHPUT_PARALLEL} at a time")
        if failed:
            self.add("throughput", Status.BROKEN, figure, f"{len(failed)} of "
                     f"{len(serial) + len(answers)} trivial runs failed ({failed[0].status}); {why}")
        else:
            self.add("throughput", Status.HELD, figure, why, serial_per_s=round(serial_rate, 2),
                     parallel_per_s=round(parallel_rate, 2))

    def leftovers(self, before: HostSnapshot, workdir: Path) -> None:
        time.sleep(0.5)
        new = HostSnapshot.take().since(before)
        new["files"] += sorted(str(path) for path in workdir.iterdir())
        left = marked_processes(self.marker)
        kill_marked(self.marker)
        if left:
            new["processes"] = [str(pid) for pid in left]
        found = {kind: items for kind, items in new.items() if items}
        if found:
            summary = ", ".join(f"{len(items)} {kind}" for kind, items in found.items())
            examples = "; ".join(items[0] for items in found.values())
            self.add("leftovers", Status.BROKEN, summary,
                     f"{summary} new on the host after the audit (e.g. {examples}); on a shared host "
                     f"another program may have made some", **found)
        else:
            self.add("leftovers", Status.HELD, "none",
                     "no new cgroup, namespace, NAT rule, scratch file, file in the runs' working "
                     "directory or marked process on the host")


def audit_target(target: Target, limits: TargetLimits | None = None,
                 progress: Callable[[str], None] | None = None) -> TargetReport:
    return TargetAudit(target, limits, progress).run()
