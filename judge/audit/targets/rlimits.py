"""No sandbox at all: the program as a plain subprocess of the audit with resource limits
(`resource.setrlimit`), as many evaluation scripts run generated code. "1 s CPU, 256 MB" is
RLIMIT_CPU=1 and RLIMIT_AS=256 MB; what rlimits cannot say (a wall clock, a pipe's size, a
process cap for root) the report shows as not enforced."""
from __future__ import annotations

import math
import resource

from judge.audit.targets.base import NO_OPTION, Said, TargetLimits
from judge.audit.targets.wrapping import Wrapping

MiB = 1 << 20


def limits_as_rlimits(limits: TargetLimits) -> dict[int, tuple[int, int]]:
    """RLIMIT_CPU in whole seconds (SIGXCPU at the soft limit, SIGKILL a second later),
    RLIMIT_AS for memory, RLIMIT_FSIZE for output (files only) and RLIMIT_NPROC for processes."""
    cpu = max(1, math.ceil(limits.cpu_s))
    return {resource.RLIMIT_CPU: (cpu, cpu + 1),
            resource.RLIMIT_AS: (limits.memory_mb * MiB, limits.memory_mb * MiB),
            resource.RLIMIT_FSIZE: (limits.output_mb * MiB, limits.output_mb * MiB),
            resource.RLIMIT_NPROC: (limits.processes, limits.processes)}


def rlimit_options(limits: TargetLimits, where: str = "") -> dict[str, str]:
    cpu = max(1, math.ceil(limits.cpu_s))
    return {"cpu": f"RLIMIT_CPU={cpu} s{where}",
            "wall": f"{NO_OPTION} (rlimits have no wall clock)",
            "memory": f"RLIMIT_AS={limits.memory_mb} MB{where}",
            "output": f"RLIMIT_FSIZE={limits.output_mb} MB{where} (files only, not a pipe)",
            "processes": f"RLIMIT_NPROC={limits.processes}{where} (per user; root is exempt)"}


def wrap(prefix: list[str], limits: TargetLimits) -> Wrapping:
    return Wrapping(list(prefix), limits_as_rlimits(limits),
                    Said(rlimit_options(limits), wall_s=limits.wall_s))
