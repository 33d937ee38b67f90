"""Facts about the host that decide whether its timings can be trusted, each with a warning and
what to do about it when it makes them untrustworthy."""
from __future__ import annotations

import os
import platform
from dataclasses import asdict, dataclass, field
from pathlib import Path

from judge.cpus import usable_cpus

SYS_CPU = "/sys/devices/system/cpu"
UNSTEADY_GOVERNORS = ("powersave", "ondemand", "conservative")


@dataclass
class HostFacts:
    cpus: list[int]                       # CPUs this process may run on (slots are pinned to them)
    governors: dict[str, list[int]]       # governor -> CPUs; {"unknown": [...]} without cpufreq
    smt_groups: list[list[int]]           # sets of hardware threads sharing a physical core
    load_average: tuple[float, float, float]
    kernel: str
    cpu_model: str
    cgroup: str = "unknown"               # what the Sandbox reports: v1, v2 or none
    uid_mode: str = "unknown"
    audit_cpu: int | None = None          # the CPU the audit's slot was pinned to
    sources: dict = field(default_factory=dict)   # figure -> sorted list of sources seen
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["load_average"] = list(self.load_average)
        return data


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def parse_cpu_list(text: str) -> list[int]:
    """'0-3,8,10-11' -> [0, 1, 2, 3, 8, 10, 11]"""
    cpus: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        low, _, high = part.partition("-")
        cpus.extend(range(int(low), int(high or low) + 1))
    return cpus


def governors(cpus: list[int], root: str = SYS_CPU) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for cpu in cpus:
        value = _read(Path(root) / f"cpu{cpu}" / "cpufreq" / "scaling_governor") or "unknown"
        found.setdefault(value, []).append(cpu)
    return found


def smt_groups(cpus: list[int], root: str = SYS_CPU) -> list[list[int]]:
    """Groups of usable CPUs that are hardware threads of one physical core (only groups of 2+)."""
    groups: list[list[int]] = []
    usable = set(cpus)
    for cpu in cpus:
        text = _read(Path(root) / f"cpu{cpu}" / "topology" / "thread_siblings_list")
        if not text:
            continue
        try:
            siblings = sorted(usable.intersection(parse_cpu_list(text)))
        except ValueError:
            continue
        if len(siblings) > 1 and siblings not in groups:
            groups.append(siblings)
    return groups




def cpu_model() -> str:
    text = _read(Path("/proc/cpuinfo")) or ""
    for line in text.splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.machine()


def container_engine() -> str | None:
    """The container this process runs in, with how it was recognised; None outside one."""
    engine = next((f"{name} container ({marker})" for name, marker in
                   (("podman", "/run/.containerenv"), ("docker", "/.dockerenv"))
                   if os.path.exists(marker)), None)
    if engine is not None:
        return engine
    try:
        environ = Path("/proc/1/environ").read_bytes().split(b"\0")
    except OSError:
        environ = []
    return next((f"{e[len(b'container='):].decode(errors='replace')} container "
                 "(container= in /proc/1/environ)"
                 for e in environ if e.startswith(b"container=")), None)


def collect(root: str = SYS_CPU) -> HostFacts:
    cpus = usable_cpus()
    return HostFacts(cpus=cpus, governors=governors(cpus, root), smt_groups=smt_groups(cpus, root),
                     load_average=os.getloadavg(), kernel=platform.release(),
                     cpu_model=cpu_model())


def warnings(facts: HostFacts) -> list[str]:
    """What makes this machine's timings untrustworthy, and what to do about it."""
    out: list[str] = []
    for governor, cpus in sorted(facts.governors.items()):
        if governor in UNSTEADY_GOVERNORS:
            out.append(f"CPU frequency governor '{governor}' on CPUs {_cpus(cpus)}: the clock speed "
                       "changes with load, so the same program takes different CPU times. Set the "
                       "'performance' governor (e.g. `cpupower frequency-set -g performance`).")
    if set(facts.governors) == {"unknown"}:
        out.append("CPU frequency governor unknown (no cpufreq in sysfs, usual in VMs): the host "
                   "may scale the clock; compare CPU times only with figures taken on this machine.")
    for group in facts.smt_groups:
        out.append(f"CPUs {_cpus(group)} are SMT siblings (hyper-threads of one physical core): two "
                   "slots pinned to them slow each other down. Run one slot per physical core "
                   "(e.g. use only one CPU of each sibling group) or disable SMT.")
    cores = max(1, len(facts.cpus))
    if facts.load_average[0] > cores:
        out.append(f"load average {facts.load_average[0]:.2f} is above the {cores} usable CPUs: other "
                   "work competes with the runs, so CPU times are inflated by cache and scheduler "
                   "noise and wall-time limits may fire early. Audit and benchmark on an idle machine.")
    if facts.cgroup == "none":
        out.append("no cgroup: programs may not start processes (threads only); CPU time comes "
                   "from rusage, memory from a 5 ms watch of resident memory and ru_maxrss. Run the "
                   "judge as root or with a delegated cgroup v2 subtree (judge doctor says why none "
                   "is used) for kernel-exact figures.")
    for figure, seen in sorted(facts.sources.items()):
        inexact = [s for s in seen if not is_exact(s)]
        if inexact:
            out.append(f"{figure} figures came from {', '.join(inexact)}, which is not exact "
                       f"({source_meaning(figure, inexact[0])}).")
    return out


def is_exact(source: str) -> bool:
    return source.startswith("cgroup")


def source_meaning(figure: str, source: str) -> str:
    if source.startswith("cgroup"):
        return ("the cgroup's CPU counter: every thread and process of the run, in ns"
                if figure == "cpu" else "the cgroup's peak usage: every process of the run")
    if figure == "cpu":
        return "rusage of the run's one process and its threads"
    return "ru_maxrss of the run's one process, and a 5 ms watch of its resident memory"


def _cpus(cpus: list[int]) -> str:
    return ",".join(str(c) for c in cpus)
