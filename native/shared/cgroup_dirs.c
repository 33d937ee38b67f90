#include "cgroup_dirs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int remove_run_dir(const int slot_fds[], int count, const char *name, char *err, size_t errcap) {
    int rc = 0;
    for (int i = 0; i < count; i++) {
        for (int attempt = 0; unlinkat(slot_fds[i], name, AT_REMOVEDIR) < 0; attempt++) {
            if (errno != EBUSY || attempt >= 100) {
                snprintf(err, errcap, "cannot remove run cgroup: %s", strerror(errno));
                rc = -1;
                break;
            }
            usleep(1000);
        }
    }
    return rc;
}
