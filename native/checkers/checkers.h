/* testlib-compatible standard checkers (testlib's checkers/ folder), in C.
 *
 * The three streams are byte buffers (pointer, length), never NUL-terminated strings. Every
 * checker reads them with testlib's rules (token and line reading, number parsing, the dirt
 * check on "ok") and ends like testlib's quit(): an exit code and the message testlib prints,
 * e.g. "ok 3 numbers" or "wrong answer 2nd numbers differ - expected: '5', found: '6'".
 */
#ifndef JUDGE_CHECKERS_H
#define JUDGE_CHECKERS_H

#include <stddef.h>

#define JUDGE_CHECK_OK 0
#define JUDGE_CHECK_WA 1
#define JUDGE_CHECK_PE 2
#define JUDGE_CHECK_FAIL 3
#define JUDGE_CHECK_POINTS 7

/* Runs checker `name`. Returns testlib's exit code (0 OK, 1 WA, 2 PE, 3 FAIL, 7 POINTS), writes
 * the message (NUL-terminated, truncated to message_cap) and sets *points for points results
 * (NaN otherwise, and NaN for pointsinfo, which reports points_info text instead of a number).
 * In messages the streams are named "input", "output" and "answer". Thread-safe, no globals. */
int judge_check(const char *name, const char *input, size_t input_len, const char *output,
                size_t output_len, const char *answer, size_t answer_len, char *message,
                size_t message_cap, double *points);

/* 1 if `name` is a known checker, else 0. */
int judge_checker_exists(const char *name);

/* The same with what a testlib binary knows about its files: their names (paths) for messages,
 * whether they could be opened, their size for testlib's 128 MB limit. Used by judge-check. */
typedef struct {
    const char *data; /* content (may be NULL when len is 0) */
    size_t len;
    const char *name;        /* shown in messages, e.g. "FAIL ... (answer.txt)" */
    int missing;             /* the file could not be opened */
    int read_error;          /* the file was opened but could not be read */
    unsigned long long size; /* size for the file size limit (normally len) */
} judge_stream_spec;

/* specs[0] input, specs[1] output, specs[2] answer. */
int judge_check_streams(const char *name, const judge_stream_spec specs[3], char *message,
                        size_t message_cap, double *points);

/* Names of all checkers (checker_list.h), NULL-terminated, and how many there are. */
extern const char *const judge_checker_names[];
extern const int judge_checker_count;

#endif
