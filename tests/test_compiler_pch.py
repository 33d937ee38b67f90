"""SandboxFusion's C++ compile (/run_code, /submit): the headers such code includes first,
precompiled, and gold in place of GNU ld. Neither may change a result: with and without the
precompiled headers a program compiles to the same bytes with the same messages, a header the
code did not include stays invisible, a macro or pragma before the include is honoured (g++ then
reads the real header), and with gold the program prints the same, fails the same, and the link
warns and fails as with GNU ld. Codeforces' command is left exactly as the benchmark's."""
from __future__ import annotations

import dataclasses
import logging
import threading

import pytest

from conftest import next_slot
from judge import config
from judge.compiler import Compiler, cache_key
from judge.grade import Grader
from judge.languages import Profile, get_language
from judge.languages.registry import CPP_FLAGS, CPP_LIBRARY_FLAGS, RUN_CODE_HEADERS
from judge.sandbox import Limits
from judge.single_run import ScratchBox

pytestmark = pytest.mark.sandbox

RUN_CODE = get_language("cpp", Profile.COMPATIBLE)
CODEFORCES = get_language("cpp")
WITHOUT_PCH = dataclasses.replace(RUN_CODE, name="cpp-without-pch", precompiled_headers=())
# The same compile with -H: g++ lists the headers it reads, "! x.gch" for a precompiled one it
# uses and "x x.gch" for one it refuses.
SHOWING_HEADERS = dataclasses.replace(RUN_CODE, name="cpp-showing-headers",
                                      compile=(RUN_CODE.compile[0], "-H", *RUN_CODE.compile[1:]))
# /run_code's compile before gold and the headers: Codeforces' command and header.
BEFORE = dataclasses.replace(RUN_CODE, name="cpp-run-code-before", compile=CODEFORCES.compile,
                             precompiled_headers=CODEFORCES.precompiled_headers)

SORT_UNORDERED = "struct A {};\nint main() { A a[2]; std::sort(a, a + 2); }\n"
# name -> (source, the precompiled header g++ uses or None, the status)
CASES = {
    "hello world": ('#include <iostream>\nint main() { std::cout << "hi" << std::endl; }\n',
                    "iostream", "OK"),
    "bits/stdc++.h": ("#include <bits/stdc++.h>\nint main() { std::vector<int> v{2, 1}; "
                      "std::sort(v.begin(), v.end()); std::cout << v[0]; }\n",
                      "bits/stdc++.h", "OK"),
    # <iostream> does not bring <vector>: its precompiled header must not either.
    "a header not included": ("#include <iostream>\nint main() { std::vector<int> v; "
                              "return (int)v.size(); }\n", "iostream", "CE"),
    "a header outside the set after one in it": (
        "#include <iostream>\n#include <unordered_map>\nint main() { "
        "std::unordered_map<int, int> m{{1, 2}}; std::cout << m[1]; }\n", "iostream", "OK"),
    "a first include outside the set": ("#include <cstdio>\n#include <iostream>\n"
                                        "int main() { std::puts(\"x\"); }\n", None, "OK"),
    # Macros the headers test, defined before the include: the real header is read.
    "_GLIBCXX_DEBUG before the include": ("#define _GLIBCXX_DEBUG\n#include <bits/stdc++.h>\n"
                                          "int main() { std::vector<int> v(1); return v[0]; }\n",
                                          None, "OK"),
    "#define int long long before the include": (
        "#define int long long\n#include <bits/stdc++.h>\nsigned main() { int x = 1; "
        "return (signed)x; }\n", None, "CE"),
    "a pragma before the include": ('#pragma GCC optimize("O3")\n#include <bits/stdc++.h>\n'
                                    "int main() { std::cout << 1; }\n", None, "OK"),
    "NDEBUG before the include, <cassert> after": (
        "#define NDEBUG\n#include <iostream>\n#include <cassert>\nint main() { assert(false); "
        "std::cout << 1; }\n", "iostream", "OK"),
    # The message names the chain of includes down to the header, as without it.
    "an error inside the header": ("#include <bits/stdc++.h>\n" + SORT_UNORDERED,
                                   "bits/stdc++.h", "CE"),
    "an error inside a header of <algorithm>": ("#include <algorithm>\n" + SORT_UNORDERED,
                                                "algorithm", "CE"),
    "a warning": ("#include <iostream>\nint main() { int x = 1; std::cout << x / 0; }\n",
                  "iostream", "OK"),
}


