"""SandboxFusion's request and response models, as its client (the `sandbox-fusion` package)
sends and parses them, plus the judge's extra fields. The client parses responses with pydantic
models that ignore unknown fields, so every extra field is invisible to it and useful to anyone
who reads the JSON: peak memory, CPU time and the judge's own status or verdict (MLE included,
which SandboxFusion cannot tell apart from a crash)."""
from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

DEFAULT_RUN_TIMEOUT_S = 10     # run_timeout and compile_timeout when the request gives none


class CommandRunStatus(StrEnum):
    Finished = "Finished"                   # the command ran to its end (any exit code)
    Error = "Error"                         # the sandbox failed to run it
    TimeLimitExceeded = "TimeLimitExceeded"


class RunStatus(StrEnum):
    Success = "Success"          # every command finished with exit code 0
    Failed = "Failed"            # a compile error, a non-zero exit, a limit
    SandboxError = "SandboxError"  # the judge could not run it: no verdict (the client raises)


class CommandRunResult(BaseModel):
    status: CommandRunStatus
    execution_time: float | None = Field(default=None, description="wall seconds")
    return_code: int | None = Field(default=None, description="exit code; -N for a signal N; null on "
                                    "TimeLimitExceeded. A run the judge stopped for a memory, "
                                    "output or system-call limit is -9 if it had no other")
    stdout: str | None = None
    stderr: str | None = None
    # -- the judge's extra fields -------------------------------------------------------------
    cpu_time: float | None = Field(default=None, description="CPU seconds of every process of the run")
    memory_kb: int | None = Field(default=None, description="peak memory of the run, KiB")
    judge_status: str | None = Field(default=None, description="the judge's status: OK, TLE, MLE, OLE, "
                                     "RE, RF, SE, BUSY (runs); OK, CE, SE (compiles)")
    signal: int | None = None
    killed_by: str | None = None
    stdout_truncated: bool = Field(default=False, description="stdout was cut to what this "
                                   "server returns (its encoded size); the run and any checker "
                                   "saw all of it")
    stderr_truncated: bool = False


class RunCodeRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    code: str = Field(..., examples=['print("hello")'])
    language: str = Field(..., examples=["python"], description="python, cpp, java, c, pypy3 "
                          "(any other: a Failed run at once, verdict UNGRADABLE)")
    compile_timeout: float = Field(default=DEFAULT_RUN_TIMEOUT_S, description="wall-clock "
                                   "seconds of the compile, as SandboxFusion's; past the judge's "
                                   "own compile limits it is clamped to them")
    run_timeout: float = Field(default=DEFAULT_RUN_TIMEOUT_S, description="wall-clock seconds of "
                               "the run, as SandboxFusion's; its CPU time is held to it too")
    memory_limit_MB: int = Field(default=-1, description="MB; -1 (SandboxFusion's default): the server's "
                                 "default")
    stdin: str | None = None
    files: dict[str, str | None] = Field(default_factory=dict, description="path in the working "
                                         "directory -> base64 content")
    fetch_files: list[str] = Field(default_factory=list, description="paths to return, base64, "
                                   "after the run: relative to the working directory /box, or "
                                   "absolute inside it; a missing file or a path outside the "
                                   "box is left out")


class RunCodeResponse(BaseModel):
    status: RunStatus
    message: str = ""
    compile_result: CommandRunResult | None = None
    run_result: CommandRunResult | None = None
    executor_pod_name: str | None = None
    files: dict[str, str] = Field(default_factory=dict)
    # -- the judge's extra field --------------------------------------------------------------
    verdict: str | None = Field(default=None, description="the judge's word on the whole: OK, CE, TLE, "
                                "MLE, OLE, RE, RF, SE, BUSY, UNGRADABLE (a language the judge "
                                "does not run) (/run_code); AC, WA, ... (a test of /submit)")


class TestConfig(BaseModel):
    __test__ = False   # not a pytest class
    model_config = ConfigDict(extra="ignore")

    dataset_type: str | None = None
    language: str | None = None
    locale: str | None = None
    is_fewshot: bool | None = None
    compile_timeout: float | None = Field(default=None, description="wall-clock seconds of the "
                                          "compile, clamped to the judge's compile limits; none: "
                                          "those limits")
    run_timeout: float | None = Field(default=None, description="wall-clock seconds of each "
                                      "test's run (its CPU time held to it too)")
    custom_extract_logic: str | None = Field(default=None, description="not supported: it would run the "
                                             "client's Python on the server, outside any sandbox")
    provided_data: list[dict[str, Any]] | dict[str, Any] | None = Field(default=
        None, description="the problem: `test` (SandboxFusion's [{input: {stdin}, output: "
        "{stdout}}]), or `inputs`/`outputs`, or `input_output`; beyond SandboxFusion, `checker` "
        "(a testlib checker's name or source, or a dataset comparator), `time_limit_ms`, "
        "`memory_limit_mb`")
    extra: dict[str, Any] = Field(default_factory=dict, description="run_all_cases, "
                                  "return_full_case as in SandboxFusion")


class SubmitRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    dataset: str = ""
    id: int | str
    completion: str
    config: TestConfig


class EvalTestCase(BaseModel):
    passed: bool
    exec_info: RunCodeResponse
    test_info: dict[str, Any] | None = None


class EvalResult(BaseModel):
    id: int | str
    accepted: bool
    extracted_code: str
    full_code: str | None = None
    test_code: str | None = None
    tests: list[EvalTestCase]
    extracted_type: Literal["fenced", "incomplete_fenced", "heuristic", "empty"] | None = None
    extra: dict[str, Any] | None = Field(default=None, description="the judge's: verdict and the whole "
                                         "grading (`judge run --json`'s result)")
