"""The Python modules a benchmark's solutions may import, beyond the standard library.

Each environment is a directory of packages installed from PyPI wheels under ROOT (inside /usr,
so the sandbox sees it read-only, like the toolchains), put on a CPython run's PYTHONPATH only
for the benchmarks whose rules name it (judge/problems/rules.py). Nothing else changes: the same
interpreter, the same seccomp policy. PyPy runs the standard library only (CPython wheels do not
load in it).

    python -m judge.python_env install [pip options]   # install what is missing (make setup)
    python -m judge.python_env missing                 # say what is missing; exit 1 if any
    python -m judge.python_env requirements            # the pinned requirements, one a line
"""
from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from judge import JudgeError

ROOT = Path("/usr/local/lib/judge/python")
CPYTHON = "python"


@dataclass(frozen=True)
class PythonEnvironment:
    name: str
    modules: tuple[str, ...]          # what `import` finds here beyond the standard library
    requirements: tuple[str, ...]     # pip requirements, pinned
    why: str

    @property
    def path(self) -> Path:
        return ROOT / self.name

    @property
    def installed(self) -> bool:
        return all((self.path / module).is_dir() for module in self.modules)

    def describe(self) -> str:
        return "the standard library" + "".join(f" + {m}" for m in self.modules)


ENVIRONMENTS = {
    "stdlib": PythonEnvironment(
        "stdlib", (), (),
        "Codeforces-style judging: the strict profile, nothing a problem setter did not promise"),
    # LiveCodeBench's testing_util imports numpy in the process that runs every solution, so any
    # solution may import it; the version is the one in LiveCodeBench's uv.lock.
    "livecodebench": PythonEnvironment(
        "livecodebench", ("numpy",), ("numpy==2.2.5",),
        "LiveCodeBench's harness imports numpy in the process that runs the solution"),
}


def environment(name: str) -> PythonEnvironment:
    try:
        return ENVIRONMENTS[name]
    except KeyError:
        raise JudgeError(f"unknown Python environment {name!r}") from None


def run_environment(name: str, language: str) -> dict[str, str]:
    """The variables a run of `language` needs for environment `name` ({} for none). Raises
    JudgeError when the environment is not installed: a solution's failed import must never be
    the judge's missing package."""
    env = environment(name)
    if language != CPYTHON or not env.modules:
        return {}
    if not env.installed:
        raise JudgeError(f"the {name} Python environment ({env.describe()}) is not installed "
                         f"in {env.path}: run 'make setup' or 'python -m judge.python_env "
                         f"install' as root")
    return {"PYTHONPATH": str(env.path)}


def missing_module_hint(name: str, stderr: str) -> str | None:
    """One line for a run that failed on an import its environment does not hold."""
    marker = "ModuleNotFoundError: No module named "
    for line in reversed(stderr.splitlines()):
        if line.startswith(marker):
            module = line[len(marker):].strip().strip("'\"")
            return (f"no module {module!r} in the {name} Python environment "
                    f"({environment(name).describe()})")
    return None


def install(pip_options: list[str]) -> None:
    for env in ENVIRONMENTS.values():
        if not env.requirements or env.installed:
            continue
        print(f"judge: installing the {env.name} Python environment into {env.path}")
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--only-binary=:all:",
                        "--target", str(env.path), *pip_options, *env.requirements], check=True)
        os.chmod(env.path, 0o755)


def _main(argv: list[str]) -> int:
    if argv[:1] == ["requirements"]:
        for env in ENVIRONMENTS.values():
            for requirement in env.requirements:
                print(requirement)
        return 0
    if argv[:1] == ["missing"]:
        missing = [env for env in ENVIRONMENTS.values() if not env.installed]
        for env in missing:
            print(f"missing Python environment {env.name} in {env.path} (run 'make setup' as "
                  "root)", file=sys.stderr)
        return 1 if missing else 0
    if argv[:1] == ["install"]:
        try:
            install(argv[1:])
        except (OSError, subprocess.CalledProcessError) as exc:
            print(f"judge: cannot install the Python environments: {exc}", file=sys.stderr)
            return 1
        return 0
    print("usage: python -m judge.python_env install [pip options] | missing | requirements",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
