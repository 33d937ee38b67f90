/* Installs the seccomp BPF program built by the Python side, right before execve. The filter
 * refuses with SECCOMP_RET_USER_NOTIF, so the supervisor learns which syscall was refused; the
 * listener descriptor is returned to be handed over. */
#include "seccomp_install.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int seccomp_install(const unsigned char *bpf, size_t len) {
    if (len == 0 || len % sizeof(struct sock_filter) != 0 ||
        len / sizeof(struct sock_filter) > 4096) {
        errno = EINVAL;
        return -1;
    }
    struct sock_fprog prog = {
        .len = (unsigned short)(len / sizeof(struct sock_filter)),
        .filter = (struct sock_filter *)(uintptr_t)bpf,
    };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        return -1;
    long fd =
        syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
    return fd < 0 ? -1 : (int)fd;
}
