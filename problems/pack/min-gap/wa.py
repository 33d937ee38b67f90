# Wrong: takes the smallest gap between neighbours in input order, without sorting.
import sys

data = sys.stdin.buffer.read().split()
n = int(data[0])
a = list(map(int, data[1:1 + n]))
print(min(abs(a[i] - a[i - 1]) for i in range(1, n)))
