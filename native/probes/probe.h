/* Kernel feature probes used by `judge doctor` (in-process, through cffi). */
#ifndef JUDGE_PROBE_H
#define JUDGE_PROBE_H

int judge_probe_cpu_clock(double *read_ms);
int judge_probe_pidfd(void);
int judge_probe_userns(void);
int judge_probe_seccomp(void);

#endif
