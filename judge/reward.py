"""Rewards for RL trainers: the judge as a reward function, in the shapes trainers call.

    from judge.reward import CodeReward
    reward = CodeReward(scoring="fraction", stop_at_first_failure=False)
    GRPOTrainer(..., reward_funcs=[reward])                  # TRL: reward(prompts, completions, **columns)
    reward.compute_score(data_source, solution_str, ground_truth, extra_info)   # verl's contract

A completion is graded as `judge eval` grades it (the code its benchmark's rule extracts, in the
language the row, `language` or its fence names) on the problem its row describes: a `problem`
column of Problems, a `problem_id` column (looked up in `dataset`), or the row itself in any
schema judge.problems.rows reads (CF-Div2-Stepfun, CodeContests, LiveCodeBench, or plain
`inputs`/`outputs`). The score is the fraction of the problem's tests passed (`fraction`) or 1.0
for AC and 0.0 otherwise (`pass`); a completion without code, or in a language the judge does
not run, scores 0.0. None is returned only for a judge failure (SE, FAIL, BUSY) left after the
judge's own re-runs (judge.busy_retry): no verdict on the completion, so no reward; TRL leaves a
None out of the sum of its reward functions.

Where it grades: in this process (every usable CPU, each grading on a slot of its own), on a
`judge serve` (`url`, its /v1/grade, retrying its 503s as it asks), or on a Ray cluster (`ray`:
"auto", an address, or "local"; the eval's judge workers on every node's cores, started on the
first call and kept warm until `close`, judge.evaluate.ray_gradings). A batch is graded
concurrently across the slots or workers. `stop_at_first_failure` and `cpu_budget_ms` bound what a
completion may cost (a batch with infinite loops costs one time limit per loop, not one per
test); tests left unrun count as failed. A call's identical gradings are graded once."""
from __future__ import annotations

import asyncio
import hashlib
import json
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from judge import JudgeError, api
from judge.api import ExtractedCode
from judge.busy_retry import BusyRetry
from judge.cpus import usable_cpus
from judge.evaluate.ray_gradings import Grading, RayGradings
from judge.harness import is_functional
from judge.problems.model import Problem
from judge.problems.rows import problem_from_row, schema_of
from judge.verdicts import JUDGE_FAILURES, Verdict

# TRL's own keyword arguments of a reward call, which are no column of the row.
TRL_ARGUMENTS = frozenset({"completion_ids", "trainer_state", "log_extra", "log_metric",
                           "environments"})
# How long a call to a judge serve waits for one grading, and how often it asks again after a
# refusal for load (503 with Retry-After).
URL_TIMEOUT_S = 600.0
URL_REFUSAL_TRIES = 8


class Scoring(StrEnum):
    FRACTION = "fraction"     # the tests passed over the problem's tests
    PASS = "pass"             # 1.0 for AC, else 0.0


@dataclass(frozen=True)
class Task:
    problem: Problem
    by_id: bool       # looked up by its id (a server with the same dataset knows it)


@dataclass(frozen=True)
class Graded:
    """One completion's reward and what it came from."""
    score: float | None       # None: a judge failure, no reward
    verdict: str              # the judge's verdict, NO_CODE or UNGRADABLE
    passed: int               # tests passed
    ran: int                  # tests run (fewer than `tests` when the grading stopped early)
    tests: int                # the problem's tests


