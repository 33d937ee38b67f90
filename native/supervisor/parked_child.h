/* parked_child.c: the child forked ahead of the next request, as the supervisor keeps it. */
#ifndef JUDGE_PARKED_CHILD_H
#define JUDGE_PARKED_CHILD_H

#include <stdbool.h>
#include <stddef.h>

struct slot_config;
struct run_request;
struct run_result;
struct run;

/* The parked child, if it has this request's shape; otherwise one forked for it now. */
int have_parked_child(const struct slot_config *cfg, const struct run_request *req,
                      struct run_result *res);
/* The run takes over the parked child and its channels. */
void adopt_parked_child(struct run *run);
/* Forks the next run's child once the run is over (see parked_child.c). */
void fork_next_child(const struct slot_config *cfg, const struct run_request *req, bool wait);
/* A failure while forking the next run's child, which the next after_run reports (once). */
int take_parked_error(char *err, size_t errcap);

#endif
