/* The sandbox's filesystem: a read-only root assembled from bind mounts of the host's toolchain
 * directories, the box at /box (a host directory, or a size-capped tmpfs), a size-capped tmpfs
 * /tmp, a fresh /proc and a minimal /dev. */
#include "mounts.h"

#include "log.h"
#include "slot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/mount.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SCAFFOLD "/tmp"
#define NEWROOT "/newroot"
#define OLDROOT "/oldroot"

/* Host paths every sandbox sees (read-only); missing ones are skipped. Beside the toolchains
 * themselves, the configuration their runtimes read at start-up, which holds no secrets: fpc.cfg
 * is a link through /etc/alternatives to the versioned file, and GHC's package database in
 * /var/lib/ghc is where /usr/lib/ghc/package.conf.d links to. */
static const char *const default_binds[] = {
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc/alternatives",
    "/etc/fpc.cfg",
    "/etc/fpc-3.2.2.cfg",
    "/etc/java-17-openjdk",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/mono",
    "/etc/php",
    "/etc/python3",
    "/etc/python3.11",
    "/etc/R",
    "/etc/racket",
    "/etc/ssl/certs/java",
    "/var/lib/ghc",
};

static const char *const device_nodes[] = {"null", "zero", "full", "random", "urandom"};

/* mkdir -p: one call in the common case, walking up only when a parent is missing. */
static void mkdir_p(const char *path, mode_t mode) {
    if (mkdir(path, mode) == 0 || errno == EEXIST)
        return;
    if (errno != ENOENT)
        die("mkdir %s: %m", path);
    char parent[PATH_MAX];
    if (snprintf(parent, sizeof(parent), "%s", path) >= (int)sizeof(parent))
        die("path too long: %s", path);
    char *slash = strrchr(parent, '/');
    if (!slash || slash == parent)
        die("mkdir %s: %m", path);
    *slash = '\0';
    mkdir_p(parent, 0755);
    if (mkdir(path, mode) < 0 && errno != EEXIST)
        die("mkdir %s: %m", path);
}

static void make_read_only(const char *target, unsigned long extra) {
    struct mount_attr attr = {.attr_set = MOUNT_ATTR_RDONLY | extra};
    if (syscall(SYS_mount_setattr, AT_FDCWD, target, AT_RECURSIVE, &attr, sizeof(attr)) == 0)
        return;
    /* Kernels before 5.12: remount the top mount only. */
    unsigned long flags = MS_REMOUNT | MS_BIND | MS_RDONLY;
    if (extra & MOUNT_ATTR_NOSUID)
        flags |= MS_NOSUID;
    if (extra & MOUNT_ATTR_NODEV)
        flags |= MS_NODEV;
    if (mount(NULL, target, NULL, flags, NULL) < 0)
        die("remount read-only %s: %m", target);
}

