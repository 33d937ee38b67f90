/* The handshake with the parked child, from its seccomp listener to its exec: the child parks in
 * a call its filter refuses, and the supervisor sets its limits, gives it standard input and the
 * launch message, then answers the call with the go-ahead. */
#include "launch.h"

#include "child.h"
#include "log.h"
#include "parked_child.h"
#include "protocol.h"
#include "run.h"
#include "run_limits.h"
#include "slot.h"
#include "starvation.h"
#include "stream_io.h"

#include <errno.h>
#include <limits.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The child said why its set-up failed, or ended without a word. */
static void report_setup_failure(struct run *run, char *msg, int got, size_t cap) {
    if (got > 0 && msg[0] == 'E') {
        ssize_t more = read(run->sync, msg + got, cap - 1 - (size_t)got);
        if (more > 0)
            got += (int)more;
        msg[got] = '\0';
        set_error(run->res, "sandbox setup: %s", msg + 1);
    } else {
        set_error(run->res, "sandbox setup: the child ended before exec");
    }
    if (kill(run->child, SIGKILL) < 0) {
        /* Gone already. */
    }
}

/* The child reports its seccomp listener once its filter is in force; the supervisor takes it. */
static bool take_seccomp_listener(struct run *run) {
    char msg[256];
    int got = read_full(run->sync, msg, sizeof(run->hello));
    if (got != (int)sizeof(run->hello) || msg[0] != 'L') {
        report_setup_failure(run, msg, got, sizeof(msg));
        return false;
    }
    memcpy(&run->hello, msg, sizeof(run->hello));
    run->listener = (int)syscall(SYS_pidfd_getfd, run->pidfd, run->hello.listener, 0);
    if (run->listener < 0) {
        abandon_child(run, "seccomp listener");
        return false;
    }
    return true;
}

/* The child's parking call, the only one it makes before exec that its filter refuses. */
static bool receive_park(struct run *run, struct seccomp_notif *notif) {
    struct pollfd pfd[2] = {{.fd = run->listener, .events = POLLIN},
                            {.fd = run->sync, .events = POLLIN}};
    int ready;
    do {
        ready = poll(pfd, 2, -1);
    } while (ready < 0 && errno == EINTR);
    if (ready < 0) {
        abandon_child(run, "poll");
        return false;
    }
    if (!(pfd[0].revents & POLLIN)) {
        char msg[256];
        report_setup_failure(run, msg, read_full(run->sync, msg, 1), sizeof(msg));
        return false;
    }
    memset(notif, 0, sizeof(*notif));
    if (ioctl(run->listener, SECCOMP_IOCTL_NOTIF_RECV, notif) < 0) {
        abandon_child(run, "seccomp notification");
        return false;
    }
    if (notif->pid != (__u32)run->child || notif->data.nr != SYS_seccomp) {
        errno = EPROTO;
        abandon_child(run, "sandbox setup: a refused call before exec");
        return false;
    }
    return true;
}

/* The request's standard input, put at the parked child's descriptor 0 in place of /dev/null. */
static bool give_stdin(struct run *run, const struct seccomp_notif *notif) {
    if (run->req->stdin_fd < 0)
        return true;
    struct seccomp_notif_addfd addfd = {
        .id = notif->id,
        .flags = SECCOMP_ADDFD_FLAG_SETFD,
        .srcfd = (__u32)run->req->stdin_fd,
        .newfd = 0,
        .newfd_flags = 0,
    };
    if (ioctl(run->listener, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd) < 0) {
        abandon_child(run, "sandbox setup: standard input");
        return false;
    }
    return true;
}

static bool put_string(char *buf, size_t cap, size_t *at, const char *s) {
    size_t len = strlen(s) + 1;
    if (len > cap - *at)
        return false;
    memcpy(buf + *at, s, len);
    *at += len;
    return true;
}

/* The paths the child tries in turn: the program's own, or its name on every PATH entry and
 * then the bare name. */
