"""The Python modules programs may import beyond the standard library: a benchmark's (its rules
name one, judge/problems/rules.py) and the compatible profile's (judge/languages/runtime.py).

Each environment is a directory of packages installed from PyPI wheels under ROOT (inside /usr,
so the sandbox sees it read-only, like the toolchains), put on a CPython run's PYTHONPATH only
where its benchmark or profile names it. Nothing else changes: the same interpreter, the same
seccomp policy. PyPy runs the standard library only (CPython wheels do not load in it).

An optional environment (heavy: a machine-learning framework) is installed only when named
(make setup PYTHON_EXTRAS=NAME); `python -m judge.languages.install` is the command line.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from judge import JudgeError
from judge.languages.runtime import tree_bytes

ROOT = Path("/usr/local/lib/judge/python")
CPYTHON = "python"
# The environment of the compatible profile (SandboxFusion's /run_code and /submit).
COMPATIBLE_ENVIRONMENT = "sandboxfusion"


@dataclass(frozen=True)
class PythonEnvironment:
    name: str
    modules: tuple[str, ...]          # what `import` finds here beyond the standard library
    # pip requirements, pinned: first the ones that provide `modules`, in their order, then
    # their dependencies
    requirements: tuple[str, ...]
    why: str
    optional: bool = False            # installed only when asked for by name

    @property
    def path(self) -> Path:
        return ROOT / self.name

    def providers(self) -> list[tuple[str, str]]:
        """Each module with the requirement that provides it."""
        return list(zip(self.modules, self.requirements[:len(self.modules)], strict=True))

    @property
    def stamp(self) -> Path:
        """Its requirements, one a line, written once they are all installed."""
        return self.path / ".installed"

    @property
    def installed(self) -> bool:
        try:
            return self.stamp.read_text() == self._stamp_text()
        except OSError:
            return not self.requirements

    def _stamp_text(self) -> str:
        return "".join(f"{requirement}\n" for requirement in self.requirements)

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
    # SandboxFusion's runtime, as its runtime/python/requirements.txt pins it: the scientific
    # stack and the web and parsing libraries its datasets' Python imports, with every
    # dependency pinned too (as pip resolved them on 2026-12-06), so that two installs match.
    COMPATIBLE_ENVIRONMENT: PythonEnvironment(
        COMPATIBLE_ENVIRONMENT,
        ("numpy", "scipy", "pandas", "sklearn", "matplotlib", "seaborn", "statsmodels",
         "requests", "bs4"),
        ("numpy==1.26.3", "scipy==1.11.4", "pandas==2.2.0", "scikit-learn==1.4.0",
         "matplotlib==3.8.2", "seaborn==0.13.2", "statsmodels==0.14.1", "requests==2.31.0",
         "beautifulsoup4==4.12.3",
         "certifi==2026.10.19.post1", "charset-normalizer==3.5.3", "cloudpickle==3.1.3",
         "contourpy==1.3.3", "cycler==0.12.1", "fonttools==4.69.1", "idna==3.21",
         "joblib==1.6.0", "kiwisolver==1.5.1", "packaging==26.4", "patsy==1.0.3",
         "pillow==13.0.0", "pyparsing==3.3.3", "python-dateutil==4.0.0", "pytz==2026.6",
         "soupsieve==2.10", "threadpoolctl==3.8.0", "tzdata==2026.6", "urllib3==2.8.0"),
        "SandboxFusion's /run_code and /submit: the libraries its datasets' Python imports"),
    # The machine-learning framework SandboxFusion also carries (its CPU build): 825 MiB, so
    # opt-in.
    "sandboxfusion-ml": PythonEnvironment(
        "sandboxfusion-ml", ("torch",),
        ("torch==2.13.0", "filelock==4.3.2", "fsspec==2026.9.0", "jinja2==3.1.6",
         "markupsafe==3.0.4", "mpmath==1.3.0", "networkx==3.6.1", "setuptools==84.2.1",
         "sympy==1.14.0", "typing-extensions==4.16.0"),
        "SandboxFusion's /run_code with PyTorch (CPU), when installed", optional=True),
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
                         f"in {env.path}: run 'make setup' or 'python -m judge.languages.install "
                         "python' as root")
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


def wanted(extras: list[str]) -> list[PythonEnvironment]:
    """The environments an install makes: every one not optional, and the extras named."""
    for name in extras:
        environment(name)
    return [env for env in ENVIRONMENTS.values() if not env.optional or env.name in extras]


def install(pip_options: list[str], extras: list[str]) -> None:
    for env in wanted(extras):
        if not env.requirements or env.installed:
            continue
        print(f"judge: installing the {env.name} Python environment into {env.path}")
        started = time.monotonic()
        env.path.parent.mkdir(parents=True, exist_ok=True)
        # Made beside it and renamed: a run never sees a half-made or mixed environment.
        with tempfile.TemporaryDirectory(dir=env.path.parent, prefix=f".{env.name}-") as made:
            staged = Path(made) / "env"
            subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--only-binary=:all:", "--no-warn-conflicts",
                            "--target", str(staged), *pip_options,
                            *env.requirements], check=True)
            (staged / env.stamp.name).write_text(env._stamp_text())
            os.chmod(staged, 0o755)
            if env.path.exists():
                shutil.rmtree(env.path)
            staged.rename(env.path)
        print(f"judge: {env.name}: {tree_bytes(env.path) / 2**20:.0f} MiB in "
              f"{time.monotonic() - started:.0f} s")
