import sys


def main():
    lines = sys.stdin.buffer.read().split(b"\n")
    m = int(lines[0])
    out = [b" ".join(lines[i].split()[::-1]) for i in range(1, m + 1)]
    sys.stdout.buffer.write(b"\n".join(out) + b"\n")


main()
