"""The compiler's bounds on what one compile may write ($JUDGE_ARTIFACT_LIMIT_MB, set small
here): no file past the limit, no more than the limit in the build box (bytes and files), and a
compile stopped by them is a CE that says why and leaves nothing in the cache. A compile the
sandbox stops (a refused call, its time, its memory) is the source's CE unless the language's
control program is stopped too, or the host's compiler cannot be executed: then SE, with that
evidence (docs/design/5-compilation-and-checkers.md §5.2)."""
from __future__ import annotations

import dataclasses

import pytest

from conftest import next_slot
from judge import compiler as compiler_module
from judge.compile_control import CONTROL_SOURCES, control_source
from judge.compiler import Compiler
from judge.exclusion import EvidenceKind
from judge.languages import LANGUAGES, Profile, get_language
from judge.sandbox import POLICIES

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


def _starved(monkeypatch, clock: str, runs: int | None = None) -> None:
    """The next `runs` sandbox runs (every one: None) end BUSY, stopped by the wall clock, their
    starvation measured on `clock` (NO_BUSY_CLOCK: on none)."""
    from judge.sandbox import Sandbox
    from judge.verdicts import KilledBy, Status
    real_run = Sandbox.run
    left = [runs]

    def starved(self, *args, **kwargs):
        result = real_run(self, *args, **kwargs)
        if left[0] is not None:
            if left[0] == 0:
                return result
            left[0] -= 1
        return dataclasses.replace(result, status=Status.BUSY, killed_by=KilledBy.WALL_TIMER,
                                   sources={**result.sources, "busy": clock})

    monkeypatch.setattr(Sandbox, "run", starved)


def test_a_compile_starved_of_cpu_is_a_judge_failure_and_not_cached(compiler, monkeypatch):
    """A compiler stopped by the wall clock on a busy machine (BUSY, measured on an exact clock)
    has no verdict: it used to be a CE, kept in the cache, so the submission failed for good for
    the machine's load."""
    _starved(monkeypatch, "cgroup cpuacct")
    result = compiler.compile("int main() { return 0; }\n", get_language("cpp"))
    assert result.status == "SE" and "too busy" in result.log, result
    assert result.evidence is not None and result.evidence.kind == EvidenceKind.CPU_CLOCK
    assert cached_results(compiler) == []


def test_a_starved_compile_no_clock_stands_behind_is_the_wall_clock_s_ce_not_cached(
        compiler, monkeypatch):
    """BUSY with no exact clock behind the figure is the TLE the wall clock says: the source's
    CE when its control compiles, but never cached, since a wall-clock stop depends on the
    machine's load; when every compile is stopped so, the control too, it is SE."""
    from judge.sandbox.verdict import NO_BUSY_CLOCK
    _starved(monkeypatch, NO_BUSY_CLOCK, runs=1)
    result = compiler.compile("int main() { return 0; }\n", get_language("cpp"))
    assert result.status == "CE" and "[compilation stopped: TLE, wall-timer]" in result.log, result
    assert result.evidence is None and cached_results(compiler) == []
    _starved(monkeypatch, NO_BUSY_CLOCK)
    result = compiler.compile("int main() { return 1; }\n", get_language("cpp"))
    assert result.status == "SE" and result.evidence is not None, result
    assert result.evidence.kind == EvidenceKind.CONTROL_RUN and cached_results(compiler) == []


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


# -- a compile the sandbox stopped: the source's CE, unless the evidence says the judge's -----

@pytest.fixture
def full_compiler(require_sandbox, tmp_path, configure):
    """The judge's own artifact limit (a Haskell build's objects need more than LIMIT_MB)."""
    configure(precompiled_headers=False)
    with Compiler(slot=next_slot(), cache=tmp_path / "compile") as built:
        yield built


# A Template Haskell splice runs code inside GHC at compile time: this one starts a program that
# opens an Internet socket, which the compile sandbox refuses.
SOCKET_SPLICE = """\
{-# LANGUAGE TemplateHaskell #-}
import Language.Haskell.TH
import System.Process (readProcess)

main :: IO ()
main = putStrLn $(runIO (readProcess "python3" ["-c", "import socket; socket.socket()"] "") >>= stringE)
"""


def test_a_splice_that_makes_a_refused_call_is_ce_and_cached(full_compiler):
    """Issue 43, finding 3: the refused call was the compile's SE, a judge failure any Haskell
    submission could choose. GHC compiles a hello world in the same sandbox, so the stop is the
    source's: a CE that says why, deterministic, and cached like any CE."""
    haskell = get_language("haskell")
    if not haskell.available:
        pytest.skip("ghc is not installed")
    result = full_compiler.compile(SOCKET_SPLICE, haskell)
    assert result.status == "CE", result
    assert "[compilation stopped: the compiler made a refused system call: socket]" in result.log
    assert result.evidence is None and result.artifacts is None
    assert len(cached_results(full_compiler)) == 1
    again = full_compiler.compile(SOCKET_SPLICE, haskell)
    assert again.cached and again.status == "CE" and again.log == result.log


