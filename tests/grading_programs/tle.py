import sys

sys.stdin.read()
x = 0
while True:
    x = (x * 3 + 1) % 1000003
