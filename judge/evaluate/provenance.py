"""What an evaluation's numbers were measured with: the judge and toolchain versions, the host
and the sandbox's mode on it, and the host's audit outcome. A host whose audit failed is refused
before anything is judged (its limits are not trusted) unless the caller allows unaudited runs;
then, and whenever the audit did not pass, the summary says so."""
from __future__ import annotations

import os
import platform
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from judge import JudgeError, __version__
from judge.audit import record
from judge.audit.host import container_engine, cpu_model
from judge.audit.record import AuditOutcome, AuditStatus
from judge.build_info import BuildInfo, build_info

AUDIT_COMMAND = "judge audit --quick"


@dataclass
class SandboxMode:
    cgroup: str
    uid_mode: str
    root: bool


@dataclass
class AuditState:
    status: AuditStatus
    outcome: AuditOutcome | None     # None: never audited and the caller chose not to
    recorded: bool                   # read from the host's record (else audited by this run)
    record: str
    allowed_unaudited: bool

    def to_dict(self) -> dict:
        # The command whose outcome this is: a full `judge audit` recorded on the host counts too.
        command = AUDIT_COMMAND if self.outcome is None or self.outcome.quick else "judge audit"
        return {"status": self.status.value, "command": command, "recorded": self.recorded,
                "record": self.record, "allowed_unaudited": self.allowed_unaudited,
                **({"outcome": self.outcome.to_dict()} if self.outcome else {})}


@dataclass
class Provenance:
    judge_version: str
    build: BuildInfo                # the commit (dirty or not) and source hash of this judge
    python: str
    toolchains: dict[str, str]
    host: dict
    sandbox: SandboxMode
    audit: AuditState
    warnings: list[str] = field(default_factory=list)

    @property
    def trusted(self) -> bool:
        return self.audit.status == AuditStatus.PASS

    def to_dict(self) -> dict:
        return {"judge_version": self.judge_version, "judge_build": self.build.to_dict(),
                "python": self.python,
                "toolchains": self.toolchains, "host": self.host, "sandbox": asdict(self.sandbox),
                "audit": self.audit.to_dict(), "trusted": self.trusted}


def sandbox_mode(slot: int) -> SandboxMode:
    """The cgroup and uid mode the sandboxes of this process get, from one started sandbox."""
    from judge.sandbox import Sandbox
    with Sandbox(slot=slot) as sandbox:
        return SandboxMode(sandbox.cgroup or "unknown", sandbox.uid_mode or "unknown",
                           os.geteuid() == 0)


def _audit_now(slot: int) -> AuditOutcome:
    from judge.audit import parse_languages, run_audit
    languages, explicit = parse_languages(None)
    return AuditOutcome.from_report(run_audit(languages, explicit=explicit, quick=True, slot=slot))


def _refusal(outcome: AuditOutcome, path: str) -> str:
    failures = "; ".join(outcome.failures[:3]) + (
        f"; and {len(outcome.failures) - 3} more" if len(outcome.failures) > 3 else "")
    return (f"this host failed `{AUDIT_COMMAND}` ({outcome.created}; record {path}): {failures}. "
            "Its limits are not trusted, so nothing was judged: fix the host and run "
            f"`{AUDIT_COMMAND}` again, or pass --allow-unaudited to evaluate anyway (the "
            "summary is then marked)")


def establish(languages: list[str], slot: int, allow_unaudited: bool,
              inform: Callable[[str], None]) -> Provenance:
    """The provenance of an evaluation about to judge ``languages``, auditing the host first when
    it has no audit record. Raises JudgeError when the host's audit failed, unless
    ``allow_unaudited`` (which also never starts an audit)."""
    from judge.audit import languages_here
    from judge.audit.runner import broken_switches
    from judge.languages import LANGUAGES
    mode = sandbox_mode(slot)
    key = record.host_key(mode.cgroup, mode.uid_mode, languages_here(), broken_switches())
    path = str(record.record_path(key))
    if allow_unaudited:
        outcome, recorded = record.load(key), True
    else:
        def audit() -> AuditOutcome:
            inform(f"this host has no audit record for judge {__version__} (cgroup {mode.cgroup}, "
                   f"{mode.uid_mode}); running `{AUDIT_COMMAND}` once, about a minute; it is "
                   f"kept in {path}")
            return _audit_now(slot)
        outcome, recorded = record.load_or_audit(key, audit)
        if outcome.status == AuditStatus.FAIL:
            raise JudgeError(_refusal(outcome, path))
    status = outcome.status if outcome else AuditStatus.NOT_RUN
    state = AuditState(status, outcome, recorded and outcome is not None, path, allow_unaudited)
    provenance = Provenance(
        judge_version=__version__, build=build_info(), python=platform.python_version(),
        toolchains={lang: LANGUAGES[lang].toolchain_version for lang in sorted(set(languages))},
        host={"cpu_model": cpu_model(), "cpus": os.cpu_count(), "kernel": platform.release(),
              "platform": platform.platform(), "container": container_engine()},
        sandbox=mode, audit=state)
    if status != AuditStatus.PASS:
        provenance.warnings.append(_untrusted_warning(state))
    return provenance


def _untrusted_warning(state: AuditState) -> str:
    if state.status == AuditStatus.NOT_RUN:
        return (f"UNAUDITED: this host was never audited (--allow-unaudited); run "
                f"`{AUDIT_COMMAND}` before publishing these numbers")
    if state.status == AuditStatus.FAIL:
        assert state.outcome is not None
        return (f"UNAUDITED: this host FAILED `{AUDIT_COMMAND}` ({state.outcome.failures[0]}); "
                "evaluated anyway (--allow-unaudited): its limits are not trusted")
    return (f"the host's `{AUDIT_COMMAND}` was inconclusive (a busy machine starved some probes); "
            f"run it again on a quiet machine before publishing these numbers")


__all__ = ["Provenance", "SandboxMode", "AuditState", "establish", "AUDIT_COMMAND"]
