"""Tests for codeforces/2020A (Find Minimum Operations). Usage: python3 gen.py OUTDIR

Deterministic: every test draws from its own seeded generator.
"""
import os
import random
import sys

MAXV = 10**9
T = 10**4


def write(outdir, index, cases):
    assert 1 <= len(cases) <= T
    for n, k in cases:
        assert 1 <= n <= MAXV and 1 <= k <= MAXV
    with open(os.path.join(outdir, f"{index:02d}.in"), "w") as f:
        f.write(f"{len(cases)}\n")
        f.write("".join(f"{n} {k}\n" for n, k in cases))


def powers(k, limit=MAXV):
    p, out = 1, []
    while p <= limit:
        out.append(p)
        if k == 1:
            break
        p *= k
    return out


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    tests = []
    # 1: the statement's example.
    tests.append([(7, 2), (9, 3), (14, 5), (1000, 10), (12, 1), (3, 7)])
    # 2-3: small exhaustive.
    tests.append([(n, k) for n in range(1, 101) for k in range(1, 101)])
    tests.append([(n, k) for n in range(101, 301) for k in range(1, 51)])
    # 4: random, everything up to 1e9 (most have k > n: the answer is n itself).
    r = random.Random(2020_04)
    tests.append([(r.randint(1, MAXV), r.randint(1, MAXV)) for _ in range(T)])
    # 5: random large n, small k (long digit sums).
    r = random.Random(2020_05)
    tests.append([(r.randint(MAXV // 2, MAXV), r.randint(2, 10)) for _ in range(T)])
    # 6: k = 2: powers of two, one below, one above, and random.
    r = random.Random(2020_06)
    cases = []
    for p in powers(2):
        for n in (p - 1, p, p + 1):
            if 1 <= n <= MAXV:
                cases.append((n, 2))
    while len(cases) < T:
        cases.append((r.randint(1, MAXV), 2))
    tests.append(cases)
    # 7: n = k^p, k^p - 1 (largest digit sum below a power), k^p + 1 for many k.
    r = random.Random(2020_07)
    cases = []
    for k in list(range(2, 40)) + [r.randint(40, 31623) for _ in range(60)]:
        for p in powers(k)[1:]:
            for n in (p - 1, p, p + 1):
                if 1 <= n <= MAXV:
                    cases.append((n, k))
    r.shuffle(cases)
    tests.append(cases[:T])
    # 8: k > n with n large: greedy "subtract the largest power" subtracts 1 each time.
    r = random.Random(2020_08)
    cases = []
    for _ in range(T):
        n = r.randint(MAXV - 10**6, MAXV - 1)
        cases.append((n, r.randint(n + 1, MAXV)))
    tests.append(cases)
    # 9: k = n (one operation) and k = n + 1 (n operations), mixed with extremes.
    r = random.Random(2020_09)
    cases = [(MAXV, MAXV), (1, 1), (1, MAXV), (MAXV, MAXV - 1), (MAXV - 1, MAXV)]
    while len(cases) < T:
        n = r.randint(1, MAXV)
        cases.append((n, n) if r.random() < 0.5 else (n, min(MAXV, n + 1)))
    tests.append(cases)
    # 10: k = 1 with n = 1e9 in every case: an O(n) loop per case times out, a table of
    # size n exceeds the memory limit.
    tests.append([(MAXV, 1)] * T)
    # 11: a single case n = 1e9, k = 1.
    tests.append([(MAXV, 1)])
    # 12: a single case with the largest digit sum for k = 2 below 1e9.
    tests.append([(2**29 - 1, 2)])
    # 13: k = 1 with random n, and random k in [2, 3] (deep expansions).
    r = random.Random(2020_13)
    tests.append([(r.randint(1, MAXV), r.choice((1, 2, 3))) for _ in range(T)])
    # 14: n just below 1e9 and k just above sqrt(n): two-digit expansions with big digits.
    r = random.Random(2020_14)
    tests.append([(r.randint(MAXV - 10**5, MAXV), r.randint(31623, 40000)) for _ in range(T)])
    for i, cases in enumerate(tests, 1):
        write(outdir, i, cases)


if __name__ == "__main__":
    main()
