"""What a language is to the judge: one `Language` record, its compatible profile's differences
(`Compatible`) and the names of its profiles and runtime families (docs/languages.md says how
to add one)."""
from __future__ import annotations

import enum
import functools
import os
import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TypeVar

from judge.languages.runtime import Library
from judge.sandbox.environment import SANDBOX_PATH
from judge.sandbox.policy import POLICIES, Policy

T = TypeVar("T")


class Profile(enum.Enum):
    """Whose commands and libraries a language runs with. Competitive grading (`judge run`,
    `judge eval`, `/v1/grade`) is the strict profile: Codeforces' commands where Codeforces has
    the language and the toolchain's own library only. SandboxFusion's `/run_code` and `/submit`
    are the compatible profile: SandboxFusion's commands (e.g. `java -ea`, Rust's 2015 edition)
    and the libraries its runtime holds, under the general policy that tool-use code needs."""
    STRICT = "strict"
    COMPATIBLE = "compatible"


class Family(enum.Enum):
    """How a runtime behaves under the sandbox: what its hostile tests and audit probes look
    like, and what a warm run costs."""
    NATIVE = "native"          # a compiled executable (C, C++, Rust, Go, Pascal, D, OCaml, GHC)
    SCRIPT = "script"          # an interpreter reading the source (Python, PHP, Ruby, Bash...)
    JVM = "jvm"                # class files or a jar on the JVM (Java, Kotlin, Scala)
    MANAGED = "managed"        # another VM with a JIT and threads (Node, Mono)
    SIMULATOR = "simulator"    # a hardware description run by a simulator (Verilog)

    @property
    def time_factor(self) -> float:
        """The multiplier on a problem's time limit its languages get unless the entry says
        otherwise: an interpreter or a virtual machine starts slower and runs slower than a
        native executable (docs/languages.md)."""
        return 1.0 if self in (Family.NATIVE, Family.SIMULATOR) else 2.0


@dataclass(frozen=True, kw_only=True)
class Compatible:
    """What SandboxFusion's runner does differently from the strict profile; a field left at
    None keeps the strict one. The compatible profile always runs under the general policy."""
    compile: tuple[str, ...] | None = None
    run: tuple[str, ...] | None = None
    precompiled_headers: tuple[str, ...] | None = None
    # The runtime layer's libraries (judge/languages/runtime.py) its programs may use.
    libraries: tuple[Library, ...] = ()
    env: Mapping[str, str] | None = field(default=None, compare=False, hash=False)
    prepare: Callable[[str], str] | None = field(default=None, compare=False)
    support_files: Mapping[str, str] | None = field(default=None, compare=False, hash=False)
    artifacts: tuple[str, ...] | None = None


