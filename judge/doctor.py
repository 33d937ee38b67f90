"""What the kernel and the machine offer the judge, and what the judge does without each."""
from __future__ import annotations

import os
import re
import socket
from dataclasses import asdict, dataclass
from pathlib import Path

from judge.languages import Language
from judge.sandbox.slots import SLOT_COUNT, host_uid
from judge.verdicts import Status


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    without: str          # what the judge does when this is missing
    required: bool = False

    def to_dict(self) -> dict:
        return asdict(self)


def _native():
    try:
        from judge import _native
        return _native
    except ImportError:
        return None


NO_CGROUP_MODE = ("no-cgroup mode: programs may start threads but no processes (fork, vfork "
                  "and clone without CLONE_THREAD end as RF); CPU time is the one process's "
                  "rusage; memory (resident pages plus the files of the run's /tmp) is "
                  "watched every 5 ms and the run killed past the limit (MLE); pipes cannot be "
                  "grown (F_SETPIPE_SZ) and memfd_create is refused")


class _CgroupDetection:
    """The sandbox's own cgroup detection (native/shared/cgroups.h), called through
    judge._native."""

    def __init__(self, native) -> None:
        self.ffi, self.lib = native.ffi, native.lib

    @property
    def v1_controllers(self) -> list[str]:
        lib = self.lib
        return [self.ffi.string(lib.cgroup_v1_controllers[i]).decode()
                for i in range(lib.cgroup_v1_controller_count)]

    def hierarchy(self, controller: str | None) -> tuple[bool, str]:
        """Whether the sandbox can use the hierarchy (None: v2), and this process's directory
        in it ("" when no mount shows it)."""
        directory = self.ffi.new("char[]", 4096)
        name = self.ffi.NULL if controller is None else controller.encode()
        usable = bool(self.lib.cgroup_usable(name, directory, len(directory)))
        return usable, os.fsdecode(self.ffi.string(directory))


def _cgroup_checks(cgroups: _CgroupDetection | None) -> list[Check]:
    if cgroups is None:
        return [Check(name, False, "judge._native is not built", without)
                for name, without in (("cgroup v2", "cannot report"), ("cgroup v1", "cannot report"))]
    v2_usable, v2_dir = cgroups.hierarchy(None)
    if v2_usable:
        v2_detail = f"{v2_dir} offers memory and pids"
    elif v2_dir:
        v2_detail = f"{v2_dir}: cgroup.controllers lacks memory or pids"
    else:
        v2_detail = "no cgroup2 mount shows this process's cgroup"
    v1 = {name: cgroups.hierarchy(name) for name in cgroups.v1_controllers}
    v1_detail = ", ".join(f"{name}: {directory or 'not mounted'}"
                          for name, (_, directory) in v1.items())
    return [
        Check("cgroup v2", v2_usable, v2_detail,
              "uses cgroup v1 when mounted, else the no-cgroup mode"),
        Check("cgroup v1", all(usable for usable, _ in v1.values()), v1_detail,
              NO_CGROUP_MODE),
    ]


def _sandbox_checks() -> list[Check]:
    """An end-to-end run, the cgroup mode the sandbox picked (with why, when none), and what
    the widest program policy leaves of the network."""
    from judge.sandbox import Limits, Sandbox, SandboxError
    try:
        with Sandbox(box=None) as sandbox:
            result = sandbox.run(["/bin/true"], Limits(time_limit_ms=2000))
            vsock = _vsock_check(sandbox)
        fallback = None
        if sandbox.busy_clock == "nohz-idle":    # what a slot without it (no root) would use
            with Sandbox(box=None, busy_clock="cpuidle") as lesser:
                fallback = (lesser.busy_clock, lesser.busy_clock_reason)
    except SandboxError as exc:
        return [Check("sandbox", False, str(exc),
                      "refuses to run programs (never runs them unconfined)", required=True)]
    detail = (f"cgroup={sandbox.cgroup}, program uid={sandbox.uid_mode}, /bin/true: {result.status}"
              + (f" ({result.error})" if result.error else ""))
    checks = [Check("sandbox", result.status == "OK", detail,
                    "refuses to run programs (never runs them unconfined)", required=True)]
    mode = sandbox.cgroup or "none"     # set once the slot has started
    in_use = mode != "none"
    checks.append(Check("cgroup in use", in_use,
                        mode if in_use else sandbox.cgroup_reason or "none",
                        NO_CGROUP_MODE))
    checks.append(Check("supervisor priority", sandbox.priority_raised,
                        "raised (nice -10)" if sandbox.priority_raised else "normal",
                        "a CPU-limit kill may wait for the end of the program's time slice "
                        "(needs root with CAP_SYS_NICE)"))
    checks.append(vsock)
    checks.append(busy_clock_check(sandbox.busy_clock, sandbox.busy_clock_reason, fallback))
    return checks


