"""Tests for pack/two-sum. Usage: python3 gen.py OUTDIR (deterministic)."""
import os
import random
import sys

LIM = 10**9
N = 10**5


def write(outdir, index, s, a):
    assert 2 <= len(a) <= N and abs(s) <= 2 * LIM and all(abs(x) <= LIM for x in a)
    with open(os.path.join(outdir, f"{index:02d}.in"), "w") as f:
        f.write(f"{len(a)} {s}\n{' '.join(map(str, a))}\n")


def with_unique_pair(r, n, ends=False):
    """Exactly one pair sums to s: fillers are 0 mod 4, the pair is 1 and 2 mod 4, s is 3 mod 4
    (no other two residues add up to 3 mod 4)."""
    a = [4 * r.randint(-LIM // 4, LIM // 4) for _ in range(n - 2)]
    x = 4 * r.randint(-LIM // 4, LIM // 4 - 1) + 1
    y = 4 * r.randint(-LIM // 4, LIM // 4 - 1) + 2
    if ends:
        a = [x] + a + [y]
    else:
        a.insert(r.randint(0, len(a)), x)
        a.insert(r.randint(0, len(a)), y)
    return x + y, a


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    tests = []
    tests.append((10, [3, 7, 5, 5, 1]))                       # 1: the example
    tests.append((10, [5, 1]))                                # 2: same position twice is not allowed
    tests.append((10, [5, 5]))                                # 3: n = 2, a pair of equal values
    tests.append((-2 * LIM, [-LIM, 7, -LIM]))                 # 4: extremes
    tests.append((2 * LIM, [LIM, LIM - 1, 1, LIM]))           # 5
    r = random.Random(7001)
    for _ in range(4):                                        # 6-9: small random, both outcomes
        n = r.randint(2, 12)
        a = [r.randint(-10, 10) for _ in range(n)]
        tests.append((r.randint(-20, 20), a))
    r = random.Random(7010)                                   # 10: no pair, all values even, s odd
    tests.append((2 * r.randint(-LIM // 2, LIM // 2) + 1,
                  [2 * r.randint(-LIM // 2, LIM // 2) for _ in range(N)]))
    r = random.Random(7011)                                   # 11: many pairs (small values)
    tests.append((0, [r.randint(-100, 100) for _ in range(N)]))
    r = random.Random(7012)                                   # 12: exactly one pair, large
    tests.append(with_unique_pair(r, N))
    r = random.Random(7013)                                   # 13: one pair at both ends
    tests.append(with_unique_pair(r, N // 5, ends=True))
    tests.append((2 * LIM, [LIM - 1] * (N - 1) + [LIM]))  # 14: no pair, near misses
    tests.append((2 * LIM - 2, [LIM - 1] * (N)))      # 15: all equal, every pair works
    r = random.Random(7016)                                   # 16: no pair, distinct spread values
    vals = r.sample(range(1, LIM), N // 5)
    tests.append((-1, vals))
    for i, (s, a) in enumerate(tests, 1):
        write(outdir, i, s, a)


if __name__ == "__main__":
    main()
