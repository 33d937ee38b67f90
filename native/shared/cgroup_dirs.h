/* A run's cgroup directories, as both the slot's cgroups (cgroups.c) and a spawner thread
 * (spawner.c) handle them: how many a v1 run has, and their removal. Their own file, so that
 * the dependency is one-way: cgroups.c uses the spawners, and spawner.c needs no cgroups.h. */
#ifndef JUDGE_CGROUP_DIRS_H
#define JUDGE_CGROUP_DIRS_H

#include <stddef.h>

/* The v1 hierarchies a v1 slot uses: cgroups.c makes a run directory in each, a spawner thread
 * joins them all. */
enum { CGROUP_V1_COUNT = 3 };

/* Removes a finished run's directories. Every task is dead and reaped by then; a cgroup that
 * stays busy is a judge failure. */
int remove_run_dir(const int slot_fds[], int count, const char *name, char *err, size_t errcap);

#endif
