import sys


def main():
    s = sys.stdin.buffer.readline().strip().decode()
    match = {")": "(", "]": "[", "}": "{"}
    stack = []
    push, pop = stack.append, stack.pop
    for c in s:
        if c in "([{":
            push(c)
        elif not stack or pop() != match[c]:
            print("NO")
            return
    print("NO" if stack else "YES")


main()
