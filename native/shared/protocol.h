/* The supervisor protocol, defined once: the supervisor is built from this header, and the cffi
 * module judge._native exposes the same definitions to judge/sandbox/protocol.py, which reads
 * them from there (docs/protocol.md). */
#ifndef JUDGE_PROTOCOL_H
#define JUDGE_PROTOCOL_H

#include <stddef.h>

/* Raised on any change a peer built from other sources would misread. */
#define PROTOCOL_VERSION 3

/* --slot takes 0 .. PROTOCOL_SLOT_COUNT - 1; as root, slot N's programs run as host uid
 * PROTOCOL_HOST_UID_BASE + N (judge/sandbox/slots.py hands the slots out). */
#define PROTOCOL_SLOT_COUNT 65536
#define PROTOCOL_HOST_UID_BASE 200000

#define PROTOCOL_MAX_ARGS 256
#define PROTOCOL_MAX_ENV 128
#define PROTOCOL_REQUEST_MAX (1u << 20) /* bytes of one request message */

/* Request records: X(name, tag). The tag is what travels. */
/* One record a line. */
// clang-format off
#define PROTOCOL_REQUEST_TAGS(X) \
    X(ARG, 1)                    \
    X(ENV, 2)                    \
    X(CPU_MS, 3)                 \
    X(WALL_MS, 4)                \
    X(MEMORY, 5)                 \
    X(OUTPUT, 6)                 \
    X(STDERR, 7)                 \
    X(FILE_SIZE, 8)              \
    X(PROCESSES, 9)              \
    X(OPEN_FILES, 10)            \
    X(ADDRESS_SPACE, 11)         \
    X(BPF, 12)                   \
    X(FDS, 13)                   \
    X(CWD, 14)                   \
    X(RELAY_ON_CPU, 15)
// clang-format on

enum request_tag {
#define PROTOCOL_TAG_ENUM(name, tag) TAG_##name = tag,
    PROTOCOL_REQUEST_TAGS(PROTOCOL_TAG_ENUM)
#undef PROTOCOL_TAG_ENUM
};

/* The FDS record's bits: which standard streams come attached, in this order. */
#define PROTOCOL_FD_BITS(X) X(STDIN, 1) X(STDOUT, 2) X(STDERR, 4)

enum request_fd_bit {
#define PROTOCOL_FD_ENUM(name, bit) FD_##name = bit,
    PROTOCOL_FD_BITS(PROTOCOL_FD_ENUM)
#undef PROTOCOL_FD_ENUM
};

/* The ready message's fields after its "ready" line: X(key, kind, member of struct
 * slot_ready), sent in this order. Kinds: int, u64, text (one line). */
// clang-format off
#define PROTOCOL_READY_FIELDS(X)             \
    X(protocol, int, protocol)               \
    X(cgroup, text, cgroup)                  \
    X(uid, text, uid)                        \
    X(priority, text, priority)              \
    X(cgroup_reason, text, cgroup_reason)    \
    X(busy_clock, text, busy_clock)          \
    X(busy_clock_reason, text, busy_clock_reason)

/* The reply's fields: X(key, kind, member of struct run_result), sent in this order. */
#define PROTOCOL_REPLY_FIELDS(X)                 \
    X(exit_code, int, exit_code)                 \
    X(signal, int, signal)                       \
    X(cpu_ns, u64, cpu_ns)                       \
    X(wall_ns, u64, wall_ns)                     \
    X(memory_bytes, u64, memory_bytes)           \
    X(output_bytes, u64, output_bytes)           \
    X(stderr_bytes, u64, stderr_bytes)           \
    X(setup_ns, u64, setup_ns)                   \
    X(undelivered_bytes, u64, undelivered_bytes) \
    X(waiting_ns, u64, waiting_ns)               \
    X(oom_kills, u64, oom_kills)                 \
    X(killed_by, text, killed_by)                \
    X(syscall, int, syscall_nr)                  \
    X(cpu_source, text, cpu_source)              \
    X(memory_source, text, memory_source)        \
    X(busy_clock, text, busy_clock)              \
    X(error, text, error)
// clang-format on

/* What stopped a run, as the reply's killed_by field names it (empty when nothing did):
 * X(name, text). judge.verdicts.KilledBy has these, under the same names, and the stops the
 * judge itself concludes (tests/test_protocol.py). */
// clang-format off
#define PROTOCOL_KILLED_BY(X)    \
    X(CPU_TIMER, "cpu-timer")    \
    X(WALL_TIMER, "wall-timer")  \
    X(OUTPUT, "output")          \
    X(SECCOMP, "seccomp")        \
    X(MEMORY, "memory")
// clang-format on

enum killed_by {
#define PROTOCOL_KILLED_BY_ENUM(name, text) KILLED_BY_##name,
    PROTOCOL_KILLED_BY(PROTOCOL_KILLED_BY_ENUM)
#undef PROTOCOL_KILLED_BY_ENUM
};

/* The clocks a run's outside work (BUSY's figure, native/supervisor/starvation.c) is measured
 * on, best first, as the ready message's and the reply's busy_clock name them: X(name, text).
 * NONE: the host offers only tick-sampled figures, which a program can steer; no run is BUSY
 * there. */
// clang-format off
#define PROTOCOL_BUSY_CLOCKS(X)      \
    X(NOHZ_IDLE, "nohz-idle")        \
    X(CPUIDLE, "cpuidle")            \
    X(NONE, "none")
// clang-format on

enum busy_clock {
#define PROTOCOL_BUSY_CLOCK_ENUM(name, text) BUSY_CLOCK_##name,
    PROTOCOL_BUSY_CLOCKS(PROTOCOL_BUSY_CLOCK_ENUM)
#undef PROTOCOL_BUSY_CLOCK_ENUM
};

/* The same definitions as data, for the Python side. */
struct protocol_name {
    const char *name;
    unsigned value;
};
struct protocol_field {
    const char *key;
    const char *kind;
};
struct protocol_text {
    const char *name;
    const char *text;
};
extern const struct protocol_name protocol_request_tags[];
extern const int protocol_request_tag_count;
extern const struct protocol_name protocol_fd_bits[];
extern const int protocol_fd_bit_count;
extern const struct protocol_field protocol_ready_fields[];
extern const int protocol_ready_field_count;
extern const struct protocol_field protocol_reply_fields[];
extern const int protocol_reply_field_count;
extern const struct protocol_text protocol_killed_by[];
extern const int protocol_killed_by_count;
extern const struct protocol_text protocol_busy_clocks[];
extern const int protocol_busy_clock_count;

/* The supervisor's side of the wire (protocol.c). */
struct run_request;
struct run_result;

/* What the ready message tells the judge about the slot. */
struct slot_ready {
    int protocol;         /* PROTOCOL_VERSION */
    const char *cgroup;   /* "v1", "v2" or "none" */
    const char *uid;      /* "separate" or "mapped-self" */
    const char *priority; /* "raised" or "normal" */
    const char *cgroup_reason;
    const char *busy_clock;        /* a PROTOCOL_BUSY_CLOCKS text */
    const char *busy_clock_reason; /* why no better clock (empty for the best) */
};

int read_request(int sock, char *buf, size_t cap, struct run_request *req);
int write_ready(int sock, const struct slot_ready *ready, int fd);
int write_result(int sock, const struct run_result *res);
int write_startup_error(int sock, const char *message);
/* The reply's text for what stopped a run. */
const char *killed_by_text(enum killed_by reason);
/* The ready message's and the reply's text for a clock. */
const char *busy_clock_text(enum busy_clock clock);

#endif
