/* cgroup accounting and limits for each run: v1 (memory, cpuacct, pids hierarchies), v2 (one
 * unified hierarchy) or none. The slot's directories are created by the supervisor on the host
 * side; every run gets a fresh child cgroup "run" under them. */
#include "cgroups.h"

#include "slot.h"
#include "spawner.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <inttypes.h>
#include <signal.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { CG_MEMORY, CG_CPU, CG_PIDS, CG_COUNT = CGROUP_V1_COUNT };
const char *const cgroup_v1_controllers[CG_COUNT] = {"memory", "cpuacct", "pids"};
const int cgroup_v1_controller_count = CG_COUNT;

_Static_assert(CG_PIDS + 1 == CG_COUNT, "one directory per v1 hierarchy");

/* A run's directories (one per v1 hierarchy, one on v2), made ahead of its request. */
struct run_dir {
    char name[32];
    int fd[CG_COUNT];
    int procs_fd[CG_COUNT];        /* for a child that moves itself in (no spawner) */
    bool ready;                    /* made, and no run has begun in it yet */
    uint64_t memory_set, pids_set; /* limits already written there */
    uint64_t memory_hard_set;      /* the kernel's memory limit written there */
    struct spawner *spawner;       /* v1: the thread waiting in it to fork the run's child */
    uint64_t discounted_ns;        /* CPU of children discarded there before the run began */
};

static struct {
    enum cgroup_mode mode;
    int parent_fd[CG_COUNT]; /* where the slot directory lives */
    int slot_fd[CG_COUNT];   /* v2: only [0] is used */
    char slot_name[64];
    int count;             /* directories in use: 3 for v1, 1 for v2 */
    bool spawners;         /* v1: runs are forked by spawner threads (spawner.c) */
    int spawner_count;     /* two, or one for a one-shot slot */
    bool one_shot;         /* a one-shot slot: no directories for a run after its only one */
    unsigned serial;       /* run directories are named run-<serial> */
    struct run_dir run;    /* the next run's directories, or the running one's */
    struct run_dir queued; /* with spawners: the directories of the run after it */
    char stale_name[32];   /* without spawners: the finished run's, removed after the reply */
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
    for (char *line = buf; line && *line;
         line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, key, klen) == 0 && line[klen] == ' ') {
            *value = strtoull(line + klen + 1, NULL, 10);
            return 0;
        }
    }
    return -1;
}

/* One line of /proc/self/mountinfo: "id parent major:minor root mount-point options ... -
 * fstype source super-options". A v1 hierarchy's controllers are among its super options. */
struct mount_entry {
    char root[PATH_MAX], point[PATH_MAX];
    char fstype[32], options[1024];
};

static bool parse_mount_entry(const char *line, struct mount_entry *m) {
    const char *sep = strstr(line, " - ");
    char source[256];
    m->options[0] = '\0';
    return sep && sscanf(sep + 3, "%31s %255s %1023s", m->fstype, source, m->options) >= 2 &&
           sscanf(line, "%*s %*s %*s %4095s %4095s", m->root, m->point) == 2;
}

/* Whether the mount is the hierarchy of `controller` (a v1 controller name, or NULL for v2). */
static bool mount_is_hierarchy(struct mount_entry *m, const char *controller) {
    if (!controller)
        return strcmp(m->fstype, "cgroup2") == 0;
    if (strcmp(m->fstype, "cgroup") != 0)
        return false;
    char *rest;
    for (char *opt = strtok_r(m->options, ",", &rest); opt; opt = strtok_r(NULL, ",", &rest))
        if (strcmp(opt, controller) == 0)
            return true;
    return false;
}

/* /proc/self/cgroup and /proc/self/mountinfo, read once for every question a slot's creation
 * asks of them (is v2 usable, where is each v1 hierarchy): the kernel writes mountinfo out anew
 * at each read. NULL when unreadable, which reads as empty. */
struct proc_view {
    char *cgroup, *mountinfo;
};

