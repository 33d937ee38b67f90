"""The compile cache's bookkeeping: publishing an entry, the room the cache takes, and evicting
the least recently used entries when it passes its cap.

An entry is a directory ROOT/<key[:2]>/<key> (judge/compiler.py fills it). Its mtime is its
last use: a hit touches it. At publish time the bytes it takes on disk go in its SIZE_FILE, and
into a running total of the cache (TOTAL_FILE, under an flock). Only when that total passes the
cap are the entries listed: the total is recounted from their size files, which also corrects
any drift (a process that died between publishing and counting), and the least recently used
are evicted down to EVICT_TO of the cap, so that a listing comes once per tenth of the cap
published rather than on every publish.

An entry used in the last IN_USE_SECONDS is never evicted: whoever got it from the cache may be
about to copy its artifacts out (the grader links them into its box right after the hit)."""
from __future__ import annotations

import errno
import fcntl
import os
import shutil
import tempfile
import time
from pathlib import Path

SIZE_FILE = "size"
TOTAL_FILE = "total-size"
STAGING_PREFIX = ".staging-"
EVICTED_PREFIX = ".evicted-"
IN_USE_SECONDS = 60
EVICT_TO = 0.9


def publish(staging: Path, final: Path) -> bool:
    """Moves a finished build to its place in one step; False when a concurrent build of the
    same key got there first, which is fine. It is staged beside its place, on the same file
    system (a rename cannot cross one)."""
    try:
        os.rename(staging, final)
        return True
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY):
            raise
        return False


def publish_entry(root: Path, staging: Path, entry: Path, cap_bytes: int) -> None:
    """Publishes a staged entry of the cache at `root` and counts it; past the cap, evicts."""
    size = disk_usage(staging)
    (staging / SIZE_FILE).write_text(str(size))
    if publish(staging, entry):
        _count(root, size, cap_bytes)


def mark_used(entry: Path) -> bool:
    """Records a hit on `entry`; False when there is no such entry (never built, or evicted)."""
    try:
        os.utime(entry)
    except FileNotFoundError:
        return False
    return True


def disk_usage(path: Path) -> int:
    """Bytes the directory tree at `path` takes on disk."""
    total = os.lstat(path).st_blocks * 512
    for directory, subdirectories, files in os.walk(path):
        for name in (*subdirectories, *files):
            total += os.lstat(os.path.join(directory, name)).st_blocks * 512
    return total


def _count(root: Path, added: int, cap_bytes: int) -> None:
    fd = os.open(root / TOTAL_FILE, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            total = int(os.pread(fd, 64, 0)) + added
        except ValueError:   # a new cache, or one from before this bookkeeping: count it
            total = None
        if total is None or total > cap_bytes:
            total = _evict(root, int(cap_bytes * EVICT_TO))
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(total).encode(), 0)
    finally:
        os.close(fd)


def _entry_size(entry: Path) -> int:
    try:
        return int((entry / SIZE_FILE).read_text())
    except (FileNotFoundError, ValueError):
        # Published before this bookkeeping: measured every time, since writing its size file
        # would change the directory's mtime, which is its last use.
        return disk_usage(entry)


def _evict(root: Path, target_bytes: int) -> int:
    """Evicts the least recently used entries not in use until the cache takes at most
    `target_bytes`, and returns what it takes then. Called under the total's lock: any evicted
    directory found here is a leftover of an eviction that died, and so is a staging directory
    older than IN_USE_SECONDS (a build stages its entry in well under a second)."""
    now = time.time()
    entries: list[tuple[float, int, Path]] = []
    for shard in os.scandir(root):
        if shard.name.startswith(EVICTED_PREFIX):
            shutil.rmtree(shard.path, ignore_errors=True)
        if len(shard.name) != 2 or not shard.is_dir(follow_symlinks=False):
            continue
        for entry in os.scandir(shard.path):
            try:
                used = entry.stat(follow_symlinks=False).st_mtime
                if entry.name.startswith(STAGING_PREFIX):
                    if now - used > IN_USE_SECONDS:
                        shutil.rmtree(entry.path, ignore_errors=True)
                    continue
                entries.append((used, _entry_size(Path(entry.path)), Path(entry.path)))
            except FileNotFoundError:   # a staging directory published meanwhile
                continue
    total = sum(size for _, size, _ in entries)
    for used, size, path in sorted(entries):
        if total <= target_bytes or now - used < IN_USE_SECONDS:
            break   # done, or this entry and the newer ones after it are in use
        if _evict_entry(root, path, now):
            total -= size
    return total


def _evict_entry(root: Path, entry: Path, now: float) -> bool:
    """Renames the entry out of the cache, then removes it: a hit from now on is a miss."""
    trash = Path(tempfile.mkdtemp(prefix=EVICTED_PREFIX, dir=root))
    try:
        if now - os.stat(entry).st_mtime < IN_USE_SECONDS:   # a hit since it was listed
            return False
        os.rename(entry, trash / entry.name)
        return True
    except FileNotFoundError:
        return False
    finally:
        shutil.rmtree(trash, ignore_errors=True)
