/* Makes one privileged or forbidden system call named in argv[1] through raw syscall(), then
 * prints the result. Under the sandbox each of them must end the run as RF. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <unistd.h>

static long i386_getpid(void) {
    long ret;
    __asm__ volatile("int $0x80" : "=a"(ret) : "a"(20L) : "memory");
    return ret;
}

int main(int argc, char **argv) {
    if (argc < 2)
        return 2;
    const char *name = argv[1];
    long rc;
    char zero[256];
    memset(zero, 0, sizeof(zero));
    if (strcmp(name, "ptrace") == 0)
        rc = syscall(SYS_ptrace, PTRACE_TRACEME, 0, 0, 0);
    else if (strcmp(name, "mount") == 0)
        rc = syscall(SYS_mount, "none", "/tmp", "tmpfs", 0, NULL);
    else if (strcmp(name, "unshare") == 0)
        rc = syscall(SYS_unshare, CLONE_NEWUSER);
    else if (strcmp(name, "chroot") == 0)
        rc = syscall(SYS_chroot, "/tmp");
    else if (strcmp(name, "io_uring_setup") == 0)
        rc = syscall(SYS_io_uring_setup, 8, zero);
    else if (strcmp(name, "bpf") == 0)
        rc = syscall(SYS_bpf, 0 /* BPF_MAP_CREATE */, zero, 64);
    else if (strcmp(name, "perf_event_open") == 0) {
        struct perf_event_attr attr;
        memset(&attr, 0, sizeof(attr));
        attr.size = sizeof(attr);
        attr.type = PERF_TYPE_SOFTWARE;
        attr.config = PERF_COUNT_SW_CPU_CLOCK;
        rc = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
    } else if (strcmp(name, "userfaultfd") == 0)
        rc = syscall(SYS_userfaultfd, 0);
    else if (strcmp(name, "setns") == 0)
        rc = syscall(SYS_setns, 0, 0);
    else if (strcmp(name, "keyctl") == 0)
        rc = syscall(SYS_keyctl, 0, 0, 0, 0, 0);
    else if (strcmp(name, "clone") == 0)
        rc = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
    else if (strcmp(name, "socket") == 0)
        rc = syscall(SYS_socket, 2 /* AF_INET */, 1 /* SOCK_STREAM */, 0);
    else if (strcmp(name, "idle-init") == 0) /* the slot's init, pid 1: its relay waits */
        rc = syscall(SYS_sched_setscheduler, 1, 5 /* SCHED_IDLE */, zero);
    else if (strcmp(name, "renice-init") == 0)
        rc = syscall(SYS_setpriority, 0 /* PRIO_PROCESS */, 1, 19);
    else if (strcmp(name, "i386") == 0)
        rc = i386_getpid();
    else if (strcmp(name, "x32") == 0)
        rc = syscall(0x40000000L | SYS_getpid);
    else
        return 2;
    if (rc == 0 && strcmp(name, "clone") == 0) /* the child, were the clone allowed */
        _exit(0);
    printf("%s returned %ld errno %s\n", name, rc, rc < 0 ? strerrorname_np(errno) : "-");
    return 0;
}
