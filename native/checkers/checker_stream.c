/* testlib's InStream and quit(), over byte buffers (checker_stream.h).
 *
 * What is reproduced from testlib (0.9.4x):
 *  - streams: a file is a plain byte sequence (any byte, NULs included, is data; EOF only at the
 *    end); blanks are exactly LF, CR, space and tab; tokens are maximal runs of non-blanks and
 *    may not exceed 32 MB; lines end at LF, CRLF or EOF with testlib's handling of a lone CR;
 *    a UTF-8 BOM is skipped at the start of the output only; files over 128 MB are refused;
 *  - numbers: stringToLongLong (at most 20 chars, digits with an optional leading minus, no
 *    leading zeros, no "-0", int64 range), int32 range for readInt, stringToDouble (only
 *    [0-9.eE+-], counts of each, then a full C-locale decimal conversion);
 *  - quit(): trim, 32000-char message limit, any failure of the answer/input stream becomes FAIL
 *    with the stream name appended, "ok" and points results fail with "Extra information in the
 *    output file" when non-blank output remains, unexpected EOF is a presentation error, the
 *    prefixes "ok ", "wrong answer ", "wrong output format ", "FAIL ", "points ".
 *
 * Control flow: a failing read "quits" like testlib, by longjmp back to judge_check_streams.
 */
#include "checker_stream.h"

#include "checkers.h"

#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_MESSAGE_LENGTH ((size_t)32000)
#define OPEN_BRACKET '\x0b'
#define CLOSE_BRACKET '\x11'

const unsigned char checker_blank[256] = {['\n'] = 1, ['\r'] = 1, [' '] = 1, ['\t'] = 1};

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

/* The message as testlib keeps it in `w`: trimmed, and past 32000 characters cut, behind a
 * warning. Returns its length. */
static size_t kept_message(char *w, const char *msg, size_t len) {
    while (len > 0 && is_blank((unsigned char)msg[0]))
        msg++, len--;
    while (len > 0 && is_blank((unsigned char)msg[len - 1]))
        len--;
    if (len > MSG_BUF)
        len = MSG_BUF;
    if (len <= MAX_MESSAGE_LENGTH) {
        memmove(w, msg, len);
        return len;
    }
    static const char warn[] = "message length exceeds 32000, the message is truncated: ";
    size_t wn = sizeof warn - 1;
    memmove(w + wn, msg, MAX_MESSAGE_LENGTH - wn);
    memcpy(w, warn, wn);
    return MAX_MESSAGE_LENGTH;
}

/* testlib's prefix of a result's message, and its exit code. */
static const char *result_prefix(int result, int *exit_code) {
    switch (result) {
    case R_OK: *exit_code = JUDGE_CHECK_OK; return "ok ";
    case R_WA: *exit_code = JUDGE_CHECK_WA; return "wrong answer ";
    case R_PE:
    case R_DIRT: *exit_code = JUDGE_CHECK_PE; return "wrong output format ";
    case R_POINTS: *exit_code = JUDGE_CHECK_POINTS; return "points ";
    default: *exit_code = JUDGE_CHECK_FAIL; return "FAIL ";
    }
}

/* The final message (prefix, then the kept message with its one bracket pair made printable)
 * and the exit code; back to judge_check_streams. */
static _Noreturn void finish(ctx *c, int result, const char *w, size_t wl) {
    const char *prefix = result_prefix(result, &c->exit_code);
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

/* InStream::quit. Never returns. A failure of the input or the answer becomes FAIL with the
 * stream's name, and an "ok" or points result with output left over becomes _dirt: each is
 * quit again. */
static _Noreturn void quit_n(ctx *c, stream *s, int result, const char *msg, size_t len) {
    for (;;) {
        size_t wl = kept_message(c->work, msg, len);
        if (result == R_UEOF)
            result = R_PE;
        if (s->mode != M_OUTPUT && result != R_FAIL) {
            len = append_message(c->work, wl, s->name, c->fmt, MSG_BUF);
            msg = c->fmt;
            result = R_FAIL;
        } else if ((result == R_OK || result == R_POINTS) && !seek_eof(&c->ouf)) {
            s = &c->ouf;
            result = R_DIRT;
            msg = "Extra information in the output file";
            len = strlen(msg);
        } else {
            finish(c, result, c->work, wl);
        }
    }
}

_Noreturn void quit_s(ctx *c, stream *s, int result, const char *msg) {
    quit_n(c, s, result, msg, strlen(msg));
}

__attribute__((format(printf, 4, 5))) _Noreturn void quitf(ctx *c, stream *s, int result,
                                                           const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(c->fmt, MSG_BUF, fmt, ap);
    va_end(ap);
    size_t len = n < 0 ? 0 : (size_t)n >= MSG_BUF ? MSG_BUF - 1 : (size_t)n;
    quit_n(c, s, result, c->fmt, len);
}

void *reserve(ctx *c, grow *g, size_t bytes) {
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

const char *compress_up(cbuf *b, const unsigned char *p, size_t n, int upper) {
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

const char *compress(cbuf *b, view v) { return compress_up(b, v.p, v.n, 0); }

const char *english_ending(int x) {
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

/* ------------------------------------------------------------------ reading */

/* InStream::readWord / readToken's refusal of a token too long (read_word is inline). */
void quit_token_too_long(ctx *c, stream *s, size_t start) {
    cbuf b;
    quitf(c, s, R_PE, "Length of token exceeds %d, token is '%s...'", (int)MAX_TOKEN_LENGTH,
          compress_up(&b, s->p + start, MAX_TOKEN_LENGTH + 1, 0));
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

long long to_ll(ctx *c, stream *s, const unsigned char *p, size_t n) {
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

long long read_long(ctx *c, stream *s) {
    if (seek_eof(s))
        quit_s(c, s, R_UEOF, "Unexpected end of file - int64 expected");
    view w = read_word(c, s);
    check_no_nul(c, s, w, "integer");
    return to_ll(c, s, w.p, w.n);
}

int read_int(ctx *c, stream *s) {
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

double read_double(ctx *c, stream *s) {
    if (seek_eof(s))
        quit_s(c, s, R_UEOF, "Unexpected end of file - double expected");
    view w = read_word(c, s);
    check_no_nul(c, s, w, "double");
    return to_double(c, s, w);
}

/* InStream::readString / readLine (non-strict): up to LF, CRLF or EOF. A CR not followed by LF
 * is dropped and the next byte is taken as is (or char(EOFC) = '\xff' at the end of the file). */
view read_string(ctx *c, stream *s) {
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
