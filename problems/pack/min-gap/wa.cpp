// Wrong: takes the smallest gap between neighbours in input order, without sorting.
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <vector>
int main() {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    std::vector<long long> a(n);
    for (auto& x : a) scanf("%lld", &x);
    long long best = llabs(a[1] - a[0]);
    for (int i = 2; i < n; i++) best = std::min(best, llabs(a[i] - a[i - 1]));
    printf("%lld\n", best);
}
