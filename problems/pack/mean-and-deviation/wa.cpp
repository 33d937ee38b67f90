// Wrong: the sample deviation (divides by n - 1) where the population one is asked for.
#include <cmath>
#include <cstdio>
int main() {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    long double s = 0, q = 0;
    for (int i = 0; i < n; i++) {
        long long x;
        scanf("%lld", &x);
        s += x;
        q += (long double)x * x;
    }
    long double mean = s / n;
    long double var = n > 1 ? (q - s * mean) / (n - 1) : 0;
    printf("%.10Lf %.10Lf\n", mean, sqrtl(var > 0 ? var : 0) + 1e-3L);
}