@dataclass(frozen=True, kw_only=True)
class Language:
    """One language: everything the judge needs to build, run, audit and name it
    (docs/languages.md explains each field and how to add a language)."""
    name: str
    family: Family
    # Every spelling that names it: Codeforces', SandboxFusion's, MultiPL-E's, fence tags.
    aliases: tuple[str, ...] = ()
    extensions: tuple[str, ...] = ()
    source_name: str                       # file name in the box; {cls} is the entry class
    compile: tuple[str, ...] | None = None  # argv; None: nothing to build
    run: tuple[str, ...]                   # argv
    policy: Policy                         # seccomp policy of the run
    compile_policy: Policy = POLICIES["build"]
    # Multiplier on the problem's time limit when not its family's (Family.time_factor); the
    # configuration's JUDGE_TIME_FACTORS sets it too.
    own_time_factor: float | None = None
    artifacts: tuple[str, ...] = ()        # glob patterns of what the run needs from the build
    version_command: tuple[str, ...] = ()
    packages: tuple[str, ...] = ()         # the Debian packages that provide the toolchain
    # Its audit probe program in judge/audit/programs (the time and memory modes); None: it has
    # none (a simulation reads only simulated time).
    probe: str | None = None
    # The names SandboxFusion's requests give it (`language` of /run_code and /submit).
    sandboxfusion_names: tuple[str, ...] = ()
    # The strict profile's libraries: none (the toolchain's own library only).
    libraries: tuple[Library, ...] = ()
    # Environment of its compiles and runs beyond the sandbox's own (where a runtime finds its
    # libraries).
    env: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)
    # The class a source names for its compiler and runtime (Java's public class); None: none.
    main_class: Callable[[str], str] | None = field(default=None, compare=False)
    # Headers submissions include first, each precompiled once with header_flags (the compile's
    # flags that shape code, not linking) and found first on every compile's include path.
    precompiled_headers: tuple[str, ...] = ()
    header_flags: tuple[str, ...] = ()
    # The compiler is a Java program whose classes an archive made once can hold (javac).
    compiler_archive: bool = False
    # No build step: the source itself runs through an interpreter (the "compile" only checks).
    script: bool = False
    # Turns the code as sent into the source file (PHP's opening tag); None: as sent.
    prepare: Callable[[str], str] | None = field(default=None, compare=False)
    # Files the judge writes beside the source before the build (name: text), part of the
    # compile's cache key; the artifacts patterns say which of them the run gets (C#'s
    # configuration file in the compatible profile).
    support_files: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)
    compatible: Compatible = Compatible()
    # Only SandboxFusion's requests name it (a test runner such as pytest or junit): it has
    # the compatible profile only.
    compatible_only: bool = False

    @property
    def time_factor(self) -> float:
        return self.family.time_factor if self.own_time_factor is None else self.own_time_factor

    def in_profile(self, profile: Profile) -> Language:
        """The record with `profile`'s commands and libraries."""
        if profile is Profile.STRICT:
            return self
        changes = self.compatible
        return replace(
            self, policy=POLICIES["general"], libraries=changes.libraries,
            compile=_given(changes.compile, self.compile), run=_given(changes.run, self.run),
            precompiled_headers=_given(changes.precompiled_headers, self.precompiled_headers),
            env=_given(changes.env, self.env), prepare=_given(changes.prepare, self.prepare),
            support_files=_given(changes.support_files, self.support_files),
            artifacts=_given(changes.artifacts, self.artifacts))

    def source_text(self, code: str) -> str:
        return self.prepare(code) if self.prepare else code

    def file_name(self, source: str) -> str:
        return self.source_name.format(cls=self.entry_class(source))

    def entry_class(self, source: str) -> str:
        return self.main_class(source) if self.main_class else ""

    def compile_argv(self, source: str) -> list[str] | None:
        if self.compile is None:
            return None
        return [part.format(source=self.file_name(source), cls=self.entry_class(source))
                for part in self.compile]

    def run_argv(self, source: str) -> list[str]:
        return [part.format(source=self.file_name(source), cls=self.entry_class(source))
                for part in self.run]

    @property
    def available(self) -> bool:
        """Its tool is on the sandbox's PATH and every file its commands name by absolute path
        (a jar, a compiler's home, jest) exists."""
        tool = (self.compile or self.run)[0]
        named = [part for part in (*(self.compile or ()), *self.run)
                 if part.startswith("/") and not any(c in part for c in ":{ ")]
        return (shutil.which(tool, path=SANDBOX_PATH) is not None
                and all(os.path.exists(path) for path in named))

    @property
    def missing_libraries(self) -> list[Library]:
        """The libraries it promises that the runtime layer lacks (optional ones aside)."""
        return [lib for lib in self.libraries if not lib.optional and not lib.installed]

    @property
    def toolchain_version(self) -> str:
        """The version line of the toolchain, part of every compile cache key."""
        return _version_line(self.version_command)


def _given(changed: T | None, strict: T) -> T:
    return strict if changed is None else changed


@functools.cache
def _version_line(command: tuple[str, ...]) -> str:
    """Asked once a process per command, not per record: a record in its compatible profile,
    or one with its time factor overridden, is a new copy (SandboxFusion's, for every
    /run_code), and `javac -version` alone starts a JVM (0.14 s)."""
    if not command:
        return ""
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=30,
                             env={"PATH": SANDBOX_PATH})
        return (out.stdout + out.stderr).strip().splitlines()[0]
    except (OSError, subprocess.TimeoutExpired, IndexError):
        return "unknown"
