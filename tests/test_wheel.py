"""The judge as a user outside this repository gets it: `python -m build` makes an sdist and a
wheel; each installs into a clean venv in a temporary directory (the wheel carrying its C
parts, the sdist building them), and `judge doctor` and `judge run … --problem 2020A` work from
there. Without a C compiler, installing the sdist stops with the judge's one-line reason."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import PACK_SOURCES

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]
ROOT = Path(__file__).resolve().parents[1]
SYSTEM_PYTHON = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable


def _run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None,
         timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env)


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    built = _run(sys.executable, "-m", "build", "--outdir", out, ROOT, cwd=out)
    assert built.returncode == 0, built.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def venv(dist, tmp_path_factory) -> Path:
    """A clean venv (no system site-packages) with the wheel and its dependencies."""
    place = tmp_path_factory.mktemp("venv")
    assert _run(SYSTEM_PYTHON, "-m", "venv", place, cwd=place).returncode == 0
    [wheel] = dist.glob("judge-*.whl")
    installed = _run(place / "bin" / "pip", "install", "-q", wheel, cwd=place)
    assert installed.returncode == 0, installed.stderr[-3000:]
    return place


def _judge_works(venv: Path, workdir: Path) -> None:
    """doctor has every required check, and 2020A's C++ solution is AC, from outside the repo."""
    doctor = _run(venv / "bin" / "judge", "doctor", "--json", cwd=workdir)
    checks = json.loads(doctor.stdout)["checks"]
    # The build names the commit it came from, carried through the sdist into the wheel.
    head = _run("git", "-C", ROOT, "rev-parse", "HEAD", cwd=workdir).stdout.strip()
    assert json.loads(doctor.stdout)["build"]["commit"] == head
    failed = [c for c in checks if c["required"] and not c["ok"]]
    assert not failed, failed
    shutil.copy(PACK_SOURCES / "codeforces-2020A" / "sol.cpp", workdir / "sol.cpp")
    graded = _run(venv / "bin" / "judge", "run", "sol.cpp", "--problem", "2020A", "--json",
                  cwd=workdir)
    assert graded.returncode == 0, graded.stderr[-2000:]
    assert json.loads(graded.stdout)["verdict"] == "AC", graded.stdout[-2000:]


def test_the_dist_holds_sources_and_no_host_binaries(dist):
    import tarfile
    import zipfile
    [sdist] = dist.glob("judge-*.tar.gz")
    names = tarfile.open(sdist).getnames()
    assert any(n.endswith("native/supervisor/supervisor.c") for n in names)
    assert not any("/_bin/" in n or n.endswith(".so") for n in names), names
    [wheel] = dist.glob("judge-*.whl")
    members = zipfile.ZipFile(wheel).namelist()
    assert {"judge/_bin/judge-supervisor", "judge/_bin/judge-check"} <= set(members)
    assert any(m.startswith("judge/_native") and m.endswith(".so") for m in members)


def test_the_wheel_works_in_a_clean_venv(venv, tmp_path):
    located = _run(venv / "bin" / "python", "-c", "import judge; print(judge.__file__)",
                   cwd=tmp_path)
    assert str(venv) in located.stdout, located     # the installed copy, not this checkout
    _judge_works(venv, tmp_path)


def test_the_sdist_builds_its_c_parts_and_works(dist, venv, tmp_path):
    [sdist] = dist.glob("judge-*.tar.gz")
    installed = _run(venv / "bin" / "pip", "install", "-q", "--no-deps", "--force-reinstall",
                     sdist, cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr[-3000:]
    _judge_works(venv, tmp_path)


def test_the_sdist_without_a_c_compiler_says_so_in_one_line(dist, venv, tmp_path):
    [sdist] = dist.glob("judge-*.tar.gz")
    env = dict(os.environ, CC="/nonexistent/cc")
    failed = _run(venv / "bin" / "pip", "install", "--no-deps", "--force-reinstall", sdist,
                  cwd=tmp_path, env=env)
    assert failed.returncode != 0
    lines = [line for line in (failed.stdout + failed.stderr).splitlines()
             if "judge: cannot build its C parts" in line]
    assert lines and "no C compiler (/nonexistent/cc)" in lines[0], failed.stderr[-3000:]
    assert "apt-get install gcc libc6-dev python3-dev" in lines[0]
