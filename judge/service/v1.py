"""The native API: grade a submission in one call (`judge run --json`'s result), run a command
(`judge exec --json`'s RunResult), batches of gradings with a job id to poll, and what this
server runs."""
from __future__ import annotations

import base64
import binascii
import json

from fastapi import APIRouter, Request, Response

from judge import JudgeError
from judge.busy_retry import grading_is_busy
from judge.checkers import is_checker
from judge.checkers.dataset_comparators import DATASET_COMPARATORS
from judge.grade import Grader
from judge.languages import LANGUAGES, Language, Profile, get_language
from judge.languages.python_env import CPYTHON, environment
from judge.problems.model import Problem, TestCase, is_checker_source
from judge.problems.rules import RULES
from judge.sandbox import POLICIES, Limits
from judge.sandbox.result import CANNOT_EXECUTE
from judge.service.answers import AnswerBudget
from judge.service.batches import Batches
from judge.service.errors import ApiError, ErrorResponse
from judge.service.gradings import Grading, grade_response, judge_failure
from judge.service.limits import (
    check_code,
    check_names,
    check_stdin,
    check_tests,
    decode_files,
    invalid,
    too_large,
)
from judge.service.runtime import Service, client_of
from judge.service.settings import MiB, Settings
from judge.service.v1_models import (
    BatchCreated,
    BatchRequest,
    BatchStatus,
    ExecLimits,
    ExecRequest,
    ExecResponse,
    GradeRequest,
    GradeResponse,
    LanguageInfo,
    LibraryInfo,
    ProfileInfo,
    RunResultModel,
)
from judge.single_run import Captured

router = APIRouter(prefix="/v1", tags=["judge"])
ERRORS: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorResponse, "description": text} for code, text in (
        (401, "no valid token"), (404, "unknown problem or batch"),
        (413, "the body or a field is larger than this server accepts"),
        (422, "the request is malformed or names something this judge cannot run"),
        (503, "every slot is busy and the queue is full (see Retry-After), or the server is "
              "shutting down"))}


def _batches(request: Request) -> Batches:
    batches: Batches = request.app.state.batches
    return batches


def language_of(name: str) -> Language:
    try:
        language = get_language(name)
    except JudgeError as exc:
        raise invalid(str(exc)) from None
    if not language.available:
        raise invalid(f"the {language.name} toolchain is not installed on this server")
    return language


def _checker(name: str, interactive: bool) -> str:
    if name in DATASET_COMPARATORS or is_checker(name) or is_checker_source(name):
        return name
    if interactive and not name:
        return name
    raise invalid(f"unknown checker {name!r}: a testlib checker's name, a dataset comparator "
                  f"({', '.join(sorted(DATASET_COMPARATORS))}), or a checker's source")


async def prepare(body: GradeRequest, service: Service) -> Grading:
    settings = service.settings
    check_code(body.code, settings)
    language = language_of(body.language)
    if body.problem is not None:
        inline = body.problem
        tests = tuple(TestCase(t.input.encode(), t.output.encode()) for t in inline.tests)
        check_tests(len(tests), sum(len(t.input) + len(t.output) for t in tests), settings,
                    "problem.tests")
        check_code(inline.checker, settings, "problem.checker")
        if inline.interactor is not None:
            check_code(inline.interactor, settings, "problem.interactor")
            if not is_checker_source(inline.interactor):
                raise invalid("problem.interactor must be a testlib interactor's C++ source")
        if inline.memory_limit_mb > settings.max_memory_mb:
            raise invalid(f"problem.memory_limit_mb {inline.memory_limit_mb} is above this "
                          f"server's limit of {settings.max_memory_mb} MB")
        problem = Problem(id=f"inline/{inline.id}", title="", statement="",
                          time_limit_ms=inline.time_limit_ms, memory_limit_mb=inline.memory_limit_mb,
                          checker=_checker(inline.checker, inline.interactor is not None),
                          tests=tests, interactor=inline.interactor)
    else:
        assert body.problem_id is not None
        problem = await service.problem(body.problem_id)
    return Grading(body.code, language, problem, body.all_tests, body.cpu_budget_ms)


