// Reference: sort, then the answer is the smallest gap between neighbours. O(n log n).
#include <algorithm>
#include <cstdio>
#include <vector>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    std::vector<long long> a(n);
    for (auto& x : a) scanf("%lld", &x);
    std::sort(a.begin(), a.end());
    long long best = a[1] - a[0];
    for (int i = 2; i < n; i++) best = std::min(best, a[i] - a[i - 1]);
    printf("%lld\n", best);
}
