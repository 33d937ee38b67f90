"""What a command adapter makes of the limits: the command prefix with the sandbox's own
options in it, rlimits to set on the prefix's process, and how it said each limit."""
from __future__ import annotations

from dataclasses import dataclass

from judge.audit.targets.base import Said


@dataclass
class Wrapping:
    prefix: list[str]
    rlimits: dict[int, tuple[int, int]]
    said: Said


def insert_after(prefix: list[str], at: int, options: list[str]) -> list[str]:
    return [*prefix[:at], *options, *prefix[at:]]
