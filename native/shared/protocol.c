/* The wire protocol with the Python side (docs/protocol.md): one SOCK_SEQPACKET message per
 * request and per reply. A request is a sequence of records (u16 tag, u32 length, bytes) with
 * the stdin/stdout/stderr descriptors attached as SCM_RIGHTS; the ready message and the reply
 * are "key=value" lines, the fields of protocol.h in its order. The ready message carries the
 * descriptor of a tmpfs box, when the slot has one. */
#include "protocol.h"

#include "slot.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define PROTOCOL_NAME_ENTRY(name, value) {#name, value},
#define PROTOCOL_FIELD_ENTRY(key, kind, member) {#key, #kind},
#define PROTOCOL_COUNT(...) +1

const struct protocol_name protocol_request_tags[] = {PROTOCOL_REQUEST_TAGS(PROTOCOL_NAME_ENTRY)};
const int protocol_request_tag_count = 0 PROTOCOL_REQUEST_TAGS(PROTOCOL_COUNT);
const struct protocol_name protocol_fd_bits[] = {PROTOCOL_FD_BITS(PROTOCOL_NAME_ENTRY)};
const int protocol_fd_bit_count = 0 PROTOCOL_FD_BITS(PROTOCOL_COUNT);
const struct protocol_field protocol_ready_fields[] = {PROTOCOL_READY_FIELDS(PROTOCOL_FIELD_ENTRY)};
const int protocol_ready_field_count = 0 PROTOCOL_READY_FIELDS(PROTOCOL_COUNT);
const struct protocol_field protocol_reply_fields[] = {PROTOCOL_REPLY_FIELDS(PROTOCOL_FIELD_ENTRY)};
const int protocol_reply_field_count = 0 PROTOCOL_REPLY_FIELDS(PROTOCOL_COUNT);
#define PROTOCOL_TEXT_ENTRY(name, text) {#name, text},
const struct protocol_text protocol_killed_by[] = {PROTOCOL_KILLED_BY(PROTOCOL_TEXT_ENTRY)};
const int protocol_killed_by_count = 0 PROTOCOL_KILLED_BY(PROTOCOL_COUNT);

const struct protocol_text protocol_busy_clocks[] = {PROTOCOL_BUSY_CLOCKS(PROTOCOL_TEXT_ENTRY)};
const int protocol_busy_clock_count = 0 PROTOCOL_BUSY_CLOCKS(PROTOCOL_COUNT);

const char *killed_by_text(enum killed_by reason) { return protocol_killed_by[reason].text; }

const char *busy_clock_text(enum busy_clock clock) { return protocol_busy_clocks[clock].text; }

static int take_string(char *data, uint32_t len, char **out) {
    if (len == 0 || data[len - 1] != '\0')
        return -1;
    *out = data;
    return 0;
}

static int take_u64(const char *data, uint32_t len, uint64_t *out) {
    if (len != sizeof(uint64_t))
        return -1;
    memcpy(out, data, sizeof(uint64_t));
    return 0;
}

/* One record's value into the request; -1 when the record is malformed. */
static int take_record(struct run_request *req, uint16_t tag, char *data, uint32_t len,
                       uint64_t *fd_mask) {
    switch (tag) {
    case TAG_ARG:
        if (req->argc >= PROTOCOL_MAX_ARGS)
            return -1;
        return take_string(data, len, &req->argv[req->argc++]);
    case TAG_ENV:
        if (req->envc >= PROTOCOL_MAX_ENV)
            return -1;
        return take_string(data, len, &req->envp[req->envc++]);
    case TAG_CWD: return take_string(data, len, &req->cwd);
    case TAG_CPU_MS: return take_u64(data, len, &req->cpu_ms);
    case TAG_WALL_MS: return take_u64(data, len, &req->wall_ms);
    case TAG_MEMORY: return take_u64(data, len, &req->memory_bytes);
    case TAG_OUTPUT: return take_u64(data, len, &req->output_bytes);
    case TAG_STDERR: return take_u64(data, len, &req->stderr_bytes);
    case TAG_FILE_SIZE: return take_u64(data, len, &req->file_size_bytes);
    case TAG_PROCESSES: return take_u64(data, len, &req->processes);
    case TAG_OPEN_FILES: return take_u64(data, len, &req->open_files);
    case TAG_ADDRESS_SPACE: return take_u64(data, len, &req->address_space_bytes);
    case TAG_FDS: return take_u64(data, len, fd_mask);
    case TAG_RELAY_ON_CPU: return take_u64(data, len, &req->relay_on_cpu);
    case TAG_BPF:
        req->bpf = (const unsigned char *)data;
        req->bpf_len = len;
        return 0;
    default: return -1;
    }
}

static int parse_records(char *buf, size_t total, struct run_request *req, uint64_t *fd_mask) {
    size_t pos = 0;
    while (pos < total) {
        uint16_t tag;
        uint32_t len;
        if (total - pos < 6)
            return -1;
        memcpy(&tag, buf + pos, 2);
        memcpy(&len, buf + pos + 2, 4);
        pos += 6;
        if (len > total - pos)
            return -1;
        if (take_record(req, tag, buf + pos, len, fd_mask) < 0)
            return -1;
        pos += len;
    }
    req->argv[req->argc] = NULL;
    req->envp[req->envc] = NULL;
    return 0;
}

/* The attached descriptors go to the streams the FDS record names, in stream order. */
static int attach_fds(struct run_request *req, uint64_t fd_mask, const int *fds, int nfds) {
    static const unsigned bits[3] = {FD_STDIN, FD_STDOUT, FD_STDERR};
    int *streams[3] = {&req->stdin_fd, &req->stdout_fd, &req->stderr_fd};
    if (fd_mask & ~(uint64_t)(FD_STDIN | FD_STDOUT | FD_STDERR))
        return -1;
    int next = 0;
    for (int i = 0; i < 3; i++) {
        if (!(fd_mask & bits[i]))
            continue;
        if (next >= nfds)
            return -1;
        *streams[i] = fds[next++];
    }
    return next == nfds ? 0 : -1;
}

