"""firejail: its own rlimit options and a wall-clock --timeout (whole seconds, hh:mm:ss)."""
from __future__ import annotations

import math

from judge.audit.targets.base import Said, TargetLimits
from judge.audit.targets.wrapping import Wrapping, insert_after

MiB = 1 << 20


def wrap(prefix: list[str], limits: TargetLimits) -> Wrapping:
    cpu, wall = max(1, math.ceil(limits.cpu_s)), max(1, math.ceil(limits.wall_s))
    options = {"cpu": f"--rlimit-cpu={cpu}",
               "wall": f"--timeout={wall // 3600:02d}:{wall // 60 % 60:02d}:{wall % 60:02d}",
               "memory": f"--rlimit-as={limits.memory_mb * MiB}",
               "output": f"--rlimit-fsize={limits.output_mb * MiB}",
               "processes": f"--rlimit-nproc={limits.processes}"}
    options_said = {**options, "output": f"{options['output']} (files only, not a pipe)"}
    return Wrapping(insert_after(prefix, 1, list(options.values())), {},
                    Said(options_said, wall_s=float(wall)))
