"""The compile cache keeps to its cap ($JUDGE_COMPILE_CACHE_MB, set to a few MiB here): past it
the least recently used entries go, never one used in the last minute (judge/compile_cache.py).

The entries are Python submissions padded to 1 MiB (their artifact is the source itself), so a
compile is a syntax check. An entry's last use is its directory's mtime; the tests age entries
by setting it, as the passing of time would."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from conftest import next_slot
from judge.compile_cache import SIZE_FILE, TOTAL_FILE, disk_usage
from judge.compiler import Compiler, CompileResult
from judge.languages import Profile, get_language, language

pytestmark = pytest.mark.sandbox

MiB = 1 << 20
PYTHON = get_language("python")


@pytest.fixture
def make_compiler(require_sandbox, tmp_path, configure):
    opened = []

    def make(cap_mb: int) -> Compiler:
        configure(compile_cache_mb=cap_mb)
        opened.append(Compiler(slot=next_slot(), cache=tmp_path / "compile"))
        return opened[-1]

    yield make
    for compiler in opened:
        compiler.close()


def compile_entry(compiler: Compiler, n: int) -> Path:
    """Compiles the n-th padded program; returns its cache entry."""
    result = compiler.compile(f"# {'x' * MiB}\nprint({n})\n", PYTHON)
    assert result.status == "OK" and not result.cached, result.log
    return entry_of(result)


def entry_of(result: CompileResult) -> Path:
    assert result.artifacts is not None
    return result.artifacts.parent


def age(entry: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(entry, (then, then))


def test_the_cache_stays_under_its_cap_across_distinct_compiles(make_compiler):
    compiler = make_compiler(cap_mb=3)
    for n in range(6):
        entry = compile_entry(compiler, n)
        assert entry.is_dir()
        assert disk_usage(compiler.cache) <= 3 * MiB, n
        age(entry, 3600 - n)


def test_eviction_takes_the_least_recently_used_entry(make_compiler):
    """Built in the order a, b, c; then a is hit. Past the cap, b goes: the oldest use, not the
    oldest build."""
    compiler = make_compiler(cap_mb=4)
    a, b, c = (compile_entry(compiler, n) for n in range(3))
    for entry, seconds in ((a, 300), (b, 200), (c, 100)):
        age(entry, seconds)
    hit = compiler.compile(f"# {'x' * MiB}\nprint(0)\n", PYTHON)
    assert hit.cached and entry_of(hit) == a
    d = compile_entry(compiler, 3)
    assert not b.exists()
    assert a.is_dir() and c.is_dir() and d.is_dir()
    assert disk_usage(compiler.cache) <= 4 * MiB


def test_entries_used_in_the_last_minute_are_never_evicted(make_compiler):
    """With a cap below one entry, an old entry goes, but entries just built stay over the cap:
    whoever got them from the cache may not have copied their artifacts out yet."""
    compiler = make_compiler(cap_mb=1)
    old = compile_entry(compiler, 0)
    age(old, 300)
    recent = [compile_entry(compiler, n) for n in (1, 2)]
    assert not old.exists()
    assert all(entry.is_dir() for entry in recent)


def test_a_cache_from_before_the_bookkeeping_is_counted_and_cleaned(make_compiler):
    """Entries without a size file and no running total, as an older judge left them, plus the
    leftovers of a judge that died while staging or evicting: the first publish counts the
    entries, evicts the old ones and removes the leftovers."""
    compiler = make_compiler(cap_mb=64)
    old = [compile_entry(compiler, n) for n in range(3)]
    (compiler.cache / TOTAL_FILE).unlink()
    for entry in old:
        (entry / SIZE_FILE).unlink()
        age(entry, 300)
    stale_staging = old[0].parent / ".staging-died"
    stale_staging.mkdir()
    age(stale_staging, 300)
    stale_eviction = compiler.cache / ".evicted-died"
    (stale_eviction / "entry").mkdir(parents=True)
    compiler.close()
    new = compile_entry(make_compiler(cap_mb=2), 3)
    assert not any(entry.exists() for entry in old)
    assert new.is_dir()
    assert not stale_staging.exists() and not stale_eviction.exists()


def test_a_compile_error_is_not_served_once_the_host_changed(make_compiler, tmp_path,
                                                             monkeypatch):
    """A CE for a header the host lacks is cached under what the compile could see (the
    installed packages, the runtime layer, the supervisor): once a package is installed the
    same code compiles again instead of being served its old CE, in the same process too (a
    server that runs on while `make setup` installs)."""
    from judge import compiler as compiler_module
    packages = tmp_path / "dpkg-status"
    packages.write_text("Package: a\n")
    monkeypatch.setattr(compiler_module, "HOST_STATE_FILES", (packages,))
    compiler = make_compiler(64)
    code = '#include "judge_absent_header.h"\nint main() {}\n'
    cpp = get_language("cpp")
    first = compiler.compile(code, cpp)
    assert first.status == "CE" and not first.cached, first
    assert compiler.compile(code, cpp).cached
    packages.write_text("Package: a\nPackage: libjudge-absent-dev\n")
    again = compiler.compile(code, cpp)
    assert not again.cached, "a CE made before the package was installed was served"


def test_the_slots_of_a_server_share_the_cache(make_compiler):
    """Each slot has its own Compiler and sandboxes, over one cache directory: a program built
    on one slot is a hit on every other."""
    first, second = make_compiler(64), make_compiler(64)
    built = first.compile("print('shared')\n", PYTHON)
    hit = second.compile("print('shared')\n", PYTHON)
    assert built.status == hit.status == "OK" and not built.cached and hit.cached
    assert entry_of(hit) == entry_of(built)


def test_the_keys_toolchain_version_is_asked_once_a_process(monkeypatch):
    """Every /run_code looks its language up afresh in the compatible profile, a new copy of the
    record: the version line in its cache key must not start the toolchain again each time
    (`javac -version` starts a JVM)."""
    asked = []
    real_run = language.subprocess.run

    def counting(argv, *args, **kwargs):
        asked.append(argv)
        return real_run(argv, *args, **kwargs)

    monkeypatch.setattr(language.subprocess, "run", counting)
    language._version_line.cache_clear()
    lines = {get_language("cpp", Profile.COMPATIBLE).toolchain_version for _ in range(3)}
    assert len(lines) == 1 and lines.pop().startswith("g++") and len(asked) == 1
