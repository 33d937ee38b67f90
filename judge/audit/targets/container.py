"""`docker run` and `podman run`: the container's cgroup (memory without swap, pids) and a CPU
rlimit through --ulimit, put right after `run`; a container has no wall-clock option."""
from __future__ import annotations

import math

from judge.audit.targets.base import NO_OPTION, Said, TargetLimits
from judge.audit.targets.wrapping import Wrapping, insert_after


def wrap(prefix: list[str], limits: TargetLimits) -> Wrapping:
    cpu = max(1, math.ceil(limits.cpu_s))
    memory = f"{limits.memory_mb}m"
    options = ["--memory", memory, "--memory-swap", memory, "--pids-limit", str(limits.processes),
               "--ulimit", f"cpu={cpu}:{cpu + 1}"]
    said = {"cpu": f"--ulimit cpu={cpu}:{cpu + 1}",
            "wall": f"{NO_OPTION} (a container has no wall-clock limit)",
            "memory": f"--memory {memory} --memory-swap {memory}",
            "output": f"{NO_OPTION} (a container's stdout is a pipe)",
            "processes": f"--pids-limit {limits.processes}"}
    at = prefix.index("run") + 1 if "run" in prefix else 1
    return Wrapping(insert_after(prefix, at, options), {}, Said(said, wall_s=limits.wall_s))
