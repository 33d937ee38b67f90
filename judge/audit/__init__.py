"""`judge audit`: proves on this machine that the judge enforces and measures limits right.

Self-timed probes run through the grading path itself (language profile, sandboxed Compiler,
the Grader's run slot with the language's policy and run limits); each probe states what a
correct judge reports and what this one did. Host facts that make timings untrustworthy come
with a warning and what to do about it."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from judge import JudgeError
from judge.audit import host
from judge.audit.probes import Audit, Probe
from judge.audit.runner import AUDIT_SLOT, SOURCES, ProbeRunner, broken_switches
from judge.cpus import idlest_cpu
from judge.languages import Language, get_language

# What `judge audit` covers by default (and what an evaluation's audit record is of): the
# benchmark's three languages. `--lang all` adds every other language with a probe program,
# minutes more on a machine with every toolchain.
AUDIT_LANGUAGES = ("cpp", "python", "java")
PROBED_LANGUAGES = tuple(SOURCES)
ALL = "all"
GROUPS = ("time", "memory", "isolation", "interaction", "stability")


@dataclass
class AuditReport:
    languages: list[str]
    quick: bool
    host: host.HostFacts
    probes: list[Probe] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    elapsed_s: float = 0.0
    broken: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.probes) and all(p.passed for p in self.probes)

    @property
    def failed(self) -> list[Probe]:
        return [p for p in self.probes if not p.passed]

    @property
    def inconclusive(self) -> list[Probe]:
        return [p for p in self.probes if not p.passed and p.inconclusive]

    def to_dict(self) -> dict:
        return {"ok": self.ok, "languages": self.languages, "quick": self.quick,
                "elapsed_s": round(self.elapsed_s, 1), "host": self.host.to_dict(),
                "warnings": self.host.warnings, "skipped": self.skipped, "broken": self.broken,
                "passed": sum(p.passed for p in self.probes), "failed": len(self.failed),
                "inconclusive": len(self.inconclusive),
                "probes": [p.to_dict() for p in self.probes]}


def parse_languages(spec: str | None) -> tuple[list[Language], bool]:
    """'cpp,python' -> the profiles, and whether the user named them (else: the defaults).
    'all' is every language with a probe program. Raises JudgeError for a language the audit
    has no probes for."""
    explicit = bool(spec and spec.strip())
    names = [s.strip() for s in (spec or ",".join(AUDIT_LANGUAGES)).split(",") if s.strip()]
    if ALL in names:
        names = [name for name in names if name != ALL] + list(PROBED_LANGUAGES)
    languages: list[Language] = []
    for name in names:
        lang = get_language(name)
        if lang.name not in PROBED_LANGUAGES:
            raise JudgeError(f"the audit has no probes for {lang.name!r} "
                             f"(choose from {', '.join(PROBED_LANGUAGES)}, or {ALL})")
        if lang not in languages:
            languages.append(lang)
    return languages, explicit


def languages_here() -> list[str]:
    """The languages an audit of the defaults covers on this host: those with a toolchain."""
    return [lang.name for lang in parse_languages(None)[0] if lang.available]


def parse_groups(spec: str | None) -> list[str]:
    names = [s.strip() for s in (spec or ",".join(GROUPS)).split(",") if s.strip()]
    for name in names:
        if name not in GROUPS:
            raise JudgeError(f"unknown probe group {name!r} (choose from {', '.join(GROUPS)})")
    return [g for g in GROUPS if g in names]


def wants_every_language(spec: str | None) -> bool:
    """`--lang all` asks for whatever this machine has: a language without its toolchain is
    skipped, not failed, as it is for the defaults."""
    return ALL in [s.strip() for s in (spec or "").split(",")]


def run_audit(languages: list[Language], *, explicit: bool = True, quick: bool = False,
              groups: list[str] | None = None, slot: int = AUDIT_SLOT, cpu: int | None = None,
              progress=None, skip_missing: bool | None = None) -> AuditReport:
    started = time.perf_counter()
    groups = groups or list(GROUPS)
    facts = host.collect()
    report = AuditReport([lang.name for lang in languages], quick, facts,
                         broken=sorted(broken_switches()))
    usable = []
    if skip_missing is None:
        skip_missing = not explicit
    for lang in languages:
        if lang.available:
            usable.append(lang)
        elif not skip_missing:
            report.probes.append(Probe("toolchain", lang.name, "toolchain installed",
                                       "installed", "not installed", False))
        else:
            report.skipped.append(f"{lang.name}: toolchain not installed")
    if cpu is None:
        cpu = idlest_cpu(facts.cpus)
    elif cpu not in facts.cpus:
        raise JudgeError(f"CPU {cpu} is not usable here (usable: {', '.join(map(str, facts.cpus))})")
    facts.audit_cpu = cpu
    with ProbeRunner(slot=slot, cpu=cpu) as runner:
        facts.cgroup = runner.sandbox.cgroup or "unknown"
        facts.uid_mode = runner.sandbox.uid_mode or "unknown"
        audit = Audit(runner, usable, quick=quick, progress=progress)
        for lang in usable:
            runner.compile(lang)
            if "time" in groups:
                audit.time_probes(lang)
            if "memory" in groups:
                audit.memory_probes(lang)
            if "isolation" in groups:
                audit.isolation_probes(lang)
            if "interaction" in groups and lang.name == "cpp":
                audit.interaction_probes(lang)
        if "stability" in groups and usable:
            stable = next((lang for lang in usable if lang.name == "cpp"), usable[0])
            audit.stability_probes(stable)
        report.probes.extend(audit.probes)
    facts.sources = {k: sorted(v) for k, v in audit.sources.items()}
    facts.warnings = host.warnings(facts)
    if report.broken:
        facts.warnings.insert(0, f"test-only break switch JUDGE_AUDIT_BREAK={','.join(report.broken)} "
                              "is on: this audit is meant to fail")
    report.elapsed_s = time.perf_counter() - started
    return report


__all__ = ["AuditReport", "run_audit", "parse_languages", "parse_groups", "languages_here",
           "wants_every_language", "AUDIT_LANGUAGES", "PROBED_LANGUAGES", "ALL", "GROUPS"]
