"""Text of an answer bounded by what it costs on the wire. The server writes JSON as UTF-8
without ASCII escaping, where a printable character costs its UTF-8 bytes but a control byte
costs six (`\\u0001`) and a byte that is not UTF-8 three (U+FFFD): a byte budget on the output
itself would let 16 MiB of output become a 100 MB answer. Every text an answer carries that a
program or a client chose (output, logs, checker messages, tests echoed back) is cut here by
its encoded length, and the cut is said (a `*_truncated` field)."""
from __future__ import annotations

import json

# The compile log an answer carries, encoded (the compiler keeps 64 KiB of it).
COMPILE_LOG_BYTES = 64 << 10


def encoded_size(text: str) -> int:
    """Bytes `text` takes as a JSON string in an answer, without its quotes."""
    return len(json.dumps(text, ensure_ascii=False).encode()) - 2


def bounded_text(data: bytes | str, limit: int) -> tuple[str, bool]:
    """The text of `data` (bytes that are not UTF-8 as U+FFFD) whose JSON encoding takes at
    most `limit` bytes, and whether it was cut. Encoded a piece at a time, so that what it
    costs to find the cut is the cut, not six times the output."""
    text = data if isinstance(data, str) else data.decode(errors="replace")
    if len(text) <= limit // 6:
        return text, False            # no character costs more than six bytes
    used = 0
    for start in range(0, len(text), _PIECE_CHARS):
        piece = text[start:start + _PIECE_CHARS]
        size = encoded_size(piece)
        if used + size > limit:
            return text[:start] + _cut(piece, limit - used), True
        used += size
    return text, False


_PIECE_CHARS = 1 << 16


def _cut(piece: str, limit: int) -> str:
    """The longest start of `piece` whose JSON encoding takes at most `limit` bytes."""
    encoded = json.dumps(piece, ensure_ascii=False)[1:-1].encode()[:limit]
    cut = encoded.decode(errors="ignore")             # a whole UTF-8 character last
    for _ in range(6):               # an escape is at most six characters: drop a broken one
        try:
            text: str = json.loads(f'"{cut}"')
            return text
        except ValueError:
            cut = cut[:-1]
    raise AssertionError("unreachable: six characters hold any escape")


class AnswerBudget:
    """The encoded bytes one answer may still spend on such text, drawn field by field."""

    def __init__(self, total: int) -> None:
        self.left = total

    def text(self, data: bytes | str | None, limit: int | None = None) -> tuple[str, bool]:
        allowed = self.left if limit is None else min(limit, self.left)
        text, cut = bounded_text(data or b"", max(0, allowed))
        self.left -= encoded_size(text)
        return text, cut
