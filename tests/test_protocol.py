"""The supervisor protocol (docs/protocol.md): one definition, native/shared/protocol.h, that both
sides are built from; strict decoding of what the supervisor sends; malformed requests answered as
SE without spoiling the slot."""
from __future__ import annotations

import os
import re
import struct
import sys
from pathlib import Path

import pytest

from conftest import children_of
from judge import JudgeError
from judge.sandbox import Limits, SandboxError, protocol, slot, slots
from judge.sandbox.policy import policy_bpf
from judge.verdicts import KilledBy

ROOT = Path(__file__).resolve().parents[1]
HEADER = ROOT / "native" / "shared" / "protocol.h"


def header_macro(name: str) -> str:
    """The body of a multi-line #define in protocol.h."""
    text = HEADER.read_text()
    match = re.search(rf"^#define {name}\(X\)((?:.*\\\n)*.*)$", text, re.M)
    assert match, name
    return match.group(1)


def header_number(name: str) -> int:
    match = re.search(rf"^#define {name} ([^/\n]+)", HEADER.read_text(), re.M)
    assert match, name
    value = match.group(1).strip().replace("1u", "1")
    assert re.fullmatch(r"[0-9() <]+", value), value
    return eval(value, {})   # "256" or "(1 << 20)"


def test_python_reads_the_header_through_the_built_module():
    """The tags, bits, fields and limits Python uses are the header's, read from judge._native;
    the header's text says the same (a stale build would not)."""
    d = protocol.definitions()
    tags = {name: int(tag) for name, tag in
            re.findall(r"X\((\w+), (\d+)\)", header_macro("PROTOCOL_REQUEST_TAGS"))}
    assert d.tags == tags and len(set(tags.values())) == len(tags)
    bits = {name: int(bit) for name, bit in
            re.findall(r"X\((\w+), (\d+)\)", header_macro("PROTOCOL_FD_BITS"))}
    assert d.fd_bits == bits == {"STDIN": 1, "STDOUT": 2, "STDERR": 4}
    for macro, fields in (("PROTOCOL_READY_FIELDS", d.ready_fields),
                          ("PROTOCOL_REPLY_FIELDS", d.reply_fields)):
        listed = re.findall(r"X\((\w+), (\w+), \w+\)", header_macro(macro))
        assert list(fields.items()) == listed, macro
        assert set(fields.values()) <= {"int", "u64", "text"}
    assert d.version == header_number("PROTOCOL_VERSION")
    assert (d.max_args, d.max_env, d.request_max) == (
        header_number("PROTOCOL_MAX_ARGS"), header_number("PROTOCOL_MAX_ENV"),
        header_number("PROTOCOL_REQUEST_MAX"))
    # Python keeps no copy of its own.
    source = Path(slot.__file__).read_text()
    assert "range(1, 15)" not in source and "MAX_ARGS" not in source


def test_the_slot_registry_uses_the_supervisor_s_slots_and_uids():
    """judge/sandbox/slots.py needs the slot count and uid base before any native module loads;
    protocol.h is their source, and the supervisor refuses a slot past the count."""
    d = protocol.definitions()
    assert (d.slot_count, d.host_uid_base) == (
        header_number("PROTOCOL_SLOT_COUNT"), header_number("PROTOCOL_HOST_UID_BASE"))
    assert (slots.SLOT_COUNT, slots.HOST_UID_BASE) == (d.slot_count, d.host_uid_base)


def test_killed_by_is_the_header_s_and_the_enum_s():
    """The supervisor's killed_by texts are protocol.h's; judge.verdicts.KilledBy has each under
    the same name, and adds only what the judge concludes itself; docs/protocol.md lists them."""
    listed = dict(re.findall(r'X\((\w+), "([^"]+)"\)', header_macro("PROTOCOL_KILLED_BY")))
    assert protocol.definitions().killed_by == listed
    assert {name: KilledBy[name].value for name in listed} == listed
    assert {k.name for k in KilledBy} - set(listed) == {"CPU_RLIMIT", "IDLE"}
    row = next(line for line in (ROOT / "docs" / "protocol.md").read_text().splitlines()
               if line.startswith("| `killed_by` |"))
    assert set(re.findall(r"`([a-z-]+)`", row.split("|")[3])) == set(listed.values())


def test_busy_clocks_are_the_header_s_and_every_side_knows_them():
    """The clocks BUSY's figure is measured on are protocol.h's; the judge knows "none" as no
    exact clock (no BUSY evidence), judge doctor describes each, docs/protocol.md lists them,
    and a started slot names one in its ready message and in each reply."""
    from judge.doctor import BUSY_CLOCKS
    from judge.sandbox.verdict import NO_BUSY_CLOCK
    listed = dict(re.findall(r'X\((\w+), "([^"]+)"\)', header_macro("PROTOCOL_BUSY_CLOCKS")))
    assert protocol.definitions().busy_clocks == listed
    assert listed["NONE"] == NO_BUSY_CLOCK and set(BUSY_CLOCKS) == set(listed.values())
    row = next(line for line in (ROOT / "docs" / "protocol.md").read_text().splitlines()
               if line.startswith("| `busy_clock` |") and "PROTOCOL_BUSY_CLOCKS" in line)
    assert set(re.findall(r"`([a-z-]+)`", row.split("|")[3])) == set(listed.values())


