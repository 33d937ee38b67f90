/* sysinfo(2) answered by the supervisor with the run's own figures.
 *
 * The host's answer carries its load averages, free memory and process count: what the
 * sandbox's /proc (subset=pid) hides, and through which two runs could watch each other. The
 * call cannot simply be refused: glibc's sysconf(_SC_PHYS_PAGES), which the JVM, gcc and many
 * programs ask, reads totalram and ignores a failure (it would return garbage). So the filter
 * hands the call to the supervisor (user notification, like every call outside the allow-list),
 * which writes figures of the run's own into the caller and lets the call succeed: total and
 * free memory are the run's memory limit, uptime is the run's, loads are 0, one process. */
#include "sysinfo_answer.h"

#include "log.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/uio.h>

bool is_sysinfo_call(const struct seccomp_notif *notice) { return notice->data.nr == SYS_sysinfo; }

static struct sysinfo neutral_figures(uint64_t memory_bytes, uint64_t uptime_s) {
    struct sysinfo info;
    memset(&info, 0, sizeof(info));
    info.uptime = (long)(uptime_s < (uint64_t)LONG_MAX ? uptime_s : (uint64_t)LONG_MAX);
    info.totalram = (unsigned long)memory_bytes;
    info.freeram = (unsigned long)memory_bytes;
    info.procs = 1;
    info.mem_unit = 1;
    return info;
}

/* The caller may have died, and its pid been reused by another process of the run, since
 * the notice came: nothing is written for a notice that is no longer pending. */
static bool still_pending(int listener, const struct seccomp_notif *notice) {
    __u64 id = notice->id;
    return ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
}

void answer_sysinfo(int listener, const struct seccomp_notif *notice, uint64_t memory_bytes,
                    uint64_t uptime_s) {
    if (!still_pending(listener, notice))
        return;
    struct sysinfo info = neutral_figures(memory_bytes, uptime_s);
    struct iovec local = {.iov_base = &info, .iov_len = sizeof(info)};
    struct iovec remote = {.iov_base = (void *)(uintptr_t)notice->data.args[0],
                           .iov_len = sizeof(info)};
    struct seccomp_notif_resp answer;
    memset(&answer, 0, sizeof(answer));
    answer.id = notice->id;
    if (process_vm_writev((pid_t)notice->pid, &local, 1, &remote, 1, 0) != (ssize_t)sizeof(info))
        answer.error = -EFAULT;
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &answer) < 0 && errno != ENOENT)
        note("answer sysinfo: %m");
}
