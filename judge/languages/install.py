"""The command line of `make setup`'s runtime-layer steps (judge/languages/runtime.py,
judge/languages/python_env.py), and of the image build that downloads the same wheels:

    python -m judge.languages.install debian               # unpack the Debian libraries
    python -m judge.languages.install debian-missing       # say whether they are; exit 1 if not
    python -m judge.languages.install debian-packages      # the Debian packages, one a line
    python -m judge.languages.install python [--with=NAME] [pip options]   # the environments
    python -m judge.languages.install python-missing [--with=NAME]         # exit 1 if any is not
    python -m judge.languages.install python-requirements [--with=NAME]    # pinned, one a line

Root installs; anyone may ask. Exit 1 when something is missing or fails, 2 for a bad command.
"""
from __future__ import annotations

import subprocess
import sys

from judge import JudgeError
from judge.languages import python_env, runtime
from judge.languages.registry import LIBRARY_PACKAGES

USAGE = ("usage: python -m judge.languages.install debian | debian-missing | debian-packages | "
         "python [--with=NAME] [pip options] | python-missing | python-requirements")


def debian(command: str) -> int:
    if command == "debian-packages":
        print("\n".join(LIBRARY_PACKAGES))
        return 0
    if runtime.debian_installed(LIBRARY_PACKAGES):
        return 0
    if command == "debian-missing":
        print(f"the runtime layer's Debian libraries are not installed in {runtime.DEBIAN_ROOT} "
              "(run 'make setup' as root)", file=sys.stderr)
        return 1
    try:
        count, size, seconds = runtime.install_debian(LIBRARY_PACKAGES)
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"judge: cannot install the runtime layer's Debian libraries: {exc}",
              file=sys.stderr)
        return 1
    print(f"judge: unpacked {count} Debian packages into {runtime.DEBIAN_ROOT}: "
          f"{size / 2**20:.0f} MiB in {seconds:.0f} s")
    return 0


def python(command: str, arguments: list[str]) -> int:
    extras = [arg.removeprefix("--with=") for arg in arguments if arg.startswith("--with=")]
    options = [arg for arg in arguments if not arg.startswith("--with=")]
    try:
        environments = python_env.wanted(extras)
    except JudgeError as exc:
        print(f"judge: {exc}", file=sys.stderr)
        return 2
    if command == "python-requirements":
        print("\n".join(r for env in environments for r in env.requirements))
        return 0
    if command == "python-missing":
        missing = [env for env in environments if not env.installed]
        for env in missing:
            print(f"missing Python environment {env.name} in {env.path} (run 'make setup' as "
                  "root)", file=sys.stderr)
        return 1 if missing else 0
    try:
        python_env.install(options, extras)
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"judge: cannot install the Python environments: {exc}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command in ("debian", "debian-missing", "debian-packages") and len(argv) == 1:
        return debian(command)
    if command in ("python", "python-missing", "python-requirements"):
        return python(command, argv[1:])
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
