"""The host's audit record: a host is audited once per key, a record that cannot be trusted (torn,
another format, another key) means auditing again, two evaluations starting together audit
once, and a write that fails leaves the previous record whole. No sandbox: the audit is a
counting stand-in."""
from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import replace
from types import SimpleNamespace

import pytest

from judge.audit import record
from judge.audit.probes import Probe
from judge.audit.record import AuditOutcome, AuditStatus, HostKey


@pytest.fixture(autouse=True)
def cache(tmp_path, configure):
    configure(cache_dir=tmp_path)
    return tmp_path


KEY = HostKey("9.9", "v1", "userns", "6.1.0", "Test CPU", "machine-1", ("cpp", "python"),
              (("cpp", 1.0), ("python", 2.0)), ())


def outcome(status: AuditStatus = AuditStatus.PASS, failures: list[str] | None = None) -> AuditOutcome:
    return AuditOutcome(status=status, quick=True, created="2026-12-04T00:00:00+0000",
                        elapsed_s=44.6, languages=["cpp", "python"], passed=57,
                        failures=failures or [])


class CountingAudit:
    def __init__(self, result: AuditOutcome, seconds: float = 0.0) -> None:
        self.result, self.seconds, self.calls = result, seconds, 0

    def __call__(self) -> AuditOutcome:
        self.calls += 1
        time.sleep(self.seconds)
        return self.result


def test_a_host_is_audited_once_per_key():
    audit = CountingAudit(outcome())
    first, recorded_first = record.load_or_audit(KEY, audit)
    second, recorded_second = record.load_or_audit(KEY, audit)
    assert audit.calls == 1 and (recorded_first, recorded_second) == (False, True)
    assert first == second and second.status == AuditStatus.PASS
    # Another judge version, kernel or toolchain set is another host as far as trust goes.
    for changed in (replace(KEY, judge_version="10.0"), replace(KEY, kernel="6.2.0"),
                    replace(KEY, languages=("cpp",)), replace(KEY, broken=("memory",)),
                    replace(KEY, time_factors=(("cpp", 1.0), ("python", 16.0)))):
        assert record.load(changed) is None
        assert record.load_or_audit(changed, audit)[1] is False
    assert audit.calls == 6


@pytest.mark.parametrize("damage", [
    lambda text: text[: len(text) // 2],                                    # torn
    lambda text: "",                                                        # empty
    lambda text: json.dumps({**json.loads(text), "format": 0}),             # old format
    lambda text: json.dumps({**json.loads(text), "key": {"kernel": "x"}}),  # another key
    lambda text: json.dumps({**json.loads(text), "outcome": {"status": "MAYBE"}}),
    lambda text: "[1, 2]",
])
def test_a_record_that_cannot_be_trusted_means_auditing_again(damage):
    record.store(KEY, outcome())
    path = record.record_path(KEY)
    path.write_text(damage(path.read_text()))
    assert record.load(KEY) is None
    audit = CountingAudit(outcome(AuditStatus.FAIL, ["cpp touch 1.1x ML: OK at 300 MB"]))
    again, recorded = record.load_or_audit(KEY, audit)
    assert audit.calls == 1 and not recorded and again.status == AuditStatus.FAIL
    assert record.load(KEY) == again


def test_evaluations_starting_together_audit_once():
    audit = CountingAudit(outcome(), seconds=0.5)
    results: list[tuple[AuditOutcome, bool]] = []
    threads = [threading.Thread(target=lambda: results.append(record.load_or_audit(KEY, audit)))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert audit.calls == 1
    assert sorted(recorded for _, recorded in results) == [False, True, True, True]


def test_a_write_that_fails_leaves_the_previous_record_whole(monkeypatch):
    record.store(KEY, outcome())

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")
    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", full_disk)
        with pytest.raises(OSError):
            record.store(KEY, outcome(AuditStatus.FAIL, ["anything"]))
    assert record.load(KEY) == outcome()
    leftovers = [p.name for p in record.record_path(KEY).parent.iterdir()
                 if not p.name.endswith((".json", ".lock"))]
    assert leftovers == []


def _report(*probes: Probe) -> SimpleNamespace:
    probes_list = list(probes)
    return SimpleNamespace(
        quick=True, elapsed_s=12.34, languages=["cpp"], probes=probes_list,
        failed=[p for p in probes_list if not p.passed],
        inconclusive=[p for p in probes_list if not p.passed and p.inconclusive])


def _probe(name: str, passed: bool, inconclusive: bool = False) -> Probe:
    return Probe("time", "cpp", name, "TLE", "OK at 1.2 s", passed, inconclusive=inconclusive)


@pytest.mark.parametrize("probes, status", [
    ([_probe("a", True), _probe("b", True)], AuditStatus.PASS),
    ([_probe("a", True), _probe("b", False, inconclusive=True)], AuditStatus.INCONCLUSIVE),
    ([_probe("a", False), _probe("b", False, inconclusive=True)], AuditStatus.FAIL),
    ([], AuditStatus.FAIL),      # an audit that ran nothing proves nothing
])
def test_an_audit_report_becomes_an_outcome(probes, status):
    result = AuditOutcome.from_report(_report(*probes))
    assert result.status == status
    assert result.passed == sum(p.passed for p in probes)
    if status == AuditStatus.FAIL:
        assert result.failures
    assert AuditOutcome.from_dict(json.loads(json.dumps(result.to_dict()))) == result
