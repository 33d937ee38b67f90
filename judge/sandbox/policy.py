"""seccomp policies, built with pyseccomp and handed to the supervisor as BPF bytes.

Each policy is an allow-list; anything else is refused with SECCOMP_RET_USER_NOTIF, which lets
the supervisor name the syscall before it kills the run (status RF). Some syscalls are refused
whatever a policy says, and clone may not create namespaces.
"""
from __future__ import annotations

import errno
import functools
import socket
import tempfile
from dataclasses import dataclass
from fcntl import F_SETPIPE_SZ

import pyseccomp

from judge import JudgeError

# Never allowed, in any policy (docs/design/3-isolation.md §3.5, seccomp).
ALWAYS_REFUSED = frozenset("""
ptrace process_vm_readv process_vm_writev mount umount2 pivot_root chroot unshare setns
bpf perf_event_open io_uring_setup io_uring_enter io_uring_register userfaultfd keyctl add_key
request_key kexec_load kexec_file_load init_module finit_module delete_module reboot swapon
swapoff acct quotactl syslog settimeofday clock_settime clock_adjtime adjtimex
open_by_handle_at name_to_handle_at fanotify_init fsopen fsconfig fsmount fspick move_mount
open_tree mount_setattr pidfd_getfd seccomp iopl ioperm modify_ldt lookup_dcookie vhangup
sethostname setdomainname mknod mknodat uselib nfsservctl
""".split())

CLONE_NAMESPACE_FLAGS = 0x7E020000  # CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET

# What a statically linked C/C++ program needs, threads included.
NATIVE = """
read write readv writev pread64 pwrite64 lseek close fstat newfstatat statx stat lstat
openat open access faccessat faccessat2 readlink readlinkat getcwd getdents64 fcntl dup dup2 dup3
ioctl brk mmap munmap mprotect mremap madvise mlock munlock arch_prctl set_tid_address
set_robust_list get_robust_list rseq prlimit64 getrlimit uname getrandom futex futex_waitv
sched_yield sched_getaffinity sched_getparam sched_getscheduler getpid gettid getppid getuid
geteuid getgid getegid getresuid getresgid getpgrp getpgid getsid clock_gettime clock_getres
gettimeofday time times getrusage nanosleep clock_nanosleep rt_sigaction rt_sigprocmask
rt_sigreturn rt_sigpending rt_sigtimedwait rt_sigsuspend pause sigaltstack tgkill tkill kill exit
exit_group restart_syscall wait4 waitid clone fork vfork execve pipe pipe2 poll ppoll select
pselect6 memfd_create ftruncate fallocate unlink unlinkat mkdir mkdirat rename renameat
renameat2 rmdir fsync fdatasync sync_file_range msync mincore membarrier umask chdir fchdir
fadvise64 setsid setpgid alarm getitimer setitimer timer_create timer_settime timer_gettime
timer_getoverrun timer_delete eventfd eventfd2 epoll_create epoll_create1 epoll_ctl epoll_wait
epoll_pwait epoll_pwait2 copy_file_range sendfile splice tee statfs fstatfs prctl
""".split()

PYTHON = NATIVE + """
getgroups socketpair getxattr lgetxattr fgetxattr listxattr flistxattr chmod fchmod fchmodat utimensat
futimesat getpriority sched_getattr close_range
""".split()

JAVA = PYTHON + """
sched_setscheduler sched_setattr setpriority mbind get_mempolicy set_mempolicy
socket connect getsockname getpeername getsockopt setsockopt shutdown sendto recvfrom
sendmsg recvmsg bind listen accept accept4 inotify_init1 inotify_add_watch inotify_rm_watch
flock
""".split()

# Compilers and linkers: a toolchain's processes, temporary files and permission bits, the
# build cache's locks (go) and the timers of compilers written in Haskell (ghc).
BUILD = PYTHON + """
chown fchown fchownat lchown link linkat symlink symlinkat utime utimes flock
timerfd_create timerfd_settime timerfd_gettime
""".split()

# Thread pools that raise their own scheduling priority and ask the C library's name service
# (nscd's socket, absent in the box) who the uid is: .NET/Mono and R.
NAME_SERVICE = ["socket", "connect"]
MONO = PYTHON + NAME_SERVICE + """
sched_setscheduler sched_get_priority_max sched_get_priority_min
""".split()

