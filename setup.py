"""Build glue: the cffi module and the native executables come from the same sources in native/."""
import os
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

sys.path.insert(0, str(Path(__file__).parent / "native"))
import build_native  # noqa: E402


class BuildNative(build_ext):
    """Builds the cffi extension, then the supervisor and checker executables."""

    def run(self):
        super().run()
        package_dir = Path(self.get_ext_fullpath("judge._native")).parent
        if self.inplace:
            package_dir = Path(__file__).parent / "judge"
        build_native.build_executables(package_dir / "_bin")


setup(
    cffi_modules=["native/build_native.py:ffibuilder"],
    cmdclass={"build_ext": BuildNative},
)
