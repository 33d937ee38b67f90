# Self-contention in Python: 8 forked processes wake together every 5 ms and each computes
# 0.25 ms of its own CPU, so each waits for the others at every wake-up while the CPU is less
# than half used.
import os
import time

start = time.monotonic()
for _ in range(7):
    if os.fork() == 0:
        break
period = 1
while True:
    delay = start + period * 0.005 - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    until = time.process_time() + 0.00025
    while time.process_time() < until:
        pass
    period += 1
