"""SandboxFusion's `POST /run_code` and `POST /submit`, answered by the judge's sandbox: the
one translation between SandboxFusion's requests and answers and the judge's. What it does is
in the tables below (languages, statuses, limits), documented in docs/serve.md ("How
SandboxFusion's fields map", tested against these tables), with the reasons in
docs/design/9-service.md §9."""
from __future__ import annotations

import base64
import hashlib
from typing import Any

from fastapi import APIRouter, Request

from judge import JudgeError
from judge.busy_retry import grading_is_busy, outcome_is_busy
from judge.compiler import CompileResult
from judge.evaluate.extract import extract_code
from judge.grade import Grader, GradeResult, TestResult
from judge.languages import LANGUAGES, Language, Profile, canonical_name, get_language
from judge.problems.model import Problem, TestCase
from judge.problems.rows import io_tests
from judge.sandbox import Limits, RunResult, SandboxError
from judge.sandbox.policy import describe_refusal
from judge.service.answers import COMPILE_LOG_BYTES, AnswerBudget, encoded_size
from judge.service.errors import ApiError
from judge.service.limits import (
    check_code,
    check_file_count,
    check_stdin,
    check_tests,
    compile_timeout_ms,
    decode_files,
    invalid,
    memory_limit,
    timeout_ms,
)
from judge.service.pool import SlotUnavailable
from judge.service.runtime import ClientWait, Service
from judge.service.settings import MiB, Settings
from judge.service.sf_models import (
    DEFAULT_RUN_TIMEOUT_S,
    CommandRunResult,
    CommandRunStatus,
    EvalResult,
    EvalTestCase,
    RunCodeRequest,
    RunCodeResponse,
    RunStatus,
    SubmitRequest,
    TestConfig,
)
from judge.single_run import ProgramOutcome
from judge.verdicts import Status, Verdict

router = APIRouter(tags=["SandboxFusion"])

# SandboxFusion's names of the languages it runs that the judge runs too (each entry's
# `sandboxfusion_names`); a request may also name a language any way the registry knows.
SANDBOXFUSION_NAMES = tuple(name for language in LANGUAGES.values()
                            for name in language.sandboxfusion_names)
SF_LANGUAGES = {name: canonical_name(name) or "" for name in SANDBOXFUSION_NAMES}
# A run's status as SandboxFusion's: the answer's `status` and `run_result.status`. A judge
# failure (SE, BUSY) is SandboxError, which the client retries and then raises, never Failed.
RUN_STATUSES: dict[Status, tuple[RunStatus, CommandRunStatus]] = {
    Status.OK: (RunStatus.Success, CommandRunStatus.Finished),
    Status.TLE: (RunStatus.Failed, CommandRunStatus.TimeLimitExceeded),
    Status.MLE: (RunStatus.Failed, CommandRunStatus.Finished),
    Status.OLE: (RunStatus.Failed, CommandRunStatus.Finished),
    Status.RE: (RunStatus.Failed, CommandRunStatus.Finished),
    Status.RF: (RunStatus.Failed, CommandRunStatus.Finished),
    Status.SE: (RunStatus.SandboxError, CommandRunStatus.Error),
    Status.BUSY: (RunStatus.SandboxError, CommandRunStatus.Error),
}
KILLED_RETURN_CODE = -9     # a run stopped for a limit with no exit code of its own
# The status of every "no verdict, try again" of these endpoints (a judge failure left after the
# judge's own re-runs, a full queue, a request its client would stop waiting for): the one that
# verl retries (it scores any other failure, a 503 included, as a failed test) and that the
# sandbox-fusion client retries too (it retries every non-200).
RETRY_STATUS = 504
DEFAULT_CHECKER = "sandboxfusion"          # SandboxFusion's own output comparison
DEFAULT_TIME_LIMIT_MS = 10_000             # a test's limit when the request gives none
TEST_INFO_CHARS = 1000                     # test_info's inputs and answers, unless full


class UnsupportedLanguage(JudgeError):
    """A language this judge does not run: the submission's failure, not the judge's."""