static bool has_required_fields(const struct run_request *req) {
    return req->argc > 0 && req->cpu_ms > 0 && req->wall_ms > 0 && req->memory_bytes > 0 &&
           req->processes > 0;
}

/* The descriptors that came with the message, even when it is cut short: all of them are the
 * supervisor's to close. */
static int received_fds(struct msghdr *msg, int *fds, int cap) {
    int nfds = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
            continue;
        int n = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        for (int i = 0; i < n; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + (size_t)i * sizeof(int), sizeof(int));
            if (nfds < cap)
                fds[nfds++] = fd;
            else
                close(fd);
        }
    }
    return nfds;
}

/* Returns 1 for a request, 0 for end of stream, -1 for a malformed request (whose descriptors
 * are closed). */
int read_request(int sock, char *buf, size_t cap, struct run_request *req) {
    memset(req, 0, sizeof(*req));
    req->stdin_fd = req->stdout_fd = req->stderr_fd = -1;

    /* Room for one descriptor more than a request may carry, to see that there are too many. */
    int fds[4];
    char control[CMSG_SPACE(sizeof(fds))];
    struct iovec iov = {.iov_base = buf, .iov_len = cap};
    struct msghdr msg = {.msg_iov = &iov,
                         .msg_iovlen = 1,
                         .msg_control = control,
                         .msg_controllen = sizeof(control)};
    ssize_t got;
    do {
        got = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    } while (got < 0 && errno == EINTR);
    if (got == 0)
        return 0;
    if (got < 0)
        return -1;

    int nfds = received_fds(&msg, fds, 4);
    uint64_t fd_mask = 0;
    if (!(msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) && nfds <= 3 &&
        parse_records(buf, (size_t)got, req, &fd_mask) == 0 &&
        attach_fds(req, fd_mask, fds, nfds) == 0 && has_required_fields(req))
        return 1;
    for (int i = 0; i < nfds; i++)
        close(fds[i]);
    req->stdin_fd = req->stdout_fd = req->stderr_fd = -1;
    return -1;
}

static int send_line(int sock, const char *line) {
    ssize_t sent;
    size_t len = strlen(line);
    do {
        sent = send(sock, line, len, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent == (ssize_t)len ? 0 : -1;
}

static int send_line_with_fd(int sock, const char *line, int fd) {
    char control[CMSG_SPACE(sizeof(fd))];
    memset(control, 0, sizeof(control));
    struct iovec iov = {.iov_base = (void *)line, .iov_len = strlen(line)};
    struct msghdr msg = {.msg_iov = &iov,
                         .msg_iovlen = 1,
                         .msg_control = control,
                         .msg_controllen = sizeof(control)};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(fd));
    memcpy(CMSG_DATA(c), &fd, sizeof(fd));
    ssize_t sent;
    do {
        sent = sendmsg(sock, &msg, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent == (ssize_t)iov.iov_len ? 0 : -1;
}

static void put(char *out, size_t cap, size_t *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void put(char *out, size_t cap, size_t *pos, const char *fmt, ...) {
    if (*pos >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out + *pos, cap - *pos, fmt, ap);
    va_end(ap);
    if (n > 0)
        *pos += (size_t)n;
}

static void put_int(char *out, size_t cap, size_t *pos, const char *key, int value) {
    put(out, cap, pos, "%s=%d\n", key, value);
}

static void put_u64(char *out, size_t cap, size_t *pos, const char *key, uint64_t value) {
    put(out, cap, pos, "%s=%" PRIu64 "\n", key, value);
}

/* A text field travels on one line: its own line breaks become spaces. */
static void put_text(char *out, size_t cap, size_t *pos, const char *key, const char *value) {
    size_t start = *pos;
    put(out, cap, pos, "%s=%s", key, value ? value : "");
    for (size_t i = start; i < *pos && i < cap; i++)
        if (out[i] == '\n')
            out[i] = ' ';
    put(out, cap, pos, "\n");
}

static int send_text(int sock, char *out, size_t cap, size_t pos, int fd) {
    if (pos >= cap)
        pos = cap - 1;
    out[pos] = '\0';
    return fd >= 0 ? send_line_with_fd(sock, out, fd) : send_line(sock, out);
}

#define PROTOCOL_PUT_FIELD(key, kind, member)                                                      \
    put_##kind(out, sizeof(out), &pos, #key, from->member);

int write_ready(int sock, const struct slot_ready *from, int fd) {
    char out[1024];
    size_t pos = 0;
    put(out, sizeof(out), &pos, "ready\n");
    PROTOCOL_READY_FIELDS(PROTOCOL_PUT_FIELD)
    return send_text(sock, out, sizeof(out), pos, fd);
}

int write_result(int sock, const struct run_result *from) {
    char out[2048];
    size_t pos = 0;
    PROTOCOL_REPLY_FIELDS(PROTOCOL_PUT_FIELD)
    return send_text(sock, out, sizeof(out), pos, -1);
}

/* Before the ready message only: why the slot could not start, on one line. */
int write_startup_error(int sock, const char *message) {
    char out[1024];
    size_t pos = 0;
    put(out, sizeof(out), &pos, "error %s", message);
    for (size_t i = 0; i < pos && i < sizeof(out); i++)
        if (out[i] == '\n')
            out[i] = ' ';
    put(out, sizeof(out), &pos, "\n");
    return send_text(sock, out, sizeof(out), pos, -1);
}
