"""Every sandbox slot number the judge hands out, and the CPU each slot's runs are pinned to
(docs/design/2-process-tree.md §2.2).

A slot is a uid: run as root, the programs of slot N run as host uid HOST_UID_BASE + N
(native/shared/protocol.h). Two sandboxes alive at once must therefore never share a slot: they
would share every per-user count of the kernel (processes, pipe buffers, message queues), and
the leftover checks that look for a slot's processes by uid would see each other's. So every
user of the judge takes its slots from a range of its own here, and the ranges never meet on a
host of up to MAX_CPUS CPUs, whatever each user asks for within its range
(tests/test_slots.py). Slot N's interactor (an interactive test's second program, alive beside
the submission) runs on slot N + RUN_SLOTS: the ranges lie below RUN_SLOTS, their interactors
above, so the interactors of two ranges never meet either.

Two processes of one user on one host (two `judge eval` runs, two embedders) take the same
numbers unless told otherwise: an operator's `--slot-base` puts a user's slots anywhere below
RUN_SLOTS."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from judge import JudgeError
from judge.cpus import usable_cpus

# The supervisor takes --slot 0 .. SLOT_COUNT-1 and runs slot N's programs as host uid
# HOST_UID_BASE + N when started by root (native/shared/protocol.h, the source of both numbers,
# which tests/test_protocol.py holds these to; they are needed here before any native module loads):
# uids 200000 .. 265535,
# above the kernel's overflow uid (65534) and the uids of ordinary accounts, and far below the
# largest uid (2^32 - 2). Keep them out of /etc/subuid and /etc/subgid allocations: a rootless
# container's user mapped onto one of them would share its per-user counts with a sandbox.
SLOT_COUNT = 1 << 16
HOST_UID_BASE = 200_000
RUN_SLOTS = SLOT_COUNT // 2           # the slots handed out; N + RUN_SLOTS is N's interactor's
MAX_CPUS = 1024                       # the largest host every range has a slot per CPU for
TEST_BLOCK = 256                      # the slots one pytest process takes (tests/conftest.py)


def host_uid(slot: int) -> int:
    """The host uid slot's programs run as when the judge is root."""
    return HOST_UID_BASE + slot


def interactor_slot(slot: int) -> int:
    """The slot the interactor of an interactive test graded on `slot` runs on."""
    if not 0 <= slot < RUN_SLOTS:
        raise JudgeError(f"slot {slot} has no interactor slot: grading slots are 0 to "
                         f"{RUN_SLOTS - 1} (slot N's interactor runs on N + {RUN_SLOTS})")
    return slot + RUN_SLOTS


def cpu_of(index: int, cpus: Sequence[int] | None = None) -> int:
    """The CPU the index-th slot of a user is pinned to: the usable CPUs in turn."""
    cpus = cpus if cpus is not None else usable_cpus()
    return cpus[index % len(cpus)]


@dataclass(frozen=True)
class SlotRange:
    user: str          # who takes these slots, for messages and the docs
    first: int
    size: int

    def default_count(self, cpus: int | None = None) -> int:
        """One slot per usable CPU (or per CPU of a host of `cpus`), as far as the range goes."""
        return max(1, min(self.size, cpus if cpus is not None else len(usable_cpus())))

    def span(self, first: int | None = None) -> range:
        """The slots this user may take: its range, or from an operator's own first slot (a
        --slot-base) to the last slot that has an interactor slot."""
        if first is None:
            return range(self.first, self.first + self.size)
        if not 0 <= first < RUN_SLOTS:
            raise JudgeError(f"first slot {first} of {self.user} is not between 0 and "
                             f"{RUN_SLOTS - 1} (slot N's interactor runs on N + {RUN_SLOTS})")
        return range(first, RUN_SLOTS)

    def take(self, count: int, first: int | None = None) -> range:
        """The slots of `count` workers, from the range's start or from `first`."""
        span = self.span(first)
        if not 1 <= count <= len(span):
            where = (f"its {len(span)} slots" if first is None else
                     f"the {len(span)} slots from {first} up that leave room for each one's "
                     "interactor")
            raise JudgeError(f"{self.user} can have 1 to {len(span)} slots ({where}), not "
                             f"{count} slots")
        return span[:count]


# The layout (docs/design/2-process-tree.md §2.2 lists it with the uids). Each range has a slot per
# CPU of the largest host; `judge eval --jobs` and Ray clusters may want more.
EVALUATION = SlotRange("judge eval", 0, 4 * MAX_CPUS)           # --jobs workers; the first
#   also validates the checkers, runs the quick audit and the re-runs, one after the other
LIBRARY_GRADE = SlotRange("judge.api.grade", 4096, MAX_CPUS)     # one per usable CPU
LIBRARY_EVALUATE = SlotRange("judge.api.evaluate", 5120, 4 * MAX_CPUS)   # calls at once, together
SERVICE = SlotRange("judge serve", 9216, MAX_CPUS)               # --slots
AUDIT = SlotRange("judge audit", 10240, 1)
COMMAND = SlotRange("judge run, exec and doctor", 10241, 1)      # one program or grading
RAY_WORKERS = SlotRange("judge eval --ray's workers", 12288, 8 * MAX_CPUS)   # cluster-wide,
#   with the replacements of lost workers
TESTS = SlotRange("the test suite", 20480, 48 * TEST_BLOCK)      # a block per pytest process
USERS = (EVALUATION, LIBRARY_GRADE, LIBRARY_EVALUATE, SERVICE, AUDIT, COMMAND, RAY_WORKERS, TESTS)

__all__ = ["SlotRange", "USERS", "EVALUATION", "LIBRARY_GRADE", "LIBRARY_EVALUATE", "SERVICE",
           "AUDIT", "COMMAND", "RAY_WORKERS", "TESTS", "SLOT_COUNT", "RUN_SLOTS", "MAX_CPUS",
           "TEST_BLOCK", "HOST_UID_BASE", "host_uid", "interactor_slot", "cpu_of"]
