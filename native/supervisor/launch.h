/* launch.c: the handshake that releases the parked child into the run's program. */
#ifndef JUDGE_LAUNCH_H
#define JUDGE_LAUNCH_H

struct run;

/* The parked child gets the request's limits, standard input, arguments and environment,
 * then the go-ahead, and execs. */
void start_child(struct run *run);
/* After the go-ahead the child either execs (EOF on the socket) or says why it could not; read
 * once the main process is reaped, when the answer is there (the socket closes at exec). */
void read_exec_outcome(struct run *run);

#endif
