/* spawner.c: cgroup v1 threads of the init that fork each run's child inside its cgroups. */
#ifndef JUDGE_SPAWNER_H
#define JUDGE_SPAWNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

struct spawner;
int spawners_start(int cpu, int count, char *err, size_t errcap);
struct spawner *spawner_get(int index);
int spawner_send_join(struct spawner *s, const int run_fds[], const int slot_fds[], int count,
                      const char *name);
int spawner_wait_joined(struct spawner *s, char *err, size_t errcap);
bool spawner_join_done(const struct spawner *s);
int spawner_fork_start(struct spawner *s, void (*child)(void *), void *arg);
pid_t spawner_fork_finish(struct spawner *s);
uint64_t spawner_cpu_in_cgroup_ns(const struct spawner *s);

#endif
