"""bubblewrap: namespaces and mounts, and no resource options of its own. "1 s CPU, 256 MB" is
said the only way bwrap's users can: rlimits on the bwrap process, which the program inherits."""
from __future__ import annotations

from judge.audit.targets.base import Said, TargetLimits
from judge.audit.targets.rlimits import limits_as_rlimits, rlimit_options
from judge.audit.targets.wrapping import Wrapping


def wrap(prefix: list[str], limits: TargetLimits) -> Wrapping:
    return Wrapping(list(prefix), limits_as_rlimits(limits),
                    Said(rlimit_options(limits, " on bwrap"), wall_s=limits.wall_s))
