# BUSY through tick sampling, in Python (tick_aligned.cpp tells how): 32 threads sleep until
# just before each tick and stay on the CPU until just after it, so the kernel's tick-sampled
# busy time charges their CPU with ~100% while they use a fraction; woken together, they wait
# for each other at every tick. They hash while on the CPU: hashlib lets go of the GIL, so
# the threads are all runnable at once rather than asleep on the lock.
#   tick_aligned.py [threads] [offset in µs from the tick]
import hashlib
import sys
import threading
import time

COARSE = getattr(time, "CLOCK_MONOTONIC_COARSE", 6)
TICK = round(time.clock_getres(COARSE) * 1e9) or 4_000_000
LEAD, LAG = 150_000, 100_000
OFFSET = int(sys.argv[2]) * 1000 if len(sys.argv) > 2 else 0
BLOB = bytes(16384)


def straddle():
    while True:
        now = time.monotonic_ns()
        tick = (now // TICK + 1) * TICK + OFFSET
        if tick - LEAD <= now:
            tick += TICK
        time.sleep((tick - LEAD - time.monotonic_ns()) / 1e9)
        while time.monotonic_ns() < tick + LAG:
            hashlib.sha256(BLOB)


threads = int(sys.argv[1]) if len(sys.argv) > 1 else 32
for _ in range(threads - 1):
    threading.Thread(target=straddle, daemon=True).start()
straddle()
