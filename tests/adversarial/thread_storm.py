# Starts threads until the process cap refuses one, then waits on them.
import threading
import time

threads = []
try:
    for _ in range(100000):
        t = threading.Thread(target=time.sleep, args=(1000,), daemon=True)
        t.start()
        threads.append(t)
except RuntimeError:
    pass
time.sleep(1000)