def cost_key(code: str, language: str, limits: Limits, compile_limit_ms: int) -> str:
    """The program a /run_code runs, as the queue tells its jobs' lengths apart: the tests of
    one sample (one request each) share it."""
    digest = hashlib.sha256(code.encode("utf-8", "surrogatepass"))
    digest.update(f"\0{language}\0{limits}\0{compile_limit_ms}".encode())
    return digest.hexdigest()


def judge_failure(message: str, settings: Settings) -> ApiError:
    """What a SandboxFusion client is told when the judge has no verdict after its own re-runs
    (an SE, a BUSY the machine kept up, a sandbox that failed, a toolchain missing here): the
    one answer every such client retries, 504 with Retry-After. A 200 SandboxError would be
    scored by verl as a failed test; a 503 too."""
    return ApiError(RETRY_STATUS, "judge_failure", f"the judge has no verdict on this run "
                    f"({' '.join(message.split())[:500]}): try again",
                    {"Retry-After": str(settings.retry_after_s)})


def unsupported(message: str) -> RunCodeResponse:
    """A program in a language the judge does not run: a run that could not start (Failed),
    which the client returns at once and reward code reads as failed."""
    return RunCodeResponse(status=RunStatus.Failed, message=message, verdict=Verdict.UNGRADABLE)


def resolve_language(name: str) -> Language:
    """The judge's profile of a SandboxFusion language name, in the compatible profile;
    UnsupportedLanguage when the judge does not run it, JudgeError when its toolchain or its
    runtime libraries are not installed here."""
    key = SF_LANGUAGES.get(name) or canonical_name(name)
    if key is None:
        raise UnsupportedLanguage(f"language {name!r} is not supported by this judge "
                                  f"(supported: {', '.join(SANDBOXFUSION_NAMES)})")
    language = get_language(key, Profile.COMPATIBLE)
    if not language.available:
        raise JudgeError(f"the {language.name} toolchain is not installed on this server")
    missing = language.missing_libraries
    if missing:
        # The environment SandboxFusion's programs expect is not here: the server's failure,
        # not the program's, whether or not this program would have used it.
        raise JudgeError(f"the {language.name} runtime libraries "
                         f"({', '.join(lib.describe() for lib in missing)}) are not installed "
                         "on this server (make setup as root)")
    return language


# -- judge results as SandboxFusion's ---------------------------------------------------------

def compile_command_result(compiled: CompileResult, log: str | None = None) -> CommandRunResult:
    """`log`: the compile log as the answer carries it (cut to its share)."""
    stopped_by_time = "[compilation stopped: TLE" in compiled.log
    status = CommandRunStatus.TimeLimitExceeded if stopped_by_time else CommandRunStatus.Finished
    if compiled.status == "SE":
        status = CommandRunStatus.Error
    return CommandRunResult(
        status=status, execution_time=round(compiled.time_ms / 1000, 6),
        return_code=None if status != CommandRunStatus.Finished else (0 if compiled.status == "OK" else 1),
        stdout="", stderr=compiled.log if log is None else log, judge_status=compiled.status)


def run_command_result(run: RunResult, stdout: bytes | None, stderr: bytes | None,
                       budget: AnswerBudget, stdout_limit: int,
                       stderr_limit: int = 0) -> CommandRunResult:
    """The run as SandboxFusion's; its stdout and stderr cut to their encoded limits."""
    status = RUN_STATUSES[Status(run.status)][1]
    return_code: int | None = run.exit_code if run.exit_code is not None else (
        -run.signal if run.signal else None)
    if status == CommandRunStatus.TimeLimitExceeded:
        return_code = None
    elif status == CommandRunStatus.Finished and run.status != Status.OK and not return_code:
        return_code = KILLED_RETURN_CODE   # as a kernel kill would show it
    text_out, out_cut = budget.text(stdout, stdout_limit)
    text_err, err_cut = budget.text(stderr, stderr_limit)
    # The sandbox's own word: the refused call, an SE's cause, or why the kernel would not
    # execute the program (an RE, judge.run_evidence).
    note = describe_refusal(run.syscall) if run.syscall else run.error
    if note:
        text_err += ("\n" if text_err and not text_err.endswith("\n") else "") + f"[judge: {note}]"
    return CommandRunResult(
        status=status, execution_time=round(run.wall_time_ms / 1000, 6), return_code=return_code,
        stdout=text_out, stderr=text_err, cpu_time=round(run.cpu_time_ms / 1000, 6),
        memory_kb=run.memory_kb, judge_status=str(run.status), signal=run.signal,
        killed_by=str(run.killed_by) if run.killed_by else None, stdout_truncated=out_cut,
        stderr_truncated=err_cut)


