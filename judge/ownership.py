"""The thread a Grader or Sandbox belongs to.

A slot's supervisor dies with the thread that started it (PR_SET_PDEATHSIG follows the thread),
and a slot's socket, box and run directories serve one run at a time: shared between threads,
runs read each other's replies and programs, and give wrong verdicts without a word."""
from __future__ import annotations

import threading

from judge import JudgeError


class ThreadOwner:
    """Remembers the thread that created an object; check() refuses every other thread."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        # The Thread object, not its ident: an ident is reused once its thread has ended.
        self.thread = threading.current_thread()

    def check(self) -> None:
        current = threading.current_thread()
        if current is not self.thread:
            raise JudgeError(f"a {self.kind} belongs to the thread that created it; create one "
                             f"per thread (created in {self.thread.name!r}, used from "
                             f"{current.name!r})")
