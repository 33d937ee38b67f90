/* Where a run's stdout and stderr go: a file, a pipe, a terminal, a socket, or nowhere.
 *
 * The program's pipes are drained whatever the destination does, so that a reader that is
 * slow, stopped or gone can neither block the supervisor nor slow the program: the limits
 * hold. A regular file takes every write at once. Any other destination is written only when
 * poll says it has room, each write guarded by a short timer in case it still blocks (a
 * terminal may take less than it said); what it cannot take waits in a memfd the supervisor
 * owns, in order. After the run what is waiting is delivered for as long as the slot's
 * delivery time allows; the rest is dropped and counted, never silently. */
#include "sink.h"

#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#define WRITE_GUARD_US 2000
/* Past this much waiting for a reader the program's pipe is no longer read: the program
 * blocks in write, as it would writing to a slow reader directly, and its wall limit ends it. */
#define BACKLOG_MAX (256ull << 20)
#define SPLICE_MAX (1u << 20)

static char scratch[1 << 16];

static void on_guard_timer(int sig) { (void)sig; }

/* SIGALRM interrupts a write that blocks (no SA_RESTART), and does nothing else. */
static int install_write_guard(void) {
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = on_guard_timer;
    sigemptyset(&action.sa_mask);
    return sigaction(SIGALRM, &action, NULL);
}

/* The timer repeats until it is disarmed: a one-shot one that fired before write() began to
 * block (the supervisor preempted between setitimer and write, on a busy machine) would leave
 * that write blocked for ever on a reader that never reads. */
static ssize_t guarded_write(int fd, const char *buf, size_t len) {
    struct itimerval guard = {.it_interval = {.tv_sec = 0, .tv_usec = WRITE_GUARD_US},
                              .it_value = {.tv_sec = 0, .tv_usec = WRITE_GUARD_US}};
    struct itimerval off = {{0, 0}, {0, 0}};
    if (setitimer(ITIMER_REAL, &guard, NULL) < 0)
        return -1;
    ssize_t written = write(fd, buf, len);
    int saved = errno;
    if (setitimer(ITIMER_REAL, &off, NULL) < 0 && written >= 0)
        return -1;
    errno = saved;
    return written;
}

static uint64_t backlog(const struct sink *s) { return s->spill_len - s->spill_off; }

static void drop_backlog(struct sink *s) {
    s->undelivered += backlog(s);
    s->spill_len = s->spill_off = 0;
    if (s->spill >= 0 && ftruncate(s->spill, 0) < 0) {
        /* The memfd keeps its pages until it is closed at the end of the run. */
    }
}

/* The reader went away (EPIPE, a closed terminal): nothing more can reach it. */
static void lose_reader(struct sink *s) {
    drop_backlog(s);
    s->to = -1;
    s->reader_lost = true;
}

static bool stall_errno(int err) { return err == EAGAIN || err == EWOULDBLOCK || err == EINTR; }

static int append_to_backlog(struct sink *s, const char *buf, size_t len) {
    if (s->spill < 0) {
        s->spill = memfd_create("judge-sink", MFD_CLOEXEC);
        if (s->spill < 0)
            return -1;
    }
    for (size_t done = 0; done < len;) {
        ssize_t w = pwrite(s->spill, buf + done, len - done, (off_t)(s->spill_len + done));
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        done += (size_t)w;
    }
    s->spill_len += len;
    return 0;
}

/* Bytes the program wrote, kept within the limit: to the destination, or behind what waits. */
static void deliver(struct sink *s, const char *buf, size_t len) {
    if (s->to < 0) {
        if (s->reader_lost)
            s->undelivered += len;
        return;
    }
    if (s->regular_file) {
        for (size_t done = 0; done < len;) {
            ssize_t w = write(s->to, buf + done, len - done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                s->undelivered += len - done;
                lose_reader(s);
                return;
            }
            done += (size_t)w;
        }
        return;
    }
    size_t done = 0;
    if (backlog(s) == 0) {
        struct pollfd room = {.fd = s->to, .events = POLLOUT};
        if (poll(&room, 1, 0) == 1 && (room.revents & POLLOUT)) {
            ssize_t w = guarded_write(s->to, buf, len);
            if (w < 0 && !stall_errno(errno)) {
                s->undelivered += len;
                lose_reader(s);
                return;
            }
            done = w > 0 ? (size_t)w : 0;
        }
    }
    if (done < len && append_to_backlog(s, buf + done, len - done) < 0)
        s->undelivered += len - done;
}

