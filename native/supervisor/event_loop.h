/* event_loop.c: the run's waits, until the next check is due or something happens. */
#ifndef JUDGE_EVENT_LOOP_H
#define JUDGE_EVENT_LOOP_H

#include <stdbool.h>

struct run;

void open_wait_set(struct run *run);
/* Waits until the next check is due or something happens; returns true once the main process
 * has exited. */
bool serve_events(struct run *run);
void end_wait_policy(struct run *run);

#endif
