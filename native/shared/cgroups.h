/* The sandbox's cgroups. What cgroup_usable sees is shared by the supervisor's detection (--cgroup
 * auto: v2 when usable, else v1 when all its hierarchies are) and judge doctor (through
 * judge._native), so that the doctor reports the detection the sandbox uses. */
#ifndef JUDGE_CGROUPS_H
#define JUDGE_CGROUPS_H

#include "cgroup_dirs.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cgroup_mode { CGROUP_NONE = 0, CGROUP_V1 = 1, CGROUP_V2 = 2 };

/* The v1 hierarchies a v1 slot needs (CGROUP_V1_COUNT), in the order the slot uses them. */
extern const char *const cgroup_v1_controllers[];
extern const int cgroup_v1_controller_count;

/* The hierarchy of `controller` (a v1 controller name, or NULL for v2): writes this process's
 * directory in it to `dir` (empty when no mount shows it) and says whether the sandbox can use
 * it (for v2, its cgroup.controllers must offer memory and pids). */
bool cgroup_usable(const char *controller, char *dir, size_t cap);
const char *cgroup_mode_name(enum cgroup_mode mode);

/* The slot's cgroups (the supervisor's side; judge doctor uses only the detection above). */
struct slot_config;
struct run_request;
struct run_result;
struct spawner;
int cgroup_slot_create(struct slot_config *cfg, char *err, size_t errcap);
void cgroup_slot_destroy(void);
/* Removes the cgroups of slots whose supervisor died without cleaning up; returns how many
 * dead slots' directories are still busy (their last processes not yet reaped). */
int cgroup_sweep_stale(void);
int cgroup_serve_begin(const struct slot_config *cfg, char *err, size_t errcap);
int cgroup_prepare(uint64_t memory, uint64_t processes);
int cgroup_prepare_after_next(uint64_t memory, uint64_t processes);
int cgroup_run_begin(const struct run_request *req, char *err, size_t errcap);
struct spawner *cgroup_run_spawner(void); /* the thread to fork the run's child; NULL: fork */
int cgroup_next_child_ready(bool wait, char *err, size_t errcap);
void cgroup_discount_cpu(uint64_t ns);
int cgroup_cleanup(char *err, size_t errcap);
int cgroup_attach_self(void);
int cgroup_run_dir_v2(void);
int cgroup_cpu_ns(uint64_t *ns);
void cgroup_run_end(struct run_result *res);
void cgroup_kill_all(void);

#endif
