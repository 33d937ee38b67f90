# judge audit --target: the probe program a target under audit runs (Python 3, standard library).
# The audit puts its arguments into ARGS (a URL target gets the source alone); run by hand it
# reads them from the command line: MARKER MODE [N ...]. Every mode is bounded: it asks for at
# most a small multiple of the limit it tests and stops there, whatever the target allows, so
# that a target that does not contain it never harms the host it runs on. Each mode prints its
# progress as it goes and "done" last: a run stopped by a limit never prints "done".
import os
import socket
import sys
import threading
import time

ARGS = None  # the audit's arguments: [marker, mode, ...]


def say(*words):
    sys.stdout.write(" ".join(str(w) for w in words) + "\n")
    sys.stdout.flush()


def spin(ms, report_every_ms=50, tag="cpu"):
    """Spins until this thread's CPU clock reaches ms, saying how far it got every report_every_ms
    of CPU: a run killed on the way still tells how much CPU it had."""
    clock = time.thread_time
    limit, next_report, x = ms / 1000.0, report_every_ms / 1000.0, 7
    while True:
        now = clock()
        if now >= limit:
            return x
        if now >= next_report:
            say(tag, f"{time.process_time() * 1000:.1f}")
            next_report += report_every_ms / 1000.0
        for _ in range(300):
            x = (x * 1103515245 + 12345) & 0xFFFFFFFF


def name_this_process(short):
    """Sets the process's name (comm) to the audit's short marker: a forked child keeps its
    parent's command line, so this is how the audit finds it on the host."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(15, short.encode(), 0, 0, 0)      # PR_SET_NAME
    except (OSError, AttributeError):
        pass


def child(short, seconds, detach):
    """The body of a forked child: named by the marker, alone, sleeping, then gone."""
    name_this_process(short)
    if detach:
        os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    time.sleep(seconds)
    os._exit(0)


def cgroup_memory_limit():
    try:
        lines = open("/proc/self/cgroup").read().split("\n")
    except OSError:
        return "unreadable"
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        if parts[0] == "0" and parts[1] == "":
            files = ["/sys/fs/cgroup" + parts[2] + "/memory.max", "/sys/fs/cgroup/memory.max"]
        elif "memory" in parts[1].split(","):
            files = ["/sys/fs/cgroup/memory" + parts[2] + "/memory.limit_in_bytes",
                     "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
        else:
            continue
        for path in files:
            try:
                value = open(path).read().strip()
            except OSError:
                continue
            return "none" if value == "max" or int(value) >= 1 << 60 else str(int(value) >> 20)
    return "unseen"


def trivial(marker, short, rest):
    say("done")


def cpu(marker, short, rest):
    """cpu MS: one thread spins MS of CPU."""
    spin(float(rest[0]))
    say("cpu", f"{time.process_time() * 1000:.1f}")
    say("done")


def cpu_procs(marker, short, rest):
    """cpu-procs N MS: N processes spin MS each."""
    count, ms = int(rest[0]), float(rest[1])
    say("cpus", len(os.sched_getaffinity(0)))
    pids = []
    for i in range(count - 1):
        pid = os.fork()
        if pid == 0:
            spin(ms, tag=f"c{i + 1}")
            say(f"c{i + 1}", f"{time.process_time() * 1000:.1f}")
            os._exit(0)
        pids.append(pid)
    spin(ms, tag="c0")
    say("c0", f"{time.process_time() * 1000:.1f}")
    for pid in pids:
        os.waitpid(pid, 0)
    say("done")


def sleep(marker, short, rest):
    """sleep MS."""
    time.sleep(float(rest[0]) / 1000)
    say("done")


def mem(marker, short, rest):
    """mem MB STEP: touch MB in steps of STEP MB."""
    total, step = int(rest[0]), int(rest[1])
    held = []
    while len(held) * step < total:
        held.append(bytearray(b"\x01") * (step << 20))   # written: every page touched
        say("mem", len(held) * step)
    say("done")


def see(marker, short, rest):
    """What the program is told about its limits."""
    import resource
    soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    say("rlimit_as_mb", "none" if soft == resource.RLIM_INFINITY else soft >> 20)
    say("cgroup_memory_mb", cgroup_memory_limit())
    try:
        say("memtotal_mb", int(open("/proc/meminfo").read().split()[1]) >> 10)
    except (OSError, IndexError, ValueError):
        say("memtotal_mb", "unseen")
    say("cpus", len(os.sched_getaffinity(0)))
    say("pid", os.getpid())
    say("uid", os.getuid())
    say("done")


def output(marker, short, rest):
    """output MB: write MB of stdout, 1 MB at a time."""
    chunk = ("x" * 1023 + "\n") * 1024
    for _ in range(int(rest[0])):
        sys.stdout.write(chunk)
    sys.stdout.flush()
    say("done")


def procs(marker, short, rest):
    """procs N: up to N processes at once."""
    pids = []
    for _ in range(int(rest[0]) - 1):
        try:
            pid = os.fork()
        except OSError as exc:
            say("refused", exc.errno)
            break
        if pid == 0:
            child(short, 0.3, detach=False)
        pids.append(pid)
    say("procs", len(pids) + 1)
    for pid in pids:
        os.waitpid(pid, 0)
    say("done")


def threads(marker, short, rest):
    """threads N: up to N threads at once."""
    threading.stack_size(256 * 1024)     # small stacks: a memory limit is not the cap
    stop = threading.Event()
    started = []
    for _ in range(int(rest[0]) - 1):
        thread = threading.Thread(target=stop.wait, args=(0.3,), daemon=True)
        try:
            thread.start()
        except RuntimeError as exc:
            say("refused", str(exc).replace(" ", "_"))
            break
        started.append(thread)
    say("threads", len(started) + 1)
    stop.set()
    say("done")


def linger(marker, short, rest):
    """linger S: a detached child that outlives the run."""
    if os.fork() == 0:
        child(short, float(rest[0]), detach=True)
    say("done")


def connect(marker, short, rest):
    """connect HOST PORT: a TCP connection within 0.5 s, well inside the shortest time limit the
    audit sets."""
    try:
        with socket.create_connection((rest[0], int(rest[1])), timeout=0.5) as sock:
            sock.sendall(marker.encode())
        say("connected")
    except OSError as exc:
        say("refused", type(exc).__name__)
    say("done")


def files(marker, short, rest):
    """files SENTINEL WRITTEN: read and write the host's files."""
    try:
        say("sentinel", open(rest[0]).read().strip())
    except OSError as exc:
        say("sentinel-error", type(exc).__name__)
    try:
        say("shadow", len(open("/etc/shadow").read()))
    except OSError as exc:
        say("shadow-error", type(exc).__name__)
    try:
        with open(rest[1], "w") as f:
            f.write(marker)
        say("wrote", rest[1])
    except OSError as exc:
        say("write-error", type(exc).__name__)
    say("done")


MODES = {"trivial": trivial, "cpu": cpu, "cpu-procs": cpu_procs, "sleep": sleep, "mem": mem,
         "see": see, "output": output, "procs": procs, "threads": threads, "linger": linger,
         "connect": connect, "files": files}


def main():
    args = ARGS or sys.argv[1:]
    marker, mode, rest = args[0], args[1], args[2:]
    if mode not in MODES:
        say("unknown-mode", mode)
        return 2
    MODES[mode](marker, marker[:15], rest)
    return 0


sys.exit(main())