/* Reproduces host path `path` (absolute) inside the new root, read-only. */
static void bind_host_path(const char *path, const char *inside, bool writable) {
    char source[PATH_MAX], target[PATH_MAX];
    if (snprintf(source, sizeof(source), OLDROOT "%s", path) >= (int)sizeof(source) ||
        snprintf(target, sizeof(target), NEWROOT "%s", inside) >= (int)sizeof(target))
        die("path too long: %s", path);
    struct stat st;
    if (lstat(source, &st) < 0) {
        if (errno == ENOENT)
            return;
        die("stat %s: %m", path);
    }
    char parent[PATH_MAX];
    snprintf(parent, sizeof(parent), "%s", target);
    char *slash = strrchr(parent, '/');
    if (slash && slash != parent) {
        *slash = '\0';
        mkdir_p(parent, 0755);
    }
    if (S_ISLNK(st.st_mode)) {
        char link[PATH_MAX];
        ssize_t n = readlink(source, link, sizeof(link) - 1);
        if (n < 0)
            die("readlink %s: %m", path);
        link[n] = '\0';
        if (symlink(link, target) < 0 && errno != EEXIST)
            die("symlink %s: %m", target);
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        mkdir_p(target, 0755);
    } else {
        int fd = open(target, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
        if (fd < 0)
            die("create %s: %m", target);
        close(fd);
    }
    if (mount(source, target, NULL, MS_BIND | MS_REC, NULL) < 0)
        die("bind %s: %m", path);
    if (!writable)
        make_read_only(target, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
}

/* /tmp and a tmpfs box: the kernel bounds both the bytes and the number of files. Both are
 * noexec: a program may write files there, never run them (no runtime or toolchain needs to). */
static int mount_tmpfs(const char *target, unsigned size_mb, mode_t mode) {
    char options[64];
    snprintf(options, sizeof(options), "size=%um,mode=%o,nr_inodes=4096", size_mb, (unsigned)mode);
    return mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, options);
}

/* A /proc of processes only (subset=pid, Linux 5.8; the judge needs 5.6 for pidfd_getfd
 * anyway): the host-wide files (loadavg, meminfo, interrupts, kallsyms, stat, ...) are side
 * channels on the machine and its kernel, and no runtime needs them. */
static void mount_proc(void) {
    mkdir_p(NEWROOT "/proc", 0555);
    if (mount("proc", NEWROOT "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "subset=pid") < 0)
        die("mount /proc with subset=pid (Linux 5.8 or later): %m");
}

static void setup_dev(void) {
    if (mount("tmpfs", NEWROOT "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,mode=755") < 0)
        die("mount /dev: %m");
    for (size_t i = 0; i < sizeof(device_nodes) / sizeof(device_nodes[0]); i++) {
        char source[64], target[64];
        snprintf(source, sizeof(source), OLDROOT "/dev/%s", device_nodes[i]);
        snprintf(target, sizeof(target), NEWROOT "/dev/%s", device_nodes[i]);
        int fd = open(target, O_CREAT | O_WRONLY | O_CLOEXEC, 0666);
        if (fd < 0)
            die("create %s: %m", target);
        close(fd);
        if (mount(source, target, NULL, MS_BIND, NULL) < 0)
            die("bind %s: %m", source);
    }
    /* POSIX shared memory and semaphores (shm_open, sem_open) live in /dev/shm: there they are
     * files of /tmp, bounded by its caps and gone with it between runs. */
    static const char *const links[][2] = {
        {"/tmp", "shm"},
        {"/proc/self/fd", "fd"},
        {"/proc/self/fd/0", "stdin"},
        {"/proc/self/fd/1", "stdout"},
        {"/proc/self/fd/2", "stderr"},
    };
    for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
        char target[64];
        snprintf(target, sizeof(target), NEWROOT "/dev/%s", links[i][1]);
        if (symlink(links[i][0], target) < 0)
            die("symlink %s: %m", target);
    }
    make_read_only(NEWROOT "/dev", MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC);
}

/* A scaffold tmpfs becomes the root for a moment so that the old root stays reachable at
 * /oldroot while the new one is built at /newroot. */
static void enter_scaffold(void) {
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
        die("make / private: %m");
    if (mount("tmpfs", SCAFFOLD, "tmpfs", MS_NOSUID | MS_NODEV, "size=64k,mode=700") < 0)
        die("mount scaffold: %m");
    if (mkdir(SCAFFOLD NEWROOT, 0755) < 0 || mkdir(SCAFFOLD OLDROOT, 0755) < 0)
        die("scaffold dirs: %m");
    if (syscall(SYS_pivot_root, SCAFFOLD, SCAFFOLD OLDROOT) < 0)
        die("pivot_root scaffold: %m");
    if (chdir("/") < 0)
        die("chdir /: %m");
}

/* /box: a tmpfs writable by the programs' uid (which differs from the judge's when it is
 * root), or the host's box directory, read-only unless asked otherwise. */
static void mount_box(const struct slot_config *cfg) {
    mkdir_p(NEWROOT "/box", 0755);
    if (cfg->box_tmpfs_mb) {
        if (mount_tmpfs(NEWROOT "/box", cfg->box_tmpfs_mb, 0777) < 0)
            die("mount tmpfs /box: %m");
        return;
    }
    if (!cfg->box)
        return;
    char box[PATH_MAX];
    if (snprintf(box, sizeof(box), OLDROOT "%s", cfg->box) >= (int)sizeof(box))
        die("box path too long");
    if (mount(box, NEWROOT "/box", NULL, MS_BIND | MS_REC, NULL) < 0)
        die("bind box %s: %m", cfg->box);
    if (!cfg->box_writable) {
        make_read_only(NEWROOT "/box", MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
        return;
    }
    if (mount(NULL, NEWROOT "/box", NULL, MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV, NULL) < 0)
        die("remount box: %m");
}

/* A file of the sandbox's own /etc, unless a bound /etc already has one. */
static void write_etc_file(const char *path, const char *text) {
    int fd = open(path, O_CREAT | O_WRONLY | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    size_t length = strlen(text);
    if (write(fd, text, length) != (ssize_t)length)
        die("write %s: %m", path);
    if (close(fd) < 0)
        die("close %s: %m", path);
}

/* Who the uids are, and that `localhost` is the run's own loopback: the host's files are not
 * bound (its hosts file may name the host's other addresses, its passwd its accounts), and name
 * lookups read these files only (no nscd, no DNS: the namespace has no network). */
static void write_etc(void) {
    mkdir_p(NEWROOT "/etc", 0755);
    write_etc_file(NEWROOT "/etc/passwd", "root:x:0:0:root:/:/bin/sh\n"
                                          "judge:x:1000:1000:judge:/tmp:/bin/sh\n");
    write_etc_file(NEWROOT "/etc/group", "root:x:0:\njudge:x:1000:\n");
    write_etc_file(NEWROOT "/etc/hosts", "127.0.0.1\tlocalhost\n"
                                         "::1\tlocalhost ip6-localhost ip6-loopback\n");
    write_etc_file(NEWROOT "/etc/nsswitch.conf", "passwd: files\ngroup: files\nhosts: files\n");
}

/* Everything is in place: freeze the root, switch to it, drop the old one. */
static void switch_to_new_root(void) {
    if (mount(NULL, NEWROOT, NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) < 0)
        die("remount root read-only: %m");
    if (chdir(NEWROOT) < 0)
        die("chdir new root: %m");
    if (syscall(SYS_pivot_root, ".", ".") < 0)
        die("pivot_root: %m");
    if (umount2(".", MNT_DETACH) < 0)
        die("detach old root: %m");
    if (chdir("/") < 0)
        die("chdir /: %m");
}

void setup_root(const struct slot_config *cfg) {
    enter_scaffold();
    if (mount("tmpfs", NEWROOT, "tmpfs", MS_NOSUID | MS_NODEV, "size=256k,mode=755") < 0)
        die("mount new root: %m");
    for (size_t i = 0; i < sizeof(default_binds) / sizeof(default_binds[0]); i++)
        bind_host_path(default_binds[i], default_binds[i], false);
    for (int i = 0; i < cfg->nbinds; i++)
        bind_host_path(cfg->binds[i], cfg->bind_targets[i], false);
    mount_box(cfg);
    mkdir_p(NEWROOT "/tmp", 01777);
    if (mount_tmpfs(NEWROOT "/tmp", cfg->tmp_mb, 01777) < 0)
        die("mount tmpfs /tmp: %m");
    mount_proc();
    mkdir_p(NEWROOT "/dev", 0755);
    setup_dev();
    write_etc();
    switch_to_new_root();
}

/* A clean /tmp for the next run; skipped when the last run left nothing in it. */
int reset_tmp(const struct slot_config *cfg) {
    struct statfs fs;
    if (statfs("/tmp", &fs) == 0 && fs.f_bfree == fs.f_blocks && fs.f_files - fs.f_ffree <= 1)
        return 0;
    if (umount2("/tmp", MNT_DETACH) < 0)
        return -1;
    return mount_tmpfs("/tmp", cfg->tmp_mb, 01777);
}
