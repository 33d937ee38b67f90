"""The evaluation's SQLite store: one row per distinct judgment, keyed by content.

A judgment's key is the hash of (problem id, hash of the problem's tests and checker, language,
hash of the graded source, the limits, the judge version): identical code for the same problem
is judged once, a rerun after a crash or Ctrl-C finds what is done, and anything that changes
the verdict's meaning (other tests, limits or judge) makes a new key.

Every result is committed on its own (WAL journal), so a killed process loses at most the
judgments that were in flight. States:

* ``final``       the verdict stands;
* ``provisional`` a TLE waiting for its serial re-run (a resumed eval re-runs it);
* ``error``       the judge failed (SE): shown in this run's report, judged again next time.

``judgments`` logs every grading done (phase "parallel" or "rerun", the run it belonged to), so
one can verify that nothing was judged twice.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from judge import JudgeError

SCHEMA_VERSION = "1"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started REAL NOT NULL,
    finished REAL,
    jobs INTEGER NOT NULL,
    command TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY,
    problem_id TEXT NOT NULL,
    tests_hash TEXT NOT NULL,
    language TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    limits TEXT NOT NULL,
    judge_version TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('final', 'provisional', 'error')),
    verdict TEXT NOT NULL,
    first_verdict TEXT,
    reruns INTEGER NOT NULL DEFAULT 0,
    result TEXT NOT NULL,
    timing TEXT NOT NULL,
    run_id INTEGER NOT NULL,
    judged_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS judgments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    run_id INTEGER NOT NULL,
    phase TEXT NOT NULL,
    verdict TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS judgments_key ON judgments (key);
"""


# Columns runs gained after schema 1; a store written before them gets them empty.
RUN_COLUMNS = {"build": "TEXT", "judged": "INTEGER", "judging_wall_ms": "REAL"}


def _add_run_columns(db: sqlite3.Connection) -> None:
    present = {row[1] for row in db.execute("PRAGMA table_info(runs)")}
    for name, kind in RUN_COLUMNS.items():
        if name not in present:
            db.execute(f"ALTER TABLE runs ADD COLUMN {name} {kind}")


def sha256(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


@dataclass(frozen=True)
class JudgmentKey:
    problem_id: str
    tests_hash: str
    language: str
    code_hash: str
    limits: str            # e.g. "tl=2000ms ml=256MB"
    judge_version: str

    @property
    def key(self) -> str:
        return sha256(self.problem_id, self.tests_hash, self.language, self.code_hash,
                      self.limits, self.judge_version)


@dataclass
class StoredResult:
    key: str
    state: str
    verdict: str
    first_verdict: str | None
    reruns: int
    result: dict             # GradeResult.to_dict() plus compile timing
    timing: dict             # grade_ms, compile_ms, run_ms, check_ms
    run_id: int


class Store:
    """The SQLite file. Safe to use from several threads (one connection, one lock)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=30,
                                       isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            _add_run_columns(self._db)
            row = self._db.execute("SELECT value FROM meta WHERE name='schema'").fetchone()
        except (OSError, sqlite3.Error) as exc:
            raise JudgeError(f"cannot open the result store {self.path}: {exc}") from None
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
        elif row[0] != SCHEMA_VERSION:
            raise JudgeError(f"{self.path}: result store schema {row[0]}, this judge writes "
                             f"{SCHEMA_VERSION}; use another --out directory")
        self._lock = threading.Lock()
        self.run_id: int | None = None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def begin_run(self, jobs: int, command: str, build: str) -> int:
        with self._lock:
            cur = self._db.execute("INSERT INTO runs (started, jobs, command, build) "
                                   "VALUES (?, ?, ?, ?)", (time.time(), jobs, command, build))
            assert cur.lastrowid is not None
            self.run_id = cur.lastrowid
            return self.run_id

    def end_run(self, judged: int, judging_wall_ms: float) -> None:
        """Closes this run with how many programs it judged in how much judging wall time."""
        with self._lock:
            self._db.execute("UPDATE runs SET finished=?, judged=?, judging_wall_ms=? WHERE id=?",
                             (time.time(), judged, judging_wall_ms, self.run_id))

    def run_builds(self) -> dict[int, str]:
        """The judge build of every run of this store (runs before builds were kept: "")."""
        with self._lock:
            rows = self._db.execute("SELECT id, build FROM runs").fetchall()
        return {run_id: build or "" for run_id, build in rows}

    def judging_throughput(self) -> tuple[int, float]:
        """(programs judged, judging wall ms) summed over every finished run that judged any:
        the throughput measured when this store's judgments were made."""
        with self._lock:
            judged, wall = self._db.execute(
                "SELECT COALESCE(SUM(judged), 0), COALESCE(SUM(judging_wall_ms), 0) FROM runs "
                "WHERE judged > 0").fetchone()
        return int(judged), float(wall)

    def get_many(self, keys: Iterable[str]) -> dict[str, StoredResult]:
        keys = list(dict.fromkeys(keys))
        found: dict[str, StoredResult] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                chunk = keys[start:start + 500]
                marks = ",".join("?" * len(chunk))
                for row in self._db.execute(
                        "SELECT key, state, verdict, first_verdict, reruns, result, timing, run_id "
                        f"FROM results WHERE key IN ({marks})", chunk):
                    found[row[0]] = StoredResult(row[0], row[1], row[2], row[3], row[4],
                                                 json.loads(row[5]), json.loads(row[6]), row[7])
        return found

    def put(self, jk: JudgmentKey, state: str, verdict: str, result: dict, timing: dict, *,
            phase: str, first_verdict: str | None = None, reruns: int = 0) -> None:
        """Stores one judgment, committed before returning (one transaction)."""
        if self.run_id is None:
            raise RuntimeError("begin_run() first")
        now = time.time()
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute(
                    "INSERT OR REPLACE INTO results (key, problem_id, tests_hash, language, code_hash,"
                    " limits, judge_version, state, verdict, first_verdict, reruns, result, timing,"
                    " run_id, judged_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (jk.key, jk.problem_id, jk.tests_hash, jk.language, jk.code_hash, jk.limits,
                     jk.judge_version, state, verdict, first_verdict, reruns,
                     json.dumps(result), json.dumps(timing), self.run_id, now))
                self._db.execute("INSERT INTO judgments (key, run_id, phase, verdict, at) "
                                 "VALUES (?,?,?,?,?)", (jk.key, self.run_id, phase, verdict, now))
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise

    def judgment_counts(self) -> dict[str, int]:
        with self._lock:
            return {k: n for k, n in self._db.execute(
                "SELECT key, COUNT(*) FROM judgments GROUP BY key")}


__all__ = ["Store", "StoredResult", "JudgmentKey", "sha256", "SCHEMA_VERSION"]
