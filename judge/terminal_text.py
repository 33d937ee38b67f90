"""Text from outside the judge (a program's stderr, a compile log, an audited target's answer, a
saved report) as a terminal may show it."""
from __future__ import annotations


def terminal_safe(text: str) -> str:
    """`text` with every character that is not printable, newline and tab aside, written out
    (\\x1b, \\x9b, \\u202e): no escape sequence, C1 control or bidirectional override reaches the
    terminal, and what was there can still be read."""
    return "".join(c if c.isprintable() or c in "\n\t" else _written_out(c) for c in text)


def _written_out(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
