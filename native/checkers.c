/* testlib-compatible standard checkers, in C.
 *
 * What is reproduced from testlib (0.9.4x) and its checkers/ folder:
 *  - streams: a file is a plain byte sequence (any byte, NULs included, is data; EOF only at the
 *    end); blanks are exactly LF, CR, space and tab; tokens are maximal runs of non-blanks and
 *    may not exceed 32 MB; lines end at LF, CRLF or EOF with testlib's handling of a lone CR;
 *    a UTF-8 BOM is skipped at the start of the output only; files over 128 MB are refused;
 *  - numbers: stringToLongLong (at most 20 chars, digits with an optional leading minus, no
 *    leading zeros, no "-0", int64 range), int32 range for readInt, stringToDouble (only
 *    [0-9.eE+-], counts of each, then a full C-locale decimal conversion), doubleCompare and
 *    doubleDelta of the current testlib (the error is widened by 1E-15, |x| > 1E300 is infinite);
 *  - quit(): trim, 32000-char message limit, any failure of the answer/input stream becomes FAIL
 *    with the stream name appended, "ok" and points results fail with "Extra information in the
 *    output file" when non-blank output remains, unexpected EOF is a presentation error, the
 *    prefixes "ok ", "wrong answer ", "wrong output format ", "FAIL ", "points ";
 *  - each checker's reading order, messages (compress(), englishEnding()) and exit codes.
 *
 * Control flow: a failing read "quits" like testlib, by longjmp back to judge_check_streams.
 * Every allocation lives in the context and is freed there; memory stays bounded by the size of
 * the answer (uncmp, caseicmp) and is otherwise O(1) beyond the input buffers.
 */
#include "checkers.h"

#include <limits.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { R_OK = 0, R_WA = 1, R_PE = 2, R_FAIL = 3, R_DIRT = 4, R_POINTS = 5, R_UEOF = 8 };
enum { M_INPUT, M_OUTPUT, M_ANSWER };

#define MAX_FILE_SIZE (128ULL * 1024 * 1024)
#define MAX_TOKEN_LENGTH ((size_t)32 * 1024 * 1024)
#define MAX_MESSAGE_LENGTH ((size_t)32000)
#define MSG_BUF ((size_t)65536)
#define OPEN_BRACKET '\x0b'
#define CLOSE_BRACKET '\x11'

typedef struct {
    const unsigned char *p;
    size_t n;
} view;

typedef struct {
    void *p;
    size_t cap;
} grow;

typedef struct {
    const unsigned char *p;
    size_t len, pos;
    int mode;
    const char *name;
    grow line; /* lines rewritten by the lone-CR rule */
} stream;

typedef struct {
    stream inf, ouf, ans;
    jmp_buf jb;
    int exit_code;
    double points;
    grow num;    /* NUL-terminated copy of a number token for strtod */
    grow arr[2]; /* long long arrays (uncmp, caseicmp) */
    char fmt[MSG_BUF];
    char work[MSG_BUF];
    char final[MSG_BUF + 64];
    size_t final_len;
} ctx;

typedef void (*checker_fn)(ctx *c);

/* ------------------------------------------------------------------ characters */

static const unsigned char BLANK[256] = {['\n'] = 1, ['\r'] = 1, [' '] = 1, ['\t'] = 1};

static inline int is_blank(unsigned char ch) { return BLANK[ch]; }

/* std::isspace in the "C" locale: what std::stringstream >> splits on (lcmp). */
static inline int is_cspace(unsigned char ch) {
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r';
}

/* ------------------------------------------------------------------ quit */

static int has_exactly_one_pair(const char *m, size_t n, size_t *open, size_t *close) {
    size_t o = SIZE_MAX, cl = SIZE_MAX;
    int no = 0, nc = 0;
    for (size_t i = 0; i < n; i++) {
        if (m[i] == OPEN_BRACKET) {
            no++;
            o = i;
        } else if (m[i] == CLOSE_BRACKET) {
            nc++;
            cl = i;
        }
    }
    if (no == 1 && nc == 1 && o < cl) {
        *open = o;
        *close = cl;
        return 1;
    }
    return 0;
}

static size_t bounded_copy(char *dst, size_t at, size_t cap, const char *src, size_t n) {
    if (at >= cap)
        return at;
    if (n > cap - at)
        n = cap - at;
    memcpy(dst + at, src, n);
    return at + n;
}

/* testlib's __testlib_appendMessage: message + " [extra]" with the control-character brackets,
 * or ", extra" inserted before an existing closing bracket. Writes into out (cap bytes). */
static size_t append_message(const char *m, size_t n, const char *extra, char *out, size_t cap) {
    size_t open, close, en = strlen(extra), k = 0;
    if (has_exactly_one_pair(m, n, &open, &close)) {
        const char *found = NULL;
        if (en <= n - open)
            found = memmem(m + open, n - open, extra, en);
        if (found == NULL || (size_t)(found - m) >= close) {
            k = bounded_copy(out, k, cap, m, close);
            k = bounded_copy(out, k, cap, ", ", 2);
            k = bounded_copy(out, k, cap, extra, en);
            return bounded_copy(out, k, cap, m + close, n - close);
        }
        return bounded_copy(out, 0, cap, m, n);
    }
    k = bounded_copy(out, k, cap, m, n);
    k = bounded_copy(out, k, cap, " \x0b", 2);
    k = bounded_copy(out, k, cap, extra, en);
    return bounded_copy(out, k, cap, "\x11", 1);
}

static void skip_blanks(stream *s) {
    while (s->pos < s->len && is_blank(s->p[s->pos]))
        s->pos++;
}

static int at_eof(const stream *s) { return s->pos >= s->len; }

static int seek_eof(stream *s) {
    skip_blanks(s);
    return at_eof(s);
}