def _run_status(run: RunResult) -> tuple[RunStatus, str]:
    """The answer's status, and for a judge failure why."""
    status = RUN_STATUSES[Status(run.status)][0]
    if run.status == Status.BUSY:
        return status, ("the machine was too busy to time this run (it was stopped by the wall "
                        "clock while starved of CPU): try again")
    if run.status == Status.SE:
        return status, run.error or "the sandbox failed"
    return status, ""


def run_code_response(outcome: ProgramOutcome, settings: Settings) -> RunCodeResponse:
    """The answer of /run_code: stdout within the output limit and stderr within the stderr
    limit, both as encoded, and the compile log within COMPILE_LOG_BYTES."""
    budget = AnswerBudget(settings.output_limit_mb * MiB + settings.stderr_limit_mb * MiB
                          + COMPILE_LOG_BYTES)
    compile_result = None
    if outcome.compile is not None:
        log, _ = budget.text(outcome.compile.log, COMPILE_LOG_BYTES)
        compile_result = compile_command_result(outcome.compile, log)
        if outcome.compile.status == "SE":
            return RunCodeResponse(status=RunStatus.SandboxError, message=log,
                                   compile_result=compile_result, verdict="SE")
        if outcome.compile.status != "OK":
            return RunCodeResponse(status=RunStatus.Failed, compile_result=compile_result,
                                   verdict="CE")
    assert outcome.run is not None
    captured = outcome.run
    status, message = _run_status(captured.run)
    if captured.skipped:
        message = (message + "; " if message else "") + (
            "fetch_files left out (past the size this server returns): " + ", ".join(captured.skipped))
    return RunCodeResponse(
        status=status, message=message, compile_result=compile_result,
        run_result=run_command_result(captured.run, captured.stdout, captured.stderr, budget,
                                      settings.output_limit_mb * MiB, settings.stderr_limit_mb * MiB),
        files={name: base64.b64encode(data).decode() for name, data in captured.files.items()},
        verdict=str(captured.run.status))


# -- /run_code --------------------------------------------------------------------------------

@router.post("/run_code", response_model=RunCodeResponse, response_model_exclude_none=False,
             summary="Run a program once (SandboxFusion)")