# What each clock BUSY's figure can be measured on is (native/supervisor/starvation.c,
# docs/design/3-isolation.md §3.8).
BUSY_CLOCKS = {
    "nohz-idle": "the kernel's idle time, accounted at idle entry and exit (NO_HZ: /proc/stat's "
                 "idle and iowait); BUSY's figure is exact to 20 ms",
    "cpuidle": "the residency of the run's CPU in its cpuidle states, read on that CPU; BUSY's "
               "figure is exact to microseconds",
    "none": "only busy time sampled at the kernel's ticks, which a program can steer by running "
            "around them: no run is BUSY here",
}


def busy_clock_check(clock: str | None, reason: str | None,
                     fallback: tuple[str | None, str | None] | None = None) -> Check:
    """Which clock the sandbox measures a starved run's outside work on, and so whether BUSY
    can be told here at all (a submission must not be able to fake it, §6.5); with `fallback`,
    the clock a slot gets without the best one (and why)."""
    detail = f"{clock}: {BUSY_CLOCKS.get(clock or '', 'unknown to this judge')}"
    if reason:
        detail += f" (no better clock: {reason})"
    if fallback is not None:
        lesser, why = fallback
        detail += (f"; without it, {lesser}" if lesser != "none" else
                   f"; without it, none ({why.split('; ')[-1] if why else 'no cpuidle states'})")
    return Check("busy clock", clock in BUSY_CLOCKS and clock != "none", detail,
                 "a run starved of CPU by other work is the TLE of its wall clock, never BUSY "
                 "(judge eval re-runs a TLE alone, docs/design/6-evaluation.md §6.4); a NO_HZ "
                 "kernel and the judge as root (to read /proc/timer_list), or cpuidle states on "
                 "a pinned slot, give an exact clock")


VSOCK_PROBE = f"import socket; socket.socket({int(socket.AF_VSOCK)}, socket.SOCK_STREAM).close()"


def _vsock_check(sandbox) -> Check:
    """vsock is not network-namespaced: where the host has it, a socket from inside the sandbox
    would reach the host. Tried under the widest program policy (java), it must be refused."""
    from judge.sandbox import Limits
    try:
        socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM).close()
        host = "the host has vsock"
    except OSError as exc:
        host = f"the host has no vsock ({exc.strerror})"
    result = sandbox.run(["/usr/bin/python3", "-c", VSOCK_PROBE], Limits(time_limit_ms=5000),
                         policy="java")
    if result.status == Status.SE:     # no python3 to probe with: say so, do not claim a hole
        return Check("vsock", False, f"{host}; cannot probe the sandbox: {result.error}",
                     "cannot report whether a program could reach the host over vsock")
    refused = result.status == "RF" and result.syscall == "socket"
    inside = "refused in the sandbox (RF socket)" if refused else f"sandbox run: {result.status}"
    return Check("vsock", refused, f"{host}; {inside}",
                 "a program could reach the host over vsock", required=True)


# Bit numbers in the CapEff mask of /proc/self/status (<linux/capability.h>).
_REPORTED_CAPABILITIES = {"sys_admin": 21, "setuid": 7, "setgid": 6, "sys_ptrace": 19}


def _effective_capabilities() -> int:
    """The CapEff mask of /proc/self/status (0 when it cannot be read)."""
    try:
        status = open("/proc/self/status").read()
    except OSError:
        return 0
    mask = re.search(r"^CapEff:\s*([0-9a-f]+)", status, re.M)
    return int(mask.group(1), 16) if mask else 0


def _capabilities() -> Check:
    effective = _effective_capabilities()
    caps = [name for name, bit in _REPORTED_CAPABILITIES.items() if effective & (1 << bit)]
    root = os.geteuid() == 0
    detail = f"euid={os.geteuid()}, effective: {', '.join(caps) or 'none'}"
    return Check("privileges", True, detail,
                 "" if root else "runs programs as the mapped user with no capabilities; "
                 "cgroups only where delegated")


