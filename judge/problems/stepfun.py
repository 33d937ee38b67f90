"""CF-Div2-Stepfun loader: rows of the benchmark's schema, read through `datasets`, into `Problem`s.

Sources, all through `datasets.load_dataset`:

* the hub id ``stepfun-ai/CF-Div2-Stepfun`` (config ``release_v1``, split ``test``), or the
  local Hugging Face cache of it when the hub cannot be reached;
* a local ``.parquet`` / ``.jsonl`` / ``.jsonl.gz`` / ``.json`` file;
* a local directory of such files.

Row schema (one problem per row)::

    id              str | int   row id
    problem_id      str         e.g. "codeforces/2020A"
    problem_desc    str         the statement (markdown)
    time_limit_ms   int         > 0
    memory_limit_MB int         > 0
    checker         str         a testlib checker name ("wcmp", "ncmp", "rcmp6", ...) or the
                                source code of a custom checker; "" for an interactive
                                problem whose interactor's word is final
    test_cases      list of {input: str, output: str}   (a JSON string of that list is accepted)
    interactor      str | null  optional: an interactive problem's interactor, testlib source
                                (registerInteraction); a test's input is the interactor's input
                                file, its output the answer file, and a checker, when given,
                                reads the interactor's output file (testlib's tout)

A malformed row raises `JudgeError` naming the source and the row; never a traceback.
"""
from __future__ import annotations

import json
import math
import re
import socket
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from judge import JudgeError
from judge.cache import datasets_cache_dir
from judge.problems.hub import import_datasets
from judge.problems.model import Problem, TestCase, is_checker_source

HUB_ID = "stepfun-ai/CF-Div2-Stepfun"
HUB_CONFIG = "release_v1"
HUB_SPLIT = "test"

REQUIRED_FIELDS = ("problem_id", "problem_desc", "time_limit_ms", "memory_limit_MB", "checker",
                   "test_cases")

# File extensions the loader reads, and the `datasets` builder for each.
_BUILDERS = {
    ".parquet": "parquet",
    ".jsonl": "json",
    ".json": "json",
    ".jsonl.gz": "json",
    ".json.gz": "json",
}

_CHECKER_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$")


def _builder_for(path: Path) -> str | None:
    name = path.name.lower()
    for ext in sorted(_BUILDERS, key=len, reverse=True):
        if name.endswith(ext):
            return _BUILDERS[ext]
    return None


def _load_local(path: Path):
    """Loads a local file or directory as one `datasets.Dataset`."""
    datasets = import_datasets("stepfun")
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.is_file() and _builder_for(p))
        if not files:
            raise JudgeError(f"{path}: no .parquet or .jsonl files in this directory")
        builders = {_builder_for(p) for p in files}
        if len(builders) > 1:
            raise JudgeError(f"{path}: mixes parquet and json files; keep one format per directory")
        builder = builders.pop()
        data_files = [str(p) for p in files]
    elif path.is_file():
        builder = _builder_for(path)
        if builder is None:
            raise JudgeError(f"{path}: not a .parquet, .jsonl or .jsonl.gz file")
        data_files = [str(path)]
    else:
        raise JudgeError(f"{path}: no such file or directory")
    try:
        return datasets.load_dataset(builder, data_files=data_files, split="train",
                                     cache_dir=datasets_cache_dir())
    except JudgeError:
        raise
    except Exception as exc:
        raise JudgeError(f"{path}: cannot read as a CF-Div2-Stepfun {builder} dataset: "
                         f"{_one_line(exc)}") from None


def _hub_reachable(host: str = "huggingface.co", timeout: float = 3.0) -> bool:
    try:
        with socket.create_connection((host, 443), timeout=timeout):
            return True
    except OSError:
        return False


def _load_hub(hub_id: str, config: str | None, split: str):
    """Loads from the hub; when the hub is unreachable, from the local HF cache only (fast)."""
    datasets = import_datasets("stepfun")
    offline = bool(datasets.config.HF_HUB_OFFLINE)
    patched = []
    if not offline and not _hub_reachable():
        # Without this the hub client retries for ~30 s before giving up.
        offline = True
        import huggingface_hub.constants as hub_constants

        modules: tuple[Any, ...] = (datasets.config, hub_constants)
        for mod in modules:
            patched.append((mod, mod.HF_HUB_OFFLINE))
            mod.HF_HUB_OFFLINE = True
    try:
        return datasets.load_dataset(hub_id, config, split=split, cache_dir=datasets_cache_dir())
    except Exception as exc:
        where = "cannot reach the Hugging Face Hub and it is not in the local cache" if offline \
            else "cannot load it from the Hugging Face Hub"
        raise JudgeError(f"dataset {hub_id} ({config}, {split}): {where} "
                         f"({_one_line(exc)}); pass a local parquet/jsonl file or directory "
                         f"with --dataset") from None
    finally:
        for mod, value in patched:
            mod.HF_HUB_OFFLINE = value


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    first = text[0] if text else ""
    return f"{type(exc).__name__}: {first}"[:300]


