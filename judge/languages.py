"""Language profiles: how a submission is compiled and run. Adding a language is adding a
profile. The C++, Python and Java commands are the CF-Div2-Stepfun benchmark's published ones."""
from __future__ import annotations

import functools
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from judge import JudgeError, config
from judge.sandbox.environment import SANDBOX_PATH


@dataclass(frozen=True)
class Language:
    name: str
    extensions: tuple[str, ...]
    source_name: str                       # file name in the box; {cls} is the Java class
    compile: tuple[str, ...] | None        # argv; None: nothing to build
    run: tuple[str, ...]                   # argv
    policy: str                            # seccomp policy of the run
    compile_policy: str = "build"
    time_factor: float = 1.0               # multiplier on the problem's time limit
    artifacts: tuple[str, ...] = ()        # glob patterns of what the run needs from the build
    version_command: tuple[str, ...] = ()
    compile_env: dict = field(default_factory=dict, hash=False, compare=False)
    # The class a source names for its compiler and runtime (Java's public class); None: none.
    main_class: Callable[[str], str] | None = field(default=None, compare=False)
    # A header most submissions include, precompiled once with header_flags (the compile's
    # flags that shape code, not linking) and found first on every compile's include path.
    precompiled_header: str | None = None
    header_flags: tuple[str, ...] = ()
    # The compiler is a Java program whose classes an archive made once can hold (javac).
    compiler_archive: bool = False
    # No build step: the source itself runs through an interpreter (the "compile" only checks).
    script: bool = False

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
        tool = (self.compile or self.run)[0]
        return shutil.which(tool, path=SANDBOX_PATH) is not None

    @functools.cached_property
    def toolchain_version(self) -> str:
        """The version line of the toolchain, part of every compile cache key."""
        if not self.version_command:
            return ""
        try:
            out = subprocess.run(self.version_command, capture_output=True, text=True, timeout=30,
                                 env={"PATH": SANDBOX_PATH})
            return (out.stdout + out.stderr).strip().splitlines()[0]
        except (OSError, subprocess.TimeoutExpired, IndexError):
            return "unknown"


_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_STRINGS = re.compile(r'"(?:\\.|[^"\\\n])*"')


def java_class_name(source: str) -> str:
    """The class javac must be given: the public top-level class, else the one with main()."""
    code = _STRINGS.sub('""', _COMMENTS.sub(" ", source))
    public = re.search(r"^\s*public\s+(?:(?:final|abstract|strictfp)\s+)*(?:class|interface|enum|record)\s+"
                       r"([A-Za-z_$][\w$]*)", code, re.M)
    if public:
        return public.group(1)
    classes = list(re.finditer(r"\b(?:class|record|enum)\s+([A-Za-z_$][\w$]*)", code))
    main = re.search(r"\bstatic\s+(?:public\s+)?void\s+main\s*\(", code)
    if main:
        enclosing = [m for m in classes if m.start() < main.start()]
        if enclosing:
            return enclosing[-1].group(1)
    return classes[0].group(1) if classes else "Main"


CPP_FLAGS = ("-fno-asm", "-fsanitize=bounds", "-fno-sanitize-recover=bounds", "-static", "-O2",
             "-DONLINE_JUDGE")

# Python has no build step in the benchmark's recipe; the compile step only parses the source so
# that a syntax error is a compile error (CE), the way online judges report it.
PYTHON_SYNTAX_CHECK = ("import sys; compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')")

LANGUAGES: dict[str, Language] = {
    lang.name: lang for lang in (
        Language("cpp", (".cpp", ".cc", ".cxx", ".c++"), "code.cpp",
                 ("g++", "-std=c++20", *CPP_FLAGS, "-o", "code.exe", "code.cpp"),
                 ("./code.exe",), "native", compile_policy="build", artifacts=("code.exe",),
                 version_command=("g++", "--version"), precompiled_header="bits/stdc++.h",
                 header_flags=("-std=c++20", *(f for f in CPP_FLAGS if f != "-static"))),
        Language("c", (".c",), "code.c",
                 ("gcc", "-std=gnu17", *CPP_FLAGS, "-o", "code.exe", "code.c", "-lm"),
                 ("./code.exe",), "native", compile_policy="build", artifacts=("code.exe",),
                 version_command=("gcc", "--version")),
        Language("python", (".py",), "code.py",
                 ("python3", "-c", PYTHON_SYNTAX_CHECK, "code.py"),
                 ("python3", "code.py"), "python", compile_policy="python", time_factor=2.0,
                 artifacts=("code.py",), version_command=("python3", "--version"), script=True),
        Language("pypy3", (), "code.py",
                 ("pypy3", "-c", PYTHON_SYNTAX_CHECK, "code.py"),
                 ("pypy3", "code.py"), "python", compile_policy="python", time_factor=2.0,
                 artifacts=("code.py",), version_command=("pypy3", "--version"), script=True),
        Language("java", (".java",), "{cls}.java",
                 # javac's own JIT stops at C1: it runs briefly, and the classes it writes are
                 # the same.
                 ("javac", "-J-Xmx544m", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC",
                  "{cls}.java"),
                 ("java", "-XX:+UseSerialGC", "-Xmx544m", "-Xss64m", "-DONLINE_JUDGE", "{cls}"),
                 "java", compile_policy="java", time_factor=2.0, artifacts=("*.class",),
                 version_command=("javac", "-version"), main_class=java_class_name,
                 compiler_archive=True),
    )
}

ALIASES = {"c++": "cpp", "cxx": "cpp", "g++": "cpp", "py": "python", "python3": "python",
           "pypy": "pypy3", "java17": "java"}


def _canonical(name: str) -> str:
    return ALIASES.get(name.lower(), name.lower())


@functools.lru_cache(maxsize=16)
def _by_language(overrides: tuple[tuple[str, float], ...]) -> dict[str, float]:
    unknown = [name for name, _ in overrides if _canonical(name) not in LANGUAGES]
    if unknown:
        raise JudgeError(f"JUDGE_TIME_FACTORS: unknown language {unknown[0]!r}")
    return {_canonical(name): factor for name, factor in overrides}


def time_factor_overrides() -> dict[str, float]:
    """The per-language multipliers the configuration overrides (JUDGE_TIME_FACTORS=
    "python=3,java=2.5"); raises a JudgeError for a bad entry (commands call it first to fail
    before doing anything)."""
    return _by_language(config.current().time_factors)


def get_language(name: str) -> Language:
    """The profile of ``name`` (or an alias), with its time factor from JUDGE_TIME_FACTORS."""
    key = _canonical(name)
    if key not in LANGUAGES:
        raise JudgeError(f"unknown language {name!r} (known: {', '.join(LANGUAGES)})")
    factor = time_factor_overrides().get(key)
    return LANGUAGES[key] if factor is None else replace(LANGUAGES[key], time_factor=factor)


def language_for_file(path: str | Path) -> Language:
    suffix = Path(path).suffix.lower()
    for lang in LANGUAGES.values():
        if suffix in lang.extensions:
            return get_language(lang.name)
    raise JudgeError(f"cannot tell the language of {path} from its extension; use --lang")
