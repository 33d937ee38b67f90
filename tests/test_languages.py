"""Every language of the registry (judge/languages/registry.py): installed by `make setup`,
solving 2020A, and each runtime family held by the sandbox (the hostile families with their
verdicts asserted)."""
from __future__ import annotations

import dataclasses
import os
import re
import uuid
from pathlib import Path

import pytest

from conftest import next_slot, scaled, scaled_problem
from judge.audit.runner import PROGRAMS, SOURCES
from judge.grade import Grader
from judge.harness import PYTHON_LANGUAGES
from judge.languages import (
    LANGUAGES,
    Compatible,
    Family,
    Language,
    Profile,
    canonical_name,
    get_language,
    language_for_file,
)
from judge.languages.registry import LIBRARY_PACKAGES
from judge.sandbox import POLICIES, Limits
from judge.service.sandboxfusion import SF_LANGUAGES
from judge.single_run import ScratchBox
from judge.verdicts import Verdict

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = ROOT / "problems" / "pack" / "codeforces-2020A"


def test_every_alias_names_one_language_and_every_policy_exists():
    for language in LANGUAGES.values():
        assert language.policy is POLICIES[language.policy.name], language.name
        assert language.compile_policy is POLICIES[language.compile_policy.name], language.name
        for spelling in (language.name, *language.aliases):
            assert canonical_name(spelling) == language.name, spelling
        assert get_language(language.name, Profile.COMPATIBLE).policy is POLICIES["general"]


def _missing_parts(language: Language) -> list[str]:
    """What of a language is not where the judge looks for it: everything but the entry itself
    is a data file, an install line or a row of the docs, each named here."""
    missing = []
    if not set(language.packages) <= _make_list("LANGUAGE_PACKAGES"):
        missing.append("its packages in the Makefile's LANGUAGE_PACKAGES")
    if not all(package in (ROOT / "images" / "Containerfile").read_text()
               for package in language.packages):
        missing.append("its packages in images/Containerfile")
    if f"| {language.name} | {language.family.value} |" not in \
            (ROOT / "docs" / "languages.md").read_text():
        missing.append("its row in docs/languages.md")
    if language.probe is not None and not (PROGRAMS / language.probe).is_file():
        missing.append(f"its probe judge/audit/programs/{language.probe}")
    if any(SF_LANGUAGES.get(name) != language.name for name in language.sandboxfusion_names):
        missing.append("SandboxFusion names that reach it")
    if not language.compatible_only:
        if language.probe is None and language.family is not Family.SIMULATOR:
            missing.append("an audit probe (only a simulation, which reads simulated time, "
                           "has none)")
        if not any(path.name.startswith(("sol.", "Main.")) for extension in language.extensions
                   for path in SOLUTIONS.glob(f"*{extension}")) and language.name != "pypy3":
            missing.append("a solution of problems/pack/codeforces-2020A")
    return missing


def test_every_language_is_one_keyword_entry_and_its_data_files():
    """Adding a language is one entry of judge/languages/registry.py (keyword-only, typed: its
    policies are Policy objects, its compatible profile a Compatible record) plus the files this
    names; the audit's probes, SandboxFusion's names and the functional harness's languages come
    from the entries (docs/languages.md, "Adding a language")."""
    assert all(f.kw_only for f in dataclasses.fields(Language))
    assert all(f.kw_only for f in dataclasses.fields(Compatible))
    with pytest.raises(TypeError):
        Language("x", Family.NATIVE)  # type: ignore[misc]
    broken = {name: parts for name, language in LANGUAGES.items()
              if (parts := _missing_parts(language))}
    assert not broken, broken
    assert SOURCES == {name: lang.probe for name, lang in LANGUAGES.items() if lang.probe}
    assert set(PYTHON_LANGUAGES) == {"python", "pypy3"}
    assert set(SF_LANGUAGES.values()) == {name for name, language in LANGUAGES.items()
                                          if language.sandboxfusion_names}


def test_csharp_asserts_count_in_the_compatible_profile_only():
    """SandboxFusion's `dotnet run` is a Debug build, where a failed Debug.Assert ends the
    program; Codeforces compiles without DEBUG, where Debug.Assert is compiled out. The listener
    that ends the program is appended, so the program's lines keep their numbers."""
    strict = get_language("csharp", Profile.STRICT)
    compatible = get_language("csharp", Profile.COMPATIBLE)
    assert "-d:DEBUG" not in strict.compile and not strict.support_files
    assert {"-d:DEBUG", "-d:TRACE"} <= set(compatible.compile)
    assert "code.exe.config" in compatible.support_files
    assert "code.exe.config" in compatible.artifacts
    program = "using System.Diagnostics;\nclass P { static void Main() { Debug.Assert(false); } }"
    assert compatible.source_text(program).splitlines()[1:3] == program.splitlines()
    assert strict.source_text(program) == program


