"""The native API's models (/v1): a grading is `judge run --json`'s JSON, a run is `judge exec
--json`'s RunResult, both typed here so that the OpenAPI schema documents them."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from judge.exclusion import EvidenceKind
from judge.sandbox.result import Limits
from judge.service.errors import ErrorResponse
from judge.verdicts import KilledBy

SANDBOX_DEFAULTS = Limits()


class InlineTest(BaseModel):
    input: str
    output: str = Field(..., description="the expected answer (the checker's third file)")


class InlineProblem(BaseModel):
    """A problem carried by the request, graded exactly as a pack problem would be."""
    id: str = Field(default="inline", max_length=200)
    time_limit_ms: int = Field(default=1000, ge=1, le=600_000, description="before the language's "
                               "time factor (python and java 2x)")
    memory_limit_mb: int = Field(default=256, ge=1)
    checker: str = Field(default="wcmp", description="a testlib checker's name (wcmp, lcmp, ncmp, "
                         "rcmp6, yesno, ...), a dataset comparator (lcb, codecontests, "
                         "sandboxfusion), or a testlib checker's C++ source; with an "
                         "interactor, \"\" when the interactor's word is final")
    interactor: str | None = Field(default=None, description="an interactive problem's testlib "
                                   "interactor (C++ source, registerInteraction): it runs beside "
                                   "the program, each one's stdout piped to the other's stdin; a "
                                   "test's input is its input file, a test's output its answer "
                                   "file")
    tests: list[InlineTest] = Field(..., min_length=1)


class GradeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str
    language: str = Field(..., examples=["cpp"], description="cpp, c, python, pypy3, java")
    problem_id: str | None = Field(default=None, examples=["2020A"], description="a problem of the "
                                   "embedded pack, or of the dataset the server was started "
                                   "with (--dataset)")
    problem: InlineProblem | None = None
    all_tests: bool = Field(default=False, description="run every test, not only up to the first failure")
    cpu_budget_ms: float | None = Field(default=None, gt=0, description="the CPU all tests together "
                                        "may take: once spent, no further test runs, and a "
                                        "grading that was passing is TLE (an RL reward's cost "
                                        "bound)")

    @model_validator(mode="after")
    def _one_problem(self) -> GradeRequest:
        if (self.problem_id is None) == (self.problem is None):
            raise ValueError("give exactly one of problem_id and problem")
        return self


class CompileInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")   # a field of the result is never dropped
    status: str = Field(..., description="OK, CE or SE")
    log: str
    cached: bool
    time_ms: float


class InteractorInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")   # a field of the result is never dropped
    status: str
    exit_code: int | None
    signal: int | None
    cpu_time_ms: float
    wall_time_ms: float
    memory_kb: int


class EvidenceInfo(BaseModel):
    """Why a verdict of SE, FAIL or BUSY is the judge's failure and not the submission's
    (docs/design/6-evaluation.md §6.5): without it, the failure is the submission's own."""
    model_config = ConfigDict(extra="forbid")
    kind: str = Field(..., description=", ".join(EvidenceKind))
    detail: str = Field(..., description="what was run or measured, and what it gave")


class TestInfo(BaseModel):
    __test__ = False
    model_config = ConfigDict(extra="forbid")
    index: int
    verdict: str
    cpu_time_ms: float
    wall_time_ms: float
    memory_kb: int
    exit_code: int | None
    signal: int | None
    checker_message: str
    killed_by: str | None = Field(default=None, description="what stopped the program: "
                                  f"{', '.join(KilledBy)} (idle: an interactive test whose "
                                  "program waited for input that never came)")
    stderr_tail: str = Field(default="", description="a failed test's last 2 KiB of stderr "
                             "(a traceback: why it ended); the program's text, escape it")
    interactor: InteractorInfo | None = Field(default=None, description="an interactive test's "
                                              "interactor, never counted as the program's")
    exclusion_evidence: EvidenceInfo | None = Field(default=None, description="for SE, FAIL and "
                                                    "BUSY: why the judge, not the program, failed")


class GradeResponse(BaseModel):
    """`judge run --json`: the same fields, the same values."""
    model_config = ConfigDict(extra="forbid")   # a field of the result is never dropped
    verdict: str = Field(..., description="AC, WA, PE, TLE, MLE, OLE, RE, RF, CE, FAIL, SE, BUSY")
    judge_failure: bool = Field(..., description="no verdict on the submission (SE, FAIL, BUSY): "
                                "the judge, the jury or the machine failed it; never score it")
    exclusion_evidence: EvidenceInfo | None = Field(default=None, description="with a judge "
                                                    "failure: the evidence that the submission "
                                                    "did not cause it")
    problem: str
    language: str
    compile: CompileInfo
    tests: list[TestInfo]
    max_cpu_time_ms: float
    max_memory_kb: int
    time_limit_ms: int
    wall_time_limit_ms: int
    time_rule: str = Field(..., description="cpu-scaled (the problem's limit is CPU time times "
                           "the language's factor) or wall (the benchmark's own wall-clock "
                           "limit a test, every language alike)")
    memory_limit_mb: int
    timings: dict[str, float]


