import sys


def main():
    data = sys.stdin.buffer.read().split()
    n, s = int(data[0]), int(data[1])
    seen = {}
    for j in range(n):
        v = int(data[2 + j])
        i = seen.get(s - v)
        if i is not None:
            sys.stdout.write(f"{i + 1} {j + 1}\n")
            return
        if v not in seen:
            seen[v] = j
    sys.stdout.write("-1\n")


main()
