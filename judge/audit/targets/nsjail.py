"""nsjail: rlimits, a wall-clock --time_limit and cgroup limits (memory, pids), all options of
its own, put before the `--` that ends them."""
from __future__ import annotations

import math

from judge.audit.targets.base import Said, TargetLimits
from judge.audit.targets.wrapping import Wrapping, insert_after

MiB = 1 << 20


def wrap(prefix: list[str], limits: TargetLimits) -> Wrapping:
    cpu, wall = max(1, math.ceil(limits.cpu_s)), max(1, math.ceil(limits.wall_s))
    said = {"cpu": f"--rlimit_cpu {cpu}", "wall": f"--time_limit {wall}",
            "memory": f"--cgroup_mem_max {limits.memory_mb * MiB} --rlimit_as {limits.memory_mb}",
            "output": f"--rlimit_fsize {limits.output_mb} (files only, not a pipe)",
            "processes": f"--cgroup_pids_max {limits.processes} --rlimit_nproc {limits.processes}"}
    options = ["--rlimit_cpu", str(cpu), "--time_limit", str(wall),
               "--cgroup_mem_max", str(limits.memory_mb * MiB), "--rlimit_as", str(limits.memory_mb),
               "--rlimit_fsize", str(limits.output_mb),
               "--cgroup_pids_max", str(limits.processes), "--rlimit_nproc", str(limits.processes)]
    return Wrapping(insert_after(prefix, 1, options), {}, Said(said, wall_s=float(wall)))
