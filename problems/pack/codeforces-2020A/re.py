# Deliberately CRASHES: divides by (k - 1), ZeroDivisionError when k = 1.
import sys

data = sys.stdin.buffer.read().split()
t = int(data[0])
out = []
for i in range(t):
    n, k = int(data[1 + 2 * i]), int(data[2 + 2 * i])
    levels = n // (k - 1)
    ops = 0
    while n and levels >= 0:
        n, d = divmod(n, k)
        ops += d
    out.append(ops)
print("\n".join(map(str, out)))