def test_go_test_gets_go_tests_summary_without_moving_a_line():
    """The TestMain that prints `ok`/`FAIL` as go test does: imports on the package clause's
    line (after comments and a byte-order mark), the function after the file; none when the
    file has a TestMain of its own."""
    go_test = get_language("go_test", Profile.COMPATIBLE)
    for head in ("", "\ufeff", "// Package x.\n/* package y\n*/\n"):
        source = head + 'package x_test\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\n'
        prepared = go_test.source_text(source)
        lines, got, clause = source.splitlines(), prepared.splitlines(), head.count("\n")
        assert got[:clause] == lines[:clause], prepared
        assert got[clause].startswith(lines[clause] + "; import ("), prepared
        assert got[clause + 1:len(lines)] == lines[clause + 1:], prepared
        assert prepared.count("func TestMain(") == 1
    own = 'package x\n\nimport "testing"\n\nfunc TestMain(m *testing.M) { m.Run() }\n'
    assert go_test.source_text(own) == own
    assert go_test.run[1:] == ("-test.paniconexit0",)


def _make_list(name: str) -> set[str]:
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    found = re.search(rf"^{name}\s*=(.*)$", text, re.M)
    assert found, name
    return set(found.group(1).split())


def test_make_setup_and_the_image_install_every_toolchain_and_no_library_system_wide():
    """The toolchains are installed system-wide; the compatible profile's Debian libraries are
    not (every program would see them), but unpacked into the runtime layer by both."""
    packages = {p for language in LANGUAGES.values() for p in language.packages}
    assert packages <= _make_list("LANGUAGE_PACKAGES")
    containerfile = (ROOT / "images" / "Containerfile").read_text()
    def named(package: str, text: str) -> bool:
        return re.search(rf"(?<![\w-]){re.escape(package)}(?![\w-])", text) is not None
    missing = [p for p in packages if not named(p, containerfile)]
    assert not missing, f"the image does not install {missing}"
    libraries = LIBRARY_PACKAGES
    assert libraries and not [p for p in libraries
                              if p in _make_list("LANGUAGE_PACKAGES") or named(p, containerfile)]
    assert "judge.languages.install debian" in containerfile
    assert "judge.languages.install debian" in (ROOT / "Makefile").read_text()


@pytest.mark.parametrize("name", sorted(LANGUAGES))
def test_every_toolchain_is_installed(name):
    """`make setup` installs every language (a machine without one is reported by doctor)."""
    assert LANGUAGES[name].available, f"{name}: {LANGUAGES[name].packages} not installed"


SOLVED = sorted(p.name for p in SOLUTIONS.glob("sol.*"))


@pytest.fixture(scope="module")
def grader():
    with Grader(slot=next_slot(), scratch=ScratchBox(box_mb=64, max_fetch_bytes=1 << 20)) as g:
        yield g


# Runtimes that start other processes at start-up: refused (RF) where a run may not fork, that
# is without a cgroup (docs/languages.md). Rscript starts R through a shell script, and R asks
# `which uname` through /bin/sh.
STARTS_PROCESSES = {"r"}


@pytest.mark.parametrize("solution", SOLVED)
def test_2020A_is_solved_in_every_language(grader, solution):
    language = language_for_file(SOLUTIONS / solution)
    result = grader.grade((SOLUTIONS / solution).read_text(), language,
                          scaled_problem("2020A"))
    first = result.tests[0].run if result.tests else None
    if first and first.sources.get("processes") == "threads-only" and \
            language.name in STARTS_PROCESSES:
        assert result.verdict == Verdict.RF and first.syscall == "clone", result
        return
    assert result.verdict == Verdict.AC, (solution, result.verdict, result.compile.log[-2000:],
                                          [t.message for t in result.tests][:3])


def test_every_competitive_language_has_a_2020A_solution():
    solved = {language_for_file(SOLUTIONS / name).name for name in SOLVED}
    wanted = {name for name, lang in LANGUAGES.items() if not lang.compatible_only}
    # pypy3 runs sol.py (tests/test_grading.py), Java's solution is Main.java.
    assert wanted <= solved | {"java", "pypy3"}, wanted - solved


# -- each runtime family under the sandbox ----------------------------------------------------
# The programs per family: what a hostile or failing submission does, in that runtime's idiom.
# MARKER is replaced by a string unique to the test, so a process left behind is found on the
# host by its command line.