def completion_text(completion: Any) -> str:
    """A TRL completion as text: a string, or a conversation's messages (its last message's
    content; a list of content parts is joined)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Sequence) and completion and isinstance(completion[-1], Mapping):
        content = completion[-1].get("content", "")
        if isinstance(content, str):
            return content
        if isinstance(content, Sequence):
            return "".join(part.get("text", "") for part in content if isinstance(part, Mapping))
    raise JudgeError(f"a completion must be text or a list of messages, got {type(completion).__name__}")


class CodeReward:
    """A reward function over the judge. Keyword settings: scoring ("fraction" or "pass"),
    stop_at_first_failure, cpu_budget_ms (per completion, all its tests together), language
    (as `judge eval --lang`), dataset (where `problem_id`s are looked up), url and token (a
    `judge serve` to grade on), ray (a Ray cluster to grade on) with ray_slot_base (its
    workers' first sandbox slot) and allow_unaudited (as `judge eval`), jobs (gradings at once;
    default: the usable CPUs in-process, twice the usable CPUs through a URL, one worker per
    CPU of the cluster on Ray), busy_retry (in-process and on Ray). Used as a context manager,
    or with `close()`, it ends its Ray workers when done."""

    __name__ = "code_reward"     # TRL logs each reward function under its name

    def __init__(self, *, scoring: Scoring | str = Scoring.FRACTION,
                 stop_at_first_failure: bool = False, cpu_budget_ms: float | None = None,
                 language: str | None = None, dataset: str | None = None,
                 url: str | None = None, token: str | None = None, ray: str | None = None,
                 ray_slot_base: int | None = None, allow_unaudited: bool = False,
                 jobs: int | None = None, busy_retry: BusyRetry | None = None) -> None:
        try:
            self.scoring = Scoring(scoring)
        except ValueError:
            raise JudgeError(f"scoring must be one of {', '.join(Scoring)}, not {scoring!r}") from None
        if cpu_budget_ms is not None and cpu_budget_ms <= 0:
            raise JudgeError("cpu_budget_ms must be positive")
        if jobs is not None and jobs < 1:
            raise JudgeError("jobs must be at least 1")
        self.stop_at_first_failure, self.cpu_budget_ms = stop_at_first_failure, cpu_budget_ms
        self.language, self.dataset, self.token = language, dataset, token
        self.url = url.rstrip("/") if url else None
        if url and ray:
            raise JudgeError("a reward grades on a judge serve (url) or on Ray (ray), not both")
        self.jobs = jobs or (2 * len(usable_cpus()) if url else len(usable_cpus()))
        self.busy_retry = busy_retry or BusyRetry()
        self.on_ray = (RayGradings(ray, workers=jobs, slot_base=ray_slot_base,
                                   allow_unaudited=allow_unaudited, busy_retry=self.busy_retry)
                       if ray else None)

    def close(self) -> None:
        """Ends the Ray workers, if any (a later call starts them again)."""
        if self.on_ray is not None:
            self.on_ray.close()

    def __enter__(self) -> CodeReward:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- TRL ----------------------------------------------------------------------------------
    def __call__(self, prompts: Sequence[Any] | None = None,
                 completions: Sequence[Any] | None = None, **columns: Any) -> list[float | None]:
        """TRL's reward function: one score a completion (None for a judge failure)."""
        return [graded.score for graded in self.grade_batch(completions or [], columns)]

    async def acall(self, prompts: Sequence[Any] | None = None,
                    completions: Sequence[Any] | None = None, **columns: Any) -> list[float | None]:
        """The same for asyncio code, in a worker thread."""
        return await asyncio.to_thread(self, prompts, completions, **columns)

    # -- verl ---------------------------------------------------------------------------------
    def compute_score(self, data_source: Any, solution_str: str, ground_truth: Any,
                      extra_info: Mapping[str, Any] | None = None, **_: Any) -> dict[str, Any]:
        """verl's `custom_reward_function` contract: `ground_truth` is the row's tests (a
        mapping or JSON: `inputs`/`outputs`, `test`, or a whole row), `extra_info` more of the
        row (its limits, checker, language). verl takes a number for every sample, so a judge
        failure is score 0.0 with `judge_failure` 1 beside it, for the trainer to filter on."""
        return self.compute_score_batch([data_source], [solution_str], [ground_truth],
                                        [extra_info])[0]

    def compute_score_batch(self, data_sources: Sequence[Any], solution_strs: Sequence[str],
                            ground_truths: Sequence[Any],
                            extra_infos: Sequence[Mapping[str, Any] | None]) -> list[dict[str, Any]]:
        """verl's batched reward manager's call: compute_score over a whole step at once."""
        rows = [_verl_row(truth, extra) for truth, extra in zip(ground_truths, extra_infos,
                                                                 strict=True)]
        tasks = [Task(problem_from_row(row, index), by_id=False) for index, row in enumerate(rows)]
        languages = [row.get("language") for row in rows]
        graded = self._grade_all(list(solution_strs), tasks, languages)
        return [{"score": 0.0 if g.score is None else g.score, "judge_failure": int(g.score is None),
                 "passed": g.passed, "ran": g.ran, "tests": g.tests, "verdict": g.verdict}
                for g in graded]

    # -- grading ------------------------------------------------------------------------------
    def grade_batch(self, completions: Sequence[Any], columns: Mapping[str, Any]) -> list[Graded]:
        """Every completion of a generation step against its row's problem, concurrently."""
        texts = [completion_text(c) for c in completions]
        tasks = self._problems(len(texts), columns)
        languages = _column(columns, "language", len(texts))
        return self._grade_all(texts, tasks, languages)

    def _problems(self, count: int, columns: Mapping[str, Any]) -> list[Task]:
        """Each completion's problem: a `problem` column of Problems, else `problem_id`
        looked up in `dataset` when one is given, else the row's own columns (looked up by
        `problem_id` in the pack when they hold no problem)."""
        given = _column(columns, "problem", count)
        if "problem" in columns and all(isinstance(p, Problem) for p in given):
            return [Task(p, by_id=False) for p in given]
        ids = _column(columns, "problem_id", count)
        if self.dataset is not None and "problem_id" in columns:
            return [Task(api.load_problem(str(pid), self.dataset), by_id=True) for pid in ids]
        names = [name for name in columns if name not in TRL_ARGUMENTS]
        # GRPO repeats each row per generation: as the same objects, or (TRL's sampler reads
        # the dataset again) as equal ones. Either way one Task, so its gradings are one.
        by_identity: dict[tuple[int, ...], Task] = {}
        by_content: dict[str, Task] = {}
        tasks = []
        for index in range(count):
            values = [columns[name][index] for name in names]
            identity = tuple(id(value) for value in values)
            task = by_identity.get(identity)
            if task is None:
                content = _digest(values)
                task = by_content.get(content)
                if task is None:
                    task = self._row_task(dict(zip(names, values, strict=True)), index)
                    by_content[content] = task
                by_identity[identity] = task
            tasks.append(task)
        return tasks

    def _row_task(self, row: dict[str, Any], index: int) -> Task:
        try:
            return Task(problem_from_row(row, index), by_id=False)
        except JudgeError:
            if row.get("problem_id") is None or schema_of(row) != "plain":
                raise
            return Task(api.load_problem(str(row["problem_id"]), self.dataset), by_id=True)

    def _grade_all(self, texts: list[str], tasks: list[Task],
                   languages: Sequence[Any]) -> list[Graded]:
        """Each completion's reward. A step's identical gradings (the same code in the same
        language on the same problem: GRPO's groups often repeat a completion) are graded once."""
        if len(texts) != len(tasks):
            raise JudgeError(f"{len(texts)} completions for {len(tasks)} rows")
        wanted = [lang if isinstance(lang, str) else None for lang in languages]
        codes = [self._code(text, task, lang) for text, task, lang in zip(texts, tasks, wanted,
                                                                          strict=True)]
        distinct: dict[tuple[str, str, int], tuple[str, str, Task]] = {}
        for code, task in zip(codes, tasks, strict=True):
            if isinstance(code, ExtractedCode) and code.language is not None:
                key = (code.code, code.language, id(task.problem))
                distinct.setdefault(key, (code.code, code.language, task))
        graded = dict(zip(distinct, self._grade_distinct(list(distinct.values())), strict=True))
        return [code if isinstance(code, Graded) else graded[(code.code, str(code.language),
                                                              id(task.problem))]
                for code, task in zip(codes, tasks, strict=True)]

    @property
    def _all_tests(self) -> bool:
        return self.scoring == Scoring.FRACTION and not self.stop_at_first_failure

    def _code(self, text: str, task: Task, row_language: str | None) -> ExtractedCode | Graded:
        """The completion's code to grade, or its reward when there is none to grade."""
        total = len(task.problem.tests)
        code = api.extract_code(text, task.problem, row_language or self.language)
        if code is None:
            return Graded(0.0, str(Verdict.NO_CODE), 0, 0, total)
        if code.language is None:
            return Graded(0.0, str(Verdict.UNGRADABLE), 0, 0, total)
        return code

    def _grade_distinct(self, asked: list[tuple[str, str, Task]]) -> list[Graded]:
        """(code, language, task) each graded: on Ray as one batch, else concurrently here or
        on the server."""
        if self.on_ray is not None:
            options = {"all_tests": self._all_tests, "cpu_budget_ms": self.cpu_budget_ms}
            records = self.on_ray.grade([Grading(code, language, task.problem, options)
                                         for code, language, task in asked])
            return [self._graded(str(record["verdict"]),
                                 [str(t["verdict"]) for t in record["tests"]],
                                 len(task.problem.tests))
                    for record, (_, _, task) in zip(records, asked, strict=True)]
        with ThreadPoolExecutor(max_workers=min(self.jobs, max(1, len(asked)))) as pool:
            return list(pool.map(lambda one: self._grade_one(*one), asked))

    def _grade_one(self, code: str, language: str, task: Task) -> Graded:
        if self.url is not None:
            verdict, verdicts = self._grade_on_server(code, language, task, self._all_tests)
        else:
            result = api.grade(code, language, task.problem, all_tests=self._all_tests,
                               cpu_budget_ms=self.cpu_budget_ms, busy_retry=self.busy_retry)
            verdict, verdicts = str(result.verdict), [str(t.verdict) for t in result.tests]
        return self._graded(verdict, verdicts, len(task.problem.tests))

    def _graded(self, verdict: str, verdicts: list[str], total: int) -> Graded:
        """The reward of a grading that ended in `verdict`, its tests' verdicts those run."""
        passed, ran = verdicts.count(Verdict.AC), len(verdicts)
        if verdict in JUDGE_FAILURES:
            return Graded(None, verdict, passed, ran, total)
        if self.scoring == Scoring.PASS:
            return Graded(1.0 if verdict == Verdict.AC else 0.0, verdict, passed, ran, total)
        return Graded(passed / total if total else 0.0, verdict, passed, ran, total)

    def _grade_on_server(self, code: str, language: str, task: Task,
                         all_tests: bool) -> tuple[str, list[str]]:
        """/v1/grade of the server: a problem looked up by id by its id (the server must have
        been started with the same dataset), else inline (its tests, limits, checker and
        interactor; a benchmark's harness does not travel, so a functional problem is graded
        in-process or by id)."""
        problem = task.problem
        body: dict[str, Any] = {"code": code, "language": language, "all_tests": all_tests,
                                "cpu_budget_ms": self.cpu_budget_ms}
        if task.by_id:
            body["problem_id"] = problem.id
        elif is_functional(problem):
            raise JudgeError(f"{problem.id} calls a function in its benchmark's harness, which an "
                             "inline problem does not carry: grade it in-process (url=None) or "
                             "by problem_id on a server started with its dataset")
        else:
            body["problem"] = {"id": problem.id[:200], "time_limit_ms": problem.time_limit_ms,
                               "memory_limit_mb": problem.memory_limit_mb,
                               "checker": problem.checker, "interactor": problem.interactor,
                               "tests": [{"input": t.input.decode("utf-8", "replace"),
                                          "output": t.output.decode("utf-8", "replace")}
                                         for t in problem.tests]}
        answer = self._post("/v1/grade", body)
        return answer["verdict"], [str(t.get("verdict")) for t in answer["tests"]]

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        data = json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        for _ in range(URL_REFUSAL_TRIES):
            request = urllib.request.Request(f"{self.url}{path}", data=data, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=URL_TIMEOUT_S) as response:
                    answer: dict[str, Any] = json.loads(response.read())
                    return answer
            except urllib.error.HTTPError as exc:
                text = exc.read().decode("utf-8", "replace")[:500]
                if exc.code not in (503, 504):
                    raise JudgeError(f"{self.url}{path} answered {exc.code}: {text}") from None
                time.sleep(float(exc.headers.get("Retry-After") or 1))
            except (urllib.error.URLError, OSError) as exc:
                raise JudgeError(f"cannot reach the judge at {self.url}: {exc}") from None
        return {"verdict": str(Verdict.BUSY), "tests": []}     # refused for load every time


