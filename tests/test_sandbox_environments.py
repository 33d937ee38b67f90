"""The sandbox in the places users start it from: as a container's PID 1, and under the mount
layout container engines make (a hidden read-only copy of the cgroup hierarchy, a tmpfs over
/sys/fs/cgroup, the container's own cgroup bound back in). Root only: the set-up needs
namespaces a normal user may not mount cgroup hierarchies in."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import V1_CONTROLLERS, next_slot, own_cgroups, run, slot_cgroup_dirs, slot_dir_name

pytestmark = pytest.mark.sandbox
REPO = Path(__file__).resolve().parent.parent


def _can_unshare(*flags: str) -> bool:
    """Whether this process may make the namespaces a test needs: root on a host may, root in a
    container without CAP_SYS_ADMIN (the judge's narrow flag set) may not."""
    return os.geteuid() == 0 and subprocess.run(
        ["unshare", *flags, "true"], capture_output=True).returncode == 0


CAN_UNSHARE_PID = _can_unshare("--pid", "--fork", "--mount-proc")
CAN_UNSHARE_MOUNT = _can_unshare("--mount")

PROBE = textwrap.dedent("""
    import json, os, sys
    from judge.sandbox import Limits, Sandbox
    with Sandbox(box=sys.argv[1], slot=int(sys.argv[2])) as sb:
        r = sb.run(["./threads", "2", "20"], Limits())
        print(json.dumps({"pid": os.getpid(), "cgroup": sb.cgroup, "status": r.status,
                          "sources": r.sources, "supervisor": sb._process.pid}))
        sys.stdout.flush()
        input()   # the caller looks at the cgroup directories while the slot lives
""")


def _own_v1_paths() -> dict[str, str]:
    paths = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(","):
            if controller in V1_CONTROLLERS:
                paths[controller] = path
    return paths


def _v1_host() -> bool:
    return os.geteuid() == 0 and set(_own_v1_paths()) == set(V1_CONTROLLERS) and all(
        Path("/sys/fs/cgroup", c).is_dir() for c in V1_CONTROLLERS)


def test_judge_as_pid_1_of_its_namespace(box, require_sandbox):
    """A judge that is a container's PID 1 (no init in front of it) starts its sandboxes."""
    if not CAN_UNSHARE_PID:
        pytest.skip("unshare --pid is not allowed here (root on the host is)")
    proc = subprocess.run(
        ["unshare", "--pid", "--fork", "--mount-proc", sys.executable, "-c",
         PROBE.replace("input()", "pass"), str(box), str(next_slot())],
        capture_output=True, text=True, timeout=120, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-2000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["pid"] == 1, out
    assert out["status"] == "OK", out


def test_a_judge_in_another_pid_namespace_leaves_our_slots_alone(make_sandbox, box):
    """Judges in different pid namespaces may share a parent cgroup (a container, `unshare
    --pid`). Our supervisors' pids mean nothing there: its sweep must not take our slot, idle
    between runs, for a dead one's."""
    if not CAN_UNSHARE_PID:
        pytest.skip("unshare --pid is not allowed here (root on the host is)")
    sb = make_sandbox()
    assert sb.run(["./threads", "1", "5"]).status == "OK"
    ours = [d for d in slot_cgroup_dirs(sb.slot, sb._process.pid) if d.exists()]
    proc = subprocess.run(
        ["unshare", "--pid", "--fork", "--mount-proc", sys.executable, "-c",
         PROBE.replace("input()", "pass"), str(box), str(next_slot())],
        capture_output=True, text=True, timeout=120, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert all(d.exists() for d in ours), [d for d in ours if not d.exists()]
    r, out, _ = run(sb, ["./threads", "2", "5"])
    assert r.status == "OK" and out.strip() == "2 threads done", r


def _engine_layout(side: Path, own: dict[str, str]) -> str:
    """Mounts as an engine builds a container: first a read-only copy of each hierarchy whose
    root is our own cgroup, at the usual place (and no mount of the whole hierarchy before it),
    then a tmpfs over /sys/fs/cgroup that hides those copies, then each whole hierarchy mounted
    read-write at the usual place. The visible mount is the last one; the first one that
    matches points at the hierarchy's root."""
    lines = ["set -e", f"mkdir -p {side}/src {side}/ro"]
    for c in V1_CONTROLLERS:
        lines += [f"mkdir -p {side}/src/{c} {side}/ro/{c}",
                  f"mount -t cgroup -o {c} cgroup {side}/src/{c}",
                  f"mount --bind -o ro {side}/src/{c}/{own[c].lstrip('/')} {side}/ro/{c}",
                  f"umount {side}/src/{c}"]
    lines += ["umount -l /sys/fs/cgroup", "mount -t tmpfs tmpfs /sys/fs/cgroup"]
    for c in V1_CONTROLLERS:
        lines += [f"mkdir -p /sys/fs/cgroup/{c}", f"mount --move {side}/ro/{c} /sys/fs/cgroup/{c}"]
    lines.append("mount -t tmpfs tmpfs /sys/fs/cgroup")
    for c in V1_CONTROLLERS:
        lines += [f"mkdir -p /sys/fs/cgroup/{c}", f"mount -t cgroup -o {c} cgroup /sys/fs/cgroup/{c}"]
    lines.append('exec "$@"')
    return "\n".join(lines)


@pytest.mark.cgroup_layout("v1")
def test_cgroup_found_under_an_engine_s_mount_layout(box, require_sandbox, tmp_path):
    if not (_v1_host() and CAN_UNSHARE_MOUNT):
        pytest.skip("needs root, allowed to unshare a mount namespace")
    own = _own_v1_paths()
    own_dirs = own_cgroups()
    side = tmp_path / "hierarchies"
    script = _engine_layout(side, own)
    slot = next_slot()
    proc = subprocess.Popen(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "layout",
         sys.executable, "-c", PROBE, str(box), str(slot)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=REPO)
    try:
        line = proc.stdout.readline()
        assert line, proc.stderr.read()[-2000:]
        out = json.loads(line)
        assert out["cgroup"] == "v1" and out["status"] == "OK", out
        assert out["sources"]["memory"] == "cgroup-v1", out
        name = slot_dir_name(slot, out["supervisor"])
        for controller in V1_CONTROLLERS:
            # The slot lives in our own cgroup (whose limits then hold), not at the root. We
            # look through our own mounts, outside the layout: when this suite itself runs in a
            # container, they show our cgroup as their root, and the hierarchy's root is hidden.
            mount = Path("/sys/fs/cgroup", controller)
            inside_own = own_dirs[controller] / name
            assert inside_own.is_dir(), f"{inside_own} missing"
            if own_dirs[controller] != mount:
                assert not (mount / name).exists(), f"slot escaped to {mount / name}"
    finally:
        proc.communicate(input="\n", timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_compile_cache_on_another_file_system(require_sandbox, tmp_path):
    """A cache on a volume (here /dev/shm, a tmpfs) while the build's work directory is under
    $TMPDIR: the finished build must still land in the cache."""
    import uuid

    from judge.compiler import Compiler
    from judge.languages import get_language
    shm = Path("/dev/shm")
    if not shm.is_dir() or os.stat(shm).st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("no second file system beside the temp directory")
    cache = Path(shm, f"judge-test-cache-{uuid.uuid4().hex}")
    compiler = Compiler(slot=next_slot(), cache=cache / "compile")
    try:
        source = f"int main() {{ return 0; }} // {uuid.uuid4()}\n"
        first = compiler.compile(source, get_language("c"))
        second = compiler.compile(source, get_language("c"))
        assert first.status == "OK" and not first.cached, first.log
        assert first.artifacts is not None and any(first.artifacts.iterdir()), first
        assert second.status == "OK" and second.cached
    finally:
        compiler.close()
        subprocess.run(["rm", "-rf", str(cache)], check=False)