# cc1plus reads a character device to its end, holding it all: the memory limit stops it.
INCLUDES_DEV_ZERO = '#include "/dev/zero"\nint main() {}\n'
# Constant evaluation within every g++ limit (each loop under -fconstexpr-loop-limit, the whole
# under -fconstexpr-ops-limit) that takes minutes: the CPU limit stops it.
CONSTEXPR_SPIN = """\
constexpr long spin() {
    long s = 0;
    for (long i = 0; i < 200000; ++i)
        for (long j = 0; j < 200000; ++j) s += i ^ j;
    return s;
}
constexpr long value = spin();
int main() { return value & 1; }
"""


@pytest.mark.parametrize("source, stop", [(INCLUDES_DEV_ZERO, "MLE"), (CONSTEXPR_SPIN, "TLE")],
                         ids=["include-dev-zero", "constexpr-spin"])
def test_a_cpp_compile_stopped_by_its_limits_is_ce(full_compiler, configure, monkeypatch,
                                                   source, stop):
    """The compile's memory (lowered here from 2 GB, to spare the machine) and CPU limit (3 s
    here) stop g++, and a C++ hello world compiles within them: the source's CE, cached."""
    configure(precompiled_headers=False, compile_time_limit_ms=3000)
    judges_own = compiler_module.compile_limits

    def lower_memory(*args, **kwargs):
        return dataclasses.replace(judges_own(*args, **kwargs), memory_limit_mb=512)

    monkeypatch.setattr(compiler_module, "compile_limits", lower_memory)
    result = full_compiler.compile(source, get_language("cpp"))
    assert result.status == "CE" and f"[compilation stopped: {stop}" in result.log, result
    assert result.evidence is None and len(cached_results(full_compiler)) == 1


def test_a_missing_compiler_is_se_with_the_toolchain_as_evidence(full_compiler):
    """The host's compiler cannot be executed: no source could build, the judge's failure."""
    cpp = get_language("cpp")
    assert cpp.compile is not None
    missing = dataclasses.replace(cpp, name="cpp-missing", compile=("no-such-g++", *cpp.compile[1:]))
    result = full_compiler.compile("int main() { return 0; }\n", missing)
    assert result.status == "SE" and "cannot execute no-such-g++" in result.log, result
    assert result.evidence is not None and result.evidence.kind == EvidenceKind.TOOLCHAIN
    assert cached_results(full_compiler) == []


def test_a_stop_the_control_program_shares_is_se_with_the_control_as_evidence(full_compiler):
    """A compile policy the toolchain itself breaks (the linker's chmod refused under the run
    policy): every program is stopped, the control too, so the stop is the judge's SE, with the
    control's result as its evidence, and not cached."""
    strict = dataclasses.replace(get_language("cpp"), name="cpp-strict", compile_policy=POLICIES["native"])
    result = full_compiler.compile("int main() { return 0; }\n", strict)
    assert result.status == "SE" and result.evidence is not None, result
    assert result.evidence.kind == EvidenceKind.CONTROL_RUN
    assert "control program" in result.evidence.detail and "RF" in result.evidence.detail
    assert cached_results(full_compiler) == []


def _compiled_languages() -> list[tuple[str, Profile]]:
    cases = []
    for name, language in LANGUAGES.items():
        if language.compile is None:
            continue
        cases.append((name, Profile.STRICT))
        if language.compatible.compile is not None:
            cases.append((name, Profile.COMPATIBLE))
    return cases


def test_every_compiled_language_has_a_control_program():
    for name, profile in _compiled_languages():
        assert control_source(get_language(name, profile)) is not None, name
    assert set(CONTROL_SOURCES) <= set(LANGUAGES)


@pytest.mark.slow
@pytest.mark.parametrize("name, profile", _compiled_languages(),
                         ids=[f"{n}-{f.name.lower()}" for n, f in _compiled_languages()])
def test_each_control_program_compiles(full_compiler, name, profile):
    """A control that did not compile would turn every stopped compile of its language into
    an SE."""
    language = get_language(name, profile)
    if not language.available:
        pytest.skip(f"{name}: toolchain not installed")
    source = control_source(language)
    assert source is not None
    result = full_compiler.compile(source, language)
    assert result.status == "OK", result.log
