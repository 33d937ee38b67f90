/* Shared types of the sandbox supervisor: one slot, one request, one result. */
#ifndef JUDGE_SUPERVISOR_H
#define JUDGE_SUPERVISOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cgroups.h"
#include "protocol.h"

#define MAX_BINDS 64
#define INSIDE_RUN_UID 1000
#define HOST_UID_BASE 200000

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
    const char *binds[MAX_BINDS];        /* host paths, read-only ... */
    const char *bind_targets[MAX_BINDS]; /* ... seen at these paths inside */
    int nbinds;
    int sock;         /* SOCK_SEQPACKET to the Python side */
    bool verbose;     /* note every step on stderr (the judge shows the notes of a failure) */
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
    const char *killed_by;      /* NULL, "cpu-timer", "wall-timer", "output", "seccomp", "memory" */
    int syscall_nr;             /* -1 unless a refused syscall was seen */
    const char *cpu_source, *memory_source;
    char error[512]; /* non-empty: the judge failed (SE) */
};

/* supervisor.c */
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* One line on stderr when the slot runs with --verbose: what the supervisor is doing. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern bool verbose_notes;

/* What the ready message tells the judge about the slot. */
struct slot_ready {
    int protocol;         /* PROTOCOL_VERSION */
    const char *cgroup;   /* "v1", "v2" or "none" */
    const char *uid;      /* "separate" or "mapped-self" */
    const char *priority; /* "raised" or "normal" */
    const char *cgroup_reason;
};

/* protocol.c */
int read_request(int sock, char *buf, size_t cap, struct run_request *req);
int write_ready(int sock, const struct slot_ready *ready, int fd);
int write_result(int sock, const struct run_result *res);
int write_startup_error(int sock, const char *message);

/* mounts.c */
void setup_root(const struct slot_config *cfg);
int reset_tmp(const struct slot_config *cfg);

/* cgroups.c; its detection, which judge doctor calls too, is in cgroups.h */
struct spawner;
int cgroup_slot_create(struct slot_config *cfg, char *err, size_t errcap);
void cgroup_slot_destroy(void);
void cgroup_sweep_stale(void);
int cgroup_serve_begin(const struct slot_config *cfg, char *err, size_t errcap);
int cgroup_prepare(uint64_t memory, uint64_t processes);
int cgroup_prepare_after_next(uint64_t memory, uint64_t processes);
int cgroup_run_begin(const struct run_request *req, char *err, size_t errcap);
struct spawner *cgroup_run_spawner(void); /* the thread to fork the run's child; NULL: fork */
int cgroup_cleanup(char *err, size_t errcap);
int remove_run_dir(const int slot_fds[], int count, const char *name, char *err, size_t errcap);
int cgroup_attach_self(void);
int cgroup_run_dir_v2(void);
int cgroup_cpu_ns(uint64_t *ns);
void cgroup_run_end(struct run_result *res);
void cgroup_kill_all(void);

/* spawner.c: cgroup v1 threads of the init that fork each run's child inside its cgroups */
int spawners_start(int cpu, char *err, size_t errcap);
struct spawner *spawner_get(int index);
int spawner_send_join(struct spawner *s, const int run_fds[], const int slot_fds[], int count,
                      const char *name);
int spawner_wait_joined(struct spawner *s, char *err, size_t errcap);
pid_t spawner_fork(struct spawner *s, void (*child)(void *), void *arg);
uint64_t spawner_cpu_in_cgroup_ns(const struct spawner *s);

/* seccomp_install.c */
int seccomp_install(const unsigned char *bpf, size_t len);

/* sink.c: one of a run's output streams, from the program's pipe to where it goes */
struct sink {
    int from;          /* read end of the program's pipe */
    int to;            /* the destination; -1 drops the bytes */
    bool regular_file; /* writes to it never wait for a reader */
    bool splice_ok;
    bool closed;      /* the pipe reached its end */
    bool reader_lost; /* the destination failed: the rest is undelivered */
    uint64_t limit;   /* bytes kept */
    uint64_t seen;    /* bytes the program wrote */
    int spill;        /* memfd of what waits for the reader, -1 until needed */
    uint64_t spill_len, spill_off;
    uint64_t undelivered;
};
void sink_open(struct sink *s, int from, int to, uint64_t limit);
int sink_drain(struct sink *s); /* 1 when the program wrote past the limit */
bool sink_wants_input(const struct sink *s);
bool sink_wants_room(const struct sink *s);
int sink_flush(struct sink *s);
void sink_finish(struct sink *sinks, int count, uint64_t deadline_ns);
void sink_close(struct sink *s);

/* spawn.c */
uint64_t now_ns(void);
void run_result_init(struct run_result *res);
void run_program(const struct slot_config *cfg, const struct run_request *req,
                 struct run_result *res);
int after_run(const struct slot_config *cfg, const struct run_request *req, char *err,
              size_t errcap);

#endif