@pytest.fixture(scope="module")
def compiler(require_sandbox, tmp_path_factory):
    with config.overridden(precompiled_headers=True), \
            Compiler(slot=next_slot(), cache=tmp_path_factory.mktemp("pch") / "compile") as built:
        yield built


def test_each_header_is_precompiled_and_nothing_else_is_kept(compiler):
    pch = compiler.precompiled_header(RUN_CODE)
    assert pch is not None
    kept = sorted(str(path.relative_to(pch)) for path in pch.rglob("*") if path.is_file())
    assert kept == sorted(f"{header}.gch" for header in RUN_CODE_HEADERS)


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_the_precompiled_headers_change_no_result(compiler, case):
    """The same status, the same messages and, built, the same executable to the byte as the
    same command without them; -H shows whether g++ took the precompiled header."""
    source, used, status = case
    fast, slow = compiler.compile(source, RUN_CODE), compiler.compile(source, WITHOUT_PCH)
    assert fast.status == slow.status == status, (fast.log, slow.log)
    assert fast.log == slow.log
    if status == "OK":
        assert fast.artifacts is not None and slow.artifacts is not None
        assert (fast.artifacts / "code.exe").read_bytes() == \
            (slow.artifacts / "code.exe").read_bytes()
    shown = compiler.compile(source, SHOWING_HEADERS)
    taken = [line[2:] for line in shown.log.splitlines() if line.startswith("! ")]
    assert taken == ([f"/judge/pch/{used}.gch"] if used else []), shown.log


RUNS = {
    "output": '#include <iostream>\nstruct S { S() { std::cout << "init "; } } s;\n'
              'int main() { std::cout << "main" << std::endl; }\n',
    "an index out of bounds (-fsanitize=bounds)":
        "#include <bits/stdc++.h>\nint a[4];\nint main(int argc, char **) { "
        "volatile int i = argc + 5; std::cout << a[i] << std::endl; }\n",
    "an uncaught exception": "#include <stdexcept>\nint main() { throw std::runtime_error(\"x\"); }\n",
    "a caught exception": "#include <bits/stdc++.h>\nint main() { try { std::vector<int>(1).at(3); }"
                          " catch (const std::out_of_range &e) { std::cout << \"caught\\n\"; } }\n",
    "threads": "#include <bits/stdc++.h>\nint main() { std::atomic<int> n{0}; std::vector<std::thread> t;"
               " for (int i = 0; i < 4; i++) t.emplace_back([&] { n++; }); for (auto &x : t) "
               "x.join(); std::cout << n << '\\n'; }\n",
}


@pytest.fixture(scope="module")
def grader(require_sandbox):
    with Grader(slot=next_slot(), scratch=ScratchBox(box_mb=64, max_fetch_bytes=1 << 20)) as g:
        yield g


@pytest.mark.parametrize("source", RUNS.values(), ids=RUNS.keys())
def test_the_program_linked_by_gold_runs_as_before(grader, source):
    limits = Limits(time_limit_ms=5000, memory_limit_mb=256)
    now, before = (grader.run_program(source, language, limits, stdin=b"", files={}, fetch=[])
                   for language in (RUN_CODE, BEFORE))
    assert now.compile is not None and before.compile is not None
    assert now.compile.status == before.compile.status == "OK", (now.compile, before.compile)
    assert now.run is not None and before.run is not None
    ran, ran_before = now.run.run, before.run.run
    assert (ran.status, ran.exit_code, ran.signal, now.run.stdout, now.run.stderr) == \
        (ran_before.status, ran_before.exit_code, ran_before.signal, before.run.stdout,
         before.run.stderr)


