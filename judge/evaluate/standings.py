"""The rating inputs of an evaluation: Codeforces contest standings and rating changes
(--standings) and a map of problem ratings (--ratings)."""
from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from judge import JudgeError


def _json_file(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise JudgeError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise JudgeError(f"{path}: not valid JSON ({exc})") from None


def load_standings(directory: Path) -> dict[str, dict]:
    """Contest standings and rating changes in the Codeforces API shapes, one JSON file each
    (``contest.standings`` and ``contest.ratingChanges`` results, with or without the API's
    ``{"status": "OK", "result": ...}`` envelope), any file names, paired by contest id."""
    directory = Path(directory)
    if not directory.is_dir():
        raise JudgeError(f"--standings: not a directory: {directory}")
    contests: dict[str, dict] = defaultdict(dict)
    files = sorted(p for p in directory.rglob("*.json") if p.is_file())
    if not files:
        raise JudgeError(f"--standings: no .json files in {directory}")
    for path in files:
        data = _json_file(path)
        if isinstance(data, dict) and "result" in data and "status" in data:
            if data.get("status") != "OK":
                raise JudgeError(f"{path}: the Codeforces API answered {data.get('status')!r}")
            data = data["result"]
        digits = re.search(r"\d+", path.stem)
        if isinstance(data, dict) and "rows" in data and "problems" in data:
            cid = (data.get("contest") or {}).get("id") or (digits.group() if digits else None)
            kind = "standings"
        elif isinstance(data, list) and all(isinstance(x, dict) for x in data) and \
                any("oldRating" in x for x in data):
            ids = {x.get("contestId") for x in data if x.get("contestId") is not None}
            cid = ids.pop() if len(ids) == 1 else (digits.group() if digits else None)
            kind = "rating_changes"
        else:
            raise JudgeError(f"{path}: neither contest standings (problems, rows) nor rating "
                             "changes (a list with oldRating)")
        if cid is None:
            raise JudgeError(f"{path}: cannot tell the contest id (no contest.id / contestId, "
                             "no number in the file name)")
        if kind in contests[str(cid)]:
            raise JudgeError(f"{path}: second {kind} file for contest {cid}")
        contests[str(cid)][kind] = data
    for cid, parts in contests.items():
        for kind in ("standings", "rating_changes"):
            if kind not in parts:
                raise JudgeError(f"--standings: contest {cid} has no {kind.replace('_', ' ')} file")
    return dict(contests)


def load_rating_map(path: Path) -> dict[str, float]:
    data = _json_file(Path(path))
    if not isinstance(data, dict):
        raise JudgeError(f"{path}: expected a JSON object {{problem_id: rating}}")
    out: dict[str, float] = {}
    for key, value in data.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise JudgeError(f"{path}: rating of {key!r} must be a number, got {value!r}")
        out[str(key)] = float(value)
        try:
            from judge.problems.registry import candidate_ids
            for cid in candidate_ids(str(key)):
                out.setdefault(cid, float(value))
        except JudgeError:
            pass
    return out


__all__ = ["load_standings", "load_rating_map"]