# V8 asks for its own capabilities and for memory protection keys (it goes on without them).
NODE = PYTHON + ["capget", "pkey_alloc", "pkey_free", "pkey_mprotect"]

# Tool-use code sent to SandboxFusion's /run_code: every runtime's set (servers on the run's own
# loopback, whose network namespace has no other interface; POSIX semaphores in /dev/shm, made
# by link; file locks), and the event and batch calls servers use.
GENERAL = sorted(set(JAVA + BUILD + MONO + NODE) | set("""
sendmmsg recvmmsg inotify_init timerfd_create timerfd_settime timerfd_gettime signalfd
signalfd4 pidfd_open pidfd_send_signal
""".split()))

NUMA_PLACEMENT = ("mbind", "get_mempolicy", "set_mempolicy")
# Asynchronous I/O rings are always refused; a runtime that tries them first (libuv in Node)
# is answered as by a kernel without them and falls back to threads.
IO_URING = ("io_uring_setup",)

INET = (socket.AF_UNIX, socket.AF_INET, socket.AF_INET6)


@dataclass(frozen=True)
class Policy:
    """A seccomp allow-list and how the sandbox treats the runtimes that run under it."""
    name: str
    syscalls: tuple[str, ...]
    # The families `socket` may create (when it is allowed); socketpair is AF_UNIX only.
    socket_families: tuple[int, ...] = (socket.AF_UNIX,)
    # Without a cgroup: whether the run may fork (compilers wait for their children), or
    # threads only (a reaped child would take its CPU time with it).
    forks_without_cgroup: bool = False
    # Without a cgroup: whether RLIMIT_AS may back the watch of resident memory. Runtimes that
    # reserve address space up front (the JVM, GHC's 1 TiB heap, V8, Mono, Go) break under it.
    address_space_limit: bool = True
    # Answered ENOSYS, as by a kernel without them, so the runtime takes its fallback.
    absent: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        bad = ALWAYS_REFUSED.intersection(self.syscalls)
        if bad:
            raise AssertionError(f"policy {self.name} allows always-refused syscalls: {sorted(bad)}")


POLICIES: dict[str, Policy] = {policy.name: policy for policy in (
    Policy("native", tuple(NATIVE)),
    Policy("python", tuple(PYTHON)),
    # Interpreters: PHP, Ruby, Perl, Lua, R, Racket, Bash.
    Policy("script", tuple(PYTHON + NAME_SERVICE)),
    Policy("java", tuple(JAVA), socket_families=INET, address_space_limit=False),
    Policy("go", tuple(NATIVE), address_space_limit=False),
    Policy("ghc", tuple(NATIVE), address_space_limit=False),
    Policy("node", tuple(NODE), address_space_limit=False, absent=IO_URING),
    Policy("mono", tuple(MONO), address_space_limit=False),
    Policy("build", tuple(BUILD + NAME_SERVICE), forks_without_cgroup=True,
           address_space_limit=False, absent=IO_URING),
    # Compilers that are Java programs and start helpers (kotlinc runs `ldconfig -p`).
    Policy("jvm-build", tuple(sorted(set(JAVA + BUILD))), socket_families=INET,
           forks_without_cgroup=True, address_space_limit=False),
    Policy("general", tuple(GENERAL), socket_families=INET, address_space_limit=False,
           absent=IO_URING),
)}


def get_policy(name: str) -> Policy:
    if name not in POLICIES:
        raise JudgeError(f"unknown policy {name!r} (known: {', '.join(POLICIES)})")
    return POLICIES[name]


# Memory that no limit but a memory cgroup would bound (shmem files live outside the address
# space): refused when the sandbox runs without cgroups.
UNBOUNDED_WITHOUT_CGROUP = frozenset({"memfd_create"})
CLONE_THREAD = 0x00010000


# Why a refusal happened, where the call alone would puzzle the author of the program.
_NO_NETWORK = ("the sandbox has no network: a name lookup (getpwnam, getaddrinfo, NSS) opens a "
               "socket too")
_REFUSAL_REASONS = {"socket": _NO_NETWORK, "connect": _NO_NETWORK}


