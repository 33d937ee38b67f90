# Deliberately WRONG: reverses every word of the input as one sequence on a single line.
# A token-by-token comparison (wcmp) would not notice on one-line tests; lcmp does.
import sys

lines = sys.stdin.buffer.read().split(b"\n")
m = int(lines[0])
words = []
for i in range(m, 0, -1):
    words.extend(lines[i].split()[::-1])
print(b" ".join(words).decode())
