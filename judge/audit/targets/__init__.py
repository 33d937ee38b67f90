"""The sandboxes `judge audit --target` audits, one adapter per module: a SandboxFusion-compatible
URL (http), the judge's own `judge serve` (judge_serve), and command-line sandboxes (command,
with bwrap, firejail, nsjail, container for docker and podman, systemd, and rlimits for none)."""
from __future__ import annotations

from judge import JudgeError
from judge.audit.targets.base import Answer, Said, Target, TargetLimits
from judge.audit.targets.command import ADAPTERS, PLAIN, CommandTarget
from judge.audit.targets.http import HttpTarget
from judge.audit.targets.judge_serve import JudgeServeTarget

JUDGE = "judge"


def url_target(spec: str) -> Target:
    """`judge` (the judge's own serve, started by the audit) or an http(s) URL."""
    if spec == JUDGE:
        return JudgeServeTarget(name=JUDGE)
    if not spec.startswith(("http://", "https://")):
        raise JudgeError(f"--target {spec!r} is neither {JUDGE!r} nor an http(s):// URL of a "
                         "SandboxFusion-compatible server")
    return HttpTarget(name=spec, url=spec)


def command_target(spec: str, interpreter: str = "python3") -> Target:
    """A command prefix (its first word picks the adapter), or `none` for no sandbox."""
    return CommandTarget.parse(spec, interpreter)


__all__ = ["Answer", "Said", "Target", "TargetLimits", "CommandTarget", "HttpTarget",
           "JudgeServeTarget", "url_target", "command_target", "ADAPTERS", "PLAIN", "JUDGE"]