def is_local_source(source: str) -> bool:
    """A path (existing, explicit or with a data-file extension) rather than a hub id."""
    return Path(source).expanduser().exists() or source.startswith((".", "/", "~")) \
        or _builder_for(Path(source)) is not None


def load_rows(source: str) -> tuple[Any, str]:
    """Returns (an iterable of row dicts, a label for messages) for a source string."""
    if source == HUB_ID or source.startswith(HUB_ID + ":"):
        config = HUB_CONFIG
        if ":" in source:
            config = source.split(":", 1)[1] or HUB_CONFIG
        return _load_hub(HUB_ID, config, HUB_SPLIT), f"{HUB_ID}:{config}"
    path = Path(source).expanduser()
    if is_local_source(source):
        return _load_local(path), str(path)
    # "owner/name" that is not a path: another hub dataset in the same schema.
    if re.fullmatch(r"[\w.-]+/[\w.-]+", source):
        return _load_hub(source, None, HUB_SPLIT), source
    raise JudgeError(f"{source}: not a file, a directory or a hub dataset id")


# ----------------------------------------------------------------------------- row conversion

def _int_field(row: dict, name: str, where: str) -> int:
    value = row.get(name)
    if isinstance(value, bool) or value is None:
        raise JudgeError(f"{where}: field {name!r} must be a positive integer, got {value!r}")
    if isinstance(value, float):
        if not math.isfinite(value) or value != int(value):
            raise JudgeError(f"{where}: field {name!r} must be a positive integer, got {value!r}")
        value = int(value)
    if isinstance(value, str):
        text = value
        try:
            value = int(text.strip())
        except ValueError:
            raise JudgeError(f"{where}: field {name!r} must be a positive integer, "
                             f"got {text[:40]!r}") from None
    if not isinstance(value, int):
        raise JudgeError(f"{where}: field {name!r} must be a positive integer, "
                         f"got {type(value).__name__}")
    if value <= 0:
        raise JudgeError(f"{where}: field {name!r} must be a positive integer, got {value}")
    return value


def _str_field(row: dict, name: str, where: str, allow_empty: bool = False) -> str:
    value = row.get(name)
    if not isinstance(value, str):
        got = "nothing" if value is None else type(value).__name__
        raise JudgeError(f"{where}: field {name!r} must be a string, got {got}")
    if not allow_empty and not value.strip():
        raise JudgeError(f"{where}: field {name!r} is empty")
    return value


def _as_bytes(value: Any, where: str, name: str) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    got = "nothing" if value is None else type(value).__name__
    raise JudgeError(f"{where}: {name} must be a string, got {got}")


def _tests(row: dict, where: str) -> tuple[TestCase, ...]:
    raw = row.get("test_cases")
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except ValueError:
            raise JudgeError(f"{where}: field 'test_cases' is a string but not JSON") from None
    # A columnar {input: [...], output: [...]} form, as some exports store list<struct>.
    if isinstance(raw, dict) and isinstance(raw.get("input"), list) \
            and isinstance(raw.get("output"), list):
        if len(raw["input"]) != len(raw["output"]):
            raise JudgeError(f"{where}: test_cases has {len(raw['input'])} inputs but "
                             f"{len(raw['output'])} outputs")
        raw = [{"input": i, "output": o} for i, o in zip(raw["input"], raw["output"], strict=True)]
    if not isinstance(raw, (list, tuple)):
        got = "nothing" if raw is None else type(raw).__name__
        raise JudgeError(f"{where}: field 'test_cases' must be a list of {{input, output}}, "
                         f"got {got}")
    if not raw:
        raise JudgeError(f"{where}: field 'test_cases' is empty")
    tests = []
    for i, case in enumerate(raw, 1):
        if not isinstance(case, dict):
            raise JudgeError(f"{where}: test case {i} must be an object with input and output, "
                             f"got {type(case).__name__}")
        tests.append(TestCase(input=_as_bytes(case.get("input"), where, f"test case {i} input"),
                              output=_as_bytes(case.get("output"), where,
                                               f"test case {i} output")))
    return tuple(tests)


