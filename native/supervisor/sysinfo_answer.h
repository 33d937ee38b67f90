/* sysinfo(2) answered by the supervisor with the run's own figures: see sysinfo_answer.c. */
#ifndef JUDGE_SYSINFO_ANSWER_H
#define JUDGE_SYSINFO_ANSWER_H

#include <linux/seccomp.h>
#include <stdbool.h>
#include <stdint.h>

bool is_sysinfo_call(const struct seccomp_notif *notice);

/* Writes neutral figures into the caller's struct sysinfo (EFAULT for a bad pointer) and lets
 * the call return. */
void answer_sysinfo(int listener, const struct seccomp_notif *notice, uint64_t memory_bytes,
                    uint64_t uptime_s);

#endif