HOSTILE: dict[str, dict[str, str]] = {
    "go": {
        "spin": "package main\nfunc main() { for {} }\n",
        "memory": "package main\nfunc main() { var s [][]byte; for { b := make([]byte, 1<<20); "
                  "for i := range b { b[i] = 1 }; s = append(s, b) } }\n",
        "fork": 'package main\nimport "os/exec"\nfunc main() { for { '
                'exec.Command("/bin/sh", "-c", "sleep 100").Start() } }\n',
        "network": 'package main\nimport ("fmt"; "net")\nfunc main() { '
                   '_, err := net.Dial("tcp", "1.1.1.1:53"); fmt.Println(err != nil) }\n',
        "files": 'package main\nimport ("fmt"; "os")\nfunc main() { _, e1 := os.ReadFile('
                 '"/etc/shadow"); e2 := os.WriteFile("/usr/x", []byte("x"), 0644); '
                 'fmt.Println(e1 != nil, e2 != nil) }\n',
        "flood": 'package main\nimport ("bytes"; "os")\nfunc main() { b := bytes.Repeat('
                 '[]byte("x"), 1<<20); for { os.Stdout.Write(b) } }\n',
        "leftover": 'package main\nimport "os/exec"\nfunc main() { exec.Command("/bin/sh", "-c",'
                    ' "sleep 1000; : MARKER").Start() }\n',
        "crash": "package main\nfunc main() { var a []int; _ = a[5] }\n",
    },
    "javascript": {
        "spin": "while (true) {}\n",
        "memory": "const a = []; while (true) a.push(Buffer.alloc(1 << 20, 1));\n",
        "fork": "const {spawn} = require('child_process');\n"
                "while (true) { try { spawn('/bin/sh', ['-c', 'sleep 100']); } catch (e) {} }\n",
        "network": "require('net').connect(53, '1.1.1.1').on('error', () => console.log(true))"
                   ".on('connect', () => console.log(false));\n",
        "files": "const fs = require('fs'); const fails = f => { try { f(); return false; } "
                 "catch (e) { return true; } };\nconsole.log(fails(() => fs.readFileSync("
                 "'/etc/shadow')), fails(() => fs.writeFileSync('/usr/x', 'x')));\n",
        "flood": "const s = 'x'.repeat(1 << 20); while (true) require('fs').writeSync(1, s);\n",
        "leftover": "require('child_process').spawn('/bin/sh', ['-c', 'sleep 1000; : MARKER'],"
                    " {detached: true, stdio: 'ignore'}).unref();\n",
        "crash": "null.x;\n",
    },
    "ruby": {
        "spin": "loop {}\n",
        "memory": "a = []\nloop { a << ('x' * (1 << 20)) }\n",
        "fork": "loop { begin; fork { sleep 100 }; rescue StandardError; end }\n",
        "network": "require 'socket'\nbegin\n  TCPSocket.new('1.1.1.1', 53)\n  puts false\n"
                   "rescue StandardError\n  puts true\nend\n",
        "files": "def fails\n  yield\n  false\nrescue StandardError\n  true\nend\n"
                 "puts [fails { File.read('/etc/shadow') }, fails { File.write('/usr/x', 'x') }]"
                 ".join(' ')\n",
        "flood": "s = 'x' * (1 << 20)\nloop { $stdout.write(s) }\n",
        "leftover": "Process.detach(spawn(\"/bin/sh -c 'sleep 1000; : MARKER'\"))\n",
        "crash": "raise 'boom'\n",
    },
    "kotlin": {
        "spin": "fun main() { while (true) {} }\n",
        "memory": "fun main() { val a = ArrayList<LongArray>(); "
                  "while (true) a.add(LongArray(1 shl 17) { 1L }) }\n",
        "fork": "fun main() { while (true) { try { ProcessBuilder(\"/bin/sh\", \"-c\", "
                "\"sleep 100\").start() } catch (e: Exception) {} } }\n",
        "network": "fun main() { println(try { java.net.Socket(\"1.1.1.1\", 53); false } "
                   "catch (e: Exception) { true }) }\n",
        "files": "import java.io.File\nfun fails(f: () -> Unit) = try { f(); false } catch "
                 "(e: Exception) { true }\nfun main() { println(\"${fails { File(\"/etc/shadow\")"
                 ".readText() }} ${fails { File(\"/usr/x\").writeText(\"x\") }}\") }\n",
        "flood": "fun main() { val b = ByteArray(1 shl 20) { 120 }; while (true) "
                 "System.out.write(b) }\n",
        "leftover": "fun main() { ProcessBuilder(\"/bin/sh\", \"-c\", "
                    "\"sleep 1000; : MARKER\").start() }\n",
        "crash": "fun main() { throw IllegalStateException(\"boom\") }\n",
    },
}

CPU_MS = 1000
MEMORY_MB = 256


