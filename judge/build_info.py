"""Which build of the judge is running: its version, the git commit it was built from (with a
dirty flag for uncommitted changes) and a hash of the installed package's own files.

From a git checkout the commit is read from git; an sdist or wheel carries what git said when it
was built (``_build_info.json``, written by setup.py); the source hash is computed here from the
files that run, so two installs with equal hashes run the same judge whatever their metadata."""
from __future__ import annotations

import hashlib
import json
import subprocess
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

from judge import __version__

PACKAGE = Path(__file__).resolve().parent
RECORDED = PACKAGE / "_build_info.json"


@dataclass(frozen=True)
class BuildInfo:
    version: str
    commit: str | None        # None: neither a git checkout nor a recorded build
    dirty: bool | None        # uncommitted changes to tracked files when it was built or run
    source_hash: str          # sha256 of the package's files (code, native binaries, assets)

    @property
    def label(self) -> str:
        """e.g. 0.1.0+g2fd11e0c1a2b.dirty, or 0.1.0+src.4f0c2a9d1e7b without a commit."""
        if self.commit is None:
            return f"{self.version}+src.{self.source_hash[:12]}"
        return f"{self.version}+g{self.commit[:12]}" + (".dirty" if self.dirty else "")

    def to_dict(self) -> dict:
        return {**asdict(self), "label": self.label}


def git_state(directory: Path) -> tuple[str, bool] | None:
    """(commit, dirty) of the git work tree holding `directory`, or None outside one."""
    try:
        commit = subprocess.run(["git", "-C", str(directory), "rev-parse", "HEAD"],
                                capture_output=True, text=True, timeout=10)
        if commit.returncode != 0:
            return None
        status = subprocess.run(["git", "-C", str(directory), "status", "--porcelain",
                                 "--untracked-files=no"], capture_output=True, text=True,
                                timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return commit.stdout.strip(), bool(status.stdout.strip()) or status.returncode != 0


def _source_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts or path == RECORDED:
            continue
        digest.update(str(path.relative_to(PACKAGE)).encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _recorded() -> tuple[str | None, bool | None]:
    try:
        data = json.loads(RECORDED.read_text())
        return data.get("commit"), data.get("dirty")
    except (OSError, ValueError, AttributeError):
        return None, None


@lru_cache(maxsize=1)
def build_info() -> BuildInfo:
    in_checkout = (PACKAGE.parent / ".git").exists()
    state = git_state(PACKAGE) if in_checkout else None
    commit, dirty = state if state is not None else _recorded()
    return BuildInfo(__version__, commit, dirty, _source_hash())


__all__ = ["BuildInfo", "build_info", "git_state"]
