"""What a `judge serve` process is allowed to do: where it listens, how many slots it warms, how
long its queue may grow, and the size of everything a request may carry
(docs/design/9-service.md §9)."""
from __future__ import annotations

import ipaddress
import math
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

from judge import JudgeError
from judge.busy_retry import BusyRetry
from judge.sandbox.slots import SERVICE

MiB = 1 << 20
# Terms of the memory bound (memory_bound_bytes): the interpreter, its libraries and the
# judge's modules with room for the allocator's slack; the copies of a request body alive
# while it is handled (raw, parsed, decoded); the copies of an answer while it is built.
PROCESS_BYTES = 256 * MiB
REQUEST_COPIES = 4
ANSWER_COPIES = 3
# A dataset comparator's copies of the output it checks, in the server's own process: the text
# decoded and stripped, each at most 4 bytes a byte of output (an invalid byte is U+FFFD, and one
# character past U+FFFF makes a str 4 bytes a character); it walks them a window at a time
# (judge/checkers/dataset_comparators.py), so their lines and tokens add a bounded window.
CHECK_COPIES = 8
# A queued request's own objects beside its body (its connection, ASGI scope, task, job): 38 kB
# measured for a small /run_code (docs/design/9-service.md §9.1), with room.
QUEUED_REQUEST_BYTES = 64 << 10
# An answer's figures beside its texts: per test of /submit, and in all.
ANSWER_BYTES_PER_TEST = 4096
ANSWER_FIXED_BYTES = 1 * MiB


