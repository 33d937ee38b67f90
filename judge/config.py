"""The judge's settings from its environment, read in one place, once, into one frozen value.

Every `JUDGE_*` variable the judge reads is a row of VARIABLES: its field of `Config`, how its
text is parsed and what it means (docs/operations.md#configuration is tested against the table).
A process resolves its configuration from the environment the first time it asks (`current`);
the command line then overrides fields (`install(replace(current(), ...))`), and Ray workers
install the driver's configuration whole, so a worker grades with the driver's settings whatever
its own node's environment says. No other module reads the environment for a setting."""
from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from judge import JudgeError

CGROUP_MODES = ("auto", "v1", "v2", "none")


@dataclass(frozen=True)
class Config:
    """What the environment may change. Defaults are the judge's own; `from_environ` reads them."""
    cgroup: str = "auto"                      # the default cgroup mode of every Sandbox
    supervisor: Path | None = None            # another supervisor executable (a sanitizer build)
    cache_dir: Path | None = None             # None: $XDG_CACHE_HOME/judge, else ~/.cache/judge
    time_factors: tuple[tuple[str, float], ...] = ()   # (language or alias, factor) overrides
    compile_time_limit_ms: int = 30_000
    artifact_limit_mb: int = 64
    compile_cache_mb: int = 2048
    precompiled_headers: bool = True          # the C++ header and the javac class archive
    testlib: Path | None = None               # a testlib checkout for custom checkers
    serve_port: int = 8080                    # `judge serve` and the image's health check
    audit_break: frozenset[str] = frozenset()  # test-only: the audit's deliberate faults

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> Config:
        """The configuration an environment gives; a bad value is a JudgeError naming it."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {v.field: v.parse(environ[v.name], v.name) for v in VARIABLES
                  if environ.get(v.name)}
        if "cache_dir" not in values:
            base = environ.get("XDG_CACHE_HOME") or os.path.join(
                environ.get("HOME") or os.path.expanduser("~"), ".cache")
            values["cache_dir"] = Path(base) / "judge"
        return cls(**values)

    def described(self) -> list[tuple[str, str]]:
        """(variable, value in effect) a row, for `judge doctor`."""
        return [(v.name, v.show(getattr(self, v.field))) for v in VARIABLES]

    def on_node(self) -> Config:
        """A Ray worker's configuration: what goes into a judgment key (the time factors) is
        the driver's, so every worker grades to the driver's limits; what describes the node
        (its cgroup mode, supervisor, caches, toolchain aids) is the node's own environment."""
        return replace(Config.from_environ(), time_factors=self.time_factors)


def _positive_int(unit: str) -> Callable[[str, str], int]:
    def parse(text: str, name: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = 0
        if value <= 0:
            raise JudgeError(f"{name}={text!r} is not a positive number of {unit}")
        return value
    return parse


def _cgroup_mode(text: str, name: str) -> str:
    if text not in CGROUP_MODES:
        raise JudgeError(f"{name}={text!r} is not a cgroup mode ({', '.join(CGROUP_MODES)})")
    return text


def _path(text: str, name: str) -> Path:
    return Path(text)


def _flag(text: str, name: str) -> bool:
    return False        # JUDGE_NO_PCH set at all turns the toolchain aids off


def _port(text: str, name: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise JudgeError(f"{name}={text!r} is not a TCP port")
    return int(text)


def _time_factors(text: str, name: str) -> tuple[tuple[str, float], ...]:
    """lang=number pairs; the language names are checked by judge.languages, which knows them."""
    factors = []
    for item in filter(None, (s.strip() for s in text.split(","))):
        language, _, value = item.partition("=")
        try:
            factor = float(value)
        except ValueError:
            raise JudgeError(f"{name}: bad entry {item!r} (expected lang=number)") from None
        if not factor > 0:
            raise JudgeError(f"{name}: the time factor of {language} must be positive")
        factors.append((language.strip(), factor))
    return tuple(factors)


def _names(text: str, name: str) -> frozenset[str]:
    return frozenset(s.strip() for s in text.split(",") if s.strip())


def _show(value: object) -> str:
    if isinstance(value, tuple):
        return ",".join(f"{k}={v:g}" for k, v in value) or "(the languages' own)"
    if isinstance(value, frozenset):
        return ",".join(sorted(value)) or "(none)"
    return "(default)" if value is None else str(value)


@dataclass(frozen=True)
class Variable:
    name: str
    field: str
    parse: Callable[[str, str], object]
    meaning: str
    show: Callable[[object], str] = _show


VARIABLES = (
    Variable("JUDGE_CGROUP", "cgroup", _cgroup_mode,
             "the cgroup mode of every sandbox: auto, v1, v2 or none (default auto)"),
    Variable("JUDGE_SUPERVISOR", "supervisor", _path,
             "another supervisor executable to start, e.g. a sanitizer build (`make sanitize`)"),
    Variable("JUDGE_CACHE_DIR", "cache_dir", _path,
             "the judge's caches (compile, audit); default $XDG_CACHE_HOME/judge or "
             "~/.cache/judge"),
    Variable("JUDGE_TIME_FACTORS", "time_factors", _time_factors,
             "per-language time multipliers, e.g. python=3,java=2.5"),
    Variable("JUDGE_COMPILE_TIME_LIMIT_MS", "compile_time_limit_ms", _positive_int("milliseconds"),
             "a compile's CPU limit (default 30000; its wall limit is twice that)"),
    Variable("JUDGE_ARTIFACT_LIMIT_MB", "artifact_limit_mb", _positive_int("MiB"),
             "what one compile may write, in all and per file (default 64)"),
    Variable("JUDGE_COMPILE_CACHE_MB", "compile_cache_mb", _positive_int("MiB"),
             "the compile cache's cap (default 2048)"),
    Variable("JUDGE_NO_PCH", "precompiled_headers", _flag,
             "set: no precompiled C++ headers and no javac class-data archive",
             lambda on: "unset: the toolchain aids are used" if on else "set: no toolchain aids"),
    Variable("JUDGE_TESTLIB", "testlib", _path,
             "a testlib checkout custom checkers build against (the CLI's --testlib)"),
    Variable("JUDGE_SERVE_PORT", "serve_port", _port,
             "the port `judge serve` listens on and the image's health check asks (default 8080)"),
    Variable("JUDGE_AUDIT_BREAK", "audit_break", _names,
             "test-only: `memory` makes the audit's runs (and the limits `judge audit --target` "
             "tells a target) use 4x the memory limit it judges by"),
)
assert {v.field for v in VARIABLES} == {f.name for f in fields(Config)}, "one row per field"

_current: Config | None = None


def current() -> Config:
    """This process's configuration: the environment's, resolved on first use, or what was
    installed since."""
    global _current
    if _current is None:
        _current = Config.from_environ()
    return _current


def install(config: Config) -> None:
    """Make `config` this process's configuration (a command's options, a Ray worker's
    driver settings)."""
    global _current
    _current = config


@contextlib.contextmanager
def overridden(**changes: Any) -> Iterator[Config]:
    """The current configuration with `changes`, installed for the block (a benchmark's own
    cache directory, say), then the previous one again."""
    previous = current()
    install(replace(previous, **changes))
    try:
        yield current()
    finally:
        install(previous)
