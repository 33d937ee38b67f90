/* cgroup accounting and limits for each run: v1 (memory, cpuacct, pids hierarchies), v2 (one
 * unified hierarchy) or none. The slot's directories are created by the supervisor on the host
 * side; every run gets a fresh child cgroup "run" under them. */
#include "supervisor.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <inttypes.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { CG_MEMORY, CG_CPU, CG_PIDS, CG_COUNT };
static const char *const v1_controllers[CG_COUNT] = {"memory", "cpuacct", "pids"};

static struct {
    enum cgroup_mode mode;
    int parent_fd[CG_COUNT];    /* where the slot directory lives */
    int slot_fd[CG_COUNT];      /* v2: only [0] is used */
    int run_fd[CG_COUNT];
    int procs_fd[CG_COUNT];
    char slot_name[64];
    int count;                  /* directories in use: 3 for v1, 1 for v2 */
    unsigned serial;            /* run directories are named run-<serial> */
    char run_name[32];          /* the prepared (or running) run's directory */
    char stale_name[32];        /* the finished run's directory, removed after the reply */
    bool prepared;
    uint64_t memory_set, pids_set; /* limits already written to the prepared directory */
} cg = {.mode = CGROUP_NONE};

static int write_at(int dirfd, const char *file, const char *value) {
    int fd = openat(dirfd, file, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t len = strlen(value);
    ssize_t n = write(fd, value, len);
    int saved = errno;
    close(fd);
    errno = saved;
    return n == (ssize_t)len ? 0 : -1;
}

static int read_at(int dirfd, const char *file, char *buf, size_t cap) {
    int fd = openat(dirfd, file, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, cap - 1);
    close(fd);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    return 0;
}

static int read_u64_at(int dirfd, const char *file, uint64_t *value) {
    char buf[64];
    if (read_at(dirfd, file, buf, sizeof(buf)) < 0)
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(buf, &end, 10);
    if (errno || end == buf)
        return -1;
    *value = v;
    return 0;
}

/* Finds "key N" in a flat-keyed cgroup file such as memory.events or cpu.stat. */
static int read_key_at(int dirfd, const char *file, const char *key, uint64_t *value) {
    char buf[4096];
    if (read_at(dirfd, file, buf, sizeof(buf)) < 0)
        return -1;
    size_t klen = strlen(key);
    for (char *line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ' ') {
            *value = strtoull(line + klen + 1, NULL, 10);
            return 0;
        }
    }
    return -1;
}

/* Mount point of a hierarchy (v1 controller name, or NULL for the v2 one) and this process's
 * path inside it, joined into `out`. */
static int own_cgroup_dir(const char *controller, char *out, size_t cap) {
    FILE *mi = fopen("/proc/self/mountinfo", "re");
    if (!mi)
        return -1;
    char line[4096], mountpoint[PATH_MAX] = "";
    while (fgets(line, sizeof(line), mi)) {
        char *sep = strstr(line, " - ");
        if (!sep)
            continue;
        char fstype[32], source[256], options[1024] = "", mp[PATH_MAX];
        if (sscanf(sep + 3, "%31s %255s %1023s", fstype, source, options) < 2)
            continue;
        if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1)
            continue;
        bool match = false;
        if (!controller) {
            match = strcmp(fstype, "cgroup2") == 0;
        } else if (strcmp(fstype, "cgroup") == 0) {
            for (char *opt = strtok(options, ","); opt; opt = strtok(NULL, ","))
                if (strcmp(opt, controller) == 0)
                    match = true;
        }
        if (match) {
            snprintf(mountpoint, sizeof(mountpoint), "%s", mp);
            break;
        }
    }
    fclose(mi);
    if (!mountpoint[0])
        return -1;

    FILE *self = fopen("/proc/self/cgroup", "re");
    if (!self)
        return -1;
    char path[PATH_MAX] = "";
    while (fgets(line, sizeof(line), self)) {
        char *first = strchr(line, ':');
        char *second = first ? strchr(first + 1, ':') : NULL;
        if (!second)
            continue;
        *second = '\0';
        const char *names = first + 1;
        bool match = false;
        if (!controller) {
            match = strncmp(line, "0", 1) == 0 && names[0] == '\0';
        } else {
            char copy[256];
            snprintf(copy, sizeof(copy), "%s", names);
            for (char *n = strtok(copy, ","); n; n = strtok(NULL, ","))
                if (strcmp(n, controller) == 0)
                    match = true;
        }
        if (match) {
            snprintf(path, sizeof(path), "%s", second + 1);
            path[strcspn(path, "\n")] = '\0';
            break;
        }
    }
    fclose(self);
    if (!path[0])
        return -1;
    int n = snprintf(out, cap, "%s%s", mountpoint, strcmp(path, "/") == 0 ? "" : path);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

