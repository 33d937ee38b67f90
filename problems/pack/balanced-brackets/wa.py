# Wrong: counts opening and closing brackets but ignores their order and kind.
import sys

s = sys.stdin.readline().strip()
opened = sum(1 for c in s if c in "([{")
print("YES" if 2 * opened == len(s) else "NO")
