"""Where problems come from, named one way for every command (`judge run`, `judge problems`,
`judge eval`): the embedded pack, a CF-Div2-Stepfun source, LiveCodeBench or CodeContests,
written as DATASET_HELP says."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl

from judge import JudgeError
from judge.problems.model import Problem

DATASET_HELP = """\
Where problems come from:
  pack (default)   the embedded problem pack
  PATH or HUB_ID   CF-Div2-Stepfun (parquet file, directory, hub id),
                   then the pack; also written stepfun:PATH
  livecodebench:[PATH or HUB_ID][?OPTIONS]   (or lcb:)
      options: release=release_v5, start=2024-08-01, end=2025-02-28,
      platform=leetcode,atcoder, difficulty=easy,medium,
      time_limit_ms=6000, memory_limit_mb=4096 (joined with &);
      default hub id livecodebench/code_generation_lite
  codecontests:[PATH or HUB_ID][?split=test&tests=public,private,generated]
      (or cc:); default hub id deepmind/code_contests"""

_SCHEMES = {"stepfun": "stepfun", "cf": "stepfun", "livecodebench": "livecodebench",
            "lcb": "livecodebench", "codecontests": "codecontests", "cc": "codecontests"}
_OPTIONS = {
    "stepfun": set(),
    "livecodebench": {"release", "start", "end", "platform", "difficulty", "time_limit_ms",
                      "memory_limit_mb"},
    "codecontests": {"split", "tests"},
}


@dataclass(frozen=True)
class DatasetSpec:
    kind: str                     # "stepfun", "livecodebench" or "codecontests"
    source: str | None            # path or hub id; None: the default of the kind
    options: dict = field(default_factory=dict)

    @property
    def label(self) -> str:
        if self.kind == "stepfun" and self.source is None:
            return "pack"
        text = f"{self.kind}:{self.source or ''}"
        if self.options:
            text += "?" + "&".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        return text


def parse_dataset(spec: str | None) -> DatasetSpec:
    """Parses the --dataset syntax (DATASET_HELP). Raises JudgeError on anything unclear."""
    if spec is None or spec.strip() in ("", "pack"):
        return DatasetSpec("stepfun", None)
    spec = spec.strip()
    m = re.match(r"^([A-Za-z][A-Za-z0-9_-]*):(?!//)(.*)$", spec, re.S)
    if not m or Path(spec).expanduser().exists():
        if "?" in spec and not Path(spec).expanduser().exists():
            raise JudgeError(f"--dataset {spec!r}: options (?...) need a kind prefix, e.g. "
                             "livecodebench:<path>?release=release_v5")
        return DatasetSpec("stepfun", spec)
    scheme = m.group(1).lower()
    if scheme not in _SCHEMES:
        raise JudgeError(f"--dataset {spec!r}: unknown kind {m.group(1)!r} "
                         f"(known: pack, stepfun:, livecodebench:, codecontests:)")
    kind = _SCHEMES[scheme]
    rest = m.group(2)
    source, _, query = rest.partition("?")
    options: dict[str, str] = {}
    if query:
        try:
            pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=True)
        except ValueError:
            raise JudgeError(f"--dataset {spec!r}: bad options {query!r} (expected key=value&...)") from None
        for key, value in pairs:
            if key not in _OPTIONS[kind]:
                allowed = ", ".join(sorted(_OPTIONS[kind])) or "none"
                raise JudgeError(f"--dataset {spec!r}: unknown option {key!r} for {kind} "
                                 f"(allowed: {allowed})")
            if key in options:
                raise JudgeError(f"--dataset {spec!r}: option {key!r} given twice")
            options[key] = value
    if kind == "stepfun" and not source:
        raise JudgeError(f"--dataset {spec!r}: stepfun: needs a path or hub id")
    return DatasetSpec(kind, source.strip() or None, options)


def _int_option(spec: DatasetSpec, name: str) -> int | None:
    if name not in spec.options:
        return None
    try:
        value = int(spec.options[name])
    except ValueError:
        value = 0
    if value <= 0:
        raise JudgeError(f"--dataset: {name} must be a positive integer, got {spec.options[name]!r}")
    return value


class ProblemSource:
    """Finds problems by id in the selected dataset. Loading errors are JudgeErrors (exit 2)."""

    def __init__(self, spec: DatasetSpec) -> None:
        self.spec = spec
        self._index: dict[str, Problem] | None = None
        self._cache: dict[str, Problem | JudgeError] = {}
        if spec.kind == "stepfun":
            from judge.problems.registry import list_problems
            list_problems(spec.source)           # validates (and caches) the source now
        elif spec.kind == "livecodebench":
            from judge.problems import livecodebench as lcb
            kwargs = {}
            for opt, arg in (("release", "release"), ("start", "start_date"), ("end", "end_date")):
                if opt in spec.options:
                    kwargs[arg] = spec.options[opt]
            for opt, arg in (("platform", "platforms"), ("difficulty", "difficulties")):
                if opt in spec.options:
                    kwargs[arg] = [v.strip() for v in spec.options[opt].split(",") if v.strip()]
            for opt in ("time_limit_ms", "memory_limit_mb"):
                value = _int_option(spec, opt)
                if value is not None:
                    kwargs[opt] = value
            problems = lcb.load_livecodebench(spec.source or lcb.HUB_ID, **kwargs)
            self._index = {p.id: p for p in problems}
        else:
            from judge.problems import codecontests as cc
            kwargs = {}
            if "split" in spec.options:
                kwargs["split"] = spec.options["split"]
            if "tests" in spec.options:
                sets = tuple(v.strip() for v in spec.options["tests"].split(",") if v.strip())
                bad = [s for s in sets if s not in cc.TEST_SETS]
                if bad or not sets:
                    raise JudgeError(f"--dataset: tests must be a comma list of "
                                     f"{', '.join(cc.TEST_SETS)}, got {spec.options['tests']!r}")
                kwargs["test_sets"] = sets
            problems = cc.load_codecontests(spec.source or cc.HUB_ID, **kwargs)
            self._index = {p.id: p for p in problems}

    def list(self) -> list[Problem]:
        """Every problem of the source, in its order."""
        if self.spec.kind == "stepfun":
            from judge.problems.registry import list_problems
            return list_problems(self.spec.source)
        assert self._index is not None
        return list(self._index.values())

    def get(self, problem_id: str) -> Problem:
        hit = self._cache.get(problem_id)
        if hit is None:
            try:
                hit = self._lookup(problem_id)
            except JudgeError as exc:
                hit = exc
            self._cache[problem_id] = hit
        if isinstance(hit, JudgeError):
            raise hit
        return hit

    def _lookup(self, problem_id: str) -> Problem:
        if self.spec.kind == "stepfun":
            from judge.problems.registry import resolve
            return resolve(problem_id, self.spec.source)
        assert self._index is not None
        prefix = self.spec.kind + "/"
        for candidate in (problem_id, prefix + problem_id):
            if candidate in self._index:
                return self._index[candidate]
        raise JudgeError(f"unknown problem {problem_id!r} in {self.spec.label} "
                         f"({len(self._index)} problems loaded)")


def open_source(spec: str | None) -> ProblemSource:
    """The problem source a --dataset value names (None: the embedded pack)."""
    return ProblemSource(parse_dataset(spec))
