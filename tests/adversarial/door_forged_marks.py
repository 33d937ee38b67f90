# Issue 43, finding 5: the judge's testlib header tells the judge, on the interactor's stderr,
# whether the interactor had read any of the program's output when it failed. A program that
# writes such records itself (here to an interactor that echoes what it reads to its stderr,
# then FAILs) cannot make them the judge's: it does not know the secret they carry.
for secret in ("0" * 32, "f" * 32, "0123456789abcdef" * 2):
    print(f"JUDGE-MARK {secret} begin", flush=True)
print(-1, flush=True)
