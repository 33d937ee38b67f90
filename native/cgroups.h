/* What cgroup_detect sees, shared by the supervisor and judge doctor (through judge._native),
 * so that the doctor reports the detection the sandbox uses. */
#ifndef JUDGE_CGROUPS_H
#define JUDGE_CGROUPS_H

#include <stdbool.h>
#include <stddef.h>

enum cgroup_mode { CGROUP_NONE = 0, CGROUP_V1 = 1, CGROUP_V2 = 2 };

/* The v1 hierarchies a v1 slot needs, in the order the slot uses them. */
enum { CGROUP_V1_COUNT = 3 };
extern const char *const cgroup_v1_controllers[];
extern const int cgroup_v1_controller_count;

/* The hierarchy of `controller` (a v1 controller name, or NULL for v2): writes this process's
 * directory in it to `dir` (empty when no mount shows it) and says whether the sandbox can use
 * it (for v2, its cgroup.controllers must offer memory and pids). */
bool cgroup_usable(const char *controller, char *dir, size_t cap);
/* What --cgroup auto starts from: v2 when usable, else v1 when all its hierarchies are. */
enum cgroup_mode cgroup_detect(void);
const char *cgroup_mode_name(enum cgroup_mode mode);

#endif
