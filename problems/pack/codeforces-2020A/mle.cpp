// Deliberately MEMORY-HUNGRY: tabulates f(x) = f(x - largest power of k <= x) + 1 for every
// x up to the largest n of the input. Correct, but n = 1e9 needs a 4 GB table, far beyond
// the 256 MB limit (the table is zero-filled on allocation, so every page is touched).
#include <cstdio>
#include <vector>
#include <algorithm>

int main() {
    int t;
    scanf("%d", &t);
    std::vector<long long> ns(t), ks(t);
    long long mx = 0;
    for (int i = 0; i < t; i++) {
        scanf("%lld %lld", &ns[i], &ks[i]);
        mx = std::max(mx, ns[i]);
    }
    std::vector<int> f(mx + 1, 0);
    for (int i = 0; i < t; i++) {
        long long n = ns[i], k = ks[i], p = 1;
        for (long long x = 1; x <= n; x++) {
            if (k > 1 && p * k <= x) p *= k;
            f[x] = f[x - p] + 1;
        }
        printf("%d\n", f[n]);
    }
}
