/* The wire protocol with the Python side: one SOCK_SEQPACKET message per request and result.
 * A request is a sequence of records (u16 tag, u32 length, bytes) with the stdin/stdout/stderr
 * descriptors attached as SCM_RIGHTS; a result is "key=value" lines. The ready line carries the
 * descriptor of a tmpfs box, when the slot has one. */
#include "supervisor.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum tag {
    TAG_ARG = 1, TAG_ENV, TAG_CPU_MS, TAG_WALL_MS, TAG_MEMORY, TAG_OUTPUT, TAG_STDERR,
    TAG_FILE_SIZE, TAG_PROCESSES, TAG_OPEN_FILES, TAG_ADDRESS_SPACE, TAG_BPF, TAG_FDS, TAG_CWD,
};

enum { FD_STDIN = 1, FD_STDOUT = 2, FD_STDERR = 4 };

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

/* Returns 1 for a request, 0 for end of stream, -1 for a malformed request. */
int read_request(int sock, char *buf, size_t cap, struct run_request *req) {
    memset(req, 0, sizeof(*req));
    req->stdin_fd = req->stdout_fd = req->stderr_fd = -1;

    int fds[3];
    char control[CMSG_SPACE(sizeof(fds))];
    struct iovec iov = {.iov_base = buf, .iov_len = cap};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1,
                         .msg_control = control, .msg_controllen = sizeof(control)};
    ssize_t got;
    do {
        got = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    } while (got < 0 && errno == EINTR);
    if (got == 0)
        return 0;
    if (got < 0 || (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)))
        return -1;

    int nfds = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            nfds = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
            if (nfds > 3)
                return -1;
            memcpy(fds, CMSG_DATA(c), (size_t)nfds * sizeof(int));
        }
    }

    uint64_t fd_mask = 0;
    size_t pos = 0, total = (size_t)got;
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
        char *data = buf + pos;
        pos += len;
        int bad = 0;
        switch (tag) {
        case TAG_ARG:
            if (req->argc >= MAX_ARGS)
                return -1;
            bad = take_string(data, len, &req->argv[req->argc++]);
            break;
        case TAG_ENV:
            if (req->envc >= MAX_ENV)
                return -1;
            bad = take_string(data, len, &req->envp[req->envc++]);
            break;
        case TAG_CWD: bad = take_string(data, len, &req->cwd); break;
        case TAG_CPU_MS: bad = take_u64(data, len, &req->cpu_ms); break;
        case TAG_WALL_MS: bad = take_u64(data, len, &req->wall_ms); break;
        case TAG_MEMORY: bad = take_u64(data, len, &req->memory_bytes); break;
        case TAG_OUTPUT: bad = take_u64(data, len, &req->output_bytes); break;
        case TAG_STDERR: bad = take_u64(data, len, &req->stderr_bytes); break;
        case TAG_FILE_SIZE: bad = take_u64(data, len, &req->file_size_bytes); break;
        case TAG_PROCESSES: bad = take_u64(data, len, &req->processes); break;
        case TAG_OPEN_FILES: bad = take_u64(data, len, &req->open_files); break;
        case TAG_ADDRESS_SPACE: bad = take_u64(data, len, &req->address_space_bytes); break;
        case TAG_FDS: bad = take_u64(data, len, &fd_mask); break;
        case TAG_BPF:
            req->bpf = (const unsigned char *)data;
            req->bpf_len = len;
            break;
        default:
            return -1;
        }
        if (bad)
            return -1;
    }
    req->argv[req->argc] = NULL;
    req->envp[req->envc] = NULL;

    int next = 0;
    int *slots[3] = {&req->stdin_fd, &req->stdout_fd, &req->stderr_fd};
    for (int i = 0; i < 3; i++) {
        if (fd_mask & (1u << i)) {
            if (next >= nfds)
                return -1;
            *slots[i] = fds[next++];
        }
    }
    if (next != nfds || req->argc == 0 || req->cpu_ms == 0 || req->wall_ms == 0 ||
        req->memory_bytes == 0 || req->processes == 0)
        return -1;
    return 1;
}

int send_line(int sock, const char *line) {
    ssize_t sent;
    size_t len = strlen(line);
    do {
        sent = send(sock, line, len, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent == (ssize_t)len ? 0 : -1;
}

int send_line_with_fd(int sock, const char *line, int fd) {
    char control[CMSG_SPACE(sizeof(fd))];
    memset(control, 0, sizeof(control));
    struct iovec iov = {.iov_base = (void *)line, .iov_len = strlen(line)};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1,
                         .msg_control = control, .msg_controllen = sizeof(control)};
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

int write_result(int sock, const struct run_result *res) {
    char out[2048];
    size_t pos = 0;
    char error[sizeof(res->error)];
    /* The error text travels on one line. */
    snprintf(error, sizeof(error), "%s", res->error);
    for (char *p = error; *p; p++)
        if (*p == '\n')
            *p = ' ';
    put(out, sizeof(out), &pos, "exit_code=%d\nsignal=%d\ncpu_ns=%llu\nwall_ns=%llu\n",
        res->exit_code, res->signal, (unsigned long long)res->cpu_ns,
        (unsigned long long)res->wall_ns);
    put(out, sizeof(out), &pos, "memory_bytes=%llu\noutput_bytes=%llu\nstderr_bytes=%llu\n",
        (unsigned long long)res->memory_bytes, (unsigned long long)res->output_bytes,
        (unsigned long long)res->stderr_bytes);
    put(out, sizeof(out), &pos, "setup_ns=%llu\nundelivered_bytes=%llu\nwaiting_ns=%llu\n",
        (unsigned long long)res->setup_ns, (unsigned long long)res->undelivered_bytes,
        (unsigned long long)res->waiting_ns);
    put(out, sizeof(out), &pos, "oom_kills=%llu\nkilled_by=%s\nsyscall=%d\n",
        (unsigned long long)res->oom_kills, res->killed_by ? res->killed_by : "",
        res->syscall_nr);
    put(out, sizeof(out), &pos, "cpu_source=%s\nmemory_source=%s\nerror=%s\n",
        res->cpu_source ? res->cpu_source : "", res->memory_source ? res->memory_source : "",
        error);
    if (pos >= sizeof(out))
        pos = sizeof(out) - 1;
    out[pos] = '\0';
    return send_line(sock, out);
}
