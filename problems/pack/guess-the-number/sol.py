import sys

def main():
    games = int(sys.stdin.readline())
    for _ in range(games):
        n = int(sys.stdin.readline())
        lo, hi = 1, n  # the secret is in [lo, hi]
        while lo < hi:
            mid = (lo + hi + 1) // 2
            print("?", mid, flush=True)
            if sys.stdin.readline().strip() == "<":
                hi = mid - 1
            else:
                lo = mid
        print("!", lo, flush=True)

main()