def describe_refusal(syscall: str) -> str:
    """The one-line message of an RF run."""
    reason = _REFUSAL_REASONS.get(syscall)
    return f"refused syscall {syscall}" + (f" ({reason})" if reason else "")


@functools.cache
def policy_bpf(name: str, without_cgroup: bool = False) -> bytes:
    """The BPF program of a policy, as the bytes the kernel takes."""
    policy = get_policy(name)
    allowed = list(policy.syscalls)
    threads_only = without_cgroup and not policy.forks_without_cgroup
    if without_cgroup:
        allowed = [s for s in allowed if s not in UNBOUNDED_WITHOUT_CGROUP]
    if threads_only:
        allowed = [s for s in allowed if s not in ("fork", "vfork")]
    f = pyseccomp.SyscallFilter(defaction=pyseccomp.NOTIFY)
    # Foreign ABIs (i386 `int 0x80`, x32) do not match the native architecture: killed outright.
    f.set_attr(pyseccomp.Attr.ACT_BADARCH, pyseccomp.KILL_PROCESS)
    for syscall in sorted(set(allowed)):
        if syscall in ("clone", "fcntl"):
            continue
        if syscall in ("socket", "socketpair"):
            # A socket's family decides whether the net namespace confines it: AF_VSOCK
            # reaches the host and its VMs, AF_NETLINK and AF_PACKET are not namespaced as one
            # would hope; anything but the policy's families is refused (RF naming the call).
            families = policy.socket_families if syscall == "socket" else (socket.AF_UNIX,)
            for family in families:
                f.add_rule(pyseccomp.ALLOW, syscall, pyseccomp.Arg(0, pyseccomp.EQ, family))
            continue
        try:
            f.add_rule(pyseccomp.ALLOW, syscall)
        except (OSError, ValueError):
            continue  # not a syscall on this architecture
    if threads_only:
        f.add_rule(pyseccomp.ALLOW, "clone",
                   pyseccomp.Arg(0, pyseccomp.MASKED_EQ, CLONE_NAMESPACE_FLAGS | CLONE_THREAD,
                                 CLONE_THREAD))
    else:
        f.add_rule(pyseccomp.ALLOW, "clone",
                   pyseccomp.Arg(0, pyseccomp.MASKED_EQ, CLONE_NAMESPACE_FLAGS, 0))
    # clone3 takes its flags in memory, out of the filter's reach: make libc fall back to clone.
    f.add_rule(pyseccomp.ERRNO(errno.ENOSYS), "clone3")
    # A pipe's buffer is kernel memory that neither RSS nor RLIMIT_AS counts (up to 64 MiB a
    # uid): pipes keep their default size, so RLIMIT_NOFILE bounds what they hold.
    f.add_rule(pyseccomp.ALLOW, "fcntl", pyseccomp.Arg(1, pyseccomp.NE, F_SETPIPE_SZ))
    f.add_rule(pyseccomp.ERRNO(errno.EPERM), "fcntl", pyseccomp.Arg(1, pyseccomp.EQ, F_SETPIPE_SZ))
    # NUMA memory placement (OpenBLAS, inside numpy, asks for it): where the policy does not
    # allow it, answered as by a kernel built without NUMA, so the library goes on without it.
    for syscall in NUMA_PLACEMENT:
        if syscall not in allowed:
            f.add_rule(pyseccomp.ERRNO(errno.ENOSYS), syscall)
    for syscall in policy.absent:
        f.add_rule(pyseccomp.ERRNO(errno.ENOSYS), syscall)
    # Runs are pinned to one CPU; moving off it would let threads outrun the CPU accounting.
    f.add_rule(pyseccomp.ERRNO(errno.EPERM), "sched_setaffinity")
    # `personality(0xffffffff)` only asks; any change (e.g. disabling ASLR) is refused.
    f.add_rule(pyseccomp.ALLOW, "personality", pyseccomp.Arg(0, pyseccomp.EQ, 0xFFFFFFFF))
    with tempfile.TemporaryFile() as out:
        f.export_bpf(out)
        out.seek(0)
        return out.read()


def syscall_name(number: int) -> str:
    try:
        return pyseccomp.resolve_syscall(pyseccomp.Arch.NATIVE, number).decode()
    except (ValueError, OSError):
        return f"syscall {number}"