LINKS = {
    # glibc's warning for a function that needs its shared libraries in a static program.
    "a link warning": ("#include <netdb.h>\nint main() { return gethostbyname(\"x\") != 0; }\n",
                       "OK", "Using 'gethostbyname' in statically linked applications"),
    "an undefined function": ("int f();\nint main() { return f(); }\n", "CE",
                              "undefined reference to"),
}


@pytest.mark.parametrize("case", LINKS.values(), ids=LINKS.keys())
def test_gold_warns_and_fails_where_gnu_ld_does(compiler, case):
    """In its own words (gold names the object file, not the section)."""
    source, status, said = case
    now, before = compiler.compile(source, RUN_CODE), compiler.compile(source, BEFORE)
    assert now.status == before.status == status, (now.log, before.log)
    assert said in now.log and said in before.log, (now.log, before.log)


def test_slots_warming_up_together_build_the_headers_once(require_sandbox, tmp_path, caplog):
    """Each slot of a server builds its compiler's headers as it starts: one builds them, the
    others wait for it and take them."""
    small = dataclasses.replace(RUN_CODE, precompiled_headers=("cstdio",))
    cache = tmp_path / "compile"
    found: list = []
    with config.overridden(precompiled_headers=True), caplog.at_level(logging.INFO):
        compilers = [Compiler(slot=next_slot(), cache=cache) for _ in range(2)]
        threads = [threading.Thread(target=lambda c=c: found.append(c.precompiled_header(small)))
                   for c in compilers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for compiler in compilers:
            compiler.close()
    assert found[0] is not None and found == [found[0]] * 2
    assert (found[0] / "cstdio.gch").is_file()
    assert sum(record.getMessage().startswith("built ") for record in caplog.records) == 1


def test_a_header_that_cannot_be_built_is_left_out(require_sandbox, tmp_path, caplog):
    """The others are kept, and a compile goes on without it."""
    partly = dataclasses.replace(RUN_CODE, precompiled_headers=("cstdio", "no/such/header"))
    with config.overridden(precompiled_headers=True), \
            Compiler(slot=next_slot(), cache=tmp_path / "compile") as compiler:
        pch = compiler.precompiled_header(partly)
        assert pch is not None
        assert [p.name for p in pch.rglob("*") if p.is_file()] == ["cstdio.gch"]
        assert "building no/such/header.gch for cpp failed" in caplog.text
        result = compiler.compile("#include <cstdio>\nint main() { std::puts(\"x\"); }\n",
                                  partly)
        assert result.status == "OK", result.log


def test_the_cache_key_covers_the_precompiled_headers(configure):
    """Which headers a compile finds precompiled, and whether it finds any ($JUDGE_NO_PCH)."""
    source = b"int main() {}\n"
    fewer = dataclasses.replace(RUN_CODE, precompiled_headers=CODEFORCES.precompiled_headers)
    keys = {cache_key(source, RUN_CODE), cache_key(source, fewer)}
    configure(precompiled_headers=False)
    keys.add(cache_key(source, RUN_CODE))
    assert len(keys) == 3


def test_codeforces_command_is_the_benchmarks():
    assert CODEFORCES.compile == ("g++", "-std=c++20", *CPP_FLAGS, "-o", "code.exe", "code.cpp")
    assert CODEFORCES.precompiled_headers == ("bits/stdc++.h",)
    assert RUN_CODE.compile == ("g++", "-std=c++20", *CPP_FLAGS, "-fuse-ld=gold",
                                *CPP_LIBRARY_FLAGS, "-o", "code.exe", "code.cpp")