class Settings(BaseModel):
    """Every knob of the service, with safe defaults. Frozen: a running server never changes
    its own limits."""
    model_config = ConfigDict(frozen=True, extra="forbid")

    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=0, le=65535)
    # Slot numbers (sandbox uids): the service's range (judge/sandbox/slots.py), or from
    # slot_base up (two servers on one host).
    slots: int = Field(default_factory=SERVICE.default_count, ge=1, le=SERVICE.size)
    slot_base: int | None = None
    # Jobs waiting for a slot; past it a request is answered 503 (SandboxFusion's: 504) with
    # Retry-After. RL trainers send hundreds at once (verl: 64 to 256 per trainer), and a queued
    # request holds only its body (max_requests_bytes) and QUEUED_REQUEST_BYTES.
    queue_size: int = Field(default=0, ge=0, description="0: 1024 per slot, at least 4096")
    tokens: tuple[str, ...] = ()          # bearer tokens; empty: no authentication
    # Proxies whose X-Forwarded-For names the client (addresses or networks). None by default:
    # the fair queue keys clients by address, and a header anyone may send would let one
    # client pose as many.
    trusted_proxies: tuple[str, ...] = ()
    dataset: str | None = None            # problems of /v1/grade beside the embedded pack
    testlib: str | None = None            # a testlib checkout for custom checkers

    # -- request sizes ------------------------------------------------------------------------
    max_body_bytes: int = Field(default=64 * MiB, ge=1024)
    max_code_bytes: int = Field(default=1 * MiB, ge=1)
    max_stdin_bytes: int = Field(default=16 * MiB, ge=0)
    max_files: int = Field(default=64, ge=0)              # files and fetch_files of one run
    max_files_bytes: int = Field(default=16 * MiB, ge=0)  # decoded, all files of one run together
    max_tests: int = Field(default=1000, ge=1)
    max_tests_bytes: int = Field(default=48 * MiB, ge=1)  # inputs and answers of one submission
    max_batch_items: int = Field(default=1000, ge=1)
    max_batches: int = Field(default=64, ge=1)            # batches kept for polling at once
    max_argv: int = Field(default=256, ge=1)
    # Request bodies held at once (being read, queued or running), all requests together; past
    # it a request is answered 503 with Retry-After before its body is read.
    max_requests_bytes: int = Field(default=256 * MiB, ge=1024)

    # -- run limits ---------------------------------------------------------------------------
    default_memory_mb: int = Field(default=1024, ge=16)
    max_memory_mb: int = Field(default=4096, ge=16)
    max_run_timeout_s: float = Field(default=60, gt=0)
    output_limit_mb: int = Field(default=16, ge=1)        # stdout of one run; past it the run is OLE
    stderr_limit_mb: int = Field(default=1, ge=0)
    box_mb: int = Field(default=64, ge=1)                 # the tmpfs /box of /run_code and /v1/exec
    max_fetch_bytes: int = Field(default=16 * MiB, ge=0)  # what fetch_files may bring back, together
    # /submit's answer holds each test's stdout, message and echoed test: this much of them,
    # as encoded, all tests together (each test's share, at least 4 KiB, is cut there; the
    # checker always sees the whole output). /v1/grade's texts take the same budget.
    max_submit_output_bytes: int = Field(default=16 * MiB, ge=0)

    # -- answers ------------------------------------------------------------------------------
    # Encoded answers held for their clients at once, all together; an answer that would pass
    # it is answered 503 with Retry-After instead (its job ran: the client may ask again).
    max_answers_bytes: int = Field(default=256 * MiB, ge=1024)
    # An answer its client has not taken whole this long after it was ready is dropped and the
    # connection closed.
    send_timeout_s: float = Field(default=60, gt=0)

    # -- no-verdicts the server resolves itself (judge.busy_retry, docs/rl.md) -----------------
    # A BUSY run or grading is done again, alone, up to this many times, none starting later
    # than busy_budget_s after the first began; only a BUSY left after that is answered.
    busy_reruns: int = Field(default=3, ge=0, le=10)
    busy_budget_s: float = Field(default=30, ge=0)
    # How long a SandboxFusion client waits for /run_code beyond its compile and run timeouts
    # (verl: compile_timeout + run_timeout + 10 s): a request still queued when its answer could
    # no longer arrive in that time is answered 504 (retried by verl and the sandbox-fusion
    # client) instead of being served after its client gave up.
    client_timeout_slack_s: float = Field(default=10, gt=0)

    # -- connections (judge/service/connections.py), bounded before a request is read --------
    max_connections: int = Field(default=8192, ge=1)
    max_connections_per_peer: int = Field(default=512, ge=1)   # per machine (peer_key)
    header_timeout_s: float = Field(default=10, gt=0)     # from opening, or a request's start
    body_timeout_s: float = Field(default=60, gt=0)       # from a request's headers

    # -- lifecycle ----------------------------------------------------------------------------
    drain_timeout_s: float = Field(default=120, gt=0)     # SIGTERM: longest wait for runs in flight
    retry_after_s: int = Field(default=1, ge=1)           # the least Retry-After of a 503

    @model_validator(mode="after")
    def _consistent(self) -> Settings:
        if self.default_memory_mb > self.max_memory_mb:
            raise ValueError("default_memory_mb is above max_memory_mb")
        if self.max_files_bytes > self.box_mb * MiB:
            raise ValueError("max_files_bytes does not fit in the box (box_mb)")
        if self.answer_limit_bytes > self.max_answers_bytes:
            raise ValueError(f"max_answers_bytes is below one answer's bound "
                             f"({self.answer_limit_bytes} bytes)")
        if self.max_body_bytes > self.max_requests_bytes:
            raise ValueError("max_requests_bytes is below max_body_bytes")
        if any(not token or any(c.isspace() for c in token) for token in self.tokens):
            raise ValueError("a token is empty or holds white space")
        for proxy in self.trusted_proxies:
            try:
                ipaddress.ip_network(proxy)
            except ValueError:
                raise ValueError(f"trusted proxy {proxy!r} is not an address or a network "
                                 "(e.g. 10.0.0.5, 10.0.0.0/8)") from None
        try:
            _ = self.slot_numbers      # every slot fits, with its interactor's
        except JudgeError as exc:
            raise ValueError(str(exc)) from None
        return self

    @property
    def busy_retry(self) -> BusyRetry:
        return BusyRetry(reruns=self.busy_reruns, budget_s=self.busy_budget_s)

    @property
    def queue_limit(self) -> int:
        return self.queue_size or max(4096, 1024 * self.slots)

    @property
    def answer_limit_bytes(self) -> int:
        """The most one answer takes, encoded (docs/design/9-service.md §9.1): /run_code and
        /v1/exec carry the output limits and fetch_files, at most 4/3 of them (base64); /submit and
        /v1/grade their text budget and a few hundred bytes of figures a test."""
        run = 4 * (self.output_limit_mb * MiB + self.stderr_limit_mb * MiB
                   + self.max_fetch_bytes) // 3
        grading = self.max_submit_output_bytes + self.max_tests * ANSWER_BYTES_PER_TEST
        return max(run, grading) + ANSWER_FIXED_BYTES

    @property
    def memory_bound_bytes(self) -> int:
        """The bound on the server's RSS whatever its clients do (docs/design/9-service.md §9.1):
        the process itself, the request bodies it holds (each parsed and decoded beside its raw
        bytes) and the queued requests' own objects, each slot's captured output and files and
        a comparator's copies of that output, the answers held for their clients, and the
        answers being built (the text, its JSON and its bytes)."""
        captured = self.output_limit_mb * MiB + self.stderr_limit_mb * MiB + self.max_fetch_bytes
        return (PROCESS_BYTES + REQUEST_COPIES * self.max_requests_bytes
                + self.queue_limit * QUEUED_REQUEST_BYTES
                + self.slots * (captured + CHECK_COPIES * self.output_limit_mb * MiB
                                + ANSWER_COPIES * self.answer_limit_bytes)
                + self.max_answers_bytes)

    @property
    def slot_numbers(self) -> range:
        return SERVICE.take(self.slots, self.slot_base)


def read_tokens(path: Path) -> tuple[str, ...]:
    """The bearer tokens of a token file: one a line; blank lines and `#` comments skipped."""
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise JudgeError(f"cannot read the token file {path}: {exc}") from None
    tokens = tuple(line.strip() for line in text.splitlines()
                   if line.strip() and not line.lstrip().startswith("#"))
    if not tokens:
        raise JudgeError(f"the token file {path} holds no token")
    if any(len(token) < 16 for token in tokens):
        raise JudgeError(f"a token of {path} is shorter than 16 characters: too easy to guess")
    return tokens


def run_timeout_ms(seconds: float, settings: Settings, what: str = "run_timeout") -> int:
    """A client's timeout in seconds as a limit in ms, within the service's bounds."""
    if not math.isfinite(seconds) or seconds <= 0:
        raise ValueError(f"{what} must be a positive number of seconds, got {seconds!r}")
    if seconds > settings.max_run_timeout_s:
        raise ValueError(f"{what} {seconds:g} s is above this server's limit of "
                         f"{settings.max_run_timeout_s:g} s")
    return max(1, round(seconds * 1000))