@router.post("/grade", response_model=GradeResponse, responses=ERRORS,
             summary="Grade a submission against a problem (judge run --json)")
async def grade(body: GradeRequest, request: Request) -> GradeResponse:
    """Compiles the code once, runs the problem's tests in order under its limits, checks each
    output, and stops at the first failing test unless `all_tests`. The problem is one of the
    server's (`problem_id`) or carried inline (`problem`)."""
    service: Service = request.app.state.service
    grading = await prepare(body, service)
    try:
        result = await service.run(request, grading.job(), "grade", busy=grading_is_busy)
    except JudgeError as exc:
        raise judge_failure(exc, service.settings.retry_after_s) from None
    service.metrics.runs.labels("grade", str(result.verdict)).inc()
    return grade_response(result, service.settings.max_submit_output_bytes)


def _decode(text: str, field: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise invalid(f"{field} is not base64") from None


@router.post("/exec", response_model=ExecResponse, responses=ERRORS,
             summary="Run a command in the sandbox (judge exec --json)")
async def exec_command(body: ExecRequest, request: Request) -> ExecResponse:
    """Runs `argv` once in a fresh run of a warm slot, under `limits`, with /box (a tmpfs of
    the server's box size) holding `files`, and returns the RunResult, the output and
    `fetch_files`."""
    service: Service = request.app.state.service
    settings = service.settings
    if len(body.argv) > settings.max_argv:
        raise too_large(f"argv has {len(body.argv)} arguments; this server accepts at most "
                        f"{settings.max_argv}")
    check_code("\0".join(body.argv), settings, "argv")
    if body.stdin is not None and body.stdin_base64 is not None:
        raise invalid("give stdin or stdin_base64, not both")
    stdin = (_decode(body.stdin_base64, "stdin_base64") if body.stdin_base64 is not None
             else (body.stdin or "").encode())
    check_stdin(stdin, settings)
    files = decode_files(body.files, settings)
    fetch = check_names(body.fetch_files, settings, "fetch_files")
    if body.policy not in POLICIES:
        raise invalid(f"unknown policy {body.policy!r}")
    limits = _exec_limits(body.limits, settings)

    def job(grader: Grader) -> Captured:
        return grader.run_command(list(body.argv), limits, stdin=stdin, files=files, fetch=fetch,
                                  policy=body.policy)

    try:
        captured = await service.run(request, job, "exec")
    except JudgeError as exc:
        raise judge_failure(exc, service.settings.retry_after_s) from None
    run = captured.run
    service.metrics.runs.labels("exec", str(run.status)).inc()
    if run.status == "SE" and run.error and run.error.startswith(CANNOT_EXECUTE):
        raise invalid(run.error)       # a command that does not exist is the caller's mistake

    return _exec_response(captured, body.output == "base64", settings)


def _exec_limits(given: ExecLimits, settings: Settings) -> Limits:
    """/v1/exec's limits, within this server's."""
    if given.memory_limit_mb > settings.max_memory_mb:
        raise invalid(f"limits.memory_limit_mb {given.memory_limit_mb} is above this server's "
                      f"limit of {settings.max_memory_mb} MB")
    output_mb = settings.output_limit_mb if given.output_limit_mb is None else given.output_limit_mb
    if output_mb > settings.output_limit_mb:
        raise invalid(f"limits.output_limit_mb {output_mb:g} is above this server's "
                      f"limit of {settings.output_limit_mb} MB")
    longest = int(settings.max_run_timeout_s * 1000)
    if given.time_limit_ms > longest or (given.wall_time_limit_ms or 0) > 2 * longest:
        raise invalid(f"limits: the time limit may be at most {longest} ms here (and the wall "
                      "limit twice that)")
    try:
        return Limits(time_limit_ms=given.time_limit_ms, memory_limit_mb=given.memory_limit_mb,
                      wall_time_limit_ms=given.wall_time_limit_ms,
                      output_limit_mb=output_mb, processes=given.processes,
                      stderr_limit_mb=settings.stderr_limit_mb)
    except JudgeError as exc:
        raise invalid(f"limits: {exc}") from None


def _exec_response(captured: Captured, as_base64: bool, settings: Settings) -> ExecResponse:
    """The run, its output (as text within the output limits as encoded, or base64: at most
    4/3 of them) and the fetched files."""
    run = captured.run
    budget = AnswerBudget(settings.output_limit_mb * MiB + settings.stderr_limit_mb * MiB)

    def out(data: bytes, limit: int) -> tuple[str, bool]:
        if as_base64:
            return base64.b64encode(data).decode(), False
        return budget.text(data, limit)

    stdout, stdout_cut = out(captured.stdout, settings.output_limit_mb * MiB)
    stderr, stderr_cut = out(captured.stderr, settings.stderr_limit_mb * MiB)
    return ExecResponse(result=RunResultModel.model_validate(json.loads(json.dumps(run.to_dict()))),
                        stdout=stdout, stderr=stderr, stdout_truncated=stdout_cut,
                        stderr_truncated=stderr_cut,
                        files={name: base64.b64encode(data).decode()
                               for name, data in captured.files.items()})


@router.post("/batches", response_model=BatchCreated, status_code=202, responses=ERRORS,
             summary="Grade many submissions; poll the batch for the results")
async def create_batch(body: BatchRequest, request: Request, response: Response) -> BatchCreated:
    """Validates every item at once (any bad item refuses the whole batch), then grades them in
    the background on the server's slots, in order of the items as slots free up. Poll
    `GET /v1/batches/{id}`."""
    service: Service = request.app.state.service
    if len(body.items) > service.settings.max_batch_items:
        raise too_large(f"items: {len(body.items)}; this server accepts at most "
                        f"{service.settings.max_batch_items} in one batch")
    gradings = []
    for index, item in enumerate(body.items):
        try:
            gradings.append(await prepare(item, service))
        except ApiError as exc:
            exc.message = f"items[{index}]: {exc.message}"
            raise
    batch = _batches(request).create(gradings, client_of(request, service.settings))
    url = f"/v1/batches/{batch.id}"
    response.headers["Location"] = url
    return BatchCreated(id=batch.id, total=len(gradings), url=url)


@router.get("/batches/{batch_id}", response_model=BatchStatus, responses=ERRORS,
            summary="A batch's progress and the results so far")
async def get_batch(batch_id: str, request: Request) -> BatchStatus:
    return _batches(request).get(batch_id).status()


@router.delete("/batches/{batch_id}", response_model=BatchStatus, responses=ERRORS,
               summary="Cancel a batch's items that have not started")
async def cancel_batch(batch_id: str, request: Request) -> BatchStatus:
    batch = _batches(request).get(batch_id)
    batch.cancel()
    return batch.status()


def python_modules(language: str) -> dict[str, list[str]] | None:
    """Per benchmark, the modules beyond the standard library `language` may import."""
    if get_language(language).policy.name != "python":
        return None
    return {rules.name: list(environment(rules.python_environment).modules)
            if language == CPYTHON else [] for rules in RULES.values()}


def profile_info(language: Language, profile: Profile) -> ProfileInfo:
    record = language.in_profile(profile)
    return ProfileInfo(name=profile.value,
                       compile=list(record.compile) if record.compile else None,
                       run=list(record.run), policy=record.policy.name,
                       libraries=[LibraryInfo(name=lib.name, source=lib.source.value,
                                              package=lib.package, installed=lib.installed,
                                              optional=lib.optional)
                                  for lib in record.libraries])


@router.get("/languages", response_model=list[LanguageInfo], summary="The languages this server runs")
async def languages() -> list[LanguageInfo]:
    listed = []
    for name in LANGUAGES:
        language = get_language(name)
        profiles = ((Profile.COMPATIBLE,) if language.compatible_only else tuple(Profile))
        listed.append(LanguageInfo(name=name, aliases=list(language.aliases),
                                   family=language.family.value, available=language.available,
                                   time_factor=language.time_factor,
                                   compiled=not language.script, policy=language.policy.name,
                                   sandboxfusion_only=language.compatible_only,
                                   python_modules=python_modules(name),
                                   profiles=[profile_info(language, profile)
                                             for profile in profiles]))
    return listed
