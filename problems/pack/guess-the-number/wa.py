# Wrong: asks about every number in turn, far more than 30 questions for a large n. It stops
# when the interactor hangs up, as the statement asks, so the verdict is the interactor's.
import sys

games = int(sys.stdin.readline())
for _ in range(games):
    n = int(sys.stdin.readline())
    x = 1
    while x < n:
        print("?", x + 1, flush=True)
        reply = sys.stdin.readline().strip()
        if not reply:
            sys.exit(0)
        if reply != ">=":
            break
        x += 1
    print("!", x, flush=True)
