"""The compiler's bounds on what one compile may write ($JUDGE_ARTIFACT_LIMIT_MB, set small
here): no file past the limit, no more than the limit in the build box (bytes and files), and a
compile stopped by them is a CE that says why and leaves nothing in the cache."""
from __future__ import annotations

import dataclasses

import pytest

from conftest import next_slot
from judge.compiler import Compiler
from judge.languages import get_language

pytestmark = pytest.mark.sandbox

LIMIT_MB = 4
NOTE = f"the judge accepts a compiled program of at most {LIMIT_MB} MiB"


@pytest.fixture
def compiler(require_sandbox, tmp_path, configure):
    configure(artifact_limit_mb=LIMIT_MB,
              precompiled_headers=False)   # the header's build is not what is tested
    with Compiler(slot=next_slot(), cache=tmp_path / "compile") as built:
        yield built


def cached_results(compiler: Compiler) -> list:
    return sorted(compiler.cache.glob("*/*/result.json"))


def test_a_program_past_the_artifact_limit_is_ce_and_not_cached(compiler):
    """The issue's program, scaled down: an initialised global array twice the limit. One of a
    quarter of it still compiles."""
    cpp = get_language("cpp")
    small = compiler.compile("char a[1 << 20] = {1};\nint main() { return a[5]; }\n", cpp)
    assert small.status == "OK", small.log
    assert small.artifacts is not None and (small.artifacts / "code.exe").stat().st_size > 1 << 20
    published = cached_results(compiler)
    big = compiler.compile("char a[8 << 20] = {1};\nint main() { return a[5]; }\n", cpp)
    assert big.status == "CE" and NOTE in big.log, big.log
    assert big.artifacts is None and cached_results(compiler) == published


FILLERS = {
    # One file past the limit (in /tmp, which has room for it), by the compile's own process:
    # the kernel's SIGXFSZ kills it, and it says nothing.
    "one-file": "exec head -c 8388608 /dev/zero > /tmp/big.bin",
    # Files under the limit each, past it in all: the box is full.
    "bytes": "i=0; while [ $i -lt 64 ]; do head -c 1048576 /dev/zero > f$i.bin || exit 1; "
             "i=$((i+1)); done",
    # Empty files: the box runs out of inodes.
    "files": "i=0; while [ $i -lt 10000 ]; do : > f$i || exit 1; i=$((i+1)); done",
}


@pytest.mark.parametrize("script", FILLERS.values(), ids=FILLERS.keys())
def test_a_build_writing_past_its_box_is_stopped_as_ce(compiler, script):
    """Compiles whose toolchain writes too much, through the compiler's own code path: the
    kernel stops them at the limit, the CE says so, and nothing is cached."""
    filler = dataclasses.replace(get_language("c"), name="box-filler",
                                 compile=("sh", "-c", script), artifacts=("*.bin",))
    result = compiler.compile("int main() { return 0; }\n", filler)
    assert result.status == "CE" and NOTE in result.log, result.log
    assert result.artifacts is None and cached_results(compiler) == []


def test_a_compile_starved_of_cpu_is_a_judge_failure_and_not_cached(compiler, monkeypatch):
    """A compiler stopped by the wall clock on a busy machine (BUSY) has no verdict: it used to
    be a CE, kept in the cache, so the submission failed for good for the machine's load."""
    from judge.sandbox import Sandbox
    from judge.verdicts import KilledBy, Status
    real_run = Sandbox.run

    def starved(self, *args, **kwargs):
        return dataclasses.replace(real_run(self, *args, **kwargs), status=Status.BUSY,
                                   killed_by=KilledBy.WALL_TIMER)

    monkeypatch.setattr(Sandbox, "run", starved)
    result = compiler.compile("int main() { return 0; }\n", get_language("cpp"))
    assert result.status == "SE" and "too busy" in result.log, result
    assert cached_results(compiler) == []


def test_javac_with_its_class_data_archive_writes_the_same_classes(require_sandbox, tmp_path):
    """The archive of javac's own classes (built once per toolchain from a warm-up program)
    only speeds javac's start: the class files are those of javac without it, and a compile
    error reads the same."""
    java = get_language("java")
    without = dataclasses.replace(java, name="java-without-archive", compiler_archive=False)
    source = "public class Main {\n  public static void main(String[] a) {\n" \
             "    System.out.println(java.util.List.of(1, 2).stream().mapToInt(x -> x).sum());\n  }\n}\n"
    broken = source.replace("sum()", "sum(")
    with Compiler(slot=next_slot(), cache=tmp_path / "compile") as compiler:
        archive = compiler.compiler_archive(java)
        assert archive is not None and (archive / "javac.jsa").stat().st_size > 1 << 20
        assert not list(archive.glob("*.java")) and not list(archive.glob("*.class"))
        fast, slow = compiler.compile(source, java), compiler.compile(source, without)
        assert fast.status == slow.status == "OK", (fast.log, slow.log)
        assert fast.artifacts is not None and slow.artifacts is not None
        assert (fast.artifacts / "Main.class").read_bytes() == \
            (slow.artifacts / "Main.class").read_bytes()
        fast, slow = compiler.compile(broken, java), compiler.compile(broken, without)
        assert fast.status == slow.status == "CE" and fast.log == slow.log
