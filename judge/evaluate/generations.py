"""Reading model generations: JSONL (one JSON object a line) or parquet, one row per sample.

Fields of a row:

* ``problem_id`` (required): any id the problem source knows (``2020A``, ``codeforces/2020A``,
  ``pack/two-sum``, ``livecodebench/abc301_a``, ``codecontests/<name>``);
* ``completion`` (the model's raw text; the code is its last fenced block) or ``code`` (the
  program as is); one of the two is required;
* ``language`` (``cpp``, ``python``, ``java``, ... or a fence tag like ``c++``/``py``); when absent
  or empty, the fence tag of the extracted block decides;
* ``sample_index`` (optional; also accepted as ``sample`` or ``sample_id``): the sample's position
  among the problem's samples. Without it, rows are numbered per problem in file order.

A row that is not an object, lacks ``problem_id`` or both ``completion`` and ``code``, or has a
bad sample index makes the whole file bad input (``JudgeError``): nothing is judged from a file
that cannot be read as intended.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge import JudgeError

INDEX_FIELDS = ("sample_index", "sample", "sample_id")


@dataclass(frozen=True)
class Generation:
    row: int                     # 1-based row (line number for JSONL) in the file
    problem_id: str
    language: str | None         # as written in the row; None when absent
    completion: str | None
    code: str | None
    sample_index: int | None     # as written; None when absent


def _rows_jsonl(path: Path) -> Iterator[tuple[int, Any]]:
    try:
        handle = path.open("r", encoding="utf-8")
    except OSError as exc:
        raise JudgeError(f"cannot read {path}: {exc.strerror or exc}") from None
    with handle:
        try:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    yield number, json.loads(line)
                except ValueError as exc:
                    raise JudgeError(f"{path} line {number}: not valid JSON ({exc})") from None
        except UnicodeDecodeError as exc:
            raise JudgeError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def _rows_parquet(path: Path) -> Iterator[tuple[int, Any]]:
    try:
        import pyarrow.parquet as pq
        table = pq.read_table(path)
    except ImportError:
        raise JudgeError("reading parquet needs pyarrow (pip install pyarrow)") from None
    except Exception as exc:  # pyarrow raises a zoo of types for bad files
        raise JudgeError(f"{path}: not a readable parquet file ({str(exc).splitlines()[0]})") from None
    yield from enumerate(table.to_pylist(), start=1)


def _text_field(row: dict, name: str, where: str) -> str | None:
    value = row.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise JudgeError(f"{where}: {name!r} must be a string, got {type(value).__name__}")
    return value


def _index_field(row: dict, where: str) -> int | None:
    for name in INDEX_FIELDS:
        if name in row and row[name] is not None:
            value = row[name]
            if isinstance(value, bool) or not isinstance(value, (int, float, str)):
                raise JudgeError(f"{where}: {name!r} must be a non-negative integer, got {value!r}")
            try:
                number = int(value)
            except ValueError:
                raise JudgeError(f"{where}: {name!r} must be a non-negative integer, got {value!r}") from None
            if number < 0 or (isinstance(value, float) and value != number):
                raise JudgeError(f"{where}: {name!r} must be a non-negative integer, got {value!r}")
            return number
    return None


def parse_row(raw: Any, where: str, row: int) -> Generation:
    if not isinstance(raw, dict):
        raise JudgeError(f"{where}: expected a JSON object, got {type(raw).__name__}")
    pid = raw.get("problem_id")
    if pid is None or (isinstance(pid, str) and not pid.strip()):
        raise JudgeError(f"{where}: no 'problem_id'")
    if isinstance(pid, bool) or not isinstance(pid, (str, int)):
        raise JudgeError(f"{where}: 'problem_id' must be a string, got {pid!r}")
    completion = _text_field(raw, "completion", where)
    code = _text_field(raw, "code", where)
    if completion is None and code is None:
        raise JudgeError(f"{where}: needs 'completion' (the model's text) or 'code'")
    language = _text_field(raw, "language", where)
    if language is not None and not language.strip():
        language = None
    return Generation(row=row, problem_id=str(pid).strip(), language=language,
                      completion=completion, code=code, sample_index=_index_field(raw, where))


def read_generations(path: str | Path) -> list[Generation]:
    """Every row of a JSONL or parquet generations file, validated."""
    path = Path(path)
    if not path.exists():
        raise JudgeError(f"no such file: {path}")
    if not path.is_file():
        raise JudgeError(f"not a file: {path}")
    if path.suffix.lower() in (".parquet", ".pq"):
        rows, unit = _rows_parquet(path), "row"
    else:
        rows, unit = _rows_jsonl(path), "line"
    generations = [parse_row(raw, f"{path} {unit} {number}", number) for number, raw in rows]
    if not generations:
        raise JudgeError(f"{path}: no generations in the file")
    return generations


__all__ = ["Generation", "read_generations", "parse_row", "INDEX_FIELDS"]