static bool put_paths(const struct run_request *req, char *buf, size_t cap, size_t *at,
                      uint32_t *count) {
    const char *name = req->argv[0];
    *count = 1;
    if (strchr(name, '/'))
        return put_string(buf, cap, at, name);
    const char *path = "/usr/local/bin:/usr/bin:/bin";
    for (int i = 0; i < req->envc; i++)
        if (strncmp(req->envp[i], "PATH=", 5) == 0)
            path = req->envp[i] + 5;
    while (*path && *count < CHILD_MAX_PATHS) {
        size_t len = strcspn(path, ":");
        char candidate[PATH_MAX];
        if (snprintf(candidate, sizeof(candidate), "%.*s/%s", (int)len, path, name) <
            (int)sizeof(candidate)) {
            if (!put_string(buf, cap, at, candidate))
                return false;
            ++*count;
        }
        path += len;
        if (*path == ':')
            path++;
    }
    return put_string(buf, cap, at, name);
}

/* The launch message (child.h): 0 when it does not fit. */
static size_t build_launch(const struct run_request *req, char *buf, size_t cap) {
    struct launch_header header = {.argc = (uint32_t)req->argc, .envc = (uint32_t)req->envc};
    size_t at = sizeof(header);
    for (int i = 0; i < req->argc; i++)
        if (!put_string(buf, cap, &at, req->argv[i]))
            return 0;
    for (int i = 0; i < req->envc; i++)
        if (!put_string(buf, cap, &at, req->envp[i]))
            return 0;
    if (!put_paths(req, buf, cap, &at, &header.paths))
        return 0;
    header.bytes = (uint32_t)(at - sizeof(header));
    memcpy(buf, &header, sizeof(header));
    return at;
}

/* Releases the parked call with the go-ahead; the launch message goes before it when the
 * socket's buffer surely holds it (the child finds it at once), else after. */
static bool send_go(struct run *run, const struct seccomp_notif *notif) {
    static char launch[PROTOCOL_REQUEST_MAX + CHILD_MAX_PATHS * PATH_MAX];
    size_t len = build_launch(run->req, launch, sizeof(launch));
    if (len == 0) {
        errno = E2BIG;
        abandon_child(run, "sandbox setup: arguments");
        return false;
    }
    bool first = len <= 65536;
    if (first && write_full(run->sync, launch, len) < 0) {
        abandon_child(run, "sandbox setup: launch");
        return false;
    }
    run->start = now_ns();
    starvation_mark(&run->starvation);
    run->res->busy_clock = busy_clock_text(run->starvation.clock);
    struct seccomp_notif_resp go = {.id = notif->id, .val = CHILD_PARK_GO, .error = 0, .flags = 0};
    if (ioctl(run->listener, SECCOMP_IOCTL_NOTIF_SEND, &go) < 0) {
        abandon_child(run, "sandbox setup: go-ahead");
        return false;
    }
    if (!first && write_full(run->sync, launch, len) < 0) {
        abandon_child(run, "sandbox setup: launch");
        return false;
    }
    return true;
}

/* After the go-ahead the child either execs (EOF on the socket) or says why it could not; read
 * once the main process is reaped, when the answer is there (the socket closes at exec). */
void read_exec_outcome(struct run *run) {
    if (run->sync < 0 || !run->released)
        return;
    char msg[1 + sizeof(int)];
    int got = read_full(run->sync, msg, sizeof(msg));
    if (got == (int)sizeof(msg) && msg[0] == 'X') {
        int exec_errno;
        memcpy(&exec_errno, msg + 1, sizeof(int));
        /* judge/sandbox/result.py's CANNOT_EXECUTE: the CLI calls this bad usage. */
        set_error(run->res, "cannot execute %s: %s", run->req->argv[0], strerror(exec_errno));
    }
}

/* The parked child gets the request's limits, standard input, arguments and environment,
 * then the go-ahead, and execs. */
void start_child(struct run *run) {
    adopt_parked_child(run);
    struct seccomp_notif notif;
    run->released = take_seccomp_listener(run) && receive_park(run, &notif) && limit_child(run) &&
                    give_stdin(run, &notif) && send_go(run, &notif);
}
