/* network.c: the slot's network namespace. */
#ifndef JUDGE_NETWORK_H
#define JUDGE_NETWORK_H

/* Brings up the loopback of the calling process's (new, empty) network namespace. */
void bring_up_loopback(void);

#endif
