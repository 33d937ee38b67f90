import math
import sys


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    a = list(map(int, data[1:n + 1]))
    s = sum(a)
    q = sum(x * x for x in a)
    num = n * q - s * s          # exact: n^2 * variance
    print(f"{s / n:.10f} {math.sqrt(num) / n:.10f}")


main()
