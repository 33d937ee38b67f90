/* testlib's standard checkers (its checkers/ folder), each as a function of one check's context:
 * each checker's reading order, messages (compress(), englishEnding()), exit codes, and
 * doubleCompare and doubleDelta of the current testlib (the error is widened by 1E-15,
 * |x| > 1E300 is infinite). They read with checker_stream.h and end by quitting; the registry
 * (checker_list.h, checker_registry.c) names them.
 *
 * Every allocation lives in the context and is freed by judge_check_streams; memory stays
 * bounded by the size of the answer (uncmp, caseicmp) and is otherwise O(1) beyond the input
 * buffers.
 */
#include "checker_list.h"
#include "checker_stream.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* std::isspace in the "C" locale: what std::stringstream >> splits on (lcmp). */
static inline int is_cspace(unsigned char ch) {
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r';
}

#define OUF (&c->ouf)
#define ANS (&c->ans)

void chk_ncmp(ctx *c) {
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

void chk_wcmp(ctx *c) {
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

void chk_lcmp(ctx *c) { lines_checker(c, 1); }

void chk_fcmp(ctx *c) { lines_checker(c, 0); }

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

void chk_rcmp4(ctx *c) { rcmp_n(c, 1E-4, 5); }

void chk_rcmp6(ctx *c) { rcmp_n(c, 1E-6, 7); }

void chk_rcmp9(ctx *c) { rcmp_n(c, 1E-9, 10); }

void chk_rncmp(ctx *c) {
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
void chk_rcmp(ctx *c) {
    const double eps = 1.5E-6;
    double ja = read_double(c, ANS);
    double pa = read_double(c, OUF);
    if (fabs(ja - pa) > eps + 1E-15)
        quitf(c, OUF, R_WA, "expected %.10f, found %.10f", ja, pa);
    quitf(c, OUF, R_OK, "answer is %.10f", ja);
}

void chk_dcmp(ctx *c) {
    double ja = read_double(c, ANS);
    double pa = read_double(c, OUF);
    if (!double_compare(ja, pa, 1E-6))
        quitf(c, OUF, R_WA, "expected %.10f, found %.10f", ja, pa);
    quitf(c, OUF, R_OK, "answer is %.10f", ja);
}

void chk_icmp(ctx *c) {
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

void chk_hcmp(ctx *c) {
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

void chk_yesno(ctx *c) {
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

void chk_nyesno(ctx *c) {
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

void chk_uncmp(ctx *c) {
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

void chk_pointscmp(ctx *c) {
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

void chk_pointsinfo(ctx *c) {
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

void chk_caseicmp(ctx *c) {
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

void chk_casencmp(ctx *c) { case_checker(c, 1); }

void chk_casewcmp(ctx *c) { case_checker(c, 0); }