static char *read_whole(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    size_t cap = 16384, len = 0;
    char *text = malloc(cap);
    while (text) {
        if (len + 1 == cap) {
            char *bigger = realloc(text, cap *= 2);
            if (!bigger)
                free(text);
            text = bigger;
            continue;
        }
        ssize_t n = read(fd, text + len, cap - 1 - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n < 0) {
                free(text);
                text = NULL;
            } else {
                text[len] = '\0';
            }
            break;
        }
        len += (size_t)n;
    }
    close(fd);
    return text;
}

static void proc_view_load(struct proc_view *v) {
    v->cgroup = read_whole("/proc/self/cgroup");
    v->mountinfo = read_whole("/proc/self/mountinfo");
}

static void proc_view_free(struct proc_view *v) {
    free(v->cgroup);
    free(v->mountinfo);
    v->cgroup = v->mountinfo = NULL;
}

/* The line at *cursor into `line` (cut at cap, without its newline); moves *cursor past it. */
static bool next_line(const char **cursor, char *line, size_t cap) {
    const char *start = *cursor;
    if (!start || !*start)
        return false;
    const char *end = strchr(start, '\n');
    size_t len = end ? (size_t)(end - start) : strlen(start);
    *cursor = end ? end + 1 : start + len;
    snprintf(line, cap, "%.*s", (int)len, start);
    return true;
}

/* This process's path in the hierarchy of `controller`, from /proc/self/cgroup (v2: the
 * "0::" line). */
static int own_cgroup_path(const struct proc_view *v, const char *controller, char *path,
                           size_t cap) {
    char line[4096];
    const char *cursor = v->cgroup;
    int rc = -1;
    while (rc < 0 && next_line(&cursor, line, sizeof(line))) {
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
            char *rest;
            for (char *n = strtok_r(copy, ",", &rest); n; n = strtok_r(NULL, ",", &rest))
                if (strcmp(n, controller) == 0)
                    match = true;
        }
        if (match) {
            snprintf(path, cap, "%s", second + 1);
            rc = 0;
        }
    }
    return rc;
}

/* Is `dir` the mount point `mp` or below it? */
static bool is_under(const char *dir, const char *mp) {
    size_t len = strlen(mp);
    if (strcmp(mp, "/") == 0)
        return true;
    return strncmp(dir, mp, len) == 0 && (dir[len] == '/' || dir[len] == '\0');
}

/* This process's cgroup directory in the hierarchy of `controller`: the mount point joined
 * with the cgroup's path below the mount's root. A container sees a subtree mounted at
 * /sys/fs/cgroup: the mount's root is then a prefix of the path /proc/self/cgroup gives, and
 * only the rest of that path lies under the mount point. mountinfo lists mounts in the order
 * they were made, so the visible one for a place is the last that covers it: a container
 * engine may mount a hidden, read-only copy first and hide it under a later mount. */
static int own_cgroup_dir(const struct proc_view *v, const char *controller, char *out,
                          size_t cap) {
    char path[PATH_MAX];
    if (own_cgroup_path(v, controller, path, sizeof(path)) < 0)
        return -1;
    char line[4096], found_point[PATH_MAX] = "";
    const char *cursor = v->mountinfo;
    struct mount_entry m;
    int rc = -1;
    while (next_line(&cursor, line, sizeof(line))) {
        if (!parse_mount_entry(line, &m))
            continue;
        if (rc == 0 && is_under(found_point, m.point))
            rc = -1; /* a later mount hides the one found so far */
        if (!mount_is_hierarchy(&m, controller))
            continue;
        size_t rlen = strcmp(m.root, "/") == 0 ? 0 : strlen(m.root);
        if (strncmp(path, m.root, rlen) != 0 || (path[rlen] != '/' && path[rlen] != '\0'))
            continue; /* this mount does not show our cgroup */
        const char *rest = path + rlen;
        int n = snprintf(out, cap, "%s%s", m.point, strcmp(rest, "/") == 0 ? "" : rest);
        if (n > 0 && (size_t)n < cap) {
            snprintf(found_point, sizeof(found_point), "%s", m.point);
            rc = 0;
        }
    }
    return rc;
}