static bool v2_has_controllers(const char *dir, const char *file) {
    char path[PATH_MAX], buf[512];
    snprintf(path, sizeof(path), "%s/%s", dir, file);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    return strstr(buf, "memory") && strstr(buf, "pids");
}

enum cgroup_mode cgroup_detect(void) {
    char dir[PATH_MAX];
    if (own_cgroup_dir(NULL, dir, sizeof(dir)) == 0) {
        char root[PATH_MAX];
        /* The controllers a v2 hierarchy offers show in its root's cgroup.controllers. */
        snprintf(root, sizeof(root), "%s", dir);
        if (v2_has_controllers(root, "cgroup.controllers"))
            return CGROUP_V2;
    }
    for (int i = 0; i < CG_COUNT; i++) {
        if (own_cgroup_dir(v1_controllers[i], dir, sizeof(dir)) < 0 || access(dir, W_OK) < 0)
            return CGROUP_NONE;
    }
    return CGROUP_V1;
}

static int open_dir(const char *path) { return open(path, O_DIRECTORY | O_RDONLY | O_CLOEXEC); }

static DIR *opendir_at(int parent, const char *name) {
    int fd = openat(parent, name, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    DIR *dir = fdopendir(fd);
    if (!dir)
        close(fd);
    return dir;
}

/* Removes a slot directory with the run directories under it (which must hold no task). */
static void remove_slot_dir(int parent, const char *name) {
    DIR *runs = opendir_at(parent, name);
    if (!runs)
        return;
    struct dirent *run;
    while ((run = readdir(runs)))
        if (strncmp(run->d_name, "run", 3) == 0)
            unlinkat(dirfd(runs), run->d_name, AT_REMOVEDIR);
    closedir(runs);
    unlinkat(parent, name, AT_REMOVEDIR);
}

/* Removes slot directories left by supervisors that were killed before they could clean up
 * (named judge-<pid>-slot<n>, with <pid> no longer alive). Busy ones are left alone. */
static void sweep_stale(int parent) {
    DIR *dir = opendir_at(parent, ".");
    if (!dir)
        return;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        int pid, slot;
        if (sscanf(entry->d_name, "judge-%d-slot%d", &pid, &slot) != 2 || pid <= 0 ||
            kill(pid, 0) == 0 || errno != ESRCH)
            continue;
        remove_slot_dir(parent, entry->d_name);
    }
    closedir(dir);
}

/* Called by the outer supervisor once the slot is running, off the start-up path. */
void cgroup_sweep_stale(void) {
    for (int i = 0; i < cg.count; i++)
        if (cg.parent_fd[i] >= 0)
            sweep_stale(cg.parent_fd[i]);
}

