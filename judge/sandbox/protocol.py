"""The supervisor protocol, the judge's side (docs/protocol.md).

Every tag, limit, field and killed_by text comes from native/shared/protocol.h through the built
module judge._native, so the two sides agree by construction; a supervisor built from other sources
is refused by the protocol version of its ready message. Whatever the supervisor sends is decoded
strictly: a missing, unknown, repeated or ill-formed field is a SandboxError, never a default.
"""
from __future__ import annotations

import functools
import os
import re
import struct
from dataclasses import dataclass

from judge.sandbox.errors import SandboxError


@dataclass(frozen=True)
class Definitions:
    version: int
    slot_count: int                 # --slot takes 0 .. slot_count - 1
    host_uid_base: int              # as root, slot N runs as host uid host_uid_base + N
    max_args: int
    max_env: int
    request_max: int
    tags: dict[str, int]            # request record name -> tag
    fd_bits: dict[str, int]         # STDIN, STDOUT, STDERR -> bit of the FDS record
    ready_fields: dict[str, str]    # key -> kind ("int", "u64", "text"), in the order sent
    reply_fields: dict[str, str]
    killed_by: dict[str, str]       # what stopped a run: name -> the reply's killed_by text
    busy_clocks: dict[str, str]     # what BUSY's figure is measured on: name -> busy_clock text


@functools.cache
def definitions() -> Definitions:
    try:
        import judge._native as native
    except ImportError:
        raise SandboxError("the native module judge._native is not built (run `make setup`)") \
            from None
    ffi, lib = native.ffi, native.lib

    def names(table, count: int) -> dict[str, int]:
        return {ffi.string(entry.name).decode(): entry.value for entry in table[0:count]}

    def fields(table, count: int) -> dict[str, str]:
        return {ffi.string(entry.key).decode(): ffi.string(entry.kind).decode()
                for entry in table[0:count]}

    def texts(table, count: int) -> dict[str, str]:
        return {ffi.string(entry.name).decode(): ffi.string(entry.text).decode()
                for entry in table[0:count]}

    return Definitions(
        version=lib.PROTOCOL_VERSION, slot_count=lib.PROTOCOL_SLOT_COUNT,
        host_uid_base=lib.PROTOCOL_HOST_UID_BASE, max_args=lib.PROTOCOL_MAX_ARGS,
        max_env=lib.PROTOCOL_MAX_ENV, request_max=lib.PROTOCOL_REQUEST_MAX,
        tags=names(lib.protocol_request_tags, lib.protocol_request_tag_count),
        fd_bits=names(lib.protocol_fd_bits, lib.protocol_fd_bit_count),
        ready_fields=fields(lib.protocol_ready_fields, lib.protocol_ready_field_count),
        reply_fields=fields(lib.protocol_reply_fields, lib.protocol_reply_field_count),
        killed_by=texts(lib.protocol_killed_by, lib.protocol_killed_by_count),
        busy_clocks=texts(lib.protocol_busy_clocks, lib.protocol_busy_clock_count))


# -- requests ---------------------------------------------------------------------------------
def record(name: str, data: bytes) -> bytes:
    return struct.pack("=HI", definitions().tags[name], len(data)) + data


def number(name: str, value: float) -> bytes:
    return record(name, struct.pack("=Q", int(value)))


def text(name: str, value: str) -> bytes:
    return record(name, os.fsencode(value) + b"\0")


def fd_mask(stdin: bool, stdout: bool, stderr: bool) -> int:
    bits = definitions().fd_bits
    return (bits["STDIN"] * stdin) | (bits["STDOUT"] * stdout) | (bits["STDERR"] * stderr)


# -- what the supervisor sends ----------------------------------------------------------------
_NUMBER = {"int": re.compile(r"-?[0-9]+"), "u64": re.compile(r"[0-9]+")}


def _lines(message: str) -> list[str]:
    """The lines of a message, each ended by a line break."""
    *lines, last = message.split("\n")
    if last:
        raise ValueError("it does not end with a line break")
    return lines


@dataclass(frozen=True)
class Fields:
    """A decoded message: each field read with the kind the header gives it."""
    values: dict[str, int | str]

    def number(self, key: str) -> int:
        value = self.values[key]
        if not isinstance(value, int):
            raise TypeError(f"{key} is a text field")
        return value

    def text(self, key: str) -> str:
        value = self.values[key]
        if not isinstance(value, str):
            raise TypeError(f"{key} is a number field")
        return value


def _fields(lines: list[str], spec: dict[str, str]) -> Fields:
    values: dict[str, int | str] = {}
    for line in lines:
        key, sep, value = line.partition("=")
        if not sep:
            raise ValueError(f"{line!r} is not key=value")
        if key not in spec:
            raise ValueError(f"unknown key {key!r}")
        if key in values:
            raise ValueError(f"{key} given twice")
        kind = spec[key]
        if kind == "text":
            values[key] = value
        elif _NUMBER[kind].fullmatch(value):
            values[key] = int(value)
        else:
            raise ValueError(f"{key}={value!r} is not {'an int' if kind == 'int' else 'a u64'}")
    missing = [key for key in spec if key not in values]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    return Fields(values)


def parse_ready(message: str) -> Fields:
    """The supervisor's first message: "ready" and the slot's fields, or "error <why>"."""
    if message.startswith("error "):
        raise SandboxError(f"cannot start the sandbox: {message[len('error '):].strip()}")
    first, _, rest = message.partition("\n")
    if not first.startswith("ready"):
        raise SandboxError("cannot start the sandbox: "
                           + (f"unexpected first message {message!r}" if message
                              else "the supervisor died"))
    ours = definitions().version
    theirs = next((line[len("protocol="):] for line in rest.split("\n")
                   if line.startswith("protocol=")), None)
    if first != "ready" or theirs != str(ours):
        raise SandboxError(f"cannot start the sandbox: the supervisor speaks protocol "
                           f"{theirs or '(none: an older build)'}, this judge speaks protocol {ours}"
                           " (a stale build: run `make native`)")
    try:
        return _fields(_lines(rest), definitions().ready_fields)
    except ValueError as exc:
        raise SandboxError(f"malformed ready message: {exc}") from None


def parse_reply(message: str) -> Fields:
    """A run's figures, every field of protocol.h's reply exactly once."""
    try:
        return _fields(_lines(message), definitions().reply_fields)
    except ValueError as exc:
        raise SandboxError(f"malformed reply: {exc}") from None
