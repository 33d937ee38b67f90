"""Tests for pack/word-reverse. Usage: python3 gen.py OUTDIR (deterministic).

Lines matter: printing every reversed word on one line passes a token comparison (wcmp) but
not the line comparison (lcmp) this problem is checked with.
"""
import os
import random
import string
import sys


def word(r, maxlen=10):
    return "".join(r.choice(string.ascii_lowercase) for _ in range(r.randint(1, maxlen)))


def line(r, words, messy):
    if not messy:
        return " ".join(words)
    gaps = [" " * r.randint(1, 3) for _ in words]
    body = "".join(w + g for w, g in zip(words, gaps)).rstrip(" ")
    return " " * r.randint(0, 2) + body + " " * r.randint(0, 2)


def write(outdir, index, lines):
    assert 1 <= len(lines) <= 10**4
    assert sum(len(l.split()) for l in lines) <= 10**5 and all(l.split() for l in lines)
    with open(os.path.join(outdir, f"{index:02d}.in"), "w") as f:
        f.write(f"{len(lines)}\n" + "".join(l + "\n" for l in lines))


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    tests = [["hello world", "  a  b   c", "single"], ["x"], ["a b", "b a", "a b"]]
    r = random.Random(4401)
    for messy in (False, True):
        tests.append([line(r, [word(r) for _ in range(r.randint(1, 6))], messy) for _ in range(10)])
    r = random.Random(4406)                                   # 6: many short lines
    tests.append([line(r, [word(r, 3) for _ in range(r.randint(1, 12))], True) for _ in range(10**4)])
    r = random.Random(4407)                                   # 7: one line of 5e4 words
    tests.append([" ".join(word(r) for _ in range(5 * 10**4))])
    r = random.Random(4408)                                   # 8: 2e3 lines of 20 words
    tests.append([line(r, [word(r) for _ in range(20)], False) for _ in range(2000)])
    r = random.Random(4409)                                   # 9: single-word lines
    tests.append([word(r) for _ in range(10**4)])
    r = random.Random(4410)                                   # 10: palindromic lines + messy
    lines = []
    for _ in range(2000):
        half = [word(r) for _ in range(r.randint(1, 5))]
        lines.append(line(r, half + half[::-1], True))
    tests.append(lines)
    for i, lines in enumerate(tests, 1):
        write(outdir, i, lines)


if __name__ == "__main__":
    main()
