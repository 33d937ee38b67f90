# Wrong: gives up at once and claims there is no pair.
print(-1)
