// Wrong: counts opening and closing brackets but ignores their order and kind.
#include <cstdio>
static char s[200005 + 16];
int main() {
    if (scanf("%200010s", s) != 1) return 0;
    long depth = 0;
    for (const char* p = s; *p; p++) depth += (*p == '(' || *p == '[' || *p == '{') ? 1 : -1;
    puts(depth == 0 ? "YES" : "NO");
}