static bool has_controllers_at(int dirfd, const char *file) {
    char buf[512];
    if (read_at(dirfd, file, buf, sizeof(buf)) < 0)
        return false;
    bool memory = false, pids = false;
    char *rest;
    for (char *name = strtok_r(buf, " \n", &rest); name; name = strtok_r(NULL, " \n", &rest)) {
        memory |= strcmp(name, "memory") == 0;
        pids |= strcmp(name, "pids") == 0;
    }
    return memory && pids;
}

static bool v2_has_controllers(const char *dir, const char *file) {
    int fd = open(dir, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool ok = has_controllers_at(fd, file);
    close(fd);
    return ok;
}

static bool usable_in(const struct proc_view *v, const char *controller, char *dir, size_t cap) {
    if (own_cgroup_dir(v, controller, dir, cap) < 0) {
        dir[0] = '\0';
        return false;
    }
    /* A v2 cgroup lists in cgroup.controllers what its parent lets its children use. */
    return controller || v2_has_controllers(dir, "cgroup.controllers");
}

bool cgroup_usable(const char *controller, char *dir, size_t cap) {
    struct proc_view v;
    proc_view_load(&v);
    bool usable = usable_in(&v, controller, dir, cap);
    proc_view_free(&v);
    return usable;
}

static enum cgroup_mode detect_in(const struct proc_view *v) {
    char dir[PATH_MAX];
    if (usable_in(v, NULL, dir, sizeof(dir)))
        return CGROUP_V2;
    for (int i = 0; i < CG_COUNT; i++)
        if (!usable_in(v, cgroup_v1_controllers[i], dir, sizeof(dir)))
            return CGROUP_NONE;
    return CGROUP_V1;
}

const char *cgroup_mode_name(enum cgroup_mode mode) {
    return mode == CGROUP_V1 ? "v1" : mode == CGROUP_V2 ? "v2" : "none";
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

/* SIGKILLs every process listed in a cgroup's cgroup.procs; returns how many were listed. */
static int kill_listed(int dirfd) {
    char buf[8192];
    if (read_at(dirfd, "cgroup.procs", buf, sizeof(buf)) < 0)
        return 0;
    int listed = 0;
    for (char *item = strtok(buf, "\n"); item; item = strtok(NULL, "\n")) {
        long pid = strtol(item, NULL, 10);
        listed++;
        if (pid > 0)
            kill((pid_t)pid, SIGKILL);
    }
    return listed;
}

/* Kills what is left in the run directories of a dead supervisor's slot and removes them:
 * a supervisor killed with SIGKILL leaves its runs' cgroups behind, and their last processes
 * may not be reaped yet. Only processes visible in our pid namespace are killed (cgroup.procs
 * lists no other), never with cgroup.kill, which would reach every namespace. True when the
 * slot's directory is gone; false when a directory is still busy (on v2 a dying process has
 * left cgroup.procs but keeps its cgroup populated until it is reaped): the caller sweeps
 * again later. */
static bool remove_slot_dir(int parent, const char *name) {
    int slot = openat(parent, name, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
    if (slot < 0)
        return errno == ENOENT;
    DIR *runs = opendir_at(slot, ".");
    struct dirent *run;
    while (runs && (run = readdir(runs))) {
        if (strncmp(run->d_name, "run", 3) != 0)
            continue;
        int run_fd = openat(slot, run->d_name, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
        for (int attempt = 0; run_fd >= 0 && attempt < 200 && kill_listed(run_fd) > 0; attempt++)
            usleep(5000);
        if (run_fd >= 0)
            close(run_fd);
        unlinkat(slot, run->d_name, AT_REMOVEDIR);
    }
    if (runs)
        closedir(runs);
    close(slot);
    return unlinkat(parent, name, AT_REMOVEDIR) == 0 || errno == ENOENT;
}

/* The pid namespace a slot's supervisor pid means something in: judges in other pid
 * namespaces (containers, `unshare --pid`) may share a parent cgroup, and their pids say
 * nothing here. */
static unsigned long long own_pid_namespace(void) {
    struct stat st;
    return stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long long)st.st_ino : 0;
}

/* Alive, and not a zombie its parent has yet to reap (a zombie holds its pid). A pidfd polls
 * readable once its process has exited: three light calls, where reading /proc/PID/stat (the
 * kernel formats fifty fields) cost each of the slots alive on the host a sweep's tenth of a
 * millisecond. Anything unclear counts as alive: its directories stay. */
static bool process_alive(int pid) {
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (pidfd < 0) {
        /* EINVAL: the pid is no process's, only a thread's or the session or process group
         * an exited leader left behind (a killed supervisor's session lives on in its init),
         * which Linux before 6.9 answers so rather than with ESRCH. Without pidfd_open
         * (before 5.3), a zombie counts as alive. */
        if (errno == ESRCH || errno == EINVAL)
            return false;
        return !(errno == ENOSYS && kill(pid, 0) < 0 && errno == ESRCH);
    }
    struct pollfd exited = {.fd = pidfd, .events = POLLIN};
    int ready = poll(&exited, 1, 0);
    close(pidfd);
    return !(ready == 1 && (exited.revents & POLLIN));
}

/* Removes slot directories left by supervisors of our pid namespace that were killed before
 * they could clean up (named judge-<pid>-slot<n>-ns<pid namespace>, <pid> no longer alive);
 * returns how many are still there. */
static int sweep_stale(int parent) {
    DIR *dir = opendir_at(parent, ".");
    if (!dir)
        return 0;
    unsigned long long ours = own_pid_namespace();
    int left = 0;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        int pid, slot;
        unsigned long long ns;
        if (sscanf(entry->d_name, "judge-%d-slot%d-ns%llu", &pid, &slot, &ns) != 3 || pid <= 0 ||
            ns != ours || process_alive(pid))
            continue;
        if (!remove_slot_dir(parent, entry->d_name))
            left++;
    }
    closedir(dir);
    return left;
}

int cgroup_sweep_stale(void) {
    int left = 0;
    for (int i = 0; i < cg.count; i++)
        if (cg.parent_fd[i] >= 0)
            left += sweep_stale(cg.parent_fd[i]);
    return left;
}

static int make_slot_dir(int parent, int *slot_fd) {
    if (mkdirat(parent, cg.slot_name, 0755) < 0 && errno != EEXIST)
        return -1;
    *slot_fd = openat(parent, cg.slot_name, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
    return *slot_fd < 0 ? -1 : 0;
}

static int slot_create_v1(const struct proc_view *v, char *err, size_t errcap) {
    for (int i = 0; i < CG_COUNT; i++) {
        char dir[PATH_MAX];
        if (own_cgroup_dir(v, cgroup_v1_controllers[i], dir, sizeof(dir)) < 0) {
            snprintf(err, errcap, "cgroup v1 controller %s is not mounted",
                     cgroup_v1_controllers[i]);
            return -1;
        }
        cg.parent_fd[i] = open_dir(dir);
        if (cg.parent_fd[i] < 0 || make_slot_dir(cg.parent_fd[i], &cg.slot_fd[i]) < 0) {
            snprintf(err, errcap, "cgroup v1 %s: cannot create a directory in %s: %s",
                     cgroup_v1_controllers[i], dir, strerror(errno));
            return -1;
        }
        cg.count = i + 1;
    }
    return 0;
}

static int enable_controllers(int dirfd) {
    if (write_at(dirfd, "cgroup.subtree_control", "+memory +pids +cpu") == 0)
        return 0;
    return write_at(dirfd, "cgroup.subtree_control", "+memory +pids");
}

/* v2's "no internal processes" rule: a cgroup (other than the root) that enables controllers
 * for its children may hold no process itself. The judge's own cgroup usually holds the judge
 * (and whatever started it), so they all move into the leaf LEAF_NAME under it first. */
#define LEAF_NAME "judge-leaf"

static int move_processes_into_leaf(int base, const char *base_path, char *err, size_t errcap) {
    if (mkdirat(base, LEAF_NAME, 0755) < 0 && errno != EEXIST) {
        snprintf(err, errcap, "cgroup v2: cannot create %s/%s: %s", base_path, LEAF_NAME,
                 strerror(errno));
        return -1;
    }
    int leaf = openat(base, LEAF_NAME, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
    if (leaf < 0) {
        snprintf(err, errcap, "cgroup v2: %s/%s: %s", base_path, LEAF_NAME, strerror(errno));
        return -1;
    }
    /* Processes may be forked while we move their parents: go round until none is left. */
    for (int round = 0; round < 50; round++) {
        char buf[8192];
        if (read_at(base, "cgroup.procs", buf, sizeof(buf)) < 0 || buf[0] == '\0')
            break;
        for (char *item = strtok(buf, "\n"); item; item = strtok(NULL, "\n")) {
            if (write_at(leaf, "cgroup.procs", item) < 0 && errno != ESRCH) {
                snprintf(err, errcap, "cgroup v2: cannot move process %s out of %s into %s: %s",
                         item, base_path, LEAF_NAME, strerror(errno));
                close(leaf);
                return -1;
            }
        }
    }
    close(leaf);
    return 0;
}

/* Where a v2 slot goes: the judge's own cgroup, the only subtree it may change. When the judge
 * already lives in the leaf it made, the cgroup above the leaf. */
static int own_base_v2(const struct proc_view *v, char *path, size_t cap, char *err,
                       size_t errcap) {
    if (own_cgroup_dir(v, NULL, path, cap) < 0) {
        snprintf(err, errcap, "cgroup v2: this process's cgroup is not visible under any mount");
        return -1;
    }
    char *slash = strrchr(path, '/');
    if (slash && strcmp(slash + 1, LEAF_NAME) == 0)
        *slash = '\0';
    int base = open_dir(path);
    if (base < 0)
        snprintf(err, errcap, "cgroup v2: %s: %s", path, strerror(errno));
    return base;
}

static int slot_create_v2(const struct proc_view *v, char *err, size_t errcap) {
    char base_path[PATH_MAX];
    int base = own_base_v2(v, base_path, sizeof(base_path), err, errcap);
    if (base < 0)
        return -1;
    cg.parent_fd[0] = base;
    if (!has_controllers_at(base, "cgroup.subtree_control")) {
        if (!has_controllers_at(base, "cgroup.controllers")) {
            snprintf(
                err, errcap,
                "cgroup v2: %s is not given the memory and pids controllers "
                "(delegate them: systemd Delegate=yes, or a container with --cgroupns=private)",
                base_path);
            return -1;
        }
        /* The hierarchy's root has no cgroup.type: its controllers belong to the host. */
        if (faccessat(base, "cgroup.type", F_OK, 0) < 0) {
            snprintf(err, errcap,
                     "cgroup v2: the judge runs in the root cgroup, whose "
                     "subtree_control lacks memory and pids; the judge does not change the "
                     "host's root: start it in a delegated cgroup (systemd Delegate=yes)");
            return -1;
        }
        if (faccessat(base, "cgroup.subtree_control", W_OK, AT_EACCESS) < 0) {
            snprintf(err, errcap,
                     "cgroup v2: %s is not delegated to uid %d (systemd-run --user "
                     "--scope -p Delegate=yes, or a container with --cgroupns=private and a "
                     "writable cgroup mount)",
                     base_path, (int)geteuid());
            return -1;
        }
        if (move_processes_into_leaf(base, base_path, err, errcap) < 0)
            return -1;
        if (enable_controllers(base) < 0) {
            snprintf(err, errcap, "cgroup v2: cannot enable memory and pids in %s: %s", base_path,
                     strerror(errno));
            return -1;
        }
    }
    if (make_slot_dir(base, &cg.slot_fd[0]) < 0 || enable_controllers(cg.slot_fd[0]) < 0) {
        snprintf(err, errcap, "cgroup v2: cannot create a slot in %s: %s", base_path,
                 strerror(errno));
        return -1;
    }
    cg.count = 1;
    return 0;
}

static void run_dir_clear(struct run_dir *d) {
    memset(d, 0, sizeof(*d));
    for (int i = 0; i < CG_COUNT; i++)
        d->fd[i] = d->procs_fd[i] = -1;
}

static void run_dir_close(struct run_dir *d) {
    for (int i = 0; i < CG_COUNT; i++) {
        if (d->procs_fd[i] >= 0)
            close(d->procs_fd[i]);
        if (d->fd[i] >= 0)
            close(d->fd[i]);
    }
    run_dir_clear(d);
}

int cgroup_slot_create(struct slot_config *cfg, char *err, size_t errcap) {
    for (int i = 0; i < CG_COUNT; i++)
        cg.parent_fd[i] = cg.slot_fd[i] = -1;
    run_dir_clear(&cg.run);
    run_dir_clear(&cg.queued);
    snprintf(cg.slot_name, sizeof(cg.slot_name), "judge-%d-slot%d-ns%llu", (int)getpid(), cfg->slot,
             own_pid_namespace());
    struct proc_view view = {NULL, NULL};
    if (cfg->cgroup_auto || cfg->cgroup != CGROUP_NONE)
        proc_view_load(&view);
    if (cfg->cgroup_auto)
        cfg->cgroup = detect_in(&view);
    cg.mode = cfg->cgroup;
    int rc = 0;
    if (cg.mode == CGROUP_V1)
        rc = slot_create_v1(&view, err, errcap);
    else if (cg.mode == CGROUP_V2)
        rc = slot_create_v2(&view, err, errcap);
    proc_view_free(&view);
    if (rc < 0) {
        cgroup_slot_destroy();
        if (!cfg->cgroup_auto)
            return -1;
        cfg->cgroup = cg.mode = CGROUP_NONE;
        snprintf(cfg->cgroup_reason, sizeof(cfg->cgroup_reason), "%s", err);
        err[0] = '\0';
    } else if (cg.mode == CGROUP_NONE) {
        snprintf(cfg->cgroup_reason, sizeof(cfg->cgroup_reason), "%s",
                 cfg->cgroup_auto ? "no cgroup hierarchy offers the memory and pids controllers"
                                  : "asked for no cgroup");
    }
    return 0;
}

/* Called by the outer supervisor once the slot's init is gone: the run directories were made
 * by the init, so they are found by name. */
void cgroup_slot_destroy(void) {
    for (int i = 0; i < CG_COUNT; i++) {
        if (cg.slot_fd[i] >= 0) {
            close(cg.slot_fd[i]);
            remove_slot_dir(cg.parent_fd[i], cg.slot_name);
        }
        if (cg.parent_fd[i] >= 0)
            close(cg.parent_fd[i]);
        cg.parent_fd[i] = cg.slot_fd[i] = -1;
    }
}

/* Called by the slot's init before its first run: on v1, runs are forked by spawner threads
 * waiting in their cgroups (spawner.c explains why). */
int cgroup_serve_begin(const struct slot_config *cfg, char *err, size_t errcap) {
    cg.one_shot = cfg->one_shot;
    if (cg.mode != CGROUP_V1)
        return 0;
    cg.spawner_count = cfg->one_shot ? 1 : 2;
    if (spawners_start(cfg->cpu, cg.spawner_count, err, errcap) < 0)
        return -1;
    cg.spawners = true;
    return 0;
}

static int set_limit(int dirfd, const char *file, uint64_t value) {
    char buf[32];
    snprintf(buf, sizeof(buf), "%" PRIu64, value);
    return write_at(dirfd, file, buf);
}

static int write_limits(struct run_dir *d, uint64_t memory, uint64_t processes) {
    /* A little headroom above the stated limit: MLE is decided from the measured peak, the
     * kernel's limit only stops a runaway. */
    uint64_t hard = memory + memory / 8 + (4u << 20);
    if (d->memory_set != memory) {
        if (cg.mode == CGROUP_V1) {
            /* memory.memsw.limit_in_bytes (absent without swap accounting; where present, swap
             * must not extend the limit) may never be below memory.limit_in_bytes: raise it
             * first when the limit goes up. */
            bool raising = hard > d->memory_hard_set;
            if (raising)
                set_limit(d->fd[CG_MEMORY], "memory.memsw.limit_in_bytes", hard);
            if (set_limit(d->fd[CG_MEMORY], "memory.limit_in_bytes", hard) < 0)
                return -1;
            if (!raising)
                set_limit(d->fd[CG_MEMORY], "memory.memsw.limit_in_bytes", hard);
        } else {
            if (set_limit(d->fd[0], "memory.max", hard) < 0)
                return -1;
            write_at(d->fd[0], "memory.swap.max", "0");
        }
        d->memory_set = memory;
        d->memory_hard_set = hard;
    }
    if (d->pids_set != processes) {
        /* The spawner thread waiting in the directory is a task of its pids controller. */
        uint64_t tasks = processes + (cg.spawners ? 1 : 0);
        if (set_limit(d->fd[cg.mode == CGROUP_V1 ? CG_PIDS : 0], "pids.max", tasks) < 0)
            return -1;
        d->pids_set = processes;
    }
    return 0;
}

/* The spawner not waiting in the next run's directories nor in those after them. */
static struct spawner *free_spawner(void) {
    for (int i = 0; i < cg.spawner_count; i++) {
        struct spawner *s = spawner_get(i);
        if (cg.run.spawner != s && cg.queued.spawner != s)
            return s;
    }
    return NULL;
}

static int make_run_dir(struct run_dir *d, uint64_t memory, uint64_t processes) {
    run_dir_close(d); /* what a failed attempt left */
    snprintf(d->name, sizeof(d->name), "run-%u", ++cg.serial);
    d->memory_hard_set = UINT64_MAX; /* a new directory starts unlimited */
    for (int i = 0; i < cg.count; i++) {
        if (mkdirat(cg.slot_fd[i], d->name, 0755) < 0)
            return -1;
        d->fd[i] = openat(cg.slot_fd[i], d->name, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
        if (d->fd[i] < 0)
            return -1;
        if (!cg.spawners &&
            (d->procs_fd[i] = openat(d->fd[i], "cgroup.procs", O_WRONLY | O_CLOEXEC)) < 0)
            return -1;
    }
    if (memory && write_limits(d, memory, processes) < 0)
        return -1;
    if (cg.spawners) {
        /* It moves in now, well before the run, and removes the directory it leaves. */
        /* cpuacct last: the spawner's CPU clock is read once it is in, and what it does in
         * the other hierarchies' writes must not reach the run's CPU figure. */
        int join_order[CG_COUNT] = {d->fd[CG_MEMORY], d->fd[CG_PIDS], d->fd[CG_CPU]};
        d->spawner = free_spawner();
        if (!d->spawner ||
            spawner_send_join(d->spawner, join_order, cg.slot_fd, cg.count, d->name) < 0)
            return -1;
    }
    d->ready = true;
    return 0;
}

/* Makes the next run's directories ahead of time, with the limits of the last run (the next
 * one usually has the same), so that a request finds its cgroup ready. */
int cgroup_prepare(uint64_t memory, uint64_t processes) {
    if (cg.mode == CGROUP_NONE || cg.run.ready)
        return 0;
    return make_run_dir(&cg.run, memory, processes);
}

/* With spawners, the directories of the run after the next one, for the spawner the last run
 * freed: made while a run is under way, so that neither they nor the spawner's move are between
 * a reply and the next run. A one-shot slot has no run after its first. A failure is met again,
 * and reported, when a run needs them. */
int cgroup_prepare_after_next(uint64_t memory, uint64_t processes) {
    if (!cg.spawners || cg.one_shot || cg.queued.ready || !free_spawner())
        return 0;
    return make_run_dir(&cg.queued, memory, processes);
}

int cgroup_run_begin(const struct run_request *req, char *err, size_t errcap) {
    if (cg.mode == CGROUP_NONE)
        return 0;
    if (cgroup_prepare(0, 0) < 0 || write_limits(&cg.run, req->memory_bytes, req->processes) < 0) {
        snprintf(err, errcap, "cgroup setup: %s", strerror(errno));
        return -1;
    }
    if (cg.run.spawner && spawner_wait_joined(cg.run.spawner, err, errcap) < 0)
        return -1;
    cg.run.ready = false; /* these directories are now the run's; the next run gets fresh ones */
    return 0;
}

struct spawner *cgroup_run_spawner(void) {
    return cg.run.spawner;
}

/* Whether a child can be forked into the next run's directories now: 1 yes, 0 not yet (they
 * are not made, or without `wait`, their spawner is still on its way in), -1 its join failed. */
int cgroup_next_child_ready(bool wait, char *err, size_t errcap) {
    if (cg.mode == CGROUP_NONE)
        return 1;
    if (!cg.run.ready)
        return 0;
    if (!cg.run.spawner)
        return 1;
    if (!wait && !spawner_join_done(cg.run.spawner))
        return 0;
    return spawner_wait_joined(cg.run.spawner, err, errcap) < 0 ? -1 : 1;
}

/* A child that was forked into the run's directories and discarded before the run began: its
 * CPU time is not the program's. */
void cgroup_discount_cpu(uint64_t ns) { cg.run.discounted_ns += ns; }

/* Called in the child before exec: moves it into the run's cgroups. */
int cgroup_attach_self(void) {
    for (int i = 0; i < cg.count; i++) {
        if (cg.run.procs_fd[i] >= 0 && write(cg.run.procs_fd[i], "0", 1) != 1)
            return -1;
    }
    return 0;
}

/* The run's directory, for clone3's CLONE_INTO_CGROUP (v2 only; -1 otherwise). */
int cgroup_run_dir_v2(void) { return cg.mode == CGROUP_V2 ? cg.run.fd[0] : -1; }

/* The CPU time of the run's processes: the cgroup's, less the spawner thread's in it and the
 * discarded children's. */
int cgroup_cpu_ns(uint64_t *ns) {
    uint64_t used;
    if (cg.mode == CGROUP_V1) {
        if (read_u64_at(cg.run.fd[CG_CPU], "cpuacct.usage", &used) < 0)
            return -1;
    } else if (cg.mode == CGROUP_V2) {
        uint64_t usec;
        if (read_key_at(cg.run.fd[0], "cpu.stat", "usage_usec", &usec) < 0)
            return -1;
        used = usec * 1000;
    } else {
        return -1;
    }
    uint64_t spawner = cg.run.spawner ? spawner_cpu_in_cgroup_ns(cg.run.spawner) : 0;
    uint64_t not_the_run = spawner + cg.run.discounted_ns;
    *ns = used > not_the_run ? used - not_the_run : 0;
    return 0;
}

void cgroup_kill_all(void) {
    if (cg.mode == CGROUP_V2 && cg.run.fd[0] >= 0)
        write_at(cg.run.fd[0], "cgroup.kill", "1");
}

/* Reads the run's figures into `res`; the directory is removed after the reply (cgroup_cleanup,
 * or with spawners by the spawner as it moves on). */
void cgroup_run_end(struct run_result *res) {
    if (cg.mode == CGROUP_NONE || cg.run.fd[0] < 0)
        return;
    uint64_t value;
    const char *source = cg.mode == CGROUP_V1 ? "cgroup-v1" : "cgroup-v2";
    if (cgroup_cpu_ns(&value) == 0) {
        res->cpu_ns = value;
        res->cpu_source = source;
    }
    if (cg.mode == CGROUP_V1) {
        if (read_u64_at(cg.run.fd[CG_MEMORY], "memory.max_usage_in_bytes", &value) == 0) {
            res->memory_bytes = value;
            res->memory_source = source;
        }
        if (read_key_at(cg.run.fd[CG_MEMORY], "memory.oom_control", "oom_kill", &value) == 0)
            res->oom_kills = value;
    } else {
        if (read_u64_at(cg.run.fd[0], "memory.peak", &value) == 0) {
            res->memory_bytes = value;
            res->memory_source = source;
        }
        if (read_key_at(cg.run.fd[0], "memory.events", "oom_kill", &value) == 0)
            res->oom_kills = value;
    }
    if (!cg.spawners)
        snprintf(cg.stale_name, sizeof(cg.stale_name), "%s", cg.run.name);
    /* Also when the run failed before it began: the directory is spent. */
    run_dir_close(&cg.run);
    cg.run = cg.queued;
    run_dir_clear(&cg.queued);
}

int cgroup_cleanup(char *err, size_t errcap) {
    if (cg.mode == CGROUP_NONE || !cg.stale_name[0])
        return 0;
    int rc = remove_run_dir(cg.slot_fd, cg.count, cg.stale_name, err, errcap);
    cg.stale_name[0] = '\0';
    return rc;
}