static int make_slot_dir(int parent, int *slot_fd) {
    if (mkdirat(parent, cg.slot_name, 0755) < 0 && errno != EEXIST)
        return -1;
    *slot_fd = openat(parent, cg.slot_name, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
    return *slot_fd < 0 ? -1 : 0;
}

static int slot_create_v1(char *err, size_t errcap) {
    for (int i = 0; i < CG_COUNT; i++) {
        char dir[PATH_MAX];
        if (own_cgroup_dir(v1_controllers[i], dir, sizeof(dir)) < 0) {
            snprintf(err, errcap, "cgroup v1 controller %s is not mounted", v1_controllers[i]);
            return -1;
        }
        cg.parent_fd[i] = open_dir(dir);
        if (cg.parent_fd[i] < 0 || make_slot_dir(cg.parent_fd[i], &cg.slot_fd[i]) < 0) {
            snprintf(err, errcap, "cgroup v1 %s: cannot create %s/%s: %s", v1_controllers[i], dir,
                     cg.slot_name, strerror(errno));
            return -1;
        }
        cg.count = i + 1;
    }
    return 0;
}

/* v2: the slot needs memory, pids and cpu enabled for its children. Its parent is this
 * process's own cgroup when that delegates controllers, else (as root) <root>/judge. */
static int slot_create_v2(char *err, size_t errcap) {
    char own[PATH_MAX];
    if (own_cgroup_dir(NULL, own, sizeof(own)) < 0) {
        snprintf(err, errcap, "no cgroup v2 hierarchy");
        return -1;
    }
    int parent = -1;
    if (v2_has_controllers(own, "cgroup.subtree_control") && access(own, W_OK) == 0) {
        parent = open_dir(own);
    } else if (geteuid() == 0) {
        char root[PATH_MAX];
        snprintf(root, sizeof(root), "%s", own);
        /* Walk up to the hierarchy root: the mount point. */
        FILE *mi = fopen("/proc/self/mountinfo", "re");
        char line[4096];
        while (mi && fgets(line, sizeof(line), mi)) {
            char mp[PATH_MAX];
            char *sep = strstr(line, " - cgroup2 ");
            if (sep && sscanf(line, "%*s %*s %*s %*s %4095s", mp) == 1) {
                snprintf(root, sizeof(root), "%s", mp);
                break;
            }
        }
        if (mi)
            fclose(mi);
        int root_fd = open_dir(root);
        if (root_fd >= 0) {
            write_at(root_fd, "cgroup.subtree_control", "+memory +pids +cpu");
            if (mkdirat(root_fd, "judge", 0755) < 0 && errno != EEXIST) {
                close(root_fd);
                snprintf(err, errcap, "cgroup v2: mkdir %s/judge: %s", root, strerror(errno));
                return -1;
            }
            parent = openat(root_fd, "judge", O_DIRECTORY | O_RDONLY | O_CLOEXEC);
            close(root_fd);
        }
    }
    if (parent < 0) {
        snprintf(err, errcap, "cgroup v2 is not delegated to this user");
        return -1;
    }
    if (write_at(parent, "cgroup.subtree_control", "+memory +pids +cpu") < 0 &&
        write_at(parent, "cgroup.subtree_control", "+memory +pids") < 0) {
        snprintf(err, errcap, "cgroup v2: cannot enable controllers: %s", strerror(errno));
        close(parent);
        return -1;
    }
    cg.parent_fd[0] = parent;
    if (make_slot_dir(parent, &cg.slot_fd[0]) < 0 ||
        (write_at(cg.slot_fd[0], "cgroup.subtree_control", "+memory +pids +cpu") < 0 &&
         write_at(cg.slot_fd[0], "cgroup.subtree_control", "+memory +pids") < 0)) {
        snprintf(err, errcap, "cgroup v2: slot directory: %s", strerror(errno));
        return -1;
    }
    cg.count = 1;
    return 0;
}

int cgroup_slot_create(struct slot_config *cfg, char *err, size_t errcap) {
    for (int i = 0; i < CG_COUNT; i++)
        cg.parent_fd[i] = cg.slot_fd[i] = cg.run_fd[i] = cg.procs_fd[i] = -1;
    snprintf(cg.slot_name, sizeof(cg.slot_name), "judge-%d-slot%d", (int)getpid(), cfg->slot);
    if (cfg->cgroup_auto)
        cfg->cgroup = cgroup_detect();
    cg.mode = cfg->cgroup;
    int rc = 0;
    if (cg.mode == CGROUP_V1)
        rc = slot_create_v1(err, errcap);
    else if (cg.mode == CGROUP_V2)
        rc = slot_create_v2(err, errcap);
    if (rc < 0) {
        cgroup_slot_destroy();
        if (!cfg->cgroup_auto)
            return -1;
        cfg->cgroup = cg.mode = CGROUP_NONE;
        err[0] = '\0';
    }
    return 0;
}

/* Called by the outer supervisor once the slot's init is gone: the run directories were made
 * by the init, so they are found by name. */
void cgroup_slot_destroy(void) {
    for (int i = 0; i < CG_COUNT; i++) {
        if (cg.procs_fd[i] >= 0)
            close(cg.procs_fd[i]);
        if (cg.run_fd[i] >= 0)
            close(cg.run_fd[i]);
        cg.procs_fd[i] = cg.run_fd[i] = -1;
        if (cg.slot_fd[i] >= 0) {
            close(cg.slot_fd[i]);
            remove_slot_dir(cg.parent_fd[i], cg.slot_name);
        }
        if (cg.parent_fd[i] >= 0)
            close(cg.parent_fd[i]);
        cg.parent_fd[i] = cg.slot_fd[i] = -1;
    }
}

static int set_limit(int dirfd, const char *file, uint64_t value) {
    char buf[32];
    snprintf(buf, sizeof(buf), "%" PRIu64, value);
    return write_at(dirfd, file, buf);
}

static int write_limits(uint64_t memory, uint64_t processes) {
    /* A little headroom above the stated limit: MLE is decided from the measured peak, the
     * kernel's limit only stops a runaway. */
    uint64_t hard = memory + memory / 8 + (4u << 20);
    if (cg.memory_set != memory) {
        if (cg.mode == CGROUP_V1) {
            if (set_limit(cg.run_fd[CG_MEMORY], "memory.limit_in_bytes", hard) < 0)
                return -1;
            /* Absent without swap accounting; where present, swap must not extend the limit. */
            set_limit(cg.run_fd[CG_MEMORY], "memory.memsw.limit_in_bytes", hard);
        } else {
            if (set_limit(cg.run_fd[0], "memory.max", hard) < 0)
                return -1;
            write_at(cg.run_fd[0], "memory.swap.max", "0");
        }
        cg.memory_set = memory;
    }
    if (cg.pids_set != processes) {
        if (set_limit(cg.run_fd[cg.mode == CGROUP_V1 ? CG_PIDS : 0], "pids.max", processes) < 0)
            return -1;
        cg.pids_set = processes;
    }
    return 0;
}

/* Creates the next run's directories ahead of time, with the limits of the last run (the next
 * one usually has the same), so that a request finds its cgroup ready. */
int cgroup_prepare(uint64_t memory, uint64_t processes) {
    if (cg.mode == CGROUP_NONE || cg.prepared)
        return 0;
    snprintf(cg.run_name, sizeof(cg.run_name), "run-%u", ++cg.serial);
    cg.memory_set = cg.pids_set = 0;
    for (int i = 0; i < cg.count; i++) {
        if (mkdirat(cg.slot_fd[i], cg.run_name, 0755) < 0)
            return -1;
        cg.run_fd[i] = openat(cg.slot_fd[i], cg.run_name, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
        if (cg.run_fd[i] < 0)
            return -1;
        cg.procs_fd[i] = openat(cg.run_fd[i], "cgroup.procs", O_WRONLY | O_CLOEXEC);
        if (cg.procs_fd[i] < 0)
            return -1;
    }
    cg.prepared = true;
    if (memory && write_limits(memory, processes) < 0)
        return -1;
    return 0;
}

int cgroup_run_begin(const struct run_request *req, char *err, size_t errcap) {
    if (cg.mode == CGROUP_NONE)
        return 0;
    if (cgroup_prepare(0, 0) < 0 || write_limits(req->memory_bytes, req->processes) < 0) {
        snprintf(err, errcap, "cgroup setup: %s", strerror(errno));
        return -1;
    }
    cg.prepared = false;  /* this directory is now the run's; the next run gets a fresh one */
    return 0;
}

/* Called in the child before exec: moves it into the run's cgroups. */
int cgroup_attach_self(void) {
    for (int i = 0; i < cg.count; i++) {
        if (cg.procs_fd[i] >= 0 && write(cg.procs_fd[i], "0", 1) != 1)
            return -1;
    }
    return 0;
}

int cgroup_cpu_ns(uint64_t *ns) {
    if (cg.mode == CGROUP_V1)
        return read_u64_at(cg.run_fd[CG_CPU], "cpuacct.usage", ns);
    if (cg.mode == CGROUP_V2) {
        uint64_t usec;
        if (read_key_at(cg.run_fd[0], "cpu.stat", "usage_usec", &usec) < 0)
            return -1;
        *ns = usec * 1000;
        return 0;
    }
    return -1;
}

void cgroup_kill_all(void) {
    if (cg.mode == CGROUP_V2 && cg.run_fd[0] >= 0)
        write_at(cg.run_fd[0], "cgroup.kill", "1");
}

/* Reads the run's figures into `res`; the directory is removed later by cgroup_cleanup. */
void cgroup_run_end(struct run_result *res) {
    if (cg.mode == CGROUP_NONE || cg.run_fd[0] < 0)
        return;
    uint64_t value;
    const char *source = cg.mode == CGROUP_V1 ? "cgroup-v1" : "cgroup-v2";
    if (cgroup_cpu_ns(&value) == 0) {
        res->cpu_ns = value;
        res->cpu_source = source;
    }
    if (cg.mode == CGROUP_V1) {
        if (read_u64_at(cg.run_fd[CG_MEMORY], "memory.max_usage_in_bytes", &value) == 0) {
            res->memory_bytes = value;
            res->memory_source = source;
        }
        if (read_key_at(cg.run_fd[CG_MEMORY], "memory.oom_control", "oom_kill", &value) == 0)
            res->oom_kills = value;
    } else {
        if (read_u64_at(cg.run_fd[0], "memory.peak", &value) == 0) {
            res->memory_bytes = value;
            res->memory_source = source;
        }
        if (read_key_at(cg.run_fd[0], "memory.events", "oom_kill", &value) == 0)
            res->oom_kills = value;
    }
    for (int i = 0; i < cg.count; i++) {
        if (cg.procs_fd[i] >= 0)
            close(cg.procs_fd[i]);
        if (cg.run_fd[i] >= 0)
            close(cg.run_fd[i]);
        cg.procs_fd[i] = cg.run_fd[i] = -1;
    }
    snprintf(cg.stale_name, sizeof(cg.stale_name), "%s", cg.run_name);
}

/* Removes the finished run's directories. Every task is dead and reaped by now; a cgroup that
 * stays busy is a judge failure. */
int cgroup_cleanup(char *err, size_t errcap) {
    if (cg.mode == CGROUP_NONE || !cg.stale_name[0])
        return 0;
    int rc = 0;
    for (int i = 0; i < cg.count; i++) {
        for (int attempt = 0; unlinkat(cg.slot_fd[i], cg.stale_name, AT_REMOVEDIR) < 0; attempt++) {
            if (errno != EBUSY || attempt >= 100) {
                snprintf(err, errcap, "cannot remove run cgroup: %s", strerror(errno));
                rc = -1;
                break;
            }
            usleep(1000);
        }
    }
    cg.stale_name[0] = '\0';
    return rc;
}
