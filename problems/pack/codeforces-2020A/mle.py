# Deliberately MEMORY-HUNGRY: a table of answers for every x up to the largest n
# (8 bytes per entry: n = 1e9 asks for 8 GB, every page written).
import sys

data = sys.stdin.buffer.read().split()
t = int(data[0])
ns = [int(x) for x in data[1::2][:t]]
ks = [int(x) for x in data[2::2][:t]]
f = [0] * (max(ns) + 1)
out = []
for n, k in zip(ns, ks):
    p = 1
    for x in range(1, n + 1):
        if k > 1 and p * k <= x:
            p *= k
        f[x] = f[x - p] + 1
    out.append(f[n])
print("\n".join(map(str, out)))
