# Deliberately WRONG: treats k = 1 as "one operation" (it needs n operations).
import sys

data = sys.stdin.buffer.read().split()
t = int(data[0])
out = []
for i in range(t):
    n, k = int(data[1 + 2 * i]), int(data[2 + 2 * i])
    if k == 1:
        out.append(1)
        continue
    ops = 0
    while n:
        n, d = divmod(n, k)
        ops += d
    out.append(ops)
print("\n".join(map(str, out)))
