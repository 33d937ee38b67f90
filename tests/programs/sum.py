# Reads integers from stdin and prints their sum; a worker thread does the adding.
import sys
import threading

numbers = [int(x) for x in sys.stdin.read().split()]
result = []
worker = threading.Thread(target=lambda: result.append(sum(numbers)))
worker.start()
worker.join()
print(result[0])
