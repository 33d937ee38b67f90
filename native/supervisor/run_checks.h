/* run_checks.c: the wall, CPU and memory checks and when each is due. */
#ifndef JUDGE_RUN_CHECKS_H
#define JUDGE_RUN_CHECKS_H

#include <stdint.h>

struct run;

void schedule_checks(struct run *run);
uint64_t next_check_at(const struct run *run);
void run_due_checks(struct run *run, uint64_t now);

#endif
