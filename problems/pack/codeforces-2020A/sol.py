import sys


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    out = []
    for i in range(t):
        n = int(data[1 + 2 * i])
        k = int(data[2 + 2 * i])
        if k == 1:
            out.append(n)
            continue
        ops = 0
        while n:
            n, d = divmod(n, k)
            ops += d
        out.append(ops)
    sys.stdout.write("\n".join(map(str, out)) + "\n")


main()
