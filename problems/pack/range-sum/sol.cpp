// Reference: prefix sums in 64 bits; each query is a difference of two prefixes.
#include <cstdio>
#include <vector>

int main() {
    int n, q;
    if (scanf("%d %d", &n, &q) != 2) return 0;
    std::vector<long long> pre(n + 1, 0);
    for (int i = 1; i <= n; i++) {
        long long x;
        scanf("%lld", &x);
        pre[i] = pre[i - 1] + x;
    }
    std::vector<char> out;
    out.reserve((size_t)q * 12);
    char buf[32];
    while (q--) {
        int l, r;
        scanf("%d %d", &l, &r);
        int len = snprintf(buf, sizeof buf, "%lld\n", pre[r] - pre[l - 1]);
        out.insert(out.end(), buf, buf + len);
    }
    fwrite(out.data(), 1, out.size(), stdout);
}
