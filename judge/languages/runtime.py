"""The runtime layer: the libraries SandboxFusion's runtime holds, which the compatible profile
(`/run_code`, `/submit`) adds to a language and the strict one (competitive grading) never sees.

Each library lives under LAYER, inside /usr (the sandbox sees it read-only, like the
toolchains) and outside every path a toolchain searches by itself: only the compatible
profile's flags and environment (`sandboxfusion` in judge/languages/registry.py) name it.
Three sources fill it:
- Debian packages (boost, javatuples, testify, Perl and Lua modules), unpacked with their
  dependencies the host lacks into DEBIAN_ROOT;
- PyPI wheels, the `sandboxfusion` environment of judge/languages/python_env.py;
- npm packages, judge/languages/node's lock file, installed by `make setup`'s node-envs.

`python -m judge.languages.install` is the command line of make setup's steps.
"""
from __future__ import annotations

import enum
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

LAYER = Path("/usr/local/lib/judge")
DEBIAN_ROOT = LAYER / "debian"
# What was unpacked into DEBIAN_ROOT, "package version" a line, written last: its presence
# means a whole install, and its content is part of every compile cache key.
DEBIAN_MANIFEST = DEBIAN_ROOT / ".installed"
NODE_ROOT = LAYER / "node"
NODE_MODULES = NODE_ROOT / "node_modules"
NODE_MANIFEST = NODE_ROOT / ".installed"


class Source(enum.Enum):
    DEBIAN = "debian"
    PYPI = "pypi"
    NPM = "npm"


@dataclass(frozen=True)
class Library:
    """One library a compatible-profile program may use."""
    name: str          # as code names it: boost, org.javatuples, numpy, lodash
    source: Source
    package: str       # what provides it: a Debian package, a pinned PyPI requirement, an npm name
    path: Path         # a file or directory that exists once it is installed
    optional: bool = False   # an opt-in extra (make setup PYTHON_EXTRAS=...): listed, not promised

    @property
    def installed(self) -> bool:
        return self.path.exists()

    def describe(self) -> str:
        extra = ", opt-in" if self.optional else ""
        return f"{self.name} ({self.source.value} {self.package}{extra})"


def debian(name: str, package: str, path: str) -> Library:
    """A library from a Debian package, found at `path` as the package installs it."""
    return Library(name, Source.DEBIAN, package, DEBIAN_ROOT / path.lstrip("/"))


def npm(name: str) -> Library:
    return Library(name, Source.NPM, name, NODE_MODULES / name)


def debian_path(path: str) -> str:
    """Where the layer holds `path` of a Debian package (for flags and search paths)."""
    return str(DEBIAN_ROOT / path.lstrip("/"))


def installed_on_host(package: str) -> bool:
    """Whether dpkg has `package` installed system-wide, where every profile sees it."""
    out = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True,
                         text=True)
    return out.returncode == 0 and out.stdout.endswith("install ok installed")


def system_python_finds(modules: list[str]) -> list[str]:
    """The modules the sandbox's python3 imports with no search path added (as the strict
    profile runs it): what the host's own site-packages give every program."""
    from judge.sandbox.environment import SANDBOX_PATH
    probe = ("import importlib.util, sys\n"
             "print(' '.join(m for m in sys.argv[1:] if importlib.util.find_spec(m)))")
    try:
        out = subprocess.run(["python3", "-I", "-c", probe, *modules], capture_output=True,
                             text=True, timeout=30, env={"PATH": SANDBOX_PATH})
    except (OSError, subprocess.TimeoutExpired):
        return []
    return out.stdout.split()


def _closure(packages: list[str]) -> list[str]:
    """The packages and every dependency of theirs the host lacks, as apt's resolver sees it
    (a dependency the host satisfies, by a package or by what one provides, is used where the
    host has it)."""
    out = subprocess.run(["apt-get", "install", "-s", "-qq", "--no-install-recommends",
                          *packages], capture_output=True, text=True, check=True)
    needed = {line.split()[1] for line in out.stdout.splitlines() if line.startswith("Inst ")}
    return sorted(needed | set(packages))


def _download(packages: list[str], into: Path) -> None:
    subprocess.run(["apt-get", "download", "-q", "-o", "APT::Sandbox::User=root", *packages],
                   cwd=into, check=True, stdout=subprocess.DEVNULL)


def _manifest(debs: list[Path]) -> str:
    lines = []
    for deb in debs:
        fields = subprocess.run(["dpkg-deb", "-f", str(deb), "Package", "Version"],
                                capture_output=True, text=True, check=True).stdout.split()
        lines.append(f"{fields[1]} {fields[3]}")
    return "\n".join(sorted(lines)) + "\n"


def debian_installed(packages: list[str]) -> bool:
    """The layer holds every one of `packages`."""
    try:
        held = {line.split()[0] for line in DEBIAN_MANIFEST.read_text().splitlines() if line}
    except OSError:
        return False
    return set(packages) <= held


def install_debian(libraries: list[str]) -> tuple[int, int, float]:
    """Unpacks the Debian packages `libraries` and what they need into DEBIAN_ROOT, replacing
    it whole; returns (packages, bytes, seconds)."""
    started = time.monotonic()
    try:
        packages = _closure(libraries)
    except subprocess.CalledProcessError:
        # A host whose package lists were never fetched (a fresh container) knows no package.
        subprocess.run(["apt-get", "update", "-qq"], check=True)
        packages = _closure(libraries)
    DEBIAN_ROOT.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=DEBIAN_ROOT.parent, prefix=".debian-") as scratch:
        downloads = Path(scratch) / "debs"
        staged = Path(scratch) / "root"
        downloads.mkdir()
        staged.mkdir(mode=0o755)
        _download(packages, downloads)
        debs = sorted(downloads.glob("*.deb"))
        for deb in debs:
            subprocess.run(["dpkg-deb", "-x", str(deb), str(staged)], check=True)
        shutil.rmtree(staged / "usr" / "share" / "doc", ignore_errors=True)
        (staged / DEBIAN_MANIFEST.name).write_text(_manifest(debs))
        os.chmod(staged, 0o755)
        if DEBIAN_ROOT.exists():
            shutil.rmtree(DEBIAN_ROOT)
        staged.rename(DEBIAN_ROOT)
    return len(debs), tree_bytes(DEBIAN_ROOT), time.monotonic() - started


def tree_bytes(root: Path) -> int:
    """The bytes of the files under `root` (links not followed)."""
    return sum(path.lstat().st_size for path in root.rglob("*") if path.is_file()
               and not path.is_symlink())
