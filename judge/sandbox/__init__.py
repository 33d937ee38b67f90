"""One run of one program: limits, isolation, figures (docs/design/2-process-tree.md §2 process
tree, §3 isolation and limits)."""
from judge.sandbox.policy import POLICIES
from judge.sandbox.result import Limits, RunResult
from judge.sandbox.slot import CGROUP_MODES, Sandbox, SandboxError, run_once

__all__ = ["Limits", "RunResult", "Sandbox", "SandboxError", "run_once", "POLICIES", "CGROUP_MODES"]
