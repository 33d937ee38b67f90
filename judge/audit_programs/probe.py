# judge audit: the Python probe program, the mode read from stdin (see judge/audit/).
# spin N | mem MB | sleep MS
import sys
import time


def spin(units):
    x = 7
    for _ in range(units):
        for _ in range(1000):          # one unit: about 0.1 ms of one core
            x = (x * 1103515245 + 12345) & 0xFFFFFFFF
    return x


def main():
    words = sys.stdin.read().split()
    mode = words[0]
    if mode == "spin":
        spin(int(words[1]))
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