class ExecLimits(BaseModel):
    """A run's limits; what is left out is the sandbox's default (judge.sandbox.Limits), the
    output limit this server's."""
    time_limit_ms: int = Field(default=SANDBOX_DEFAULTS.time_limit_ms, ge=1,
                               description="CPU of every process of the run")
    memory_limit_mb: int = Field(default=SANDBOX_DEFAULTS.memory_limit_mb, ge=1)
    wall_time_limit_ms: int | None = Field(default=None, ge=1, description="default max(2 x time, "
                                           "time + 1 s)")
    output_limit_mb: float | None = Field(default=None, gt=0, description="default: this "
                                          "server's output limit")
    processes: int = Field(default=SANDBOX_DEFAULTS.processes, ge=1)


class ExecRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    argv: list[str] = Field(..., min_length=1, examples=[["python3", "-c", "print(1)"]],
                            description="a command of the sandbox's read-only root; the "
                            "working directory is /box, a tmpfs holding `files` (noexec)")
    stdin: str | None = None
    stdin_base64: str | None = None
    files: dict[str, str] = Field(default_factory=dict, description="path in /box -> base64")
    fetch_files: list[str] = Field(default_factory=list)
    policy: Literal["native", "python", "java"] = "native"
    limits: ExecLimits = Field(default_factory=lambda: ExecLimits())
    output: Literal["text", "base64"] = Field(default="text", description="how stdout and stderr are "
                                              "returned")


class RunResultModel(BaseModel):
    """`judge exec --json`: the sandbox's RunResult."""
    model_config = ConfigDict(extra="forbid")   # a field of the result is never dropped
    status: str = Field(..., description="OK, TLE, MLE, OLE, RE, RF, SE, BUSY")
    exit_code: int | None
    signal: int | None
    cpu_time_ms: float
    wall_time_ms: float
    memory_kb: int
    output_bytes: int
    killed_by: str | None
    syscall: str | None
    sources: dict[str, str]
    error: str | None
    setup_cpu_ms: float
    undelivered_bytes: int
    waiting_ms: float


class ExecResponse(BaseModel):
    result: RunResultModel
    stdout: str
    stderr: str
    stdout_truncated: bool = Field(default=False, description="text output cut to the server's "
                                   "output limit as encoded (a control byte is six bytes of "
                                   "JSON); base64 output is never cut")
    stderr_truncated: bool = False
    files: dict[str, str] = Field(default_factory=dict, description="fetch_files, base64")


class BatchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    items: list[GradeRequest] = Field(..., min_length=1)


class BatchCreated(BaseModel):
    id: str
    total: int
    url: str


class BatchItem(BaseModel):
    index: int
    status: Literal["queued", "running", "done", "error", "cancelled"]
    result: GradeResponse | None = None
    error: ErrorResponse | None = None


class ExcludedItem(BaseModel):
    index: int
    verdict: str = Field(..., description="SE, FAIL, BUSY, or the error of an item that failed")
    reason: str
    exclusion_evidence: EvidenceInfo | None = Field(default=None, description="for SE, FAIL "
                                                    "and BUSY: why the submission did not "
                                                    "cause it")


class Excluded(BaseModel):
    count: int
    by_verdict: dict[str, int]
    items: list[ExcludedItem]


class BatchStatus(BaseModel):
    id: str
    status: Literal["running", "done", "cancelled"]
    total: int
    finished: int
    verdicts: dict[str, int] = Field(default_factory=dict)
    complete: bool = Field(..., description="every item has a verdict the metrics may count, as "
                           "summary.json's `complete` of `judge eval` (which exits 3 otherwise)")
    excluded: Excluded = Field(..., description="the items the judge could not grade: judge "
                               "failures (SE, FAIL, BUSY) and items that ended in an error")
    items: list[BatchItem]


class Health(BaseModel):
    status: Literal["ok"]


class SlotState(BaseModel):
    model_config = ConfigDict(extra="forbid")   # a field of SlotPool.status() is never dropped
    index: int
    warm: bool
    busy: bool
    error: str | None
    restarts: int


class Readiness(BaseModel):
    ready: bool
    draining: bool
    slots: list[SlotState]
    queue_length: int
    queue_limit: int
    problems: str = Field(..., description="ready, loading, or the error of --dataset")


class LibraryInfo(BaseModel):
    name: str = Field(description="as code names it: boost, org.javatuples, numpy, lodash")
    source: str = Field(description="debian, pypi or npm")
    package: str = Field(description="the package that provides it (PyPI's pinned)")
    installed: bool
    optional: bool = Field(description="an opt-in extra: listed, not promised")


class ProfileInfo(BaseModel):
    name: str = Field(description="strict (competitive grading: judge run, judge eval, "
                      "/v1/grade) or compatible (SandboxFusion's /run_code and /submit)")
    compile: list[str] | None = Field(description="the compile command; null: none")
    run: list[str]
    policy: str
    libraries: list[LibraryInfo] = Field(description="what its programs may use beyond the "
                                         "toolchain's own library (the runtime layer)")


class LanguageInfo(BaseModel):
    name: str
    aliases: list[str] = Field(description="every other name a request may give it")
    family: str = Field(description="native, script, jvm, managed or simulator")
    available: bool
    time_factor: float
    compiled: bool
    policy: str = Field(description="the seccomp policy of a graded run (SandboxFusion's "
                        "/run_code and /submit run every language under `general`)")
    sandboxfusion_only: bool = Field(description="a test runner only SandboxFusion's requests "
                                     "name (pytest, junit, go_test, ...)")
    python_modules: dict[str, list[str]] | None = Field(
        default=None, description="a Python language's importable modules beyond the standard "
        "library, per benchmark (judge/languages/python_env.py); null for other languages")
    profiles: list[ProfileInfo] = Field(description="the language in each profile: its "
                                        "commands and libraries")