def _column(columns: Mapping[str, Any], name: str, count: int) -> list[Any]:
    values = columns.get(name)
    if values is None:
        return [None] * count
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or len(values) != count:
        raise JudgeError(f"column {name!r} must hold one value per completion ({count})")
    return list(values)


def _digest(values: list[Any]) -> str:
    """The row's content as a key; a row JSON cannot order (a mapping with keys of mixed types,
    a cycle) shares its problem with no other row but is still graded."""
    try:
        text = json.dumps(values, sort_keys=True, default=repr, ensure_ascii=False)
    except (TypeError, ValueError):
        return "unordered:" + ":".join(str(id(value)) for value in values)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _verl_row(ground_truth: Any, extra_info: Mapping[str, Any] | None) -> dict[str, Any]:
    truth = ground_truth
    if isinstance(truth, str):
        try:
            truth = json.loads(truth)
        except ValueError:
            raise JudgeError("ground_truth is a string that is not JSON") from None
    if isinstance(truth, list):
        truth = {"test": truth}
    if not isinstance(truth, Mapping):
        raise JudgeError(f"ground_truth must be a row or its tests, got {type(truth).__name__}")
    return {**(extra_info or {}), **truth}


__all__ = ["CodeReward", "Graded", "Scoring", "completion_text"]