async def run_code(body: RunCodeRequest, request: Request) -> RunCodeResponse:
    service: Service = request.app.state.service
    settings = service.settings
    check_code(body.code, settings)
    stdin = (body.stdin or "").encode()
    check_stdin(stdin, settings)
    files = decode_files(body.files, settings)
    # SandboxFusion answers a name it cannot read by leaving it out, never by refusing the run:
    # a name outside the box is left out when the files are fetched.
    fetch = check_file_count(body.fetch_files, settings, "fetch_files")
    run_limit = timeout_ms(body.run_timeout, DEFAULT_RUN_TIMEOUT_S, settings, "run_timeout")
    # SandboxFusion's run_timeout is the wall clock; the CPU limit beside it keeps a program
    # with many threads from using more than that of CPU.
    limits = Limits(time_limit_ms=run_limit, wall_time_limit_ms=run_limit,
                    memory_limit_mb=memory_limit(body.memory_limit_MB, settings),
                    output_limit_mb=settings.output_limit_mb,
                    stderr_limit_mb=settings.stderr_limit_mb)
    compile_limit = compile_timeout_ms(body.compile_timeout)
    try:
        language = resolve_language(body.language)
    except UnsupportedLanguage as exc:
        service.metrics.runs.labels("run_code", "unsupported").inc()
        return unsupported(str(exc))
    except JudgeError as exc:          # its toolchain is missing here: the judge's failure
        service.metrics.runs.labels("run_code", "SE").inc()
        raise judge_failure(str(exc), settings) from None

    def job(grader: Grader) -> ProgramOutcome:
        return grader.run_program(body.code, language, limits, stdin=stdin, files=files,
                                  fetch=fetch, compile_time_limit_ms=compile_limit)

    # verl's client waits compile_timeout + run_timeout + its slack, and retries only a 504.
    own_s = (compile_limit + run_limit) / 1000
    try:
        outcome = await service.run(
            request, job, "run_code", busy=outcome_is_busy, retry_status=RETRY_STATUS,
            cost_key=cost_key(body.code, language.name, limits, compile_limit),
            client_wait=ClientWait(own_s + settings.client_timeout_slack_s, own_s))
    except (SandboxError, SlotUnavailable) as exc:
        service.metrics.runs.labels("run_code", "SE").inc()
        raise judge_failure(f"the sandbox failed: {exc}", settings) from None
    except JudgeError as exc:
        service.metrics.runs.labels("run_code", "SE").inc()
        raise judge_failure(str(exc), settings) from None
    response = run_code_response(outcome, settings)
    service.metrics.runs.labels("run_code", response.verdict or "SE").inc()
    if response.status == RunStatus.SandboxError:
        raise judge_failure(f"{response.verdict}: {response.message}", settings)
    return response


# -- /submit ----------------------------------------------------------------------------------

def provided_tests(data: dict[str, Any]) -> list[TestCase]:
    """The tests of SandboxFusion's provided_data in any of the shapes clients send
    (judge.problems.rows.io_tests)."""
    try:
        return list(io_tests(data))
    except JudgeError as exc:
        raise invalid(f"provided_data: {exc}") from None


def _positive_int(data: dict[str, Any], *keys: str) -> int | None:
    for key in keys:
        if key in data and data[key] is not None:
            value = data[key]
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
                raise invalid(f"provided_data.{key} must be a positive number")
            return int(value)
    return None


async def submission_problem(body: SubmitRequest, service: Service) -> Problem:
    settings = service.settings
    config = body.config
    data = config.provided_data
    if data is None:
        # Not SandboxFusion's: a problem this server knows (the pack, or --dataset) by id.
        problem = await service.problem(str(body.id))
    else:
        if not isinstance(data, dict):
            raise invalid("provided_data must be an object (one problem) for /submit")
        tests = provided_tests(data)
        check_tests(len(tests), sum(len(t.input) + len(t.output) for t in tests), settings,
                    "provided_data")
        if not tests:
            raise invalid("provided_data holds no test")
        checker = data.get("checker") or DEFAULT_CHECKER
        if not isinstance(checker, str):
            raise invalid("provided_data.checker must be a checker's name or source")
        check_code(checker, settings, "provided_data.checker")
        time_limit = _positive_int(data, "time_limit_ms") or DEFAULT_TIME_LIMIT_MS
        memory = _positive_int(data, "memory_limit_mb", "memory_limit_MB")
        problem = Problem(id=str(body.id), title="", statement="", time_limit_ms=time_limit,
                          memory_limit_mb=memory_limit(memory, settings, "memory_limit_mb"),
                          checker=checker, tests=tuple(tests))
    return problem


def run_time_limit(config: TestConfig, settings: Settings) -> int | None:
    """SandboxFusion's run_timeout: the wall-clock (and CPU) limit of each test's run itself,
    in one step (the language's time factor is not applied to it); None: the problem's limit
    and the factor."""
    if config.run_timeout is None:
        return None
    return timeout_ms(config.run_timeout, DEFAULT_RUN_TIMEOUT_S, settings, "config.run_timeout")


