"""Tests for pack/range-sum. Usage: python3 gen.py OUTDIR (deterministic).

Sums reach 1e14: 32-bit accumulators overflow. n = q = 1e5 with long ranges: O(n*q) times out.
"""
import os
import random
import sys

LIM = 10**9
N = 10**5


def write(outdir, index, a, queries):
    assert 1 <= len(a) <= N and 1 <= len(queries) <= N
    assert all(abs(x) <= LIM for x in a) and all(1 <= l <= r <= len(a) for l, r in queries)
    with open(os.path.join(outdir, f"{index:02d}.in"), "w") as f:
        f.write(f"{len(a)} {len(queries)}\n{' '.join(map(str, a))}\n")
        f.write("".join(f"{l} {r}\n" for l, r in queries))


def rand_queries(r, n, q, long=False):
    out = []
    for _ in range(q):
        if long:
            l, rr = r.randint(1, n // 10 + 1), r.randint(n - n // 10, n)
            out.append((min(l, rr), max(l, rr)))
        else:
            l, rr = sorted((r.randint(1, n), r.randint(1, n)))
            out.append((l, rr))
    return out


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    tests = [([4, -2, 7, 0, 10], [(1, 3), (2, 2), (1, 5)]), ([-LIM], [(1, 1)])]
    r = random.Random(8803)
    for _ in range(3):
        n = r.randint(1, 10)
        tests.append(([r.randint(-10, 10) for _ in range(n)], rand_queries(r, n, 10)))
    r = random.Random(8806)                                   # 6: random
    tests.append(([r.randint(-LIM, LIM) for _ in range(N)], rand_queries(r, N, N)))
    tests.append(([LIM] * N, [(i, N) for i in range(1, N + 1)]))      # 7: 1e14 sums, long ranges
    tests.append(([-LIM] * N, [(1, N)] * N))                          # 8: the whole array, q times
    r = random.Random(8809)                                   # 9: single-element ranges
    a = [r.randint(-LIM, LIM) for _ in range(N // 5)]
    tests.append((a, [(i, i) for i in range(1, N // 5 + 1)]))
    # 10: alternating signs, long nested ranges
    tests.append(([LIM if i % 2 else -LIM for i in range(N)],
                  [(i, N + 1 - i) for i in range(1, N // 2 + 1)] * 2))
    for i, (a, queries) in enumerate(tests, 1):
        write(outdir, i, a, queries)


if __name__ == "__main__":
    main()
