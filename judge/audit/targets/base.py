"""What every target adapter shares: the limits the audit asks for, what an adapter made of them
in the target's own options, and one run's answer as the audit reads it."""
from __future__ import annotations

import ipaddress
import time
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from judge import config

NO_OPTION = "no option"
MiB = 1024 * 1024
OUTPUT_FACTOR = 8           # the output probe writes 8x the output limit
# What a target's answer may hold beyond its stdout: the JSON around it, its escapes, stderr.
ANSWER_ALLOWANCE_BYTES = MiB


@dataclass(frozen=True)
class TargetLimits:
    """The limits every probe is held to: what the audit asks each target for, in its own terms."""
    cpu_s: float = 1.0           # CPU time
    wall_s: float = 2.0          # wall-clock time, where the target can say it apart from CPU
    memory_mb: int = 256
    output_mb: int = 16          # stdout
    processes: int = 16          # processes and threads at once

    def to_dict(self) -> dict:
        return asdict(self)


def answer_cap_bytes(limits: TargetLimits) -> int:
    """The most of one answer the audit reads from a target: all the stdout the output probe
    writes and one output limit more, plus the JSON around it. A target that sends more is
    misbehaving, whatever its sandbox holds, and the audit stops reading there."""
    return (OUTPUT_FACTOR + 1) * limits.output_mb * MiB + ANSWER_ALLOWANCE_BYTES


@dataclass
class Said:
    """How an adapter said the limits to its target: the option for each limit (or why there is
    none), and the limits in force as far as the target's options go (a wall limit the target
    cannot set apart from its time limit is that one)."""
    options: dict[str, str]      # "cpu" | "wall" | "memory" | "output" | "processes" -> option
    wall_s: float                # the wall-clock limit the probes expect

    def option(self, limit: str) -> str:
        return self.options.get(limit, NO_OPTION)

    def offered(self, limit: str) -> bool:
        return not self.option(limit).startswith(NO_OPTION)


@dataclass
class Answer:
    """One run as the target answered it, and as the audit saw it from outside."""
    completed: bool              # the target says it ran to its end with exit code 0
    status: str                  # the target's own words: "Success", "Failed/TimeLimitExceeded", "exit -9"
    stdout: str                  # what it returned of the program's stdout (cut by the audit)
    stdout_bytes: int            # how much stdout the audit received, uncut
    stderr: str = ""
    cpu_s: float | None = None   # CPU time, as the target reports it (None: it does not)
    memory_mb: float | None = None   # peak memory, as the target reports it
    wall_s: float | None = None  # the run's wall time, as the target reports it
    request_s: float = 0.0       # the audit's own clock, request to answer
    error: str = ""              # the target could not run it at all, or its answer broke the bounds
    received_bytes: int = 0      # how much of its answer the audit read (at most the cap, and one byte)

    def lines(self, tag: str) -> list[str]:
        """The values of the program's lines that start with `tag`."""
        found = []
        for line in self.stdout.splitlines():
            words = line.split()
            if len(words) >= 2 and words[0] == tag:
                found.append(words[1])
        return found

    def last(self, tag: str) -> str | None:
        values = self.lines(tag)
        return values[-1] if values else None

    @property
    def done(self) -> bool:
        """The program itself reached its end (it prints "done" last)."""
        return any(line.strip() == "done" for line in self.stdout.splitlines()[-3:])


@dataclass
class Target(ABC):
    """A sandbox under audit. `start()` before the first run, `close()` after the last; `local`
    says whether it runs on this host (else no host-side check can be made)."""
    name: str
    kind: str = ""
    local: bool = True
    notes: list[str] = field(default_factory=list)
    # The working directory a command target's runs start in: the audit's own empty directory,
    # so that what a sandbox leaves there (podman's conmon: an `oom` file) is seen.
    workdir: Path | None = None

    def start(self) -> None:  # noqa: B027 (most targets need nothing)
        """Brings the target up (a server the audit starts itself); most need nothing."""

    def close(self) -> None:  # noqa: B027
        """Stops what start() started."""

    @abstractmethod
    def say(self, limits: TargetLimits) -> Said:
        """The limits in the target's own options."""

    @abstractmethod
    def run(self, source: str, argv: list[str], limits: TargetLimits) -> Answer:
        """Runs the Python program `source` with its arguments `argv` under `limits`."""

    def asked(self, limits: TargetLimits) -> TargetLimits:
        """The limits passed to the target: those asked, unless the test-only break switch
        JUDGE_AUDIT_BREAK=memory is on (then 4x the memory, which the audit must catch)."""
        if "memory" in config.current().audit_break:
            return TargetLimits(limits.cpu_s, limits.wall_s, limits.memory_mb * 4,
                                limits.output_mb, limits.processes)
        return limits


def is_local_url(url: str) -> bool:
    """Whether a URL's host is this machine's loopback (a named host other than localhost is
    taken for a remote one)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def clock() -> float:
    return time.monotonic()
