# Does nothing at all, for ever: a wall-clock stop, never a machine too busy to judge.
import time

while True:
    time.sleep(1)
