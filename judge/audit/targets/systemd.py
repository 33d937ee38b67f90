"""`systemd-run --scope`: the scope's cgroup (MemoryMax without swap, TasksMax) and a wall-clock
RuntimeMaxSec; a scope takes no Limit* property, so the CPU limit is an rlimit on systemd-run,
which the program it execs inherits. Needs systemd as the host's init."""
from __future__ import annotations

import math
import resource

from judge.audit.targets.base import NO_OPTION, Said, TargetLimits
from judge.audit.targets.wrapping import Wrapping, insert_after


def wrap(prefix: list[str], limits: TargetLimits) -> Wrapping:
    cpu, wall = max(1, math.ceil(limits.cpu_s)), max(1, math.ceil(limits.wall_s))
    properties = [f"MemoryMax={limits.memory_mb}M", "MemorySwapMax=0",
                  f"TasksMax={limits.processes}", f"RuntimeMaxSec={wall}"]
    options = [word for p in properties for word in ("-p", p)]
    said = {"cpu": f"RLIMIT_CPU={cpu} s on systemd-run", "wall": f"-p RuntimeMaxSec={wall}",
            "memory": f"-p MemoryMax={limits.memory_mb}M -p MemorySwapMax=0",
            "output": f"{NO_OPTION} (a scope's stdout is a pipe)",
            "processes": f"-p TasksMax={limits.processes}"}
    return Wrapping(insert_after(prefix, 1, options), {resource.RLIMIT_CPU: (cpu, cpu + 1)},
                    Said(said, wall_s=float(wall)))
