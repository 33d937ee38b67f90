// Deliberately TOO SLOW: compares every pair, O(n^2) = 5e9 steps at n = 1e5 (limit 500 ms).
#include <cstdio>
#include <vector>

int main() {
    int n;
    scanf("%d", &n);
    std::vector<long long> a(n);
    for (auto& x : a) scanf("%lld", &x);
    long long best = -1;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            long long d = a[i] > a[j] ? a[i] - a[j] : a[j] - a[i];
            if (best < 0 || d < best) best = d;
        }
    printf("%lld\n", best);
}