def _language_checks() -> list[Check]:
    """One line per language of the registry: its toolchain's version, or the Debian packages
    that would bring it (every request in it is then answered as not installed here)."""
    from concurrent.futures import ThreadPoolExecutor

    from judge.languages import LANGUAGES, Profile

    def check(language: Language) -> Check:
        name = f"language {language.name}"
        without = (f"{language.name} programs are refused (toolchain not installed), never "
                   "judged")
        if not language.available:
            return Check(name, False, "not installed (Debian packages "
                         f"{', '.join(language.packages)}; make setup installs them)", without)
        runner = " (SandboxFusion's test runner)" if language.compatible_only else ""
        detail = f"{language.toolchain_version}{runner}, {language.policy.name} policy"
        compatible = language.in_profile(Profile.COMPATIBLE)
        missing = compatible.missing_libraries
        if missing:
            return Check(name, False, f"{detail}; the compatible profile lacks "
                         f"{', '.join(lib.describe() for lib in missing)} (make setup as root)",
                         f"/run_code and /submit in {language.name} answer SandboxError until "
                         "they are installed")
        held = [lib.name for lib in compatible.libraries if lib.installed]
        return Check(name, True, detail + (f"; compatible profile adds {', '.join(held)}"
                                           if held else ""), without)
    # Version probes start JVMs and compilers: side by side they take the longest one's time.
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(check, LANGUAGES.values()))


def _container_check(cgroups: _CgroupDetection | None) -> Check:
    """Inside a container: what the engine withholds that the sandbox needs, with the run flag
    that grants it (found by experiment with rootful podman, docs/containers.md), spelled as
    docker spells it in a docker container."""
    from judge.audit.host import container_engine
    engine = container_engine()
    if engine is None:
        return Check("container", True, "not in a container", "")

    missing: list[tuple[str, str]] = []      # (what is wrong, the flag that fixes it)
    status = open("/proc/self/status").read()
    if re.search(r"^Seccomp:\s*[12]\b", status, re.M):
        missing.append(("the engine's seccomp profile refuses sethostname, and its EPERM would "
                        "pre-empt the judge's RF verdicts", "--security-opt seccomp=unconfined"))
    try:
        apparmor = open("/proc/self/attr/apparmor/current").read().strip()
    except OSError:
        apparmor = "unconfined"
    if apparmor != "unconfined":
        missing.append((f"AppArmor profile {apparmor} may refuse the sandbox's mounts",
                        "--security-opt apparmor=unconfined"))
    mounts = [line.split() for line in open("/proc/self/mountinfo")]
    if any(fields[4].startswith("/proc/") for fields in mounts):
        missing.append(("parts of /proc are masked, so no new proc can be mounted in the "
                        "sandbox's namespaces", "--security-opt systempaths=unconfined"
                        if engine.startswith("docker") else "--security-opt unmask=/proc/*"))

    if cgroups is not None:
        missing += _container_cgroup_flags(cgroups)
    nice = "" if _effective_capabilities() & (1 << 23) else (
        "; optional: --cap-add SYS_NICE (the supervisor's raised priority makes CPU-limit "
        "kills prompt)")
    if not missing:
        return Check("container", True, f"{engine}: it grants what the sandbox needs{nice}", "")
    return Check("container", False,
                 f"{engine}: " + "; ".join(f"{what}: {flag}" for what, flag in missing) + nice,
                 "run it with " + " ".join(flag for _, flag in missing) + " (docs/containers.md)")


def _container_cgroup_flags(cgroups: _CgroupDetection) -> list[tuple[str, str]]:
    """The hierarchy the sandbox would use, through the directory it would write, must be
    writable in the container."""
    v2_usable, v2_dir = cgroups.hierarchy(None)
    if v2_usable:
        if not os.access(v2_dir, os.W_OK):
            return [(f"cgroup v2 {v2_dir} is read-only (not exercised: written on a v1 host)",
                     "--cgroupns=private --security-opt unmask=/sys/fs/cgroup")]
        return []
    def writable(controller: str) -> bool:
        _, directory = cgroups.hierarchy(controller)
        return bool(directory) and os.access(directory, os.W_OK)

    controllers = cgroups.v1_controllers
    unusable = [name for name in controllers if not writable(name)]
    if not unusable:
        return []
    return [(f"cgroup v1 {', '.join(unusable)}: this container's cgroup is read-only or not "
             "visible, so the sandbox falls back to the no-cgroup mode",
             " ".join(f"-v /sys/fs/cgroup/{c}:/sys/fs/cgroup/{c}" for c in controllers))]


def _id_ranges(path: Path, kind: str) -> list[tuple[str, int, int]]:
    """(who, first, last) of each id an /etc/passwd or /etc/subuid-like file gives out."""
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return []
    ranges = []
    for line in lines:
        fields = line.split(":")
        try:
            if kind == "passwd" and len(fields) > 2:
                ranges.append((f"{fields[0]} (uid {fields[2]})", int(fields[2]), int(fields[2])))
            elif kind == "subordinate" and len(fields) == 3:
                first, count = int(fields[1]), int(fields[2])
                ranges.append((f"{fields[0]} ({path} {first}-{first + count - 1})", first,
                               first + count - 1))
        except ValueError:
            continue
    return ranges


