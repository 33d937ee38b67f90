# Deliberately TOO SLOW: the greedy one operation at a time (up to 1e9 steps per case).
import sys

data = sys.stdin.buffer.read().split()
t = int(data[0])
out = []
for i in range(t):
    n, k = int(data[1 + 2 * i]), int(data[2 + 2 * i])
    ops = 0
    while n > 0:
        p = 1
        if k > 1:
            while p * k <= n:
                p *= k
        n -= p
        ops += 1
    out.append(ops)
print("\n".join(map(str, out)))
