# `hostile.py CASE`: what a hostile CPython submission might try.
import os
import sys

case = sys.argv[1]
if case == "socket":
    import socket
    socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    print("socket created")
elif case == "files":
    for path in ("/etc/shadow", "/root", "/work", "/proc/1/environ"):
        try:
            if os.path.isdir(path):
                print(path, "ok", len(os.listdir(path)))
            else:
                with open(path, "rb") as f:
                    print(path, "ok", len(f.read()))
        except OSError as exc:
            print(path, "fail", type(exc).__name__)
elif case == "subprocess":
    import subprocess
    print(subprocess.run(["/bin/echo", "child ran"], capture_output=True).stdout.decode().strip())
elif case == "spin":
    while True:
        pass
elif case == "memory":
    blocks = []
    while True:
        blocks.append(bytearray(1 << 20))
elif case == "fork":
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    print("forked")
elif case == "family":
    # socket(FAMILY, KIND, 0) as the raw x86-64 syscall (41), so the family may carry bits
    # above an int; prints "created" if the sandbox let it through.
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    family, kind = int(sys.argv[2]), int(sys.argv[3])
    fd = libc.syscall(ctypes.c_long(41), ctypes.c_long(family), ctypes.c_long(kind), ctypes.c_long(0))
    if fd >= 0:
        print("created")
    else:
        print("refused:", os.strerror(ctypes.get_errno()))
elif case == "pause":
    import signal
    signal.signal(signal.SIGALRM, lambda *_: None)
    signal.alarm(1)
    signal.pause()
    print("woke")
elif case == "cmdline":
    # What pid 1 of the sandbox (the slot's supervisor) shows of its command line.
    with open("/proc/1/cmdline", "rb") as f:
        sys.stdout.write(repr(f.read()))
elif case == "host-proc":
    # Host-wide /proc files, side channels on the machine: "name visible" for each readable one.
    for name in ("loadavg", "meminfo", "interrupts", "kallsyms", "stat", "uptime", "vmstat",
                 "cpuinfo", "sys/kernel/hostname"):
        try:
            with open(f"/proc/{name}", "rb") as f:
                if f.read(1):
                    print(name, "visible")
        except OSError:
            pass
    print("own status", os.path.exists("/proc/self/status"))
elif case == "tmp-exec":
    # Writes an executable to /tmp and runs it: /tmp must be noexec.
    import shutil
    shutil.copy("/bin/true", "/tmp/true")
    os.chmod("/tmp/true", 0o755)
    try:
        os.execv("/tmp/true", ["/tmp/true"])
    except OSError as exc:
        print("refused", type(exc).__name__)
elif case == "loopback":
    # A server and its client in one program over 127.0.0.1:PORT, the port held for SECONDS
    # first: "exchanged" and the wall-clock span the port was held, or the failure.
    import socket
    import time
    port, hold = int(sys.argv[2]), float(sys.argv[3])
    try:
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.bind(("127.0.0.1", port))
        server.listen(1)
        start = time.time()
        time.sleep(hold)
        client = socket.create_connection(("127.0.0.1", port), timeout=5)
        peer, _ = server.accept()
        client.sendall(b"ping")
        got = peer.recv(4)
        peer.sendall(got.upper())
        print("exchanged", client.recv(4).decode(), start, time.time())
    except OSError as exc:
        print("fail", exc.errno and __import__("errno").errorcode[exc.errno], exc)
elif case == "interfaces":
    # The network interfaces of the run's namespace, from /proc (the sandbox has no /sys).
    with open("/proc/self/net/dev") as f:
        print(*sorted(line.split(":")[0].strip() for line in f.readlines()[2:]))
elif case == "shm":
    # Leaves a POSIX shared-memory object NAME, made through glibc's shm_open or through
    # multiprocessing's SharedMemory: what /dev/shm held before, and where the object went.
    name, how = sys.argv[2], sys.argv[3]
    print("before", *sorted(os.listdir("/dev/shm")))
    if how == "multiprocessing":
        from multiprocessing import shared_memory
        shared = shared_memory.SharedMemory(name=name, create=True, size=1 << 20)
        shared.buf[:4] = b"left"
    else:
        import ctypes
        import mmap
        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.shm_open(f"/{name}".encode(), os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
        if fd < 0:
            sys.exit(f"shm_open: {os.strerror(ctypes.get_errno())}")
        os.ftruncate(fd, 1 << 20)
        with mmap.mmap(fd, 1 << 20) as mapped:
            mapped[:4] = b"left"
    print("made", os.path.realpath(f"/dev/shm/{name}"))
elif case == "shm-fill":
    # Writes a shared-memory object through shm_open until a write fails: the errno's name and
    # the MiB written.
    import ctypes
    import errno
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.shm_open(b"/fill", os.O_CREAT | os.O_RDWR, 0o600)
    if fd < 0:
        sys.exit(f"shm_open: {os.strerror(ctypes.get_errno())}")
    written, chunk = 0, b"z" * (1 << 20)
    try:
        while True:
            written += os.write(fd, chunk)
    except OSError as exc:
        print(f"errno={errno.errorcode[exc.errno]} MiB={written >> 20}")
