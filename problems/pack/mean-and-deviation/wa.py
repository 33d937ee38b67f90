# Wrong: the sample deviation (divides by n - 1) where the population one is asked for.
import sys

data = sys.stdin.buffer.read().split()
n = int(data[0])
xs = list(map(int, data[1:1 + n]))
mean = sum(xs) / n
var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
print(f"{mean:.10f} {var ** 0.5 + 1e-3:.10f}")
