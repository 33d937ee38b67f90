// Reference: a stack of open brackets.
#include <cstdio>
#include <cstring>
#include <string>

static char s[200005 + 16];

int main() {
    if (scanf("%200010s", s) != 1) return 0;
    std::string stack;
    bool ok = true;
    for (const char* p = s; *p && ok; p++) {
        char c = *p;
        if (c == '(' || c == '[' || c == '{') {
            stack.push_back(c);
        } else {
            char want = c == ')' ? '(' : c == ']' ? '[' : '{';
            if (stack.empty() || stack.back() != want) ok = false;
            else stack.pop_back();
        }
    }
    puts(ok && stack.empty() ? "YES" : "NO");
}
