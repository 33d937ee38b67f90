"""Builds the native parts from the C sources in this folder, one subfolder per product.

The cffi module `judge._native` (checkers and kernel probes, used in-process; the supervisor
protocol's definitions, read by judge/sandbox/protocol.py; the sandbox's cgroup detection, which
judge doctor reports) and the executables (`judge-supervisor`, `judge-check`) compile the same
source files: supervisor/ is what only the supervisor compiles, checkers/ the testlib checkers
(the module and judge-check), probes/ the module's kernel probes, and shared/ what the module
shares with the supervisor (the protocol, the cgroups). A source's folder is on the include path
of whatever compiles it.
"""
import argparse
import os
import shlex
import subprocess
from pathlib import Path

from cffi import FFI

NATIVE = Path(__file__).resolve().parent
CFLAGS = ["-O2", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-Wshadow", "-Wformat=2",
          "-Wno-missing-field-initializers", "-D_GNU_SOURCE"]

CHECKER_SOURCES = [f"checkers/{name}"
                   for name in ("checker_stream.c", "checkers.c", "checker_registry.c")]
JUDGE_CHECK_SOURCES = CHECKER_SOURCES + ["checkers/checker_main.c"]
PROBE_SOURCES = ["probes/probe.c"]
PROTOCOL_SOURCES = ["shared/protocol.c"]
CGROUP_SOURCES = ["shared/cgroups.c", "shared/cgroup_dirs.c", "shared/spawner.c"]
SUPERVISOR_SOURCES = PROTOCOL_SOURCES + CGROUP_SOURCES + [
    f"supervisor/{name}" for name in (
        "supervisor.c", "log.c", "mounts.c", "seccomp_install.c", "spawn.c", "run_figures.c",
        "parked_child.c", "launch.c", "run_limits.c", "event_loop.c", "run_checks.c", "child.c",
        "stream_io.c", "sink.c", "starvation.c", "sysinfo_answer.c", "network.c")]
MODULE_SOURCES = CHECKER_SOURCES + PROBE_SOURCES + PROTOCOL_SOURCES + CGROUP_SOURCES


def include_dirs(sources) -> list[str]:
    """The folders of these sources (relative to native/), each one's headers beside it."""
    return sorted({str(Path(source).parent) for source in sources})


CDEF = """
int judge_check(const char *name,
                const char *input, size_t input_len,
                const char *output, size_t output_len,
                const char *answer, size_t answer_len,
                char *message, size_t message_cap, double *points);
int judge_checker_exists(const char *name);
extern const char *const judge_checker_names[];
extern const int judge_checker_count;

int judge_probe_cpu_clock(double *read_ms);
int judge_probe_pidfd(void);
int judge_probe_userns(void);
int judge_probe_seccomp(void);

#define PROTOCOL_VERSION ...
#define PROTOCOL_SLOT_COUNT ...
#define PROTOCOL_HOST_UID_BASE ...
#define PROTOCOL_MAX_ARGS ...
#define PROTOCOL_MAX_ENV ...
#define PROTOCOL_REQUEST_MAX ...
struct protocol_name { const char *name; unsigned value; };
struct protocol_field { const char *key; const char *kind; };
extern const struct protocol_name protocol_request_tags[];
extern const int protocol_request_tag_count;
extern const struct protocol_name protocol_fd_bits[];
extern const int protocol_fd_bit_count;
extern const struct protocol_field protocol_ready_fields[];
extern const int protocol_ready_field_count;
extern const struct protocol_field protocol_reply_fields[];
extern const int protocol_reply_field_count;
struct protocol_text { const char *name; const char *text; };
extern const struct protocol_text protocol_killed_by[];
extern const int protocol_killed_by_count;
extern const struct protocol_text protocol_busy_clocks[];
extern const int protocol_busy_clock_count;

extern const char *const cgroup_v1_controllers[];
extern const int cgroup_v1_controller_count;
bool cgroup_usable(const char *controller, char *dir, size_t cap);
"""

ffibuilder = FFI()
ffibuilder.cdef(CDEF)
ffibuilder.set_source(
    "judge._native",
    '#include "checkers.h"\n#include "probe.h"\n#include "protocol.h"\n#include "cgroups.h"\n',
    # setuptools wants paths relative to the project root (where setup.py runs).
    sources=[f"native/{s}" for s in MODULE_SOURCES],
    include_dirs=[f"native/{d}" for d in include_dirs(MODULE_SOURCES)],
    depends=[f"native/{header.relative_to(NATIVE)}" for header in sorted(NATIVE.rglob("*.h"))],
    extra_compile_args=CFLAGS,
    libraries=["rt", "m", "pthread"],
)

# Every symbol bound at start-up: the supervisor forks a child per run, which otherwise binds
# each libc function it calls anew (a symbol lookup and a copy-on-write fault of the GOT).
LDFLAGS = ["-Wl,-z,now", "-Wl,-z,relro"]


def _compile(sources, output: Path, libraries=(), extra_cflags=()):
    cc = os.environ.get("CC", "cc")
    includes = [flag for d in include_dirs(sources) for flag in ("-I", str(NATIVE / d))]
    cmd = [cc, *CFLAGS, *LDFLAGS, *extra_cflags, *includes, "-o", str(output),
           *[str(NATIVE / s) for s in sources], *[f"-l{lib}" for lib in libraries]]
    subprocess.run(cmd, check=True)


def build_executables(bin_dir: Path, extra_cflags=()) -> None:
    bin_dir.mkdir(parents=True, exist_ok=True)
    _compile(SUPERVISOR_SOURCES, bin_dir / "judge-supervisor", ["rt", "pthread"], extra_cflags)
    _compile(JUDGE_CHECK_SOURCES, bin_dir / "judge-check", ["m"], extra_cflags)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Build the cffi module and the executables "
                                     "in place, or only the executables elsewhere.")
    parser.add_argument("--bin-dir", type=Path,
                        help="build only the executables, into this directory")
    parser.add_argument("--extra-cflags", default="",
                        help="more compiler flags for the executables (make sanitize)")
    args = parser.parse_args()
    if args.bin_dir:
        build_executables(args.bin_dir, shlex.split(args.extra_cflags))
    else:
        ffibuilder.compile(verbose=True)
        build_executables(NATIVE.parent / "judge" / "_bin", shlex.split(args.extra_cflags))
