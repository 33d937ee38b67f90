"""The rows of a `judge eval`, made ready to judge: each row's problem and language resolved,
its code extracted (the last fenced block), and its judgment key computed; a row the judge
cannot grade carries its verdict (NO_CODE, UNGRADABLE, SKIPPED) and the reason.

A row is SKIPPED (left out of the metrics) only with evidence that the model did not choose
what cannot be graded (docs/design/6-evaluation.md §6.5): the row names a problem the dataset lacks
(`named-problem`), or the row, --lang or the benchmark named a language this host has no
toolchain for (`named-language`). A language only the completion's own code fence chose is the
model's choice: on a host without its toolchain the sample is UNGRADABLE, counted as failed,
and the run warns that the host lacks the toolchain."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from judge import JudgeError, __version__
from judge.evaluate.extract import language_from_tag, take_code, wanted_language
from judge.evaluate.generations import Generation
from judge.evaluate.store import JudgmentKey, sha256
from judge.evaluate.tasks import Task
from judge.exclusion import Evidence, EvidenceKind, attribute
from judge.harness import function_name, harness_id, is_functional
from judge.languages.python_env import run_environment
from judge.problems.model import Problem
from judge.problems.rules import BenchmarkRules, rules_for
from judge.problems.source import ProblemSource
from judge.verdicts import Verdict


@dataclass
class Sample:
    gen: Generation
    problem_id: str                       # canonical when the problem is known
    sample_index: int | None = None
    language: str | None = None
    problem: Problem | None = None
    source: str | None = None             # the code graded (Grader.grade adds any harness)
    jk: JudgmentKey | None = None
    verdict: Verdict | None = None        # NO_CODE / UNGRADABLE / SKIPPED before judging
    reason: str = ""
    skipped_on_request: bool = False      # --skip-ungradable: left out knowingly
    # Why a SKIPPED sample is not the model's doing (judge.exclusion); None otherwise.
    evidence: Evidence | None = None
    # The language the completion's own fence chose that this host has no toolchain for: the
    # sample is the model's failure (UNGRADABLE), and the run warns of the host's shortfall.
    missing_toolchain: str | None = None

    def task(self) -> Task:
        """What judging this sample means; only for a sample with a judgment key."""
        assert self.jk is not None and self.source is not None and self.language is not None \
            and self.problem is not None, f"row {self.gen.row} is not judged"
        return Task(self.jk, self.source, self.language, self.problem)


def tests_hash(problem: Problem) -> str:
    parts: list[bytes | str] = [problem.checker, str(len(problem.tests))]
    for t in problem.tests:
        parts += [t.input, t.output]
    if problem.interactor is not None:
        parts.append(problem.interactor)
    return sha256(*parts)


class _ToolchainMissing(JudgeError):
    """The language is known but cannot run on this host: the judge's shortfall when the row,
    --lang or the benchmark named it, the model's choice when only its code fence did."""

    def __init__(self, language: str) -> None:
        super().__init__(f"the {language} toolchain is not installed here")
        self.language = language


def _language_of(gen: Generation, tag: str | None, default: str | None,
                 rules: BenchmarkRules) -> str:
    """The canonical language of a row (extract.wanted_language). Raises JudgeError for code in
    no language the judge runs, _ToolchainMissing for one it cannot run here."""
    from judge.languages import get_language
    wanted = wanted_language(rules, gen.language, tag, default)
    if wanted is None:
        raise JudgeError("no language given and the code block has no language tag "
                         "(--lang sets one)")
    for name in (wanted, language_from_tag(wanted)):
        if not name:
            continue
        try:
            lang = get_language(name)
        except JudgeError:
            continue
        if not lang.available:
            raise _ToolchainMissing(lang.name)
        return lang.name
    raise JudgeError(f"unknown language {wanted!r}")


def _named_by(gen: Generation, default: str | None, rules: BenchmarkRules,
               language: str) -> str | None:
    """Who, other than the model, named `language`: the row's `language`, --lang, or the
    benchmark's own default; None when only the completion's code fence chose it."""
    for who, name in ((f"the row's language {gen.language!r}", gen.language),
                      (f"the run's language (--lang) {default!r}", default),
                      (f"the {rules.name} benchmark's default language", rules.default_language)):
        if name and language in _names_of(name):
            return who
    return None


def _names_of(name: str) -> set[str]:
    """The canonical languages a spelling can stand for, as _language_of reads it."""
    from judge.languages import get_language
    names = set()
    for spelling in (name, language_from_tag(name)):
        if spelling:
            try:
                names.add(get_language(spelling).name)
            except JudgeError:
                continue
    return names


