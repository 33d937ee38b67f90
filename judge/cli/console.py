"""The consoles commands print to. On a terminal rich picks the width and colours; anywhere else
(a pipe, a log file, CI) tables are laid out at a width no column is ever cut at ("0.5…"), so a
log holds every figure whole. COLUMNS, when set, still decides."""
from __future__ import annotations

import os
import sys
from typing import TextIO

from rich.console import Console

LOG_WIDTH = 1000   # wide enough for any table; rich sizes a table to its content, not to this
READING_WIDTH = 100  # prose (a problem statement) in a log


def _console(stream: TextIO, stderr: bool) -> Console:
    width = None if stream.isatty() or os.environ.get("COLUMNS") else LOG_WIDTH
    return Console(stderr=stderr, width=width)


def stdout_console() -> Console:
    return _console(sys.stdout, stderr=False)


def stderr_console() -> Console:
    return _console(sys.stderr, stderr=True)


def prose_width(console: Console) -> int:
    return min(console.width, READING_WIDTH)
