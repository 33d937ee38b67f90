# Self-contention in Python: 8 forked processes, each spinning 2 ms of every 5 ms.
import os
import time

for _ in range(7):
    if os.fork() == 0:
        break
while True:
    until = time.monotonic() + 0.002
    while time.monotonic() < until:
        pass
    time.sleep(0.003)
