"""Files in a sandbox's tmpfs box, reached from the host through the box's descriptor
(`Sandbox.box_fd`). The programs own that box too and may have planted links, FIFOs or
directories in it: nothing here follows a link, opens anything but a regular file for reading,
or writes over something that is already there."""
from __future__ import annotations

import errno
import os
import stat

# What a missing, linked or non-directory step of a path means when reading: no such file.
_ABSENT = (errno.ENOENT, errno.ELOOP, errno.ENOTDIR, errno.EACCES)


def open_dirs(box: int, parents: list[str], create: bool) -> int | None:
    """A descriptor of box/parents[0]/..., each step taken without following a link (made, open
    to every uid, when `create`); None when a step is missing or not a directory. The caller
    closes it (unless it is `box`)."""
    current = box
    try:
        for part in parents:
            if create:
                try:
                    os.mkdir(part, 0o777, dir_fd=current)
                    os.chmod(part, 0o777, dir_fd=current)
                except FileExistsError:
                    pass
            try:
                fd = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                             dir_fd=current)
            except OSError as exc:
                if create or exc.errno not in _ABSENT:
                    raise
                return None
            if current != box:
                os.close(current)
            current = fd
    except BaseException:
        if current != box:
            os.close(current)
        raise
    return current


def write_file(box: int, parts: list[str], data: bytes, mode: int = 0o644) -> None:
    """Writes box/parts... as a new file of `mode` (whatever the umask), making its
    directories; raises OSError (ENOSPC when the box is full, EEXIST when the name is taken)."""
    directory = open_dirs(box, parts[:-1], create=True)
    assert directory is not None
    try:
        fd = os.open(parts[-1], os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     mode, dir_fd=directory)
        try:
            os.fchmod(fd, mode)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
    finally:
        if directory != box:
            os.close(directory)


def open_regular_file(box: int, parts: list[str]) -> int | None:
    """A read descriptor of box/parts... when it is a regular file reached without following a
    link; None when it is missing or anything else. The caller closes it."""
    directory = open_dirs(box, parts[:-1], create=False)
    if directory is None:
        return None
    try:
        try:
            fd = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                         dir_fd=directory)
        except OSError as exc:
            if exc.errno in _ABSENT:
                return None
            raise
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            return None
        return fd
    finally:
        if directory != box:
            os.close(directory)


def empty(box: int) -> None:
    """Removes everything in the box, however deep, by an iterative walk that holds one
    directory descriptor at a time and never follows a link (a link is removed, not its
    target); raises OSError when something cannot be removed."""
    names: list[str] = []          # the path from the box down to `current`
    current = box
    try:
        while True:
            child = _unlink_all_but_a_directory(current)
            if child is not None:
                below = os.open(child, _DIRECTORY, dir_fd=current)
                if current != box:
                    os.close(current)
                names.append(child)
                current = below
                continue
            if not names:
                return
            # Up by "..": the walk is below the box (names is not empty), and nothing runs in
            # the box while it is emptied, so the parent is the directory it came down from.
            parent = os.open("..", _DIRECTORY, dir_fd=current)
            os.close(current)
            current = parent
            os.rmdir(names.pop(), dir_fd=current)
    finally:
        if current != box:
            os.close(current)


_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _unlink_all_but_a_directory(directory: int) -> str | None:
    """Unlinks every entry of `directory` that is not a directory and returns the name of one
    that is (None when none is left)."""
    with os.scandir(directory) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                return entry.name
            os.unlink(entry.name, dir_fd=directory)
    return None