def title_from_statement(statement: str, fallback: str) -> str:
    """The statement's first heading or first line, without markdown decoration."""
    for line in statement.splitlines():
        line = line.strip()
        if not line:
            continue
        line = re.sub(r"^#+\s*", "", line)
        line = re.sub(r"^[A-Z0-9]{1,3}\.\s+", "", line)  # "A. Title" -> "Title"
        line = line.strip("*_ ")
        if line.lower().startswith(("time limit", "memory limit")):
            continue
        if line:
            return line if len(line) <= 80 else line[:77] + "..."
    return fallback


def row_to_problem(row: dict, where: str) -> Problem:
    """Converts one CF-Div2-Stepfun row. `where` names the row in error messages."""
    if not isinstance(row, dict):
        raise JudgeError(f"{where}: a row must be an object, got {type(row).__name__}")
    missing = [f for f in REQUIRED_FIELDS if f not in row or row[f] is None]
    if missing:
        raise JudgeError(f"{where}: missing field{'s' if len(missing) > 1 else ''} "
                         f"{', '.join(missing)}")
    problem_id = _str_field(row, "problem_id", where).strip()
    where = f"{where} ({problem_id})"
    statement = _str_field(row, "problem_desc", where, allow_empty=True)
    time_limit = _int_field(row, "time_limit_ms", where)
    memory_limit = _int_field(row, "memory_limit_MB", where)
    interactor = row.get("interactor") or None
    if interactor is not None and (not isinstance(interactor, str) or not is_checker_source(interactor)):
        raise JudgeError(f"{where}: interactor must be a testlib interactor's source code")
    checker = _str_field(row, "checker", where, allow_empty=interactor is not None)
    if "\n" not in checker:
        checker = checker.strip()
    if checker and "\n" not in checker and not _CHECKER_NAME.match(checker):
        raise JudgeError(f"{where}: checker {checker[:40]!r} is neither a checker name nor source")
    tests = _tests(row, where)
    metadata = {"row_id": row.get("id")}
    for extra in ("rating", "contest_id", "tags", "source"):
        if row.get(extra) is not None:
            metadata[extra] = row[extra]
    rating = row.get("rating")
    if isinstance(rating, float) and rating.is_integer():
        rating = int(rating)
    if not isinstance(rating, int) or isinstance(rating, bool):
        rating = None
    return Problem(id=problem_id,
                   title=title_from_statement(statement, problem_id),
                   statement=statement,
                   time_limit_ms=time_limit,
                   memory_limit_mb=memory_limit,
                   checker=checker,
                   tests=tests,
                   rating=rating,
                   metadata=metadata,
                   interactor=interactor)


def rows_to_problems(rows: Iterable[dict], label: str) -> list[Problem]:
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for index, row in enumerate(rows):
        rid = row.get("id") if isinstance(row, dict) else None
        where = f"{label}: row {index}" + (f" (id {rid})" if rid is not None else "")
        problem = row_to_problem(row, where)
        if problem.id in seen:
            raise JudgeError(f"{where}: duplicate problem_id {problem.id} (also row "
                             f"{seen[problem.id]})")
        seen[problem.id] = index
        problems.append(problem)
    return problems


def load_parquet_file(path: Path) -> list[Problem]:
    """Every problem of one parquet file in the schema (the embedded pack), read with pyarrow
    alone: the same rows `datasets` gives, without its import (most of a second of CPU, paid by
    every command that looks a problem up) or its on-disk cache."""
    import pyarrow.parquet as pq
    try:
        parquet = pq.ParquetFile(path)
    except Exception as exc:
        raise JudgeError(f"{path}: cannot read as a CF-Div2-Stepfun parquet dataset: "
                         f"{_one_line(exc)}") from None
    missing = [f for f in REQUIRED_FIELDS if f not in parquet.schema_arrow.names]
    if missing:
        raise JudgeError(f"{path}: not in the CF-Div2-Stepfun schema (missing column"
                         f"{'s' if len(missing) > 1 else ''} {', '.join(missing)})")
    rows = (row for batch in parquet.iter_batches() for row in batch.to_pylist())
    return rows_to_problems(rows, str(path))


def load_stepfun(source: str = HUB_ID) -> list[Problem]:
    """Loads every problem of a CF-Div2-Stepfun source (hub id, parquet/jsonl file, directory)."""
    rows, label = load_rows(source)
    try:
        missing = [f for f in REQUIRED_FIELDS if f not in rows.column_names]
    except AttributeError:
        missing = []
    if missing:
        raise JudgeError(f"{label}: not in the CF-Div2-Stepfun schema (missing column"
                         f"{'s' if len(missing) > 1 else ''} {', '.join(missing)})")
    return rows_to_problems(rows, label)
