"""Tests for pack/balanced-brackets. Usage: python3 gen.py OUTDIR (deterministic)."""
import os
import random
import sys

N = 2 * 10**5
OPEN, CLOSE = "([{", ")]}"


def balanced(r, n):
    """A random balanced string of even length n."""
    out, stack = [], []
    for i in range(n):
        remaining = n - i
        if stack and (len(stack) == remaining or r.random() < 0.5):
            out.append(CLOSE[stack.pop()])
        else:
            b = r.randrange(3)
            stack.append(b)
            out.append(OPEN[b])
    assert not stack
    return "".join(out)


def write(outdir, index, s):
    assert 1 <= len(s) <= N and set(s) <= set("()[]{}")
    with open(os.path.join(outdir, f"{index:02d}.in"), "w") as f:
        f.write(s + "\n")


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    r = random.Random(3301)
    tests = ["([]{})", "([)]", "(", ")", "}{", "{}[]()", "(((((())))))"]
    tests.append(balanced(r, N))                                # 8: YES, large
    s = list(balanced(r, N))                                    # 9: one bracket kind swapped
    i = r.randrange(N)
    kinds = OPEN if s[i] in OPEN else CLOSE
    s[i] = kinds[(kinds.index(s[i]) + 1) % 3]
    tests.append("".join(s))
    tests.append("(" * (N // 2) + ")" * (N // 2))               # 10: deepest nesting, YES
    tests.append("(" * (N // 2) + ")" * (N // 2 - 1) + "]")     # 11: wrong last, NO
    tests.append("[]" * (N // 2))                               # 12: flat, YES
    tests.append(balanced(r, N - 2) + "(" + ")")                # 13: YES
    tests.append(balanced(r, N - 2) + ")(")                     # 14: counts match, order wrong
    tests.append(balanced(r, N - 1000) + "{" * 1000)            # 15: unclosed tail, NO
    tests.append("".join(r.choice("()[]{}") for _ in range(N)))  # 16: random noise, NO
    tests.append(balanced(r, N - 2) + "(")                      # 17: odd length, NO
    for i, s in enumerate(tests, 1):
        write(outdir, i, s)


if __name__ == "__main__":
    main()
