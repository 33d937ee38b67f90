"""The host-side half of a target audit: the marker that names a probe's processes (and the
sweep that finds and kills them, and nothing else), the sentinel file, the listeners a probe
tries to reach, and the snapshots of what a target leaves on the host (cgroups, namespaces,
NAT rules, files, processes)."""
from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
CGROUP_DEPTH = 4
SCRATCH_DIRS = (Path("/tmp"), Path("/var/tmp"), Path("/dev/shm"))
NETNS_DIR = Path("/run/netns")
OUTSIDE = ("1.1.1.1", 53)        # an address outside this host, reached over TCP


def new_marker() -> str:
    """15 characters (what a process name holds), 44 random bits: no other process on the host
    has it in its name or its command line."""
    return "jaud" + secrets.token_hex(6)[:11]


def _reads(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


def _marked(pid: str, marker: str) -> bool:
    proc = Path("/proc") / pid
    return (_reads(proc / "comm").strip() == marker.encode()
            or marker.encode() in _reads(proc / "cmdline").split(b"\0"))


def marked_processes(marker: str) -> list[int]:
    """The host's processes named by `marker` or with it as a word of their command line."""
    me = os.getpid()
    return sorted(int(pid) for pid in os.listdir("/proc")
                  if pid.isdigit() and int(pid) != me and _marked(pid, marker))


def kill_marked(marker: str) -> int:
    """Kills the processes marked by `marker`; each is held by a pidfd and checked again before
    the signal, so a pid reused in between is never hit. Returns how many it killed."""
    killed = 0
    for pid in marked_processes(marker):
        try:
            fd = os.pidfd_open(pid)
        except OSError:
            continue
        try:
            if _marked(str(pid), marker):
                signal.pidfd_send_signal(fd, signal.SIGKILL)
                killed += 1
        except OSError:
            pass
        finally:
            os.close(fd)
    return killed


@dataclass
class Sentinel:
    """A file in the host's /tmp that a probe must not see, and the path it must not be able to
    write there."""
    marker: str
    path: Path = field(init=False)
    written: Path = field(init=False)
    content: str = field(init=False)

    def __post_init__(self) -> None:
        self.path = Path("/tmp") / f"judge-audit-{self.marker}.sentinel"
        self.written = Path("/tmp") / f"judge-audit-{self.marker}.written"
        self.content = f"{self.marker}-sentinel"

    def __enter__(self) -> Sentinel:
        self.path.write_text(self.content + "\n")
        self.path.chmod(0o644)
        return self

    def __exit__(self, *exc) -> None:
        self.path.unlink(missing_ok=True)
        self.written.unlink(missing_ok=True)


class Listener:
    """A TCP listener on one of the host's addresses, recording which markers reached it."""

    def __init__(self, address: str) -> None:
        self.sock = socket.socket()
        self.sock.bind((address, 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        self.address, self.port = address, self.sock.getsockname()[1]
        self.reached: list[bytes] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(1)
                try:
                    self.reached.append(conn.recv(64))
                except OSError:
                    self.reached.append(b"")

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=2)
        self.sock.close()

    def __enter__(self) -> Listener:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def host_address() -> str | None:
    """This host's first global IPv4 address (not the loopback), if it has one."""
    try:
        out = subprocess.run(["ip", "-4", "-o", "addr", "show", "scope", "global"],
                             capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    for line in out.splitlines():
        words = line.split()
        if "inet" in words:
            return words[words.index("inet") + 1].split("/")[0]
    return None


def reaches_outside(timeout_s: float = 3.0) -> bool:
    try:
        with socket.create_connection(OUTSIDE, timeout=timeout_s):
            return True
    except OSError:
        return False


def _cgroups() -> set[str]:
    found: set[str] = set()
    for top, dirs, _ in os.walk(CGROUP_ROOT):
        depth = Path(top).relative_to(CGROUP_ROOT).parts
        if len(depth) >= CGROUP_DEPTH:
            dirs.clear()
        found.update(str(Path(top, d).relative_to(CGROUP_ROOT)) for d in dirs)
    return found


def _nat_rules() -> list[str]:
    if os.geteuid() != 0 or shutil.which("iptables") is None:
        return []
    try:
        done = subprocess.run(["iptables", "-w", "5", "-t", "nat", "-S"], capture_output=True,
                              text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return []
    return done.stdout.splitlines() if done.returncode == 0 else []


def _scratch() -> set[str]:
    found: set[str] = set()
    for directory in SCRATCH_DIRS:
        try:
            found.update(str(directory / name) for name in os.listdir(directory))
        except OSError:
            pass
    return found


def _nsfs_mounts() -> set[str]:
    """Namespaces kept alive by a bind mount, but the named network namespaces (counted by name)."""
    lines = _reads(Path("/proc/self/mountinfo")).decode(errors="replace").splitlines()
    return {line.split()[4] for line in lines
            if " - nsfs " in line and not line.split()[4].startswith(f"{NETNS_DIR}/")}


@dataclass
class HostSnapshot:
    """What is on the host that a sandbox may leave behind it."""
    cgroups: set[str]
    namespaces: set[str]       # named network namespaces and namespaces bound to a path
    nat_rules: list[str]
    scratch: set[str]          # entries of /tmp, /var/tmp, /dev/shm

    @classmethod
    def take(cls) -> HostSnapshot:
        names = {f"netns {n}" for n in (os.listdir(NETNS_DIR) if NETNS_DIR.is_dir() else [])}
        return cls(_cgroups(), names | {f"nsfs {m}" for m in _nsfs_mounts()}, _nat_rules(),
                   _scratch())

    def since(self, before: HostSnapshot) -> dict[str, list[str]]:
        """What is here now that was not before, by kind (NAT rules: the rules added)."""
        rules = list(self.nat_rules)
        for rule in before.nat_rules:
            if rule in rules:
                rules.remove(rule)
        return {"cgroups": sorted(self.cgroups - before.cgroups),
                "namespaces": sorted(self.namespaces - before.namespaces),
                "NAT rules": rules,
                "files": sorted(self.scratch - before.scratch)}
