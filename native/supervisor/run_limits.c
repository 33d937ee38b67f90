/* The run's rlimits, set on the parked child by the supervisor (prlimit). */
#include "run_limits.h"

#include "run.h"
#include "slot.h"

#include <stdio.h>
#include <sys/resource.h>

/* The request's rlimits, set on the parked child from here: it could not set them itself
 * without calls its filter may refuse. */
bool limit_child(struct run *run) {
    const struct run_request *req = run->req;
    uint64_t cpu_seconds = req->cpu_ms / 1000 + (req->cpu_ms % 1000 != 0) + 1;
    const struct {
        int resource;
        uint64_t soft, hard;
        const char *name;
    } limits[] = {
        {RLIMIT_CPU, cpu_seconds, cpu_seconds + 1, "RLIMIT_CPU"},
        {RLIMIT_STACK, req->memory_bytes, req->memory_bytes, "RLIMIT_STACK"},
        {RLIMIT_FSIZE, req->file_size_bytes, req->file_size_bytes, "RLIMIT_FSIZE"},
        {RLIMIT_NOFILE, req->open_files, req->open_files, "RLIMIT_NOFILE"},
        {RLIMIT_CORE, 0, 0, "RLIMIT_CORE"},
        {RLIMIT_MSGQUEUE, 0, 0, "RLIMIT_MSGQUEUE"},
        {RLIMIT_NPROC, req->processes, req->processes, "RLIMIT_NPROC"},
        {RLIMIT_AS, req->address_space_bytes, req->address_space_bytes, "RLIMIT_AS"},
    };
    for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
        if (limits[i].resource == RLIMIT_AS && !req->address_space_bytes)
            continue;
        struct rlimit rl = {.rlim_cur = limits[i].soft, .rlim_max = limits[i].hard};
        if (prlimit(run->child, (enum __rlimit_resource)limits[i].resource, &rl, NULL) < 0) {
            char what[64];
            snprintf(what, sizeof(what), "sandbox setup: %s", limits[i].name);
            abandon_child(run, what);
            return false;
        }
    }
    return true;
}
