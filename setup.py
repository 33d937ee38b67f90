"""Build glue: the cffi module and the native executables come from the same sources in native/."""
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

sys.path.insert(0, str(Path(__file__).parent / "native"))
import build_native  # noqa: E402


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
    cmdclass={"build_ext": BuildNative},
)
