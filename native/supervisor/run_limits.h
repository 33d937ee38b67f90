/* run_limits.c: the request's rlimits on the parked child. */
#ifndef JUDGE_RUN_LIMITS_H
#define JUDGE_RUN_LIMITS_H

#include <stdbool.h>

struct run;

/* The request's rlimits, set on the parked child from here: it could not set them itself
 * without calls its filter may refuse. */
bool limit_child(struct run *run);

#endif
