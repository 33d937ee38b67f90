"""Tests for pack/min-gap. Usage: python3 gen.py OUTDIR (deterministic).

The large tests have n = 1e5: an O(n^2) scan does 5e9 comparisons and cannot meet 500 ms.
"""
import os
import random
import sys

LIM = 10**9
N = 10**5


def write(outdir, index, a):
    assert 2 <= len(a) <= N and all(0 <= x <= LIM for x in a)
    with open(os.path.join(outdir, f"{index:02d}.in"), "w") as f:
        f.write(f"{len(a)}\n{' '.join(map(str, a))}\n")


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    tests = [[10, 3, 17, 8, 25], [0, LIM], [LIM, 0, LIM // 2], [5, 5]]
    r = random.Random(5101)
    for _ in range(3):
        tests.append([r.randint(0, 100) for _ in range(r.randint(2, 10))])
    r = random.Random(5108)   # spread-out distinct values: one spacing is the smallest
    step = LIM // N
    a = [i * step + r.randint(0, 3) for i in range(N // 2)]
    r.shuffle(a)
    tests.append(a)
    r = random.Random(5109)   # random, answer 0 likely (birthday), plus one with distinct values
    tests.append([r.randint(0, LIM) for _ in range(N)])
    r = random.Random(5110)
    tests.append(r.sample(range(0, LIM + 1), N))
    a = [i * 9973 for i in range(N)]   # arithmetic progression, decreasing order
    tests.append(a[::-1])
    r = random.Random(5112)   # one duplicate far apart
    a = r.sample(range(0, LIM + 1, 1000), N // 2)
    a[-1] = a[0]
    tests.append(a)
    r = random.Random(5113)   # many duplicates
    tests.append([r.randint(0, 1000) * 10**6 for _ in range(N)])
    for i, a in enumerate(tests, 1):
        write(outdir, i, a)


if __name__ == "__main__":
    main()
