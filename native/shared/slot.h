/* What every mechanism of the supervisor works on: the slot's configuration, one run's request
 * (decoded by protocol.c) and its result (sent back by protocol.c). */
#ifndef JUDGE_SLOT_H
#define JUDGE_SLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cgroups.h"
#include "protocol.h"

#define MAX_BINDS 64
#define INSIDE_RUN_UID 1000

struct slot_config {
    int slot;
    int cpu;         /* CPU the runs are pinned to; -1 for no pinning */
    const char *box; /* host directory mounted at /box */
    bool box_writable;
    unsigned box_tmpfs_mb;   /* instead of a host directory: /box is a tmpfs this size (0: no) */
    unsigned tmp_mb;         /* size cap of /tmp */
    uint64_t delivery_ms;    /* how long output may wait for a slow reader after a run */
    enum cgroup_mode cgroup; /* what the slot actually uses */
    bool cgroup_auto;
    bool privileged;         /* started by root: a second, unprivileged uid runs the programs */
    bool priority_raised;    /* the supervisor could raise its scheduling priority */
    char cgroup_reason[384]; /* why no cgroup is used (empty when one is) */
    enum busy_clock best_busy_clock;     /* --busy-clock: the best clock BUSY may be measured on */
    const char *binds[MAX_BINDS];        /* host paths, read-only ... */
    const char *bind_targets[MAX_BINDS]; /* ... seen at these paths inside */
    int nbinds;
    int sock;         /* SOCK_SEQPACKET to the Python side */
    bool verbose;     /* note every step on stderr (the judge shows the notes of a failure) */
    bool one_shot;    /* one run, then the slot ends: nothing is prepared for a next one */
    pid_t parent_pid; /* the judge that started us; 0 when not given */
};

struct run_request {
    char *argv[PROTOCOL_MAX_ARGS + 1];
    int argc;
    char *envp[PROTOCOL_MAX_ENV + 1];
    int envc;
    uint64_t cpu_ms, wall_ms, memory_bytes, output_bytes, stderr_bytes, file_size_bytes;
    uint64_t processes, open_files, address_space_bytes;
    const unsigned char *bpf;
    size_t bpf_len;
    int stdin_fd, stdout_fd, stderr_fd; /* -1 when absent */
    char *cwd;
    uint64_t relay_on_cpu; /* non-zero: relay the output from the slot's CPU (an interaction) */
};

struct run_result {
    int exit_code; /* -1 when killed by a signal or never started */
    int signal;    /* 0 when it exited */
    uint64_t cpu_ns, wall_ns, memory_bytes, output_bytes, stderr_bytes;
    uint64_t setup_ns; /* the child's own set-up before exec: not in cpu_ns */
    uint64_t oom_kills;
    uint64_t undelivered_bytes; /* output within the limits that its reader did not take */
    uint64_t waiting_ns;        /* at a wall-timer kill: its wait for a CPU others took */
    const char *killed_by;      /* NULL, or killed_by_text() of what stopped the run */
    int syscall_nr;             /* -1 unless a refused syscall was seen */
    const char *cpu_source, *memory_source;
    const char *busy_clock; /* the clock waiting_ns's bound was measured on (starvation.c) */
    char error[512];        /* non-empty: the judge failed (SE) */
};

#endif
