"""The one rule for leaving a sample out (judge/exclusion.py, judge/run_evidence.py,
docs/design/6-evaluation.md §6.5): a judge failure stands only with evidence that the submission did
not cause it, and the evidence is what each path gathered on its own slot. Row by row on made-up
runs, then on real programs that try a door."""
from __future__ import annotations

import dataclasses

import pytest

from conftest import next_slot, quiet_cpu
from judge.exclusion import (
    SUBMISSION_VERDICT_OF,
    UNPROVEN,
    Evidence,
    EvidenceKind,
    attribute,
)
from judge.grade import Grader
from judge.problems.registry import resolve
from judge.run_evidence import CONTROL_ARGV, is_submission_build, weigh_run
from judge.sandbox import RunResult
from judge.verdicts import JUDGE_FAILURES, Status, Verdict

EVIDENCE = Evidence(EvidenceKind.CONTROL_RUN, "/bin/true was SE too")


def made_up_run(status: Status, error: str | None = None) -> RunResult:
    return RunResult(status=status, exit_code=None, signal=None, cpu_time_ms=1.0,
                     wall_time_ms=2.0, memory_kb=100, output_bytes=0, killed_by=None,
                     syscall=None, error=error)


# ------------------------------------------------------------------------------ attribute

@pytest.mark.parametrize("verdict", sorted(SUBMISSION_VERDICT_OF))
def test_a_judge_failure_without_evidence_is_the_submission_s(verdict):
    stands = attribute(verdict, "the checker said FAIL", None)
    assert stands.verdict == SUBMISSION_VERDICT_OF[verdict]
    assert stands.verdict not in JUDGE_FAILURES and stands.verdict != Verdict.SKIPPED
    assert stands.message == UNPROVEN + "the checker said FAIL"
    assert stands.evidence is None


@pytest.mark.parametrize("verdict", sorted(SUBMISSION_VERDICT_OF))
def test_a_judge_failure_with_evidence_stands(verdict):
    stands = attribute(verdict, "why", EVIDENCE)
    assert (stands.verdict, stands.message, stands.evidence) == (verdict, "why", EVIDENCE)


def test_every_judge_failure_has_a_submission_verdict():
    assert JUDGE_FAILURES | {Verdict.SKIPPED} == set(SUBMISSION_VERDICT_OF)


@pytest.mark.parametrize("verdict", [Verdict.AC, Verdict.WA, Verdict.TLE, Verdict.CE])
def test_a_verdict_of_the_submission_carries_no_evidence(verdict):
    assert attribute(verdict, "m", EVIDENCE).evidence is None


# ------------------------------------------------------------------------------ weigh_run

def control_answering(status: Status):
    calls = []

    def control(argv):
        calls.append(list(argv))
        return made_up_run(status, "set-up failed" if status == Status.SE else None)
    return control, calls


@pytest.mark.parametrize("argv", [["./code.exe"], ["/judge/run/code.exe"], ["/box/a.out"]])
def test_an_executable_the_submission_built_that_cannot_run_is_re(argv):
    control, calls = control_answering(Status.OK)
    for errno_text, code in (("No such file or directory", 127), ("Exec format error", 126)):
        run = made_up_run(Status.SE, f"cannot execute {argv[0]}: {errno_text}")
        weighed = weigh_run(run, argv, control, retried=False)
        assert weighed is not None
        assert (weighed.run.status, weighed.run.exit_code, weighed.evidence) == (Status.RE, code, None)
        assert weighed.run.error == run.error        # the message says why
    assert calls == []                                # nothing to check: the artifact decided


def test_a_host_toolchain_that_cannot_run_is_the_judge_s():
    control, calls = control_answering(Status.OK)
    run = made_up_run(Status.SE, "cannot execute python3: No such file or directory")
    weighed = weigh_run(run, ["python3", "code.py"], control, retried=False)
    assert weighed is not None and weighed.run.status == Status.SE
    assert weighed.evidence is not None and weighed.evidence.kind == EvidenceKind.TOOLCHAIN
    assert not is_submission_build(["python3", "code.py"])


def test_an_se_a_control_run_shares_stands():
    control, calls = control_answering(Status.SE)
    weighed = weigh_run(made_up_run(Status.SE, "cgroup trouble"), ["./code.exe"], control,
                        retried=False)
    assert weighed is not None and weighed.run.status == Status.SE
    assert weighed.evidence is not None and weighed.evidence.kind == EvidenceKind.CONTROL_RUN
    assert calls == [list(CONTROL_ARGV)]


def test_an_se_the_control_run_does_not_share_is_tried_again_then_the_program_s():
    control, calls = control_answering(Status.OK)
    run = made_up_run(Status.SE, "cgroup trouble")
    assert weigh_run(run, ["./code.exe"], control, retried=False) is None
    weighed = weigh_run(run, ["./code.exe"], control, retried=True)
    assert weighed is not None
    assert (weighed.run.status, weighed.evidence) == (Status.RE, None)


@pytest.mark.parametrize("status", [Status.OK, Status.RE, Status.TLE, Status.MLE])
def test_a_run_that_is_no_judge_failure_is_left_as_it_is(status):
    control, calls = control_answering(Status.SE)
    run = made_up_run(status)
    weighed = weigh_run(run, ["./code.exe"], control, retried=False)
    assert weighed is not None and weighed.run == run and weighed.evidence is None
    assert calls == []


def test_busy_without_a_figure_on_an_exact_clock_is_tle():
    run = dataclasses.replace(made_up_run(Status.BUSY), wall_time_ms=2000.0, waiting_ms=1900.0)
    weighed = weigh_run(run, ["./code.exe"], control_answering(Status.OK)[0], retried=False)
    assert weighed is not None
    if weighed.evidence is None:
        assert weighed.run.status == Status.TLE
    else:
        assert weighed.run.status == Status.BUSY
        assert weighed.evidence.kind == EvidenceKind.CPU_CLOCK


# ------------------------------------------------------------------------------ real doors

# One line gives even a -static link a PT_INTERP the kernel cannot find: execve fails with
# ENOENT. Run, it would print the right answer; it must be neither AC nor left out.
PLANTED_INTERPRETER = ('__attribute__((section(".interp"), used)) static const char '
                       'interp[] = "/nonexistent/ld.so";\n')
EXEC_DOORS = {
    "c": "#include <stdio.h>\n" + PLANTED_INTERPRETER + "int main(void) { puts(\"2\"); return 0; }\n",
    "cpp": "#include <cstdio>\n" + PLANTED_INTERPRETER + "int main() { std::puts(\"2\"); }\n",
}


@pytest.fixture(scope="module")
def grader(require_sandbox):
    with Grader(slot=next_slot(), cpu=quiet_cpu()) as g:
        yield g


@pytest.mark.parametrize("language", sorted(EXEC_DOORS))
def test_a_planted_interpreter_is_the_program_s_runtime_error(grader, language):
    result = grader.grade(EXEC_DOORS[language], language, resolve("codeforces/2020A"))
    assert result.compile.status == "OK"
    assert result.verdict == Verdict.RE and not result.judge_failure
    assert result.exclusion_evidence is None
    test = result.tests[0]
    assert test.exit_code == 127 and "cannot execute" in test.checker_message
    assert result.to_dict()["exclusion_evidence"] is None
