"""The host's audit record: the outcome of the last `judge audit --quick` (or full audit) of the
default languages on this host, kept in the judge's cache directory so that `judge eval` audits
a host once per judge version, sandbox mode, kernel and toolchain set, not once per run.

A record is read under a lock (two evaluations starting together audit once), written by an
atomic rename (a crash never leaves half a record), and one that cannot be read or belongs to
another key is treated as missing: the host is audited again."""
from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import platform
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path

from judge import __version__
from judge.audit.host import cpu_model
from judge.cache import judge_cache_dir

logger = logging.getLogger(__name__)

RECORD_FORMAT = 1


class AuditStatus(StrEnum):
    PASS = "PASS"                    # every probe passed
    FAIL = "FAIL"                    # a probe failed: the host's limits are not trusted
    INCONCLUSIVE = "INCONCLUSIVE"    # no probe failed, some were starved by a busy machine
    NOT_RUN = "NOT RUN"              # no record, and the caller chose not to audit


@dataclass(frozen=True)
class HostKey:
    """What an audit outcome depends on; a change of any of these audits the host again."""
    judge_version: str
    cgroup: str
    uid_mode: str
    kernel: str
    cpu_model: str
    machine: str              # /etc/machine-id, else the host name
    languages: tuple[str, ...]
    time_factors: tuple[tuple[str, float], ...]   # they set the limits the probes are held to
    broken: tuple[str, ...]   # the test-only break switches that were on

    def to_dict(self) -> dict:
        return {**asdict(self), "languages": list(self.languages),
                "time_factors": [list(pair) for pair in self.time_factors],
                "broken": list(self.broken)}

    def digest(self) -> str:
        return hashlib.sha256(json.dumps(self.to_dict(), sort_keys=True).encode()).hexdigest()[:20]


@dataclass
class AuditOutcome:
    status: AuditStatus
    quick: bool
    created: str
    elapsed_s: float
    languages: list[str]
    passed: int
    failures: list[str] = field(default_factory=list)      # "cpp spinner 0.5x TL: measured"
    inconclusive: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {**asdict(self), "status": self.status.value}

    @classmethod
    def from_dict(cls, data: dict) -> AuditOutcome:
        return cls(**{**data, "status": AuditStatus(data["status"])})

    @classmethod
    def from_report(cls, report) -> AuditOutcome:
        """From a judge.audit.AuditReport."""
        def line(p) -> str:
            return f"{p.language} {p.name}: {p.measured}"
        failed = [p for p in report.failed if not p.inconclusive]
        status = (AuditStatus.FAIL if failed or not report.probes else
                  AuditStatus.INCONCLUSIVE if report.inconclusive else AuditStatus.PASS)
        return cls(status=status, quick=report.quick, created=time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                   elapsed_s=round(report.elapsed_s, 1), languages=list(report.languages),
                   passed=sum(p.passed for p in report.probes),
                   failures=[line(p) for p in failed] or ([] if report.probes else ["no probe ran"]),
                   inconclusive=[line(p) for p in report.inconclusive])


def machine_identity() -> str:
    try:
        value = Path("/etc/machine-id").read_text().strip()
    except OSError:
        value = ""
    return value or platform.node()


def host_key(cgroup: str, uid_mode: str, languages: list[str], broken: set[str]) -> HostKey:
    """The key of an audit of ``languages`` now, with the languages' time factors in force."""
    from judge.languages import get_language
    names = tuple(sorted(languages))
    return HostKey(__version__, cgroup, uid_mode, platform.release(), cpu_model(),
                   machine_identity(), names,
                   tuple((name, get_language(name).time_factor) for name in names),
                   tuple(sorted(broken)))


def records_dir() -> Path:
    return judge_cache_dir("audit")


def record_path(key: HostKey) -> Path:
    return records_dir() / f"{key.digest()}.json"


@contextmanager
def _locked(key: HostKey) -> Iterator[None]:
    with open(records_dir() / f"{key.digest()}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _read(key: HostKey) -> AuditOutcome | None:
    path = record_path(key)
    try:
        data = json.loads(path.read_text())
        if data.get("format") != RECORD_FORMAT or data.get("key") != key.to_dict():
            logger.info("audit record %s is of another format or key: audited again", path)
            return None
        return AuditOutcome.from_dict(data["outcome"])
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
        logger.warning("audit record %s cannot be read (%s): audited again", path, exc)
        return None


def _write(key: HostKey, outcome: AuditOutcome) -> None:
    path = record_path(key)
    text = json.dumps({"format": RECORD_FORMAT, "key": key.to_dict(), "outcome": outcome.to_dict()},
                      indent=2, ensure_ascii=False) + "\n"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        logger.info("audit record %s: %s", path, outcome.status)
    except BaseException:
        os.unlink(tmp)
        raise


def load(key: HostKey) -> AuditOutcome | None:
    with _locked(key):
        return _read(key)


def store(key: HostKey, outcome: AuditOutcome) -> None:
    with _locked(key):
        _write(key, outcome)


def record_outcome(report) -> None:
    """Keeps the outcome of an audit of the default languages and every probe group (a
    judge.audit.AuditReport) as this host's record: the one `judge eval` reads."""
    from judge.audit import languages_here
    key = host_key(report.host.cgroup, report.host.uid_mode, languages_here(), set(report.broken))
    store(key, AuditOutcome.from_report(report))


def load_or_audit(key: HostKey, audit: Callable[[], AuditOutcome]) -> tuple[AuditOutcome, bool]:
    """The recorded outcome for ``key``, else ``audit()``'s, recorded. Returns it and whether it
    came from the record. A second caller waits for the first one's audit and reads its record."""
    with _locked(key):
        recorded = _read(key)
        if recorded is not None:
            return recorded, True
        outcome = audit()
        _write(key, outcome)
        return outcome, False


__all__ = ["AuditStatus", "AuditOutcome", "HostKey", "host_key", "load", "store",
           "load_or_audit", "record_path", "record_outcome"]
