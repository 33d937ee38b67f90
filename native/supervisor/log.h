/* The supervisor's voice and clock: its fatal errors, its notes under --verbose, and the
 * monotonic time every mechanism measures with. */
#ifndef JUDGE_LOG_H
#define JUDGE_LOG_H

#include <stdbool.h>
#include <stdint.h>

/* Ends the process with the message on stderr, and, until the slot is ready, to the judge too
 * (as the startup error of log_report_to's socket). */
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* Where die() reports before the slot is ready; -1 once it is (the judge reads replies then). */
void log_report_to(int sock);

/* One line on stderr when the slot runs with --verbose: what the supervisor is doing. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern bool verbose_notes;

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t now_ns(void);

#endif
