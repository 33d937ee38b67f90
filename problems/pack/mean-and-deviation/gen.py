"""Tests for pack/mean-and-deviation. Usage: python3 gen.py OUTDIR (deterministic)."""
import os
import random
import sys

LIM = 10**6
N = 10**5


def write(outdir, index, a):
    assert 1 <= len(a) <= N and all(abs(x) <= LIM for x in a)
    with open(os.path.join(outdir, f"{index:02d}.in"), "w") as f:
        f.write(f"{len(a)}\n{' '.join(map(str, a))}\n")


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    tests = [[2, 4, 4, 6], [7], [-LIM], [LIM, -LIM], [1, 2], [3, 3, 3]]
    r = random.Random(6601)
    for _ in range(3):
        tests.append([r.randint(-20, 20) for _ in range(r.randint(1, 15))])
    r = random.Random(6610)
    tests.append([r.randint(-LIM, LIM) for _ in range(N)])          # 10: wide spread
    tests.append([LIM] * N)                                          # 11: sigma = 0, large mean
    tests.append([LIM - (i % 2) for i in range(N)])                  # 12: tiny sigma, big mean
    tests.append([LIM if i % 2 else -LIM for i in range(N)])         # 13: largest sigma
    r = random.Random(6614)
    tests.append([r.randint(LIM - 10, LIM) for _ in range(N)])       # 14: cancellation-prone
    r = random.Random(6615)
    tests.append([r.choice((-LIM, 0, LIM)) for _ in range(N - 1)] + [1])
    for i, a in enumerate(tests, 1):
        write(outdir, i, a)


if __name__ == "__main__":
    main()