def test_a_slot_names_its_busy_clock(sb):
    assert sb.busy_clock in protocol.definitions().busy_clocks.values()
    assert (sb.busy_clock_reason is None) == (sb.busy_clock == "nohz-idle"), sb.busy_clock_reason
    assert sb.run(["./exitcode", "0"]).sources["busy"] == sb.busy_clock


def test_a_reply_carries_exactly_the_header_fields_in_order(sb):
    message = sb._encode(["./exitcode", "3"], Limits(), None, "native", None, [None] * 3)
    sb._send(message, [])
    reply = sb._receive(Limits())
    keys = [line.partition("=")[0] for line in reply.splitlines()]
    assert keys == list(protocol.definitions().reply_fields)
    fields = protocol.parse_reply(reply)
    assert fields.number("exit_code") == 3 and fields.text("error") == ""


def record(tag: int, data: bytes) -> bytes:
    return struct.pack("=HI", tag, len(data)) + data


def u64(tag: int, value: int) -> bytes:
    return record(tag, struct.pack("=Q", value))


def valid_records() -> list[bytes]:
    t = protocol.definitions().tags
    return [record(t["ARG"], b"/bin/true\0"), u64(t["CPU_MS"], 1000), u64(t["WALL_MS"], 2000),
            u64(t["MEMORY"], 64 << 20), u64(t["PROCESSES"], 4), u64(t["OPEN_FILES"], 64),
            u64(t["FILE_SIZE"], 1 << 20), u64(t["OUTPUT"], 1 << 20),
            record(t["BPF"], policy_bpf("native"))]


def malformed_requests() -> dict[str, tuple[bytes, int]]:
    """name -> (message, how many descriptors to attach)."""
    t = protocol.definitions().tags
    ok = b"".join(valid_records())
    return {
        "garbage": (b"\x01\x00", 0),
        "unknown tag": (ok + record(999, b"x"), 0),
        "record longer than the message": (ok + struct.pack("=HI", t["ARG"], 50) + b"x", 0),
        "string without NUL": (ok + record(t["ENV"], b"A=1"), 0),
        "number of the wrong size": (ok + record(t["CPU_MS"], b"\x01\x02"), 0),
        "no command": (b"".join(valid_records()[1:]), 0),
        "no CPU limit": (b"".join(r for i, r in enumerate(valid_records()) if i != 1), 0),
        "FDS names a stream not attached": (ok + u64(t["FDS"], 1), 0),
        "a descriptor FDS does not name": (ok, 1),
        "unknown FDS bit": (ok + u64(t["FDS"], 8), 0),
        "too many arguments": (ok + record(t["ARG"], b"x\0") * protocol.definitions().max_args, 0),
    }


@pytest.mark.parametrize("case", sorted(malformed_requests()))
def test_a_malformed_request_is_an_se_and_the_slot_runs_on(sb, case):
    message, attach = malformed_requests()[case]
    reads, writes = zip(*(os.pipe() for _ in range(attach)), strict=True) if attach else ((), ())
    try:
        sb._send(message, list(writes))
        reply = sb._receive(Limits())
        for fd in writes:
            os.close(fd)
        # The supervisor closed what came with the request before it replied: our read ends
        # see EOF (a copy it kept would make the read fail instead, as nothing was written).
        for fd in reads:
            os.set_blocking(fd, False)
            assert os.read(fd, 1) == b""
    finally:
        for fd in reads:
            os.close(fd)
    result = sb._decode(reply, Limits(), None)
    assert result.status == "SE" and result.error == "malformed request", result
    assert sb.run(["./exitcode", "0"]).status == "OK"


def test_the_valid_records_of_that_test_make_a_request(sb):
    """The malformed cases above differ from a request the supervisor takes by their flaw."""
    sb._send(b"".join(valid_records()), [])
    reply = sb._receive(Limits())
    assert sb._decode(reply, Limits(), None).status == "OK"


def sample_reply() -> str:
    return "".join(f"{key}={'0' if kind != 'text' else ''}\n"
                   for key, kind in protocol.definitions().reply_fields.items())


