# judge audit: the Python probe program, the mode read from stdin (see judge/audit/).
# cpu MS | mem MB | sleep MS
import sys
import time


def spin_until(ms):
    """Spins until this thread's own CPU clock reaches ms: whatever the speed of the CPU, it has
    then used at least ms of CPU time. The clock is read every 300 rounds, about 0.1 ms of work.
    One thread only: Python threads share the GIL, so more would not use more CPU at once."""
    limit = ms / 1000.0
    clock = time.thread_time
    x = 7
    while clock() < limit:
        for _ in range(300):
            x = (x * 1103515245 + 12345) & 0xFFFFFFFF
    return x


def main():
    words = sys.stdin.read().split()
    mode = words[0]
    if mode == "cpu":
        spin_until(float(words[1]))
        # The process's own CPU time, for the audit to hold against the sandbox's figure.
        print(f"ok\nprocess_cpu_ms {time.process_time() * 1000:.3f}")
        return 0
    elif mode == "mem":
        size = int(float(words[1]) * 1048576)
        block = b"\x01" * size          # allocated and written: every page touched
        if size and block[size // 2] != 1:
            return 3
    elif mode == "sleep":
        time.sleep(int(words[1]) / 1000)
    else:
        return 2
    print("ok")
    return 0


sys.exit(main())