def _test_info(case: TestCase, full: bool, budget: AnswerBudget, limit: int) -> dict[str, Any]:
    """A test's input and answer as SandboxFusion echoes them: TEST_INFO_CHARS characters of
    each unless `full`, and within the answer's budget either way."""
    def shown(data: bytes) -> str:
        text = data.decode(errors="replace")
        short = not full and len(text) > TEST_INFO_CHARS
        text, cut = budget.text(text[:TEST_INFO_CHARS] if short else text, limit)
        return text + "..." if short or cut else text
    return {"input": {"stdin": shown(case.input)}, "output": {"stdout": shown(case.output)}}


def eval_test_case(test: TestResult, case: TestCase, compile_result: CommandRunResult | None,
                   full: bool, budget: AnswerBudget, share: int) -> EvalTestCase:
    assert test.run is not None
    status, message = _run_status(test.run)
    if test.verdict == Verdict.FAIL:
        status, message = RunStatus.SandboxError, f"the checker failed: {test.checker_message}"
    elif status == RunStatus.Failed or test.verdict != Verdict.AC:
        message = test.checker_message
    message, _ = budget.text(message, share)
    exec_info = RunCodeResponse(status=status, message=message, compile_result=compile_result,
                                run_result=run_command_result(test.run, test.output, None, budget,
                                                              share),
                                verdict=str(test.verdict))
    info = _test_info(case, full, budget, share)
    return EvalTestCase(passed=test.verdict == Verdict.AC, exec_info=exec_info, test_info=info)


def refuse_judge_failure(result: GradeResult, retry_after_s: int) -> None:
    """Raises the error /submit answers for a grading the judge failed at (SE, BUSY, FAIL):
    an EvalResult would say accepted=false, which reward code scores as the model's failure."""
    if not result.judge_failure:
        return
    last = result.tests[-1] if result.tests else None
    if last is None or last.run is None:                  # the compile failed (SE)
        why = result.compile.log
    elif result.verdict == Verdict.FAIL:
        why = last.checker_message
    else:                                                 # the run was SE or BUSY
        why = _run_status(last.run)[1]
    why = " ".join(why.split())[:500]
    if result.exclusion_evidence is not None:
        why += f" [evidence: {result.exclusion_evidence}]"
    if result.verdict == Verdict.FAIL:
        raise ApiError(422, "checker_failed", f"the problem's checker failed (FAIL: {why}): the "
                       "jury's fault, no verdict on the submission")
    raise ApiError(RETRY_STATUS, "judge_failure", f"the judge could not grade this submission "
                   f"({result.verdict}: {why}); no verdict on it: try again",
                   {"Retry-After": str(retry_after_s)})


def ungradable_result(body: SubmitRequest, code: str, extracted: str,
                      message: str) -> EvalResult:
    """A completion in a language the judge does not run: not accepted, with no test run."""
    return EvalResult(id=body.id, accepted=False, extracted_code=code,
                      tests=[EvalTestCase(passed=False, exec_info=unsupported(message))],
                      extracted_type=extracted,  # type: ignore[arg-type]
                      extra={"verdict": str(Verdict.UNGRADABLE)})


