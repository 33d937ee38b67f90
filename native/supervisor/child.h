/* child.c: a run's child, from its fork to execve. It is forked ahead of its request, set up
 * and confined, then waits parked in its seccomp filter until the request comes. */
#ifndef JUDGE_CHILD_H
#define JUDGE_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct slot_config;

/* What a child is set up for before its request: a request whose filter or working directory
 * differs needs another child. */
struct child_shape {
    unsigned char bpf[4096 * 8]; /* the seccomp program (at most 4096 instructions) */
    size_t bpf_len;
    char cwd[4096]; /* empty: /box */
};

/* What the child reports once its filter is in force: its seccomp listener, and the CPU its own
 * set-up used (in all, and since it joined the run's cgroup), which is the sandbox's, not the
 * program's, and is taken off the run's figure. */
struct handshake {
    char tag; /* 'L' */
    int listener;
    uint64_t setup_ns; /* thread CPU from fork to parking */
    uint64_t setup_in_cgroup_ns;
} __attribute__((packed));

/* The supervisor's answer to the parked call: the request is on its way. */
#define CHILD_PARK_GO 0x676f

/* After the go-ahead the child reads what to execute: this header, then `bytes` of
 * NUL-terminated strings: argc arguments, envc environment entries and the paths to try in
 * turn (the program's, or its name's candidates on PATH). */
struct launch_header {
    uint32_t bytes, argc, envc, paths;
};
#define CHILD_MAX_PATHS 64

void child_find_last_capability(void);
pid_t child_fork(void);
void child_main(const struct slot_config *cfg, const struct child_shape *shape, int out_w,
                int err_w, int sync_fd, bool born_in_cgroup) __attribute__((noreturn));

#endif
