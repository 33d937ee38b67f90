"""Build glue: the cffi module and the native executables come from the same sources in native/."""
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).parent
sys.path.insert(0, str(ROOT / "native"))
import build_native  # noqa: E402


def write_build_info(package_dir: Path) -> None:
    """What git says of the source now, for judge/build_info.py to report once installed: an
    sdist carries it to the wheels built from it (which have no git)."""
    target = package_dir / "_build_info.json"
    recorded = ROOT / "judge" / "_build_info.json"
    if not (ROOT / ".git").exists() and recorded.is_file():
        if recorded.resolve() != target.resolve():      # a build from an sdist: what it recorded
            shutil.copyfile(recorded, target)
        return
    sys.path.insert(0, str(ROOT))
    from judge.build_info import git_state
    state = git_state(ROOT)
    commit, dirty = state if state is not None else (None, None)
    target.write_text(json.dumps({"commit": commit, "dirty": dirty}) + "\n")


class BuildPy(build_py):
    def run(self):
        super().run()
        write_build_info(Path(self.build_lib) / "judge")


class Sdist(sdist):
    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        write_build_info(Path(base_dir) / "judge")


def missing_build_prerequisite() -> str | None:
    """What a C build of the judge lacks on this machine, as one sentence, or None."""
    compiler = os.environ.get("CC", "cc")
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return f"no Python headers ({headers})"
    return None


class BuildNative(build_ext):
    """Builds the cffi extension, then the supervisor and checker executables."""

    def run(self):
        missing = missing_build_prerequisite()
        if missing is not None:
            raise SystemExit(
                f"judge: cannot build its C parts: {missing}; on Debian/Ubuntu install them "
                "with: apt-get install gcc libc6-dev python3-dev (docs/install.md)")
        super().run()
        package_dir = Path(self.get_ext_fullpath("judge._native")).parent
        if self.inplace:
            package_dir = Path(__file__).parent / "judge"
        build_native.build_executables(package_dir / "_bin")


setup(
    cffi_modules=["native/build_native.py:ffibuilder"],
    cmdclass={"build_ext": BuildNative, "build_py": BuildPy, "sdist": Sdist},
)