def _run(grader, language: str, program: str, **limits):
    lang = get_language(language)
    bounds = dict(time_limit_ms=scaled(CPU_MS), wall_time_limit_ms=scaled(10_000),
                  memory_limit_mb=MEMORY_MB, output_limit_mb=8, processes=32)
    bounds.update(limits)
    outcome = grader.run_program(program, lang, Limits(**bounds), stdin=b"", files={},
                                 fetch=[])
    assert outcome.run is not None, (language, outcome.compile)
    return outcome.run


def _host_processes_with(marker: str) -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in cmdline:
            found.append(pid)
    return found


@pytest.mark.parametrize("language", sorted(HOSTILE))
def test_a_cpu_spin_is_tle(grader, language):
    assert _run(grader, language, HOSTILE[language]["spin"]).run.status == "TLE"


@pytest.mark.parametrize("language", sorted(HOSTILE))
def test_a_memory_bomb_is_mle(grader, language):
    run = _run(grader, language, HOSTILE[language]["memory"]).run
    assert run.status == "MLE", run


@pytest.mark.parametrize("language", sorted(HOSTILE))
def test_a_fork_bomb_is_stopped_and_the_slot_survives(grader, language):
    """The process cap holds: the bomb spins to its CPU limit, or its runtime gives up when it
    can start no more threads (Go's aborts: RE)."""
    run = _run(grader, language, HOSTILE[language]["fork"]).run
    assert run.status in ("TLE", "RF", "RE"), run
    after = _run(grader, language, HOSTILE[language]["files"])
    assert after.run.status == "OK", after.run


@pytest.mark.parametrize("language", sorted(HOSTILE))
def test_nothing_outside_is_reachable(grader, language):
    """The run's network namespace has only its own loopback: a connection out fails (or, in a
    policy without internet sockets, the call is refused)."""
    captured = _run(grader, language, HOSTILE[language]["network"])
    if captured.run.status == "RF":
        assert captured.run.syscall == "socket", captured.run
    else:
        assert captured.run.status == "OK" and captured.stdout.split() == [b"true"], captured


@pytest.mark.parametrize("language", sorted(HOSTILE))
def test_secrets_are_unreadable_and_the_system_unwritable(grader, language):
    captured = _run(grader, language, HOSTILE[language]["files"])
    assert captured.run.status == "OK", captured.run
    assert captured.stdout.split() == [b"true", b"true"], captured.stdout


@pytest.mark.parametrize("language", sorted(HOSTILE))
def test_an_output_flood_stops_at_the_output_limit(grader, language):
    run = _run(grader, language, HOSTILE[language]["flood"], output_limit_mb=4).run
    assert run.status == "OLE", run


@pytest.mark.parametrize("language", sorted(HOSTILE))
def test_no_process_outlives_its_run(grader, language):
    marker = f"judge-leftover-{uuid.uuid4().hex}"
    program = HOSTILE[language]["leftover"].replace("MARKER", marker)
    run = _run(grader, language, program).run
    assert run.status in ("OK", "RF"), run
    assert _host_processes_with(marker) == []


@pytest.mark.parametrize("language", sorted(HOSTILE))
def test_a_crash_is_re(grader, language):
    assert _run(grader, language, HOSTILE[language]["crash"]).run.status == "RE"


def test_a_language_whose_toolchain_is_missing_is_refused_cleanly_everywhere(monkeypatch):
    """The host's shortfall, said in one line: doctor names the packages, grading refuses it
    (never a verdict), SandboxFusion's endpoint answers a judge failure, eval skips it."""
    from dataclasses import replace

    from judge import JudgeError
    from judge.doctor import run_checks
    from judge.evaluate.generations import Generation
    from judge.evaluate.samples import _language_of
    from judge.problems.rules import RULES
    from judge.service.sandboxfusion import UnsupportedLanguage, resolve_language

    lua = LANGUAGES["lua"]
    monkeypatch.setitem(LANGUAGES, "lua", replace(lua, run=("no-such-lua", "code.lua")))
    checks = {c.name: c for c in run_checks()}
    assert not checks["language lua"].ok and "lua5.4" in checks["language lua"].detail
    with Grader(slot=next_slot()) as grader, pytest.raises(JudgeError, match="not installed"):
        grader.grade("print(1)", "lua", scaled_problem("2020A"))
    with pytest.raises(JudgeError, match="not installed") as refused:
        resolve_language("lua")
    assert not isinstance(refused.value, UnsupportedLanguage)
    with pytest.raises(JudgeError, match="not installed"):
        _language_of(Generation(row=1, problem_id="x", language="lua", completion="",
                                code=None, sample_index=None), None, None, RULES["codeforces"])
