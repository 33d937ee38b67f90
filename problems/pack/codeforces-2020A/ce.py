# Deliberately DOES NOT COMPILE: a syntax error (missing colon, unbalanced parenthesis).
import sys

def main()
    data = sys.stdin.buffer.read().split(
    print(len(data))

main()
