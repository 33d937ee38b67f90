/* The standard checkers' reader: testlib's InStream over a byte buffer (blanks, tokens, lines,
 * numbers) and its quit(), which ends a checker with an exit code and a message. Internal to
 * the checkers: checkers.h is their interface. */
#ifndef JUDGE_CHECKER_STREAM_H
#define JUDGE_CHECKER_STREAM_H

#include <setjmp.h>
#include <stddef.h>
#include <string.h>

/* Nothing here leaves judge._native: no name can be bound to another library's (compress). */
#pragma GCC visibility push(hidden)

/* quit()'s results: testlib's exit codes, and _dirt and _unexpected_eof before they become PE. */
#define MAX_TOKEN_LENGTH ((size_t)32 * 1024 * 1024)

enum { R_OK = 0, R_WA = 1, R_PE = 2, R_FAIL = 3, R_DIRT = 4, R_POINTS = 5, R_UEOF = 8 };
/* Which stream: a failure of the input or the answer is the jury's (FAIL). */
enum { M_INPUT, M_OUTPUT, M_ANSWER };

#define MAX_FILE_SIZE (128ULL * 1024 * 1024)
#define MSG_BUF ((size_t)65536)

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

/* One check: its three streams, where a quit jumps back to, and what it ended with. */
typedef struct checker_context {
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

/* ---- characters and positions (inline: every token passes here) */

extern const unsigned char checker_blank[256];

static inline int is_blank(unsigned char ch) { return checker_blank[ch]; }

static inline void skip_blanks(stream *s) {
    while (s->pos < s->len && is_blank(s->p[s->pos]))
        s->pos++;
}

static inline int at_eof(const stream *s) { return s->pos >= s->len; }

static inline int seek_eof(stream *s) {
    skip_blanks(s);
    return at_eof(s);
}

static inline int view_eq(view a, view b) {
    return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

static inline int view_is(view a, const char *lit) {
    size_t n = strlen(lit);
    return a.n == n && memcmp(a.p, lit, n) == 0;
}

/* ---- quit: never return; they longjmp to c->jb with c->final and c->exit_code set */

_Noreturn void quit_s(ctx *c, stream *s, int result, const char *msg);
__attribute__((format(printf, 4, 5))) _Noreturn void quitf(ctx *c, stream *s, int result,
                                                           const char *fmt, ...);

/* At least `bytes` of g, owned by the check (freed by judge_check_streams). */
void *reserve(ctx *c, grow *g, size_t bytes);

/* ---- testlib's message helpers */

typedef struct {
    char s[72];
} cbuf;

/* compress() / __testlib_part(): NULs shown as '~', over 64 chars -> 30 + "..." + 31.
 * upper: apply upperCase() first (a-z only). */
const char *compress_up(cbuf *b, const unsigned char *p, size_t n, int upper);
const char *compress(cbuf *b, view v);
const char *english_ending(int x);

/* ---- reading: a malformed or missing value quits */

_Noreturn void quit_token_too_long(ctx *c, stream *s, size_t start);

/* Inline: every token of wcmp and its like passes here; the failures stay out of line. */
static inline view read_word(ctx *c, stream *s) {
    skip_blanks(s);
    if (at_eof(s))
        quit_s(c, s, R_UEOF, "Unexpected end of file - token expected");
    size_t start = s->pos, end = start;
    size_t limit = s->len - start > MAX_TOKEN_LENGTH ? start + MAX_TOKEN_LENGTH + 1 : s->len;
    while (end < limit && !is_blank(s->p[end]))
        end++;
    if (end - start > MAX_TOKEN_LENGTH)
        quit_token_too_long(c, s, start);
    s->pos = end;
    return (view){s->p + start, end - start};
}
long long to_ll(ctx *c, stream *s, const unsigned char *p, size_t n);
long long read_long(ctx *c, stream *s);
int read_int(ctx *c, stream *s);
double read_double(ctx *c, stream *s);
view read_string(ctx *c, stream *s);

#pragma GCC visibility pop

#endif
