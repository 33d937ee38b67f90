"""Where the judge keeps caches: the configured directory, or a private temporary one when that
directory cannot be written (a HOME that is read-only or belongs to someone else)."""
from __future__ import annotations

import functools
import os
import sys
import tempfile
from pathlib import Path

from judge import config


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(path, os.W_OK | os.X_OK)


@functools.cache
def usable_cache_dir(configured: Path, what: str) -> Path:
    """``configured`` if it can be written, else a fresh private temporary directory, with one
    warning line on stderr that names the directory at fault."""
    if _writable(configured):
        return configured
    fallback = Path(tempfile.mkdtemp(prefix=f"judge-{what}-cache-")) / configured.name
    fallback.mkdir()
    print(f"judge: warning: the {what} cache {configured} cannot be written; using {fallback} "
          "for this run (set JUDGE_CACHE_DIR or XDG_CACHE_HOME to keep it)", file=sys.stderr)
    return fallback


def judge_cache_dir(what: str) -> Path:
    """The judge's own cache of ``what`` (compile, audit): under JUDGE_CACHE_DIR, else
    $XDG_CACHE_HOME/judge or ~/.cache/judge."""
    root = config.current().cache_dir
    assert root is not None, "the environment's configuration names a cache directory"
    return usable_cache_dir(root / what, what)


def datasets_cache_dir() -> str:
    """The directory ``datasets.load_dataset`` may write its cache to."""
    import datasets
    return str(usable_cache_dir(Path(datasets.config.HF_DATASETS_CACHE), "datasets"))
