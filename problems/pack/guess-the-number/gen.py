"""Tests for pack/guess-the-number. Usage: python3 gen.py OUTDIR (deterministic).

Each test is "t" then t lines "n x": the games the interactor plays, each with its secret."""
import os
import random
import sys

N = 10**9


def write(outdir, index, games):
    assert 1 <= len(games) <= 100 and all(1 <= x <= n <= N for n, x in games)
    with open(os.path.join(outdir, f"{index:02d}.in"), "w") as f:
        f.write(f"{len(games)}\n" + "".join(f"{n} {x}\n" for n, x in games))


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    r = random.Random(1515)
    tests = [
        [(10, 7)],
        [(1, 1), (2, 1), (2, 2), (3, 2)],
        [(N, 1), (N, N), (N, N // 2), (N, N // 2 + 1)],
        [(n, r.randint(1, n)) for n in (r.randint(1, 100) for _ in range(100))],
        [(n, r.randint(1, n)) for n in (r.randint(N // 2, N) for _ in range(100))],
        [(2**k, 2**k) for k in range(30)] + [(2**k, 1) for k in range(30)],
    ]
    for index, games in enumerate(tests, start=1):
        write(outdir, index, games)


if __name__ == "__main__":
    main()
