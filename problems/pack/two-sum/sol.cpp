// Reference: sort positions by value, then two pointers from both ends. O(n log n).
#include <algorithm>
#include <cstdio>
#include <vector>

int main() {
    int n;
    long long s;
    if (scanf("%d %lld", &n, &s) != 2) return 0;
    std::vector<long long> a(n);
    for (auto& x : a) scanf("%lld", &x);
    std::vector<int> order(n);
    for (int i = 0; i < n; i++) order[i] = i;
    std::sort(order.begin(), order.end(), [&](int x, int y) {
        return a[x] != a[y] ? a[x] < a[y] : x < y;
    });
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        long long sum = a[order[lo]] + a[order[hi]];
        if (sum == s) {
            int i = order[lo] + 1, j = order[hi] + 1;
            if (i > j) std::swap(i, j);
            printf("%d %d\n", i, j);
            return 0;
        }
        if (sum < s) lo++; else hi--;
    }
    printf("-1\n");
}