/* InStream::quit. Never returns. */
static _Noreturn void quit_n(ctx *c, stream *s, int result, const char *msg, size_t len) {
    for (;;) {
        while (len > 0 && is_blank((unsigned char)msg[0]))
            msg++, len--;
        while (len > 0 && is_blank((unsigned char)msg[len - 1]))
            len--;
        if (len > MSG_BUF)
            len = MSG_BUF;
        char *w = c->work;
        size_t wl;
        if (len > MAX_MESSAGE_LENGTH) {
            static const char warn[] = "message length exceeds 32000, the message is truncated: ";
            size_t wn = sizeof warn - 1;
            memmove(w + wn, msg, MAX_MESSAGE_LENGTH - wn);
            memcpy(w, warn, wn);
            wl = MAX_MESSAGE_LENGTH;
        } else {
            memmove(w, msg, len);
            wl = len;
        }
        if (result == R_UEOF)
            result = R_PE;
        if (s->mode != M_OUTPUT && result != R_FAIL) {
            len = append_message(w, wl, s->name, c->fmt, MSG_BUF);
            msg = c->fmt;
            result = R_FAIL;
            continue;
        }
        if ((result == R_OK || result == R_POINTS) && !seek_eof(&c->ouf)) {
            s = &c->ouf;
            result = R_DIRT;
            msg = "Extra information in the output file";
            len = strlen(msg);
            continue;
        }
        const char *prefix;
        switch (result) {
        case R_OK:
            prefix = "ok ";
            c->exit_code = JUDGE_CHECK_OK;
            break;
        case R_WA:
            prefix = "wrong answer ";
            c->exit_code = JUDGE_CHECK_WA;
            break;
        case R_PE:
            prefix = "wrong output format ";
            c->exit_code = JUDGE_CHECK_PE;
            break;
        case R_DIRT:
            prefix = "wrong output format ";
            c->exit_code = JUDGE_CHECK_PE;
            break;
        case R_POINTS:
            prefix = "points ";
            c->exit_code = JUDGE_CHECK_POINTS;
            break;
        default:
            prefix = "FAIL ";
            c->exit_code = JUDGE_CHECK_FAIL;
            break;
        }
        if (result != R_POINTS)
            c->points = NAN;
        size_t k = bounded_copy(c->final, 0, sizeof c->final - 1, prefix, strlen(prefix));
        size_t start = k, open, close;
        k = bounded_copy(c->final, k, sizeof c->final - 1, w, wl);
        if (has_exactly_one_pair(w, wl, &open, &close)) { /* __testlib_toPrintableMessage */
            c->final[start + open] = '(';
            if (start + close < k)
                c->final[start + close] = ')';
        }
        c->final[k] = '\0';
        c->final_len = k;
        longjmp(c->jb, 1);
    }
}

static _Noreturn void quit_s(ctx *c, stream *s, int result, const char *msg) {
    quit_n(c, s, result, msg, strlen(msg));
}

__attribute__((format(printf, 4, 5))) static _Noreturn void quitf(ctx *c, stream *s, int result,
                                                                  const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(c->fmt, MSG_BUF, fmt, ap);
    va_end(ap);
    size_t len = n < 0 ? 0 : (size_t)n >= MSG_BUF ? MSG_BUF - 1 : (size_t)n;
    quit_n(c, s, result, c->fmt, len);
}

static void *reserve(ctx *c, grow *g, size_t bytes) {
    if (bytes > g->cap) {
        size_t cap = g->cap ? g->cap : 64;
        while (cap < bytes)
            cap = cap > SIZE_MAX / 2 ? bytes : cap * 2;
        void *p = realloc(g->p, cap);
        if (p == NULL)
            quit_s(c, &c->ouf, R_FAIL, "Not enough memory");
        g->p = p;
        g->cap = cap;
    }
    return g->p;
}

/* ------------------------------------------------------------------ formatting helpers */

typedef struct {
    char s[72];
} cbuf;

/* testlib's compress() / __testlib_part(): NULs shown as '~', over 64 chars -> 30 + "..." + 31.
 * upper: apply upperCase() first (a-z only). */
static const char *compress_up(cbuf *b, const unsigned char *p, size_t n, int upper) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (n > 64 && i == 30) {
            memcpy(b->s + k, "...", 3);
            k += 3;
            i = n - 31;
        }
        unsigned char ch = p[i];
        if (ch == 0)
            ch = '~';
        else if (upper && ch >= 'a' && ch <= 'z')
            ch = (unsigned char)(ch - 'a' + 'A');
        b->s[k++] = (char)ch;
    }
    b->s[k] = '\0';
    return b->s;
}

static const char *compress(cbuf *b, view v) { return compress_up(b, v.p, v.n, 0); }

static const char *english_ending(int x) {
    x %= 100;
    if (x / 10 == 1)
        return "th";
    if (x % 10 == 1)
        return "st";
    if (x % 10 == 2)
        return "nd";
    if (x % 10 == 3)
        return "rd";
    return "th";
}

