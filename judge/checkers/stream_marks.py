"""What the judge's testlib header records of a jury program's reading of the submission's output
(docs/design/4-verdicts.md §4.5): whether the program read any of it before it ended, and how much
CPU it had used when it first did.

The judge gives the program a fresh secret in MARK_ENV. The header (judge/checkers/testlib)
writes "JUDGE-MARK <secret> begin" to its stderr when the program registers, and
"JUDGE-MARK <secret> read <CPU microseconds>" just before the program first looks at `ouf`,
each record in one write. The submission cannot write a record (it never learns the secret: it
runs in another sandbox, after or beside the program, and the header takes the secret out of
the program's environment), nor keep one from being written: before the program's first look
at its output, nothing the program does depends on the submission. A record can be lost only
to the stderr limit, so records are read only from a stderr that stayed under it.

No "begin" record (a real testlib, a program that never registered, a stderr past its limit)
is no evidence either way: `take_marks` gives None."""
from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass

MARK_ENV = "JUDGE_TESTLIB_MARK"
_RECORD = re.compile(rb"JUDGE-MARK ([0-9a-f]{1,64}) (begin|read ([0-9]{1,19}))\n")


@dataclass(frozen=True)
class Marks:
    """The header's account of one run: whether the program read any of the submission's
    output, and the CPU it had used before it first did (all of its CPU when it never did)."""
    output_read: bool
    cpu_ms_before_output: float | None    # None when it never read the output


def new_secret() -> str:
    return secrets.token_hex(16)


def take_marks(stderr: bytes, secret: str, limit: int) -> tuple[Marks | None, bytes]:
    """The marks the header wrote with `secret` into `stderr` (the run's whole stderr, read up
    to `limit` bytes, the run's stderr limit) and the stderr without them. None when there is
    no "begin" record, or when the stderr reached its limit (a record may have been dropped)."""
    key = secret.encode()
    begun = False
    read_at: float | None = None
    read = False
    kept = []
    start = 0
    for record in _RECORD.finditer(stderr):
        if record.group(1) != key:
            continue       # not the judge's: the program's own text, kept as it is
        kept.append(stderr[start:record.start()])
        start = record.end()
        if record.group(2) == b"begin":
            begun = True
        elif not read and begun:
            read = True
            read_at = int(record.group(3)) / 1000
    kept.append(stderr[start:])
    rest = b"".join(kept)
    if not begun or len(stderr) >= limit:
        return None, rest
    return Marks(output_read=read, cpu_ms_before_output=read_at), rest


def read_stderr(fd: int, limit: int) -> bytes:
    """A run's stderr from the start of its memfd, at most `limit` bytes."""
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    left = limit
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


__all__ = ["MARK_ENV", "Marks", "new_secret", "take_marks", "read_stderr"]
