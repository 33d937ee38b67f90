"""How far an evaluation has got, on stderr. On a terminal: rich's live bar. Anywhere else (a log
file, CI, a pipe) a bar is drawn once at the end, so a plain line is printed instead every
``interval_s`` seconds and when a phase ends:

    judging (2 slots): 12/49 samples (24%), 24.5/min, elapsed 0:00:29, ETA 0:01:30
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

DEFAULT_INTERVAL_S = 10.0


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class Phase:
    """The progress of one phase (the parallel judging, the TLE re-runs)."""

    def __init__(self, owner: EvalProgress, description: str, total: int) -> None:
        self.owner, self.description, self.total = owner, description, total
        self.done = 0
        self.started = self.last_line = owner.now()
        self.task = owner.bar.add_task(description, total=total, rate="") if owner.bar else None

    def rate_per_min(self) -> float:
        return self.done / max(self.owner.now() - self.started, 1e-6) * 60

    def line(self) -> str:
        elapsed = self.owner.now() - self.started
        eta = _clock((self.total - self.done) / self.done * elapsed) if self.done else "?"
        return (f"{self.description}: {self.done}/{self.total} samples "
                f"({self.done * 100 // max(self.total, 1)}%), {self.rate_per_min():.1f}/min, "
                f"elapsed {_clock(elapsed)}, ETA {eta}")

    def advance(self) -> None:
        self.done += 1
        if self.owner.bar is not None and self.task is not None:
            self.owner.bar.update(self.task, advance=1, rate=f"{self.rate_per_min():.1f}/min")
        elif self.done == self.total:
            self._print()
        else:
            self.tick()

    def tick(self) -> None:
        """Called often (every quarter second) while the phase runs."""
        if self.owner.lines and self.owner.now() - self.last_line >= self.owner.interval_s:
            self._print()

    def _print(self) -> None:
        self.last_line = self.owner.now()
        if self.owner.lines:
            print(self.line(), file=self.owner.stream, flush=True)


class EvalProgress:
    def __init__(self, enabled: bool, interval_s: float = DEFAULT_INTERVAL_S,
                 stream: TextIO | None = None, now: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.interval_s, self.now = interval_s, now
        on_terminal = enabled and self.stream.isatty()
        self.lines = enabled and not on_terminal
        self.bar = None
        if on_terminal:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            self.bar = Progress(
                TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"), TextColumn("elapsed"), TimeElapsedColumn(),
                TextColumn("ETA"), TimeRemainingColumn(),
                console=Console(file=self.stream), transient=False)

    def __enter__(self) -> EvalProgress:
        if self.bar is not None:
            self.bar.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(*exc)

    def phase(self, description: str, total: int) -> Phase:
        return Phase(self, description, total)


__all__ = ["EvalProgress", "Phase", "DEFAULT_INTERVAL_S"]
