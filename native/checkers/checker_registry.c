/* The standard checkers by name (checker_list.h) and the entry points of checkers.h: a check
 * opens its three streams as testlib's registerTestlibCmd does, runs the checker, and takes the
 * message and exit code its quit left. */
#include "checkers.h"

#include "checker_list.h"
#include "checker_stream.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*checker_fn)(ctx *c);

typedef struct {
    const char *name;
    checker_fn fn;
} checker_entry;

#define CHECKER_ENTRY(name, function) {#name, function},
static const checker_entry CHECKERS[] = {JUDGE_CHECKERS(CHECKER_ENTRY)};

#define CHECKER_NAME(name, function) #name,
const char *const judge_checker_names[] = {JUDGE_CHECKERS(CHECKER_NAME) NULL};
const int judge_checker_count = sizeof CHECKERS / sizeof CHECKERS[0];

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