static int view_eq(view a, view b) {
    return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

static int view_is(view a, const char *lit) {
    size_t n = strlen(lit);
    return a.n == n && memcmp(a.p, lit, n) == 0;
}

/* ------------------------------------------------------------------ reading */

/* InStream::readWord / readToken. */
static view read_word(ctx *c, stream *s) {
    skip_blanks(s);
    if (at_eof(s))
        quit_s(c, s, R_UEOF, "Unexpected end of file - token expected");
    size_t start = s->pos, end = start;
    size_t limit = s->len - start > MAX_TOKEN_LENGTH ? start + MAX_TOKEN_LENGTH + 1 : s->len;
    const unsigned char *p = s->p;
    while (end < limit && !BLANK[p[end]])
        end++;
    if (end - start > MAX_TOKEN_LENGTH) {
        cbuf b;
        quitf(c, s, R_PE, "Length of token exceeds %d, token is '%s...'", (int)MAX_TOKEN_LENGTH,
              compress_up(&b, p + start, MAX_TOKEN_LENGTH + 1, 0));
    }
    s->pos = end;
    return (view){p + start, end - start};
}

/* The parsing part of stringToLongLong on exactly these bytes (no NUL inside): at most 20 chars,
 * an optional minus (not alone), digits only, no leading zero unless the text is "0" ("-0" and
 * "00" are refused), within int64. Every refusal gives the same message, so only validity
 * matters here. */
static int parse_ll(const unsigned char *p, size_t n, long long *out) {
    if (n == 0 || n > 20)
        return 0;
    int minus = n > 1 && p[0] == '-';
    size_t i = minus ? 1 : 0;
    if (p[i] == '0') {
        if (i + 1 == n && !minus) {
            *out = 0;
            return 1;
        }
        return 0;
    }
    if (n - i > 19) /* >= 1e19, beyond int64 */
        return 0;
    unsigned long long mag = 0;
    for (; i < n; i++) {
        unsigned d = (unsigned)p[i] - '0';
        if (d > 9)
            return 0;
        mag = mag * 10 + d; /* at most 19 digits: fits */
    }
    if (minus) {
        if (mag > 9223372036854775808ULL)
            return 0;
        *out = mag == 9223372036854775808ULL ? LLONG_MIN : -(long long)mag;
    } else {
        if (mag > 9223372036854775807ULL)
            return 0;
        *out = (long long)mag;
    }
    return 1;
}

static long long to_ll(ctx *c, stream *s, const unsigned char *p, size_t n) {
    long long v;
    if (!parse_ll(p, n, &v)) {
        cbuf b;
        quitf(c, s, R_PE, "Expected integer, but \"%s\" found", compress_up(&b, p, n, 0));
    }
    return v;
}

static void check_no_nul(ctx *c, stream *s, view w, const char *what) {
    if (w.n > 0 && memchr(w.p, 0, w.n) != NULL) {
        cbuf b;
        quitf(c, s, R_PE, "Expected %s, but \"%s\" found (it contains \\0)", what, compress(&b, w));
    }
}

static long long read_long(ctx *c, stream *s) {
    if (seek_eof(s))
        quit_s(c, s, R_UEOF, "Unexpected end of file - int64 expected");
    view w = read_word(c, s);
    check_no_nul(c, s, w, "integer");
    return to_ll(c, s, w.p, w.n);
}

static int read_int(ctx *c, stream *s) {
    if (seek_eof(s))
        quit_s(c, s, R_UEOF, "Unexpected end of file - int32 expected");
    view w = read_word(c, s);
    check_no_nul(c, s, w, "integer");
    long long v = to_ll(c, s, w.p, w.n);
    if (v < INT32_MIN || v > INT32_MAX) {
        cbuf b;
        quitf(c, s, R_PE, "Expected int32, but \"%s\" found", compress(&b, w));
    }
    return (int)v;
}

static locale_t c_locale(void) {
    static locale_t shared;
    locale_t loc = __atomic_load_n(&shared, __ATOMIC_ACQUIRE);
    if (loc == (locale_t)0) {
        locale_t fresh = newlocale(LC_ALL_MASK, "C", (locale_t)0);
        if (fresh == (locale_t)0)
            return (locale_t)0;
        locale_t expected = (locale_t)0;
        if (__atomic_compare_exchange_n(&shared, &expected, fresh, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            loc = fresh;
        else {
            freelocale(fresh);
            loc = expected;
        }
    }
    return loc;
}

/* stringToDouble: the character screen, then sscanf("%lf%s") must take the whole token. For
 * screened tokens that is "strtod in the C locale consumes every byte", once a trailing exponent
 * mark without digits is dropped (checked against glibc's sscanf on 20M random tokens). */
static double to_double(ctx *c, stream *s, view w) {
    int minus = 0, plus = 0, point = 0, digits = 0, es = 0, bad = 0;
    for (size_t i = 0; i < w.n && !bad; i++) {
        unsigned char ch = w.p[i];
        if (ch >= '0' && ch <= '9')
            digits++;
        else if (ch == 'e' || ch == 'E')
            es++;
        else if (ch == '-')
            minus++;
        else if (ch == '+')
            plus++;
        else if (ch == '.')
            point++;
        else
            bad = 1;
    }
    double r = 0;
    if (!bad && !(digits == 0 || minus > 2 || plus > 2 || point > 1 || es > 1)) {
        /* glibc's scanf consumes an exponent mark with no digits ("8e", "2e+") and keeps the
         * mantissa: so does testlib, so drop such a tail */
        size_t m = w.n;
        if (es == 1) {
            size_t k = 0;
            while (w.p[k] != 'e' && w.p[k] != 'E')
                k++;
            size_t t = k + 1;
            if (t < m && (w.p[t] == '+' || w.p[t] == '-'))
                t++;
            if (t == m)
                m = k;
        }
        char *buf = reserve(c, &c->num, m + 1);
        memcpy(buf, w.p, m);
        buf[m] = '\0';
        locale_t loc = c_locale();
        if (loc == (locale_t)0)
            quit_s(c, &c->ouf, R_FAIL, "Cannot create the C locale");
        char *end = NULL;
        r = strtod_l(buf, &end, loc);
        if (m > 0 && end == buf + m && !isnan(r))
            return r;
    }
    cbuf b;
    quitf(c, s, R_PE, "Expected double, but \"%s\" found", compress(&b, w));
}

static double read_double(ctx *c, stream *s) {
    if (seek_eof(s))
        quit_s(c, s, R_UEOF, "Unexpected end of file - double expected");
    view w = read_word(c, s);
    check_no_nul(c, s, w, "double");
    return to_double(c, s, w);
}

/* InStream::readString / readLine (non-strict): up to LF, CRLF or EOF. A CR not followed by LF
 * is dropped and the next byte is taken as is (or char(EOFC) = '\xff' at the end of the file). */
static view read_string(ctx *c, stream *s) {
    const unsigned char *p = s->p;
    size_t start = s->pos, len = s->len, i = start;
    while (i < len && p[i] != '\n' && p[i] != '\r')
        i++;
    if (i >= len) {
        s->pos = len;
        return (view){p + start, len - start};
    }
    if (p[i] == '\n') {
        s->pos = i + 1;
        return (view){p + start, i - start};
    }
    if (i + 1 < len && p[i + 1] == '\n') {
        s->pos = i + 2;
        return (view){p + start, i - start};
    }
    /* slow path: a lone CR */
    unsigned char *out = reserve(c, &s->line, len - start + 1);
    size_t k = i - start;
    memcpy(out, p + start, k);
    size_t pos = i;
    for (;;) {
        if (pos >= len || p[pos] == '\n')
            break;
        if (p[pos] == '\r') {
            pos++;
            if (pos < len && p[pos] == '\n') {
                pos--;
                break;
            }
            out[k++] = pos >= len ? 0xFF : p[pos++];
            continue;
        }
        out[k++] = p[pos++];
    }
    /* eoln() */
    if (pos < len) {
        if (p[pos] == '\n')
            pos++;
        else if (p[pos] == '\r' && pos + 1 < len && p[pos + 1] == '\n')
            pos += 2;
    }
    s->pos = pos;
    return (view){out, k};
}

/* ------------------------------------------------------------------ the checkers */

#define OUF (&c->ouf)
#define ANS (&c->ans)

static void chk_ncmp(ctx *c) {
    int n = 0;
    char first[5 * 21 + 8];
    size_t fl = 0;
    first[0] = '\0';
    while (!seek_eof(ANS) && !seek_eof(OUF)) {
        n++;
        long long j = read_long(c, ANS);
        long long p = read_long(c, OUF);
        if (j != p)
            quitf(c, OUF, R_WA, "%d%s numbers differ - expected: '%lld', found: '%lld'", n,
                  english_ending(n), j, p);
        if (n <= 5)
            fl += (size_t)snprintf(first + fl, sizeof first - fl, fl > 0 ? " %lld" : "%lld", j);
    }
    int extra_ans = 0, extra_ouf = 0;
    while (!seek_eof(ANS)) {
        read_long(c, ANS);
        extra_ans++;
    }
    while (!seek_eof(OUF)) {
        read_long(c, OUF);
        extra_ouf++;
    }
    if (extra_ans > 0)
        quitf(c, OUF, R_WA,
              "Answer contains longer sequence [length = %d], but output contains %d elements",
              n + extra_ans, n);
    if (extra_ouf > 0)
        quitf(c, OUF, R_WA,
              "Output contains longer sequence [length = %d], but answer contains %d elements",
              n + extra_ouf, n);
    if (n <= 5) {
        cbuf b;
        quitf(c, OUF, R_OK, "%d number(s): \"%s\"", n,
              compress_up(&b, (const unsigned char *)first, fl, 0));
    }
    quitf(c, OUF, R_OK, "%d numbers", n);
}

static void chk_wcmp(ctx *c) {
    int n = 0;
    view j = {(const unsigned char *)"", 0}, p;
    while (!seek_eof(ANS) && !seek_eof(OUF)) {
        n++;
        j = read_word(c, ANS);
        p = read_word(c, OUF);
        if (!view_eq(j, p)) {
            cbuf a, b;
            quitf(c, OUF, R_WA, "%d%s words differ - expected: '%s', found: '%s'", n,
                  english_ending(n), compress(&a, j), compress(&b, p));
        }
    }
    if (seek_eof(ANS) && seek_eof(OUF)) {
        if (n == 1) {
            cbuf a;
            quitf(c, OUF, R_OK, "\"%s\"", compress(&a, j));
        }
        quitf(c, OUF, R_OK, "%d tokens", n);
    }
    if (seek_eof(ANS))
        quit_s(c, OUF, R_WA, "Participant output contains extra tokens");
    quit_s(c, OUF, R_WA, "Unexpected EOF in the participants output");
}

/* lcmp's compareWords: equal sequences of std::isspace-separated words. */
static int same_words(view a, view b) {
    size_t i = 0, k = 0;
    for (;;) {
        while (i < a.n && is_cspace(a.p[i]))
            i++;
        while (k < b.n && is_cspace(b.p[k]))
            k++;
        if (i >= a.n || k >= b.n)
            return i >= a.n && k >= b.n;
        while (i < a.n && k < b.n && !is_cspace(a.p[i]) && !is_cspace(b.p[k])) {
            if (a.p[i] != b.p[k])
                return 0;
            i++, k++;
        }
        int ea = i >= a.n || is_cspace(a.p[i]), eb = k >= b.n || is_cspace(b.p[k]);
        if (!ea || !eb)
            return 0;
    }
}

static void lines_checker(ctx *c, int by_words) {
    int n = 0;
    cbuf shown; /* the single line, compressed while its buffer is still valid */
    shown.s[0] = '\0';
    while (!at_eof(ANS)) {
        view j = read_string(c, ANS);
        if (j.n == 0 && at_eof(ANS))
            break;
        view p = read_string(c, OUF);
        n++;
        if (n == 1)
            compress(&shown, by_words ? p : j);
        if (by_words ? !same_words(j, p) : !view_eq(j, p)) {
            cbuf a, b;
            quitf(c, OUF, R_WA, "%d%s lines differ - expected: '%s', found: '%s'", n,
                  english_ending(n), compress(&a, j), compress(&b, p));
        }
    }
    if (n == 1)
        quitf(c, OUF, R_OK, "single line: '%s'", shown.s);
    quitf(c, OUF, R_OK, "%d lines", n);
}

static void chk_lcmp(ctx *c) { lines_checker(c, 1); }

static void chk_fcmp(ctx *c) { lines_checker(c, 0); }

static int double_compare(double expected, double result, double max_error) {
    max_error += 1E-15;
    if (isnan(expected))
        return isnan(result);
    if (expected > 1E300 || expected < -1E300) {
        if (expected > 0)
            return result > 0 && (result > 1E300 || result < -1E300);
        return result < 0 && (result > 1E300 || result < -1E300);
    }
    if (isnan(result) || result > 1E300 || result < -1E300)
        return 0;
    if (fabs(result - expected) <= max_error)
        return 1;
    double lo = expected * (1.0 - max_error), hi = expected * (1.0 + max_error);
    double minv = lo < hi ? lo : hi, maxv = lo > hi ? lo : hi;
    return result >= minv && result <= maxv;
}

static double double_delta(double expected, double result) {
    double absolute = fabs(result - expected);
    if (fabs(expected) > 1E-9) {
        double relative = fabs(absolute / expected);
        return absolute < relative ? absolute : relative;
    }
    return absolute;
}

static void rcmp_n(ctx *c, double eps, int prec) {
    int n = 0;
    double j = 0, p = 0;
    while (!seek_eof(ANS)) {
        n++;
        j = read_double(c, ANS);
        p = read_double(c, OUF);
        if (!double_compare(j, p, eps))
            quitf(c, OUF, R_WA,
                  "%d%s numbers differ - expected: '%.*f', found: '%.*f', error = '%.*f'", n,
                  english_ending(n), prec, j, prec, p, prec, double_delta(j, p));
    }
    if (n == 1)
        quitf(c, OUF, R_OK, "found '%.*f', expected '%.*f', error '%.*f'", prec, p, prec, j, prec,
              double_delta(j, p));
    quitf(c, OUF, R_OK, "%d numbers", n);
}

static void chk_rcmp4(ctx *c) { rcmp_n(c, 1E-4, 5); }

static void chk_rcmp6(ctx *c) { rcmp_n(c, 1E-6, 7); }

static void chk_rcmp9(ctx *c) { rcmp_n(c, 1E-9, 10); }

static void chk_rncmp(ctx *c) {
    const double eps = 1.5E-5;
    int n = 0;
    while (!seek_eof(ANS)) {
        n++;
        double j = read_double(c, ANS);
        double p = read_double(c, OUF);
        if (fabs(j - p) > eps + 1E-15)
            quitf(c, OUF, R_WA, "%d%s numbers differ - expected: '%.10f', found: '%.10f'", n,
                  english_ending(n), j, p);
    }
    quitf(c, OUF, R_OK, "%d numbers", n);
}

/* acmp and rcmp: one double, absolute error 1.5E-6. */
static void chk_rcmp(ctx *c) {
    const double eps = 1.5E-6;
    double ja = read_double(c, ANS);
    double pa = read_double(c, OUF);
    if (fabs(ja - pa) > eps + 1E-15)
        quitf(c, OUF, R_WA, "expected %.10f, found %.10f", ja, pa);
    quitf(c, OUF, R_OK, "answer is %.10f", ja);
}

static void chk_dcmp(ctx *c) {
    double ja = read_double(c, ANS);
    double pa = read_double(c, OUF);
    if (!double_compare(ja, pa, 1E-6))
        quitf(c, OUF, R_WA, "expected %.10f, found %.10f", ja, pa);
    quitf(c, OUF, R_OK, "answer is %.10f", ja);
}

static void chk_icmp(ctx *c) {
    int ja = read_int(c, ANS);
    int pa = read_int(c, OUF);
    if (ja != pa)
        quitf(c, OUF, R_WA, "expected %d, found %d", ja, pa);
    quitf(c, OUF, R_OK, "answer is %d", ja);
}

/* pattern "0|-?[1-9][0-9]*" */
static int is_huge_integer(view v) {
    if (v.n == 1 && v.p[0] == '0')
        return 1;
    size_t i = v.n > 0 && v.p[0] == '-' ? 1 : 0;
    if (i >= v.n || v.p[i] < '1' || v.p[i] > '9')
        return 0;
    for (i++; i < v.n; i++)
        if (v.p[i] < '0' || v.p[i] > '9')
            return 0;
    return 1;
}

static void chk_hcmp(ctx *c) {
    view ja = read_word(c, ANS);
    view pa = read_word(c, OUF);
    cbuf a, b;
    if (!is_huge_integer(ja))
        quitf(c, OUF, R_FAIL, "%s is not a valid integer", compress(&a, ja));
    if (!seek_eof(ANS))
        quit_s(c, OUF, R_FAIL, "expected exactly one token in the answer file");
    if (!is_huge_integer(pa))
        quitf(c, OUF, R_PE, "%s is not a valid integer", compress(&b, pa));
    if (!view_eq(ja, pa))
        quitf(c, OUF, R_WA, "expected '%s', found '%s'", compress(&a, ja), compress(&b, pa));
    quitf(c, OUF, R_OK, "answer is '%s'", compress(&a, ja));
}

/* upperCase(token) == word, for an upper-case word */
static int upper_is(view v, const char *word) {
    size_t n = strlen(word);
    if (v.n != n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = v.p[i];
        if (ch >= 'a' && ch <= 'z')
            ch = (unsigned char)(ch - 'a' + 'A');
        if (ch != (unsigned char)word[i])
            return 0;
    }
    return 1;
}

static void chk_yesno(ctx *c) {
    view ja = read_word(c, ANS);
    view pa = read_word(c, OUF);
    cbuf a, b;
    int jy = upper_is(ja, "YES"), jn = upper_is(ja, "NO");
    int py = upper_is(pa, "YES"), pn = upper_is(pa, "NO");
    if (!jy && !jn)
        quitf(c, OUF, R_FAIL, "YES or NO expected in answer, but %s found",
              compress_up(&a, ja.p, ja.n, 1));
    if (!py && !pn)
        quitf(c, OUF, R_PE, "YES or NO expected, but %s found", compress_up(&b, pa.p, pa.n, 1));
    if (jy != py)
        quitf(c, OUF, R_WA, "expected %s, found %s", jy ? "YES" : "NO", py ? "YES" : "NO");
    quitf(c, OUF, R_OK, "answer is %s", jy ? "YES" : "NO");
}

static void chk_nyesno(ctx *c) {
    int index = 0, yes = 0, no = 0, last_yes = 0;
    while (!seek_eof(ANS) && !seek_eof(OUF)) {
        index++;
        view ja = read_word(c, ANS);
        view pa = read_word(c, OUF);
        cbuf a, b;
        int jy = upper_is(ja, "YES"), jn = upper_is(ja, "NO");
        if (!jy && !jn)
            quitf(c, OUF, R_FAIL, "YES or NO expected in answer, but %s found [%d%s token]",
                  compress_up(&a, ja.p, ja.n, 1), index, english_ending(index));
        if (upper_is(pa, "YES"))
            yes++, last_yes = 1;
        else if (upper_is(pa, "NO"))
            no++, last_yes = 0;
        else
            quitf(c, OUF, R_PE, "YES or NO expected, but %s found [%d%s token]",
                  compress_up(&b, pa.p, pa.n, 1), index, english_ending(index));
        if (jy != last_yes)
            quitf(c, OUF, R_WA, "expected %s, found %s [%d%s token]", jy ? "YES" : "NO",
                  last_yes ? "YES" : "NO", index, english_ending(index));
    }
    int extra_ans = 0, extra_ouf = 0;
    while (!seek_eof(ANS)) {
        read_word(c, ANS);
        extra_ans++;
    }
    while (!seek_eof(OUF)) {
        read_word(c, OUF);
        extra_ouf++;
    }
    if (extra_ans > 0)
        quitf(c, OUF, R_WA,
              "Answer contains longer sequence [length = %d], but output contains %d elements",
              index + extra_ans, index);
    if (extra_ouf > 0)
        quitf(c, OUF, R_WA,
              "Output contains longer sequence [length = %d], but answer contains %d elements",
              index + extra_ouf, index);
    if (index == 0)
        quit_s(c, OUF, R_OK, "Empty output");
    if (index == 1)
        quit_s(c, OUF, R_OK, last_yes ? "YES" : "NO");
    quitf(c, OUF, R_OK, "%d token(s): yes count is %d, no count is %d", index, yes, no);
}

static int cmp_ll(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static void chk_uncmp(ctx *c) {
    size_t nj = 0, np = 0;
    long long *ja = NULL;
    while (!seek_eof(ANS)) {
        long long v = read_long(c, ANS);
        ja = reserve(c, &c->arr[0], (nj + 1) * sizeof *ja);
        ja[nj++] = v;
    }
    /* first pass over the output: validate and count; keep values only if the counts agree */
    size_t start = OUF->pos;
    while (!seek_eof(OUF)) {
        read_long(c, OUF);
        np++;
    }
    if (nj != np)
        quitf(c, OUF, R_WA, "Expected %u elements, but %u found", (unsigned)nj, (unsigned)np);
    long long *pa = reserve(c, &c->arr[1], (np + 1) * sizeof *pa);
    size_t end = OUF->pos;
    OUF->pos = start;
    for (size_t i = 0; i < np; i++)
        pa[i] = read_long(c, OUF);
    OUF->pos = end;
    if (nj > 0) {
        qsort(ja, nj, sizeof *ja, cmp_ll);
        qsort(pa, np, sizeof *pa, cmp_ll);
    }
    for (size_t i = 0; i < nj; i++)
        if (ja[i] != pa[i])
            quitf(c, OUF, R_WA,
                  "Expected sequence and output are different (as unordered sequences) [size=%u]",
                  (unsigned)nj);
    char msg[256];
    size_t k;
    if (nj == 0)
        k = (size_t)snprintf(msg, sizeof msg, "empty sequence");
    else if (nj == 1)
        k = (size_t)snprintf(msg, sizeof msg, "1 number:");
    else
        k = (size_t)snprintf(msg, sizeof msg, "%zu numbers (in increasing order):", nj);
    if (nj <= 5) {
        for (size_t i = 0; i < nj; i++)
            k += (size_t)snprintf(msg + k, sizeof msg - k, " %lld", ja[i]);
    } else {
        k += (size_t)snprintf(msg + k, sizeof msg - k, " %lld %lld ... %lld %lld", ja[0], ja[1],
                              ja[nj - 2], ja[nj - 1]);
    }
    quitf(c, OUF, R_OK, "%s", msg);
}

/* testlib's quitp refuses points it cannot print as a score: FAIL, as from testlib. */
static double checked_points(ctx *c, double points) {
    if (isnan(points))
        quitf(c, OUF, R_FAIL, "Parameter 'points' can't be nan");
    if (isinf(points))
        quitf(c, OUF, R_FAIL, "Parameter 'points' can't be infinite");
    if (points < -1E-8)
        quitf(c, OUF, R_FAIL, "Parameter 'points' can't be negative");
    if (points > 1E6 + 1E-8)
        quitf(c, OUF, R_FAIL, "Parameter 'points' can't be greater than 1E6");
    return points <= 0 ? 0.0 : fmin(points, 1E6);
}

static void chk_pointscmp(ctx *c) {
    double ja = read_double(c, ANS);
    double pa = read_double(c, OUF);
    double points = checked_points(c, fabs(ja - pa));
    char pts[400];
    int n = snprintf(pts, sizeof pts, "%.10f", points);
    size_t k = n < 0 ? 0 : (size_t)n < sizeof pts ? (size_t)n : sizeof pts - 1;
    if (memchr(pts, '.', k) != NULL) { /* removeDoubleTrailingZeroes */
        while (k > 0 && pts[k - 1] == '0')
            k--;
        if (k > 0 && pts[k - 1] == '.')
            pts[k++] = '0';
    }
    pts[k] = '\0';
    c->points = points;
    quitf(c, OUF, R_POINTS, "%s ja=%.4f pa=%.4f", pts, ja, pa);
}

static void chk_pointsinfo(ctx *c) {
    double pa = read_double(c, OUF);
    double ja = read_double(c, ANS);
    c->points = NAN;
    quitf(c, OUF, R_POINTS, "points_info=pa=%f,ja=%f d=%f", pa, ja, fabs(ja - pa));
}

/* ---- checkers for "Case k: ..." outputs */

static void expect_case_header(ctx *c, stream *s, int test_case, int read_case_word) {
    cbuf a, b;
    if (read_case_word) {
        view w = read_word(c, s);
        if (!view_is(w, "Case"))
            quitf(c, s, R_PE, "Expected 'Case' but found '%s' [test case %d]", compress(&a, w),
                  test_case);
    }
    char expect[24];
    int en = snprintf(expect, sizeof expect, "%d:", test_case);
    view num = read_word(c, s);
    view ev = {(const unsigned char *)expect, en < 0 ? 0 : (size_t)en};
    if (!view_eq(ev, num))
        quitf(c, s, R_PE, "Expected '%s' but found '%s' [test case %d]", compress(&a, ev),
              compress(&b, num), test_case);
}

static void chk_caseicmp(ctx *c) {
    size_t nj = 0;
    long long *ja = NULL;
    for (int tc = 1; !seek_eof(ANS); tc++) {
        expect_case_header(c, ANS, tc, 1);
        long long v = read_long(c, ANS);
        ja = reserve(c, &c->arr[0], (nj + 1) * sizeof *ja);
        ja[nj++] = v;
    }
    size_t np = 0, bad = SIZE_MAX;
    long long bad_value = 0;
    for (int tc = 1; !seek_eof(OUF); tc++) {
        expect_case_header(c, OUF, tc, 1);
        long long v = read_long(c, OUF);
        if (bad == SIZE_MAX && np < nj && ja[np] != v)
            bad = np, bad_value = v;
        np++;
    }
    if (bad != SIZE_MAX)
        quitf(c, OUF, R_WA, "Expected %lld found %lld [test case %d]", ja[bad], bad_value,
              (int)(bad + 1));
    if (nj != np)
        quitf(c, OUF, R_PE, "Expected %u test case(s) but found %u", (unsigned)nj, (unsigned)np);
    char msg[256];
    size_t k = (size_t)snprintf(msg, sizeof msg, "%u case(s):", (unsigned)nj);
    if (nj <= 5) {
        for (size_t i = 0; i < nj; i++)
            k += (size_t)snprintf(msg + k, sizeof msg - k, " %lld", ja[i]);
    } else {
        k += (size_t)snprintf(msg + k, sizeof msg - k, " %lld %lld %lld ... %lld %lld", ja[0],
                              ja[1], ja[2], ja[nj - 2], ja[nj - 1]);
    }
    quitf(c, OUF, R_OK, "%s", msg);
}

/* The body of one case: tokens up to EOF or the next "Case" (which is consumed, *pre set). */
typedef struct {
    size_t count;
    /* numbers: first 5 and last 2 */
    long long first[5], last[2];
    /* words: compress(trim(join)) needs the first 64 and the last 31 bytes of the joined text */
    unsigned char head[64], tail[31];
    size_t joined, tail_n;
} case_summary;

static void summary_add_number(case_summary *m, long long v) {
    if (m->count < 5)
        m->first[m->count] = v;
    m->last[0] = m->last[1];
    m->last[1] = v;
    m->count++;
}

static void summary_add_bytes(case_summary *m, const unsigned char *p, size_t n) {
    if (m->joined < sizeof m->head) {
        size_t k = sizeof m->head - m->joined < n ? sizeof m->head - m->joined : n;
        memcpy(m->head + m->joined, p, k);
    }
    m->joined += n;
    if (n >= sizeof m->tail) {
        memcpy(m->tail, p + n - sizeof m->tail, sizeof m->tail);
        m->tail_n = sizeof m->tail;
    } else {
        size_t keep = m->tail_n + n > sizeof m->tail ? sizeof m->tail - n : m->tail_n;
        memmove(m->tail, m->tail + m->tail_n - keep, keep);
        memcpy(m->tail + keep, p, n);
        m->tail_n = keep + n;
    }
}

static void summary_add_word(case_summary *m, view w) {
    if (m->count > 0)
        summary_add_bytes(m, (const unsigned char *)" ", 1);
    summary_add_bytes(m, w.p, w.n);
    m->count++;
}

static const char *summary_numbers(char *out, size_t cap, const case_summary *m) {
    if (m->count == 0) {
        snprintf(out, cap, "\"\" [size=0]");
        return out;
    }
    size_t k = (size_t)snprintf(out, cap, "\"");
    if (m->count <= 5) {
        for (size_t i = 0; i < m->count; i++)
            k += (size_t)snprintf(out + k, cap - k, i ? " %lld" : "%lld", m->first[i]);
    } else {
        k += (size_t)snprintf(out + k, cap - k, "%lld %lld %lld ... %lld %lld", m->first[0],
                              m->first[1], m->first[2], m->last[0], m->last[1]);
    }
    snprintf(out + k, cap - k, "\" [size=%u]", (unsigned)m->count);
    return out;
}

static const char *summary_words(char *out, size_t cap, const case_summary *m) {
    if (m->count == 0) {
        snprintf(out, cap, "\"\" [size=0]");
        return out;
    }
    unsigned char text[64 + 3 + 31];
    size_t n;
    if (m->joined <= 64) {
        memcpy(text, m->head, m->joined);
        n = m->joined;
    } else {
        memcpy(text, m->head, 30);
        memcpy(text + 30, "...", 3);
        memcpy(text + 33, m->tail, 31);
        n = 64;
    }
    cbuf b;
    compress_up(&b, text, n, 0); /* NULs -> '~' (at most 64 bytes, so nothing is cut again) */
    snprintf(out, cap, "\"%s\" [size=%u]", b.s, (unsigned)m->count);
    return out;
}

/* casencmp: the case's numbers are parsed with stringToLongLong(in, token.c_str()), i.e. a NUL
 * ends the text. */
static long long case_number(ctx *c, stream *s, view w) {
    const unsigned char *z = w.n ? memchr(w.p, 0, w.n) : NULL;
    return to_ll(c, s, w.p, z ? (size_t)(z - w.p) : w.n);
}

/* Reads one case of `s` into a summary. If `ref` is given (the answer's case, already read and
 * valid), also compares token by token against it by re-reading the answer from ref_pos. */
static int read_case(ctx *c, stream *s, int tc, int *pre, int numbers, case_summary *m,
                     size_t *body_pos, const case_summary *ref, size_t ref_pos) {
    expect_case_header(c, s, tc, !*pre);
    memset(m, 0, sizeof *m);
    *body_pos = s->pos;
    stream cur = c->ans;
    cur.pos = ref_pos;
    int equal = 1;
    while (!seek_eof(s)) {
        view w = read_word(c, s);
        if (view_is(w, "Case")) {
            *pre = 1;
            break;
        }
        view rw = {NULL, 0};
        if (ref != NULL && m->count < ref->count)
            rw = read_word(c, &cur);
        if (numbers) {
            long long v = case_number(c, s, w);
            if (ref != NULL && equal && (m->count >= ref->count || case_number(c, &cur, rw) != v))
                equal = 0;
            summary_add_number(m, v);
        } else {
            if (ref != NULL && equal && (m->count >= ref->count || !view_eq(rw, w)))
                equal = 0;
            summary_add_word(m, w);
        }
    }
    if (ref != NULL && m->count != ref->count)
        equal = 0;
    return equal;
}

static void case_checker(ctx *c, int numbers) {
    int tc = 0, ans_pre = 0, ouf_pre = 0;
    while (!seek_eof(ANS)) {
        tc++;
        case_summary js, ps;
        size_t jpos, ppos;
        read_case(c, ANS, tc, &ans_pre, numbers, &js, &jpos, NULL, 0);
        if (!read_case(c, OUF, tc, &ouf_pre, numbers, &ps, &ppos, &js, jpos)) {
            char a[400], b[400];
            if (numbers)
                quitf(c, OUF, R_WA,
                      "Sequences differ: jury has %s, but participant has %s [test case %d]",
                      summary_numbers(a, sizeof a, &js), summary_numbers(b, sizeof b, &ps), tc);
            quitf(c, OUF, R_WA,
                  "Sequences differ: jury has %s, but participant has %s [test case %d]",
                  summary_words(a, sizeof a, &js), summary_words(b, sizeof b, &ps), tc);
        }
    }
    quitf(c, OUF, R_OK, "%d test cases(s)", tc);
}

static void chk_casencmp(ctx *c) { case_checker(c, 1); }

static void chk_casewcmp(ctx *c) { case_checker(c, 0); }

/* ------------------------------------------------------------------ registry and entry points */

typedef struct {
    const char *name;
    checker_fn fn;
} checker_entry;

static const checker_entry CHECKERS[] = {
    {"acmp", chk_rcmp},
    {"caseicmp", chk_caseicmp},
    {"casencmp", chk_casencmp},
    {"casewcmp", chk_casewcmp},
    {"dcmp", chk_dcmp},
    {"fcmp", chk_fcmp},
    {"hcmp", chk_hcmp},
    {"icmp", chk_icmp},
    {"lcmp", chk_lcmp},
    {"ncmp", chk_ncmp},
    {"nyesno", chk_nyesno},
    {"pointscmp", chk_pointscmp},
    {"pointsinfo", chk_pointsinfo},
    {"rcmp", chk_rcmp},
    {"rcmp4", chk_rcmp4},
    {"rcmp6", chk_rcmp6},
    {"rcmp9", chk_rcmp9},
    {"rncmp", chk_rncmp},
    {"uncmp", chk_uncmp},
    {"wcmp", chk_wcmp},
    {"yesno", chk_yesno},
};

const char *const judge_checker_names[] = {
    "acmp",  "caseicmp", "casencmp", "casewcmp",  "dcmp",       "fcmp", "hcmp",  "icmp",
    "lcmp",  "ncmp",     "nyesno",   "pointscmp", "pointsinfo", "rcmp", "rcmp4", "rcmp6",
    "rcmp9", "rncmp",    "uncmp",    "wcmp",      "yesno",      NULL,
};

static checker_fn find_checker(const char *name) {
    if (name == NULL)
        return NULL;
    for (size_t i = 0; i < sizeof CHECKERS / sizeof CHECKERS[0]; i++)
        if (strcmp(CHECKERS[i].name, name) == 0)
            return CHECKERS[i].fn;
    return NULL;
}

int judge_checker_exists(const char *name) { return find_checker(name) != NULL; }

static void write_message(char *message, size_t cap, const char *text, size_t n) {
    if (message == NULL || cap == 0)
        return;
    if (n > cap - 1)
        n = cap - 1;
    memcpy(message, text, n);
    message[n] = '\0';
}

static void init_stream(stream *s, const judge_stream_spec *spec, int mode,
                        const char *default_name) {
    s->p = spec->data != NULL ? (const unsigned char *)spec->data : (const unsigned char *)"";
    s->len = spec->data != NULL ? spec->len : 0;
    s->pos = 0;
    s->mode = mode;
    s->name = spec->name != NULL ? spec->name : default_name;
}

/* registerTestlibCmd's opening of the streams, then the checker. Returns only by longjmp. */
static void run_checker(ctx *c, checker_fn fn, const judge_stream_spec *specs) {
    if (setjmp(c->jb) != 0)
        return;
    stream *order[3] = {&c->inf, &c->ouf, &c->ans};
    for (int i = 0; i < 3; i++) {
        stream *s = order[i];
        if (!specs[i].missing && specs[i].size > MAX_FILE_SIZE)
            quitf(c, s, R_PE, "File size exceeds %d bytes, size is %d", (int)MAX_FILE_SIZE,
                  (int)(int32_t)(uint32_t)specs[i].size);
        if (specs[i].missing && s->mode == M_OUTPUT)
            quitf(c, s, R_PE, "Output file not found: \"%s\"", s->name);
        if (specs[i].missing && s->mode == M_ANSWER)
            quitf(c, s, R_FAIL, "Answer file not found: \"%s\"", s->name);
        if (s == &c->ouf && s->len >= 3 && memcmp(s->p, "\xEF\xBB\xBF", 3) == 0)
            s->pos = 3;
    }
    for (int i = 1; i < 3; i++)
        if (specs[i].read_error)
            quitf(c, &c->ouf, R_FAIL, "BufferedFileInputStreamReader: unable to read (%s)",
                  order[i]->name);
    fn(c);
    quit_s(c, &c->ouf, R_FAIL, "Checker must end with quit or quitf call.");
}

int judge_check_streams(const char *name, const judge_stream_spec specs[3], char *message,
                        size_t message_cap, double *points) {
    if (points != NULL)
        *points = NAN;
    checker_fn fn = find_checker(name);
    if (fn == NULL) {
        char text[256];
        int n =
            snprintf(text, sizeof text, "FAIL Unknown checker '%.200s'", name ? name : "(null)");
        write_message(message, message_cap, text, n < 0 ? 0 : (size_t)n);
        return JUDGE_CHECK_FAIL;
    }
    for (int i = 0; i < 3; i++)
        if (specs[i].data == NULL && specs[i].len != 0) {
            static const char text[] = "FAIL judge_check: NULL buffer with a non-zero length";
            write_message(message, message_cap, text, sizeof text - 1);
            return JUDGE_CHECK_FAIL;
        }
    ctx *c = malloc(sizeof *c); /* the message buffers need no zeroing */
    if (c != NULL)
        memset(c, 0, offsetof(ctx, fmt));
    if (c == NULL) {
        static const char text[] = "FAIL Not enough memory";
        write_message(message, message_cap, text, sizeof text - 1);
        return JUDGE_CHECK_FAIL;
    }
    init_stream(&c->inf, &specs[0], M_INPUT, "input");
    init_stream(&c->ouf, &specs[1], M_OUTPUT, "output");
    init_stream(&c->ans, &specs[2], M_ANSWER, "answer");
    c->points = NAN;
    c->exit_code = JUDGE_CHECK_FAIL;
    run_checker(c, fn, specs);
    int code = c->exit_code;
    write_message(message, message_cap, c->final, c->final_len);
    if (points != NULL)
        *points = code == JUDGE_CHECK_POINTS ? c->points : NAN;
    free(c->num.p);
    free(c->arr[0].p);
    free(c->arr[1].p);
    free(c->ouf.line.p);
    free(c->ans.line.p);
    free(c->inf.line.p);
    free(c);
    return code;
}

int judge_check(const char *name, const char *input, size_t input_len, const char *output,
                size_t output_len, const char *answer, size_t answer_len, char *message,
                size_t message_cap, double *points) {
    judge_stream_spec specs[3] = {
        {input, input_len, "input", 0, 0, input_len},
        {output, output_len, "output", 0, 0, output_len},
        {answer, answer_len, "answer", 0, 0, answer_len},
    };
    return judge_check_streams(name, specs, message, message_cap, points);
}
