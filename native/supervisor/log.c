/* die, note and now_ns: see log.h. */
#include "log.h"

#include "protocol.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static int report_sock = -1;
bool verbose_notes;

void log_report_to(int sock) { report_sock = sock; }

void note(const char *fmt, ...) {
    if (!verbose_notes)
        return;
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    fprintf(stderr, "judge-supervisor[%d]: %s\n", (int)getpid(), msg);
}

void die(const char *fmt, ...) {
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (report_sock >= 0)
        write_startup_error(report_sock, msg);
    fprintf(stderr, "judge-supervisor: %s\n", msg);
    _exit(1);
}

uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