def eval_result(body: SubmitRequest, code: str, extracted: str, result: GradeResult,
                problem: Problem, language: Language, settings: Settings) -> EvalResult:
    """The answer of /submit. Every text it carries (outputs, messages, logs, the tests echoed
    back) is drawn from one budget of max_submit_output_bytes as encoded, each test's share at
    most an even part of it (at least 4 KiB); the rest of the answer is its structure, a few
    hundred bytes a test (Settings.answer_limit_bytes)."""
    full = bool(body.config.extra.get("return_full_case", False))
    script = language.script
    budget = AnswerBudget(settings.max_submit_output_bytes)
    share = submit_share(settings, len(problem.tests))
    shown = len(result.tests) + 1
    # The compile log is in every test's compile_result and in the judge's figures: paid for
    # each time, out of a quarter of the budget.
    log, _ = budget.text(result.compile.log, min(COMPILE_LOG_BYTES, budget.left // (4 * shown)))
    budget.left -= encoded_size(log) * (shown - 1)
    compile_result = None if script else compile_command_result(result.compile, log)
    tests: list[EvalTestCase] = []
    judge = result.to_dict()
    judge["compile"]["log"] = log
    if result.compile.status != "OK":
        info = _test_info(problem.tests[0], full, budget, share)
        if script:
            # SandboxFusion runs a script that does not parse; Python says so and exits 1.
            exec_info = RunCodeResponse(
                status=RunStatus.Failed, verdict="CE",
                run_result=CommandRunResult(status=CommandRunStatus.Finished, execution_time=0,
                                            return_code=1, stdout="", stderr=log,
                                            judge_status="CE"))
        else:
            exec_info = RunCodeResponse(status=RunStatus.Failed, compile_result=compile_result,
                                        verdict="CE")
        tests.append(EvalTestCase(passed=False, exec_info=exec_info, test_info=info))
    else:
        for test, figures in zip(result.tests, judge["tests"], strict=True):
            case = eval_test_case(test, problem.tests[test.index - 1], compile_result, full,
                                  budget, share)
            figures["checker_message"], _ = budget.text(test.checker_message, share)
            tests.append(case)
    return EvalResult(id=body.id, accepted=result.verdict == Verdict.AC, extracted_code=code,
                      tests=tests, extracted_type=extracted,  # type: ignore[arg-type]
                      extra={"verdict": str(result.verdict), "judge": judge})


def submit_share(settings: Settings, tests: int) -> int:
    """The encoded bytes of one test's output (and of each of its other texts) in /submit."""
    return max(4096, settings.max_submit_output_bytes // max(1, tests))


@router.post("/submit", response_model=EvalResult,
             summary="Grade a completion against its tests (SandboxFusion's online judge)")
async def submit(body: SubmitRequest, request: Request) -> EvalResult:
    service: Service = request.app.state.service
    config = body.config
    if config.custom_extract_logic:
        raise invalid("config.custom_extract_logic is not supported: it would run the client's "
                      "Python on the server, outside any sandbox")
    if not config.language:
        raise invalid("config.language is required")
    block = extract_code(body.completion)
    code, extracted = (block.code, "fenced") if block is not None else (body.completion, "heuristic")
    if not code.strip():
        code, extracted = "", "empty"
    check_code(code, service.settings)
    try:
        language = resolve_language(config.language)
    except UnsupportedLanguage as exc:
        service.metrics.runs.labels("submit", "unsupported").inc()
        return ungradable_result(body, code, extracted, str(exc))
    except JudgeError as exc:          # its toolchain is missing here: never scored
        raise invalid(str(exc)) from None
    problem = await submission_problem(body, service)
    run_limit = run_time_limit(config, service.settings)
    compile_limit = (None if config.compile_timeout is None
                     else compile_timeout_ms(config.compile_timeout, "config.compile_timeout"))
    all_tests = bool(config.extra.get("run_all_cases", False))

    # Each test's stdout comes back in its exec_info, up to a share of the server's budget.
    share = submit_share(service.settings, len(problem.tests))

    def job(grader: Grader) -> GradeResult:
        return grader.grade(code, language, problem, all_tests=all_tests, keep_output=True,
                            kept_output_limit=share, run_time_limit_ms=run_limit,
                            compile_time_limit_ms=compile_limit)

    try:
        result = await service.run(request, job, "submit", busy=grading_is_busy,
                                   retry_status=RETRY_STATUS)
    except (SandboxError, SlotUnavailable) as exc:
        service.metrics.runs.labels("submit", "SE").inc()
        raise judge_failure(f"the sandbox failed: {exc}", service.settings) from None
    except JudgeError as exc:          # the problem's fault: an unknown or broken checker
        raise invalid(str(exc)) from None
    service.metrics.runs.labels("submit", str(result.verdict)).inc()
    refuse_judge_failure(result, service.settings.retry_after_s)
    return eval_result(body, code, extracted, result, problem, language, service.settings)


__all__ = ["router", "run_code_response", "eval_result", "provided_tests", "resolve_language",
           "refuse_judge_failure", "UnsupportedLanguage"]
