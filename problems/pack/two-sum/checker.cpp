// Checker for pack/two-sum. Standalone (no testlib.h), testlib's command line and exit codes:
//   checker <input> <output> <answer>
//   exit 0 OK, 1 WA, 2 PE, 3 FAIL; one line of explanation on stderr.
// The contestant's output is untrusted: tokens are read one at a time with a length cap, so
// garbage, huge tokens, binary data and missing tokens end in PE rather than a crash.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

enum { OK = 0, WA = 1, PE = 2, FAIL = 3 };

[[noreturn]] static void quit(int code, const char* fmt, ...) {
    static const char* names[] = {"ok", "wrong answer", "wrong output format", "FAIL"};
    fprintf(stderr, "%s ", names[code]);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(code);
}

struct Stream {
    FILE* f = nullptr;
    const char* name = "";
    int bad_code = PE;  // what a malformed token means: PE for the output, FAIL for the others

    static bool space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

    // Next whitespace-separated token into buf (at most cap chars); false at end of file.
    // A longer token is consumed entirely and reported as too long.
    bool token(char* buf, size_t cap, bool* too_long) {
        int c;
        do c = getc(f); while (c != EOF && space(c));
        if (c == EOF) return false;
        size_t len = 0;
        *too_long = false;
        while (c != EOF && !space(c)) {
            if (len < cap) buf[len++] = (char)c; else *too_long = true;
            c = getc(f);
        }
        buf[len] = 0;
        return true;
    }

    // Reads an integer in [lo, hi]. Strict format like testlib: optional '-', digits,
    // no leading zeros, no "-0". Out of range is WA for the output (the format was fine).
    long long read_int(long long lo, long long hi, const char* what) {
        char buf[32];
        bool too_long = false;
        if (!token(buf, 24, &too_long))
            quit(bad_code, "unexpected end of file in %s: %s expected", name, what);
        if (too_long) quit(bad_code, "%s: expected an integer for %s, got a token of over 24 characters", name, what);
        const char* p = buf;
        bool neg = *p == '-';
        if (neg) p++;
        size_t digits = strlen(p);
        bool valid = digits >= 1 && digits <= 19;
        for (size_t i = 0; valid && i < digits; i++) valid = p[i] >= '0' && p[i] <= '9';
        if (valid && digits > 1 && p[0] == '0') valid = false;
        if (valid && neg && digits == 1 && p[0] == '0') valid = false;
        if (!valid) {
            // Show the token, made printable.
            for (char* q = buf; *q; q++) if ((unsigned char)*q < 32 || (unsigned char)*q > 126) *q = '?';
            quit(bad_code, "%s: expected an integer for %s, got \"%s\"", name, what, buf);
        }
        unsigned long long v = 0;
        for (size_t i = 0; i < digits; i++) {
            unsigned long long d = (unsigned long long)(p[i] - '0');
            if (v > (9223372036854775807ULL - d) / 10) quit(bad_code, "%s: integer %s does not fit in 64 bits (%s)", name, buf, what);
            v = v * 10 + d;
        }
        long long x = neg ? -(long long)v : (long long)v;
        if (x < lo || x > hi) {
            int code = bad_code == PE ? WA : bad_code;
            quit(code, "%s: %s = %lld is out of range [%lld, %lld]", name, what, x, lo, hi);
        }
        return x;
    }

    bool at_eof() {
        int c;
        do c = getc(f); while (c != EOF && space(c));
        return c == EOF;
    }
};

static Stream open_stream(const char* path, const char* name, int bad_code) {
    Stream s;
    s.f = fopen(path, "rb");
    if (!s.f) quit(FAIL, "cannot open the %s file %s", name, path);
    s.name = name;
    s.bad_code = bad_code;
    return s;
}

// Reads a contestant's or jury's pair; returns false for -1 (no pair).
static bool read_pair(Stream& st, long long n, long long* i, long long* j) {
    long long first = st.read_int(-1, n, "the first index (or -1)");
    if (first == -1) return false;
    if (first == 0) quit(st.bad_code == PE ? WA : FAIL, "%s: index 0 (indices start at 1)", st.name);
    *i = first;
    *j = st.read_int(1, n, "the second index");
    return true;
}

int main(int argc, char** argv) {
    if (argc < 4) quit(FAIL, "usage: %s <input> <output> <answer>", argc > 0 ? argv[0] : "checker");
    Stream inf = open_stream(argv[1], "input", FAIL);
    Stream ouf = open_stream(argv[2], "output", PE);
    Stream ans = open_stream(argv[3], "answer", FAIL);

    long long n = inf.read_int(2, 100000, "n");
    long long s = inf.read_int(-2000000000LL, 2000000000LL, "s");
    std::vector<long long> a(n + 1);
    for (long long k = 1; k <= n; k++) a[k] = inf.read_int(-1000000000LL, 1000000000LL, "a_i");

    long long ji = 0, jj = 0;
    bool jury_has = read_pair(ans, n, &ji, &jj);
    if (jury_has && (ji == jj || a[ji] + a[jj] != s))
        quit(FAIL, "the jury's pair %lld %lld is not valid", ji, jj);

    long long pi = 0, pj = 0;
    bool part_has = read_pair(ouf, n, &pi, &pj);
    if (!ouf.at_eof()) quit(PE, "extra output after the answer");

    if (!part_has) {
        if (jury_has) quit(WA, "answered -1, but a[%lld] + a[%lld] = %lld", ji, jj, s);
        quit(OK, "no pair, as expected");
    }
    if (pi == pj) quit(WA, "both indices are %lld; the positions must differ", pi);
    if (a[pi] + a[pj] != s)
        quit(WA, "a[%lld] + a[%lld] = %lld, expected %lld", pi, pj, a[pi] + a[pj], s);
    if (!jury_has) quit(FAIL, "the participant found a pair %lld %lld but the jury answered -1", pi, pj);
    quit(OK, "a[%lld] + a[%lld] = %lld", pi, pj, s);
}
