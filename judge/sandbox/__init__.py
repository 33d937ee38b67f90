"""One run of one program: limits, isolation, figures (DESIGN.md §2)."""
from judge.sandbox.result import Limits, RunResult, STATUSES
from judge.sandbox.slot import CGROUP_MODES, Sandbox, SandboxError, run_once
from judge.sandbox.policy import POLICIES

__all__ = ["Limits", "RunResult", "STATUSES", "Sandbox", "SandboxError", "run_once", "POLICIES", "CGROUP_MODES"]