def _toolchain_missing(s: Sample, exc: _ToolchainMissing, tag: str | None,
                       default: str | None, rules: BenchmarkRules, skip_ungradable: bool) -> None:
    """A language this host has no toolchain for: SKIPPED with the evidence that the row,
    --lang or the benchmark named it, else the model's own choice (UNGRADABLE, or SKIPPED on
    request with --skip-ungradable)."""
    named = _named_by(s.gen, default, rules, exc.language)
    evidence = (Evidence(EvidenceKind.NAMED_LANGUAGE,
                         f"{named} named {exc.language}, whose toolchain this host does not have")
                if named else None)
    reason = str(exc) if named else (
        f"{exc}, and only the completion's own code fence (```{tag}) chose {exc.language}, "
        "not the row's language or --lang")
    decided = attribute(Verdict.SKIPPED, reason, evidence)
    s.language, s.reason, s.evidence = exc.language, decided.message, decided.evidence
    s.verdict = decided.verdict
    if evidence is None:
        s.missing_toolchain = exc.language
        if skip_ungradable:
            s.verdict, s.skipped_on_request = Verdict.SKIPPED, True


def prepare_samples(generations: list[Generation], source: ProblemSource, *,
                    default_language: str | None = None,
                    skip_ungradable: bool = False) -> list[Sample]:
    """Resolves, extracts and keys every row. Code the judge cannot grade (no language, an
    unknown one, one the problem's harness does not take) is a failed sample (UNGRADABLE)
    unless skip_ungradable leaves it out knowingly."""
    samples: list[Sample] = []
    hashes: dict[str, str] = {}
    for gen in generations:
        s = Sample(gen=gen, problem_id=gen.problem_id)
        samples.append(s)
        if _extract(s, source, default_language, skip_ungradable):
            _key(s, hashes)
    _assign_indexes(samples)
    return samples


def _extract(s: Sample, source: ProblemSource, default_language: str | None,
             skip_ungradable: bool) -> bool:
    """Resolves the row's problem and language and takes its code; False, with the sample's
    verdict and reason set, when the row is not to be judged."""
    gen = s.gen
    try:
        s.problem = source.get(gen.problem_id)
    except JudgeError as exc:
        # The row's problem id is the dataset's (or the harness's), never the model's.
        s.verdict, s.reason = Verdict.SKIPPED, str(exc)
        s.evidence = Evidence(EvidenceKind.NAMED_PROBLEM,
                              f"row {gen.row} names problem {gen.problem_id!r}, which "
                              f"{source.spec.label} does not give; the row is the dataset's, "
                              "not the model's")
        return False
    s.problem_id = s.problem.id
    tag = None
    code: str | None
    rules = rules_for(s.problem)
    if gen.code is not None:
        code = gen.code
    else:
        block = take_code(gen.completion or "", rules)
        code, tag = (block.code, block.tag) if block else (None, None)
    try:
        s.language = _language_of(gen, tag, default_language, rules)
        language_error = None
    except JudgeError as exc:
        language_error = exc
    if code is None:
        # No code is the model's failure whatever the language: judged as such.
        s.verdict, s.reason = Verdict.NO_CODE, "the completion has no fenced code block"
        s.language = s.language or (gen.language or "unknown")
        return False
    try:
        if language_error is not None:
            raise language_error
        assert s.language is not None
        if is_functional(s.problem):
            function_name(s.problem, s.language)
        s.source = code
    except _ToolchainMissing as exc:
        _toolchain_missing(s, exc, tag, default_language, rules, skip_ungradable)
        return False
    except JudgeError as exc:
        s.language = s.language or gen.language or tag or "unknown"
        s.verdict = Verdict.SKIPPED if skip_ungradable else Verdict.UNGRADABLE
        s.reason = str(exc)
        s.skipped_on_request = skip_ungradable
        return False
    return True


def _key(s: Sample, hashes: dict[str, str]) -> None:
    """The judgment key of an extracted sample; `hashes` keeps each problem's tests_hash."""
    from judge.grade import run_limits
    from judge.languages import get_language
    problem, language, code = s.problem, s.language, s.source
    assert problem is not None and language is not None and code is not None
    if problem.id not in hashes:
        hashes[problem.id] = tests_hash(problem)
    limits = run_limits(problem, get_language(language))
    run_environment(rules_for(problem).python_environment, language)   # refused here when not installed
    code_key = sha256(code, *filter(None, [harness_id(problem, language)]))
    s.jk = JudgmentKey(problem.id, hashes[problem.id], language, code_key,
                       f"tl={limits.time_limit_ms}ms wall={limits.wall_ms}ms "
                       f"ml={limits.memory_limit_mb}MB "
                       f"ol={limits.output_limit_mb}MB", __version__)


def _assign_indexes(samples: list[Sample]) -> None:
    used: dict[str, set[int]] = defaultdict(set)
    for s in samples:
        if s.problem is not None and s.gen.sample_index is not None:
            if s.gen.sample_index in used[s.problem_id]:
                raise JudgeError(f"generations row {s.gen.row}: sample index {s.gen.sample_index} "
                                 f"of {s.problem_id} appears twice")
            used[s.problem_id].add(s.gen.sample_index)
            s.sample_index = s.gen.sample_index
    nxt: dict[str, int] = defaultdict(int)
    for s in samples:
        if s.problem is not None and s.sample_index is None:
            while nxt[s.problem_id] in used[s.problem_id]:
                nxt[s.problem_id] += 1
            s.sample_index = nxt[s.problem_id]
            used[s.problem_id].add(s.sample_index)
