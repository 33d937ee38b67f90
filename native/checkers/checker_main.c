/* judge-check NAME INPUT OUTPUT ANSWER
 *
 * A testlib checker binary for each standard checker: reads the three files, prints testlib's
 * message on stderr ("ok 3 numbers") and exits with testlib's code (0 OK, 1 WA, 2 PE, 3 FAIL,
 * 7 points). Like testlib, the input file is only checked for size (checkers never read it), a
 * missing output is a presentation error and a missing answer a FAIL. Files are mapped, not
 * copied, so a 100 MB output costs no more than its pages.
 */
#include "checkers.h"

#include "checker_list.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <unistd.h>

#define READ_LIMIT (128ULL * 1024 * 1024 + 1) /* enough to trip the 128 MB limit */

typedef struct {
    char *heap; /* buffer from read() */
    void *map;  /* or a mapping */
    size_t map_len;
} holder;

/* A regular file's bytes mapped; false when mmap refused them. */
static bool map_file(int fd, size_t size, judge_stream_spec *spec, holder *h) {
    void *m = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED)
        return false;
    (void)madvise(m, size, MADV_SEQUENTIAL); /* a hint: reading works without it */
    h->map = m;
    h->map_len = size;
    spec->data = m;
    spec->len = size;
    return true;
}

/* Pipes, special files, or what mmap refused: read up to READ_LIMIT into the heap. */
static void read_file(int fd, judge_stream_spec *spec, holder *h) {
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    if (buf == NULL) {
        spec->read_error = 1;
        return;
    }
    for (;;) {
        if (len == cap) {
            if (cap >= READ_LIMIT)
                break;
            char *bigger = realloc(buf, cap * 2);
            if (bigger == NULL) {
                spec->read_error = 1;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        ssize_t got = read(fd, buf + len, cap - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            spec->read_error = 1;
        if (got <= 0)
            break;
        len += (size_t)got;
    }
    h->heap = buf;
    spec->data = buf;
    spec->len = len;
}

/* Fills spec from path. want_data: 0 for the input (size only). */
static void load(const char *path, judge_stream_spec *spec, holder *h, int want_data) {
    memset(spec, 0, sizeof *spec);
    memset(h, 0, sizeof *h);
    spec->name = path;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        spec->missing = 1;
        return;
    }
    struct stat st;
    int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    if (regular)
        spec->size = (unsigned long long)st.st_size;
    int wanted = want_data && !(regular && spec->size > READ_LIMIT);
    if (wanted && !(regular && st.st_size > 0 && map_file(fd, (size_t)st.st_size, spec, h))) {
        read_file(fd, spec, h);
        if (!regular || spec->len > spec->size)
            spec->size = spec->len;
    }
    (void)close(fd); /* read-only: nothing is lost if close fails */
}

static void release(holder *h) {
    if (h->map != NULL)
        munmap(h->map, h->map_len);
    free(h->heap);
}

static int fail(const char *text) {
    fprintf(stderr, "FAIL %s\n", text);
    return JUDGE_CHECK_FAIL;
}

int main(int argc, char **argv) {
    if (argc != 5) {
#define CHECKER_WORD(name, function) " " #name
        return fail("Program must be run with the following arguments: <checker> <input-file> "
                    "<output-file> <answer-file>\nCheckers:" JUDGE_CHECKERS(CHECKER_WORD));
    }
    if (!judge_checker_exists(argv[1])) {
        fprintf(stderr, "FAIL Unknown checker '%s'\n", argv[1]);
        return JUDGE_CHECK_FAIL;
    }
    judge_stream_spec specs[3];
    holder holders[3];
    load(argv[2], &specs[0], &holders[0], 0);
    load(argv[3], &specs[1], &holders[1], 1);
    load(argv[4], &specs[2], &holders[2], 1);
    size_t cap = 1 << 17;
    char *message = malloc(cap);
    if (message == NULL)
        return fail("Not enough memory");
    double points = 0;
    int code = judge_check_streams(argv[1], specs, message, cap, &points);
    size_t n = strlen(message);
    message[n] = '\n';
    if (fwrite(message, 1, n + 1, stderr) != n + 1)
        code = JUDGE_CHECK_FAIL;
    if (fflush(stderr) != 0)
        code = JUDGE_CHECK_FAIL;
    for (int i = 0; i < 3; i++)
        release(&holders[i]);
    free(message);
    return code;
}