@pytest.mark.parametrize("mutilate, message", [
    (lambda r: r.replace("cpu_ns=0\n", ""), "malformed reply: missing cpu_ns"),
    (lambda r: r + "extra=1\n", "malformed reply: unknown key 'extra'"),
    (lambda r: r + "cpu_ns=5\n", "malformed reply: cpu_ns given twice"),
    (lambda r: r.replace("wall_ns=0", "wall_ns=-4"), "malformed reply: wall_ns='-4' is not a u64"),
    (lambda r: r.replace("signal=0", "signal=x"), "malformed reply: signal='x' is not an int"),
    (lambda r: r.rstrip("\n"), "malformed reply: it does not end with a line break"),
    (lambda r: "garbage\n" + r, "malformed reply: 'garbage' is not key=value"),
])
def test_a_reply_that_is_not_the_header_is_refused(mutilate, message):
    assert protocol.parse_reply(sample_reply()).number("cpu_ns") == 0
    with pytest.raises(SandboxError, match=re.escape(message)):
        protocol.parse_reply(mutilate(sample_reply()))


def test_a_live_slot_refuses_a_reply_missing_a_key(sb, monkeypatch):
    real = sb._receive_reply

    def without_memory(timeout_s=None):
        return re.sub(r"^memory_bytes=.*\n", "", real(timeout_s), flags=re.M)

    monkeypatch.setattr(sb, "_receive_reply", without_memory)
    with pytest.raises(SandboxError, match="malformed reply: missing memory_bytes"):
        sb.run(["./exitcode", "0"])


def fake_supervisor(tmp_path: Path, message: str) -> Path:
    """An executable that answers the judge's start with `message` and waits to be closed."""
    script = tmp_path / "fake-supervisor"
    script.write_text(f"#!{sys.executable}\n"
                      "import socket, sys\n"
                      "fd = int(sys.argv[sys.argv.index('--sock') + 1])\n"
                      "s = socket.socket(fileno=fd)\n"
                      f"s.send({message.encode()!r})\n"
                      "s.recv(1)\n")
    script.chmod(0o755)
    return script


@pytest.mark.parametrize("message, theirs", [
    ("ready\nprotocol=999\ncgroup=none\nuid=separate\npriority=normal\ncgroup_reason=x\n", "999"),
    ("ready cgroup=none uid=separate priority=normal\ncgroup_reason=x\n", "(none: an older build)"),
])
def test_a_supervisor_of_another_protocol_version_is_refused(tmp_path, configure, message,
                                                              theirs):
    configure(supervisor=fake_supervisor(tmp_path, message))
    ours = protocol.definitions().version
    with pytest.raises(SandboxError, match=re.escape(
            f"the supervisor speaks protocol {theirs}, this judge speaks protocol {ours}")):
        slot.Sandbox().start()


def test_a_ready_message_missing_a_field_is_refused(tmp_path, configure):
    ours = protocol.definitions().version
    message = f"ready\nprotocol={ours}\ncgroup=none\nuid=separate\ncgroup_reason=\n"
    configure(supervisor=fake_supervisor(tmp_path, message))
    with pytest.raises(SandboxError, match="malformed ready message: missing priority"):
        slot.Sandbox().start()


def test_a_startup_error_is_reported_as_sent():
    with pytest.raises(SandboxError, match="cannot start the sandbox: --box must be absolute"):
        protocol.parse_ready("error --box must be absolute\n")


# -- runs begun in two slots at once (an interactive test's shape) ---------------------------

def _cpus_allowed(pid: int) -> str:
    status = Path(f"/proc/{pid}/status").read_text()
    return next(line.split(":", 1)[1].strip() for line in status.splitlines()
                if line.startswith("Cpus_allowed_list"))


def test_two_slots_piped_together_from_one_thread(make_sandbox):
    """begin() returns at once, so one thread can have a run going in each of two slots joined
    by pipes; with interactive=True (RELAY_ON_CPU) each init relays from the slot's CPU for
    that run only, and is back on its own CPUs afterwards."""
    first, second = make_sandbox(), make_sandbox()
    first.start()
    second.start()
    (init,) = children_of(first._process.pid)
    before = _cpus_allowed(init)
    into_first, between, out_of_second = os.pipe(), os.pipe(), os.pipe()
    try:
        one = first.begin(["./echo"], stdin=into_first[0], stdout=between[1], interactive=True)
        two = second.begin(["./echo"], stdin=between[0], stdout=out_of_second[1],
                           interactive=True)
        with pytest.raises(JudgeError, match="wait"):
            first.begin(["./echo"])
        for fd in (into_first[0], between[0], between[1], out_of_second[1]):
            os.close(fd)
        os.write(into_first[1], b"through two slots\n")
        os.close(into_first[1])
        results = one.wait(), two.wait()
        got = os.read(out_of_second[0], 1 << 16)
    finally:
        os.close(out_of_second[0])
    assert [r.status for r in results] == ["OK", "OK"], results
    assert got == b"through two slots\n"
    with pytest.raises(JudgeError, match="already waited"):
        one.wait()
    assert _cpus_allowed(init) == before
    assert first.run(["./exitcode", "0"]).status == "OK"
