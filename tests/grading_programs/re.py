import sys

sys.stdin.read()
print(1 // 0)