def sandbox_uid_check(passwd: Path = Path("/etc/passwd"), subuid: Path = Path("/etc/subuid"),
                      subgid: Path = Path("/etc/subgid")) -> Check:
    """Run as root, the sandbox's programs take host uids of their own (judge/sandbox/slots.py):
    no account and no rootless container's subordinate ids may use them."""
    low, high = host_uid(0), host_uid(SLOT_COUNT - 1)
    given = (_id_ranges(passwd, "passwd") + _id_ranges(subuid, "subordinate")
             + _id_ranges(subgid, "subordinate"))
    clashes = [who for who, first, last in given if first <= high and last >= low]
    detail = f"sandbox programs run as host uids {low}-{high} (as root)"
    return Check("sandbox uids", not clashes,
                 detail + (f"; also given to {', '.join(clashes[:5])}" if clashes
                           else ": no account or subordinate id range of this host uses them"),
                 "a sandbox shares the kernel's per-user counts (processes, pipe buffers) with "
                 "that account or container; give them ids outside the range")


def run_checks() -> list[Check]:
    native = _native()
    checks: list[Check] = []
    if native is None:
        checks.append(Check("native module", False, "judge._native is not built",
                            "cannot probe the kernel; run `make setup`", required=True))
    else:
        lib = native.lib
        checks.append(Check("user namespaces", bool(lib.judge_probe_userns()),
                            "unshare(CLONE_NEWUSER)", "refuses to run programs", required=True))
        checks.append(Check("seccomp", bool(lib.judge_probe_seccomp()),
                            "filters with user notification", "refuses to run programs", required=True))
        checks.append(Check("pidfd", bool(lib.judge_probe_pidfd()), "pidfd_open",
                            "refuses to run programs", required=True))
        read = native.ffi.new("double *")
        ok = bool(lib.judge_probe_cpu_clock(read))
        checks.append(Check("cpu clocks", ok,
                            f"a child's 20 ms of CPU read as {read[0]:.3f} ms from outside"
                            if ok else "another process's CPU clock cannot be read",
                            "every run is a judge failure (SE): the CPU limit is watched on this "
                            "clock", required=True))
    cgroups = _CgroupDetection(native) if native is not None else None
    checks.extend(_cgroup_checks(cgroups))
    checks.append(_capabilities())
    checks.append(_container_check(cgroups))
    checks.extend(_sandbox_checks())
    checks.append(sandbox_uid_check())
    checks.extend(_language_checks())
    checks.append(_strict_profile_check())
    checks.extend(_python_environment_checks())
    return checks


def _strict_profile_check() -> Check:
    """The strict profile (competitive grading) holds the toolchains' own libraries only; a
    runtime-layer library installed system-wide (apt, or pip into the system Python) would be
    found by every program without a flag naming it."""
    from judge.languages import runtime
    from judge.languages.registry import LIBRARY_PACKAGES, PYTHON_LIBRARIES
    leaked = [f"{package} (Debian)" for package in LIBRARY_PACKAGES
              if runtime.installed_on_host(package)]
    leaked += [f"{module} (Python)" for module in runtime.system_python_finds(
        [lib.name for lib in PYTHON_LIBRARIES])]
    detail = ("competitive grading (judge run, judge eval, /v1/grade) sees the toolchains' own "
              "libraries only; /run_code and /submit run in the compatible profile")
    if leaked:
        return Check("strict profile", False, f"the host also gives every program "
                     f"{', '.join(leaked)}", "Codeforces-style grading accepts programs that "
                     "use them, which Codeforces refuses; remove them from the system")
    return Check("strict profile", True, detail, "")

def _python_environment_checks() -> list[Check]:
    """The modules Python programs may import beyond the standard library, per benchmark and
    for the compatible profile (judge/languages/python_env.py)."""
    from judge.languages.python_env import ENVIRONMENTS
    from judge.problems.rules import RULES
    checks = []
    for env in ENVIRONMENTS.values():
        users = (", ".join(r.name for r in RULES.values() if r.python_environment == env.name)
                 or "the compatible profile's python and pytest (/run_code, /submit)")
        name = f"python environment {env.name}"
        if env.installed:
            where = (f" in {env.path} (pypy3: the standard library only)" if env.modules
                     else "")
            checks.append(Check(name, True, f"{env.describe()}{where}, for {users}", ""))
        elif env.optional:
            checks.append(Check(name, True, f"{env.describe()}: opt-in, not installed (make "
                                f"setup PYTHON_EXTRAS={env.name})", ""))
        else:
            checks.append(Check(name, False, f"{env.describe()}: not installed in {env.path} "
                                "(make setup, or python -m judge.languages.install python, as "
                                "root)", f"{users}: Python programs are refused until it is "
                                "installed"))
    return checks