void sink_open(struct sink *s, int from, int to, uint64_t limit) {
    memset(s, 0, sizeof(*s));
    s->from = from;
    s->to = to;
    s->limit = limit;
    s->spill = -1;
    struct stat st;
    if (to >= 0 && fstat(to, &st) == 0) {
        s->regular_file = S_ISREG(st.st_mode) || S_ISBLK(st.st_mode);
        s->to_pipe = S_ISFIFO(st.st_mode);
    }
    s->splice_ok = s->regular_file;
    if (to >= 0 && !s->regular_file && install_write_guard() < 0)
        s->to = -1;
}

void sink_close(struct sink *s) {
    if (s->spill >= 0)
        close(s->spill);
    s->spill = -1;
}

bool sink_wants_room(const struct sink *s) { return s->to >= 0 && backlog(s) > 0; }

bool sink_wants_input(const struct sink *s) { return !s->closed && backlog(s) < BACKLOG_MAX; }

int sink_flush(struct sink *s) {
    int moved = 0;
    while (s->to >= 0 && backlog(s) > 0) {
        size_t want = backlog(s) < sizeof(scratch) ? (size_t)backlog(s) : sizeof(scratch);
        ssize_t n = pread(s->spill, scratch, want, (off_t)s->spill_off);
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                continue;
            lose_reader(s);
            break;
        }
        ssize_t w = guarded_write(s->to, scratch, (size_t)n);
        if (w < 0) {
            if (!stall_errno(errno))
                lose_reader(s);
            break;
        }
        s->spill_off += (uint64_t)w;
        moved = 1;
        if (w < n)
            break;
    }
    if (backlog(s) == 0 && s->spill_len > 0)
        drop_backlog(s);
    return moved;
}

int sink_drain(struct sink *s) {
    while (!s->closed) {
        size_t room = s->seen < s->limit ? (size_t)(s->limit - s->seen) : 0;
        ssize_t n;
        if (s->to >= 0 && room > 0 && s->splice_ok) {
            size_t want = room < SPLICE_MAX ? room : SPLICE_MAX;
            n = splice(s->from, NULL, s->to, NULL, want, SPLICE_F_NONBLOCK | SPLICE_F_MOVE);
            if (n < 0 && errno != EINTR && errno != EAGAIN) {
                /* Not for this file, or the file refused the bytes: read and write tell which. */
                s->splice_ok = false;
                continue;
            }
        } else {
            if (!sink_wants_input(s))
                break;
            n = read(s->from, scratch, sizeof(scratch));
            if (n > 0)
                deliver(s, scratch, (size_t)n < room ? (size_t)n : room);
        }
        if (n == 0) {
            s->closed = true;
            break;
        }
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN)
                break;
            s->closed = true;
            break;
        }
        s->seen += (uint64_t)n;
        if (s->seen > s->limit)
            return 1;
    }
    return 0;
}

/* What a program just wrote, passed on to a pipe in one splice: the poll loop comes back when
 * it writes more, so a message costs the relay a single call (an interaction's query, where the
 * next program waits for it). Pipe to pipe, SPLICE_F_NONBLOCK waits on neither side. Anything
 * else, a reader that is full or gone, the end of the pipe or the limit, is sink_drain's. */
int sink_pass(struct sink *s) {
    uint64_t room = s->seen < s->limit ? s->limit - s->seen : 0;
    if (s->to_pipe && s->to >= 0 && !s->closed && backlog(s) == 0 && room > 0) {
        ssize_t n = splice(s->from, NULL, s->to, NULL, room < SPLICE_MAX ? room : SPLICE_MAX,
                           SPLICE_F_NONBLOCK);
        if (n > 0) {
            s->seen += (uint64_t)n;
            return 0;
        }
    }
    return sink_drain(s);
}

void sink_finish(struct sink *sinks, int count, uint64_t deadline_ns) {
    for (;;) {
        struct pollfd room[2];
        int waiting = 0;
        for (int i = 0; i < count && waiting < 2; i++)
            if (sink_wants_room(&sinks[i]))
                room[waiting++] = (struct pollfd){.fd = sinks[i].to, .events = POLLOUT};
        uint64_t now = now_ns();
        if (waiting == 0 || now >= deadline_ns)
            break;
        uint64_t left_ms = (deadline_ns - now) / 1000000ull + 1;
        int wait_ms = left_ms < 1000 ? (int)left_ms : 1000;
        if (poll(room, (nfds_t)waiting, wait_ms) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < count; i++)
            if (sink_wants_room(&sinks[i]))
                sink_flush(&sinks[i]);
    }
    for (int i = 0; i < count; i++)
        drop_backlog(&sinks[i]);
}
