"""The test suite's sandbox slots: a block of judge/sandbox/slots.py's TESTS range for each
process that runs sandboxes (a pytest process, `make bench`). `claim()` takes the first block no
other such process on this host holds, under a lock kept for the life of the process, so that
concurrent runs of the suite (other checkouts, CI jobs) never share a uid and the per-uid
leftover checks only ever see their own runs.

Inside a block (offsets): SANDBOXES are handed out in turn (conftest.next_slot), SERVERS to the
serve tests' servers (tests/serving.py), EVALUATIONS are the --slot-base of the `judge eval`
runs of the tests and benches, RAY the Ray tests' workers; NEIGHBOUR is a uid no run uses and
PROBE the slot of the sandbox availability check."""
from __future__ import annotations

import fcntl
import functools
import os
import tempfile
from pathlib import Path

from judge.sandbox.slots import TEST_BLOCK, TESTS

SANDBOXES = range(0, 128)
SERVERS = range(128, 192)
EVALUATIONS = range(192, 208)
RAY = range(208, 252)
NEIGHBOUR = 254
PROBE = 255
assert PROBE < TEST_BLOCK

# Per user: without root every sandbox runs as the user's own uid, whatever its slot.
LOCKS = Path(tempfile.gettempdir()) / f"judge-test-slots-{os.getuid()}"


@functools.cache
def claim() -> int:
    """The first slot of this process's block."""
    LOCKS.mkdir(exist_ok=True)
    blocks = TESTS.size // TEST_BLOCK
    start = os.getpid() % blocks
    for k in range(blocks):
        index = (start + k) % blocks
        fd = os.open(LOCKS / f"block-{index}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        _held.append(fd)          # never closed: the lock lives as long as this process
        return TESTS.first + index * TEST_BLOCK
    raise RuntimeError(f"all {blocks} blocks of test slots are held by other processes "
                       f"(locks in {LOCKS})")


_held: list[int] = []
