# Holds 1 GiB of distinct, touched memory: MLE.
block = bytearray(b"\x01") * (1 << 30)
print(block[12345])
