"""What a language is to the judge: one `Language` record (docs/languages.md says how to add
one)."""
from __future__ import annotations

import enum
import functools
import os
import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from judge.languages.runtime import Library
from judge.sandbox.environment import SANDBOX_PATH


class Flavour(enum.Enum):
    """Whose commands and libraries a language runs with: its profile. Competitive grading
    (`judge run`, `judge eval`, `/v1/grade`) is the strict profile: Codeforces' commands where
    Codeforces has the language and the toolchain's own library only. SandboxFusion's
    `/run_code` and `/submit` are the compatible profile: SandboxFusion's commands (e.g. `java
    -ea`, Rust's 2015 edition) and the libraries its runtime holds, under the general policy
    that tool-use code needs."""
    CODEFORCES = "codeforces"
    SANDBOXFUSION = "sandboxfusion"

    @property
    def profile(self) -> str:
        return "strict" if self is Flavour.CODEFORCES else "compatible"


class Family(enum.Enum):
    """How a runtime behaves under the sandbox: what its hostile tests and audit probes look
    like, and what a warm run costs."""
    NATIVE = "native"          # a compiled executable (C, C++, Rust, Go, Pascal, D, OCaml, GHC)
    SCRIPT = "script"          # an interpreter reading the source (Python, PHP, Ruby, Bash...)
    JVM = "jvm"                # class files or a jar on the JVM (Java, Kotlin, Scala)
    MANAGED = "managed"        # another VM with a JIT and threads (Node, Mono)
    SIMULATOR = "simulator"    # a hardware description run by a simulator (Verilog)


@dataclass(frozen=True)
class Language:
    name: str
    family: Family
    # Every spelling that names it: Codeforces', SandboxFusion's, MultiPL-E's, fence tags.
    aliases: tuple[str, ...]
    extensions: tuple[str, ...]
    source_name: str                       # file name in the box; {cls} is the entry class
    compile: tuple[str, ...] | None        # argv; None: nothing to build
    run: tuple[str, ...]                   # argv
    policy: str                            # seccomp policy of the run
    compile_policy: str = "build"
    time_factor: float = 1.0               # multiplier on the problem's time limit
    artifacts: tuple[str, ...] = ()        # glob patterns of what the run needs from the build
    version_command: tuple[str, ...] = ()
    packages: tuple[str, ...] = ()         # the Debian packages that provide the toolchain
    # What its programs may use beyond the toolchain's own library, from the runtime layer
    # (judge/languages/runtime.py): none in the strict profile; SandboxFusion's (boost,
    # javatuples, numpy, lodash...) in the compatible one, through its `sandboxfusion` fields.
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
    # What SandboxFusion's runner does differently (fields of this record); its policy is
    # always the general one.
    sandboxfusion: Mapping[str, object] = field(default_factory=dict, compare=False,
                                                hash=False)
    # Only SandboxFusion's requests name it (a test runner such as pytest or junit).
    sandboxfusion_only: bool = False

    def flavoured(self, flavour: Flavour) -> Language:
        """The record with `flavour`'s commands."""
        if flavour is Flavour.CODEFORCES:
            return self
        return replace(self, policy="general", **self.sandboxfusion)  # type: ignore[arg-type]

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


@functools.cache
def _version_line(command: tuple[str, ...]) -> str:
    """Asked once a process per command, not per record: a flavoured record, or one with its
    time factor overridden, is a new copy (SandboxFusion's, for every /run_code), and `javac
    -version` alone starts a JVM (0.14 s)."""
    if not command:
        return ""
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=30,
                             env={"PATH": SANDBOX_PATH})
        return (out.stdout + out.stderr).strip().splitlines()[0]
    except (OSError, subprocess.TimeoutExpired, IndexError):
        return "unknown"
