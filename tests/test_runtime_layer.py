"""The runtime layer (judge/languages/runtime.py): the libraries SandboxFusion's runtime holds
work in the compatible profile, the strict profile never sees them and fails cleanly on code that
needs them, programs cannot change them, and a library the layer lacks is the judge's failure,
never the program's. MultiPL-E-style programs (its preludes: boost, javatuples, numpy) pass
through /run_code."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import next_slot, scaled
from judge import JudgeError
from judge.doctor import _strict_profile_check
from judge.grade import Grader
from judge.languages import LANGUAGES, Profile, get_language, runtime
from judge.languages.registry import LIBRARY_PACKAGES
from judge.problems.model import Problem
from judge.problems.model import TestCase as Case
from judge.sandbox import Limits
from judge.service.sandboxfusion import resolve_language
from judge.single_run import ScratchBox
from judge.verdicts import Verdict
from serving import Server

pytestmark = pytest.mark.usefixtures("require_sandbox")

# Per language: a program that uses its compatible profile's libraries and prints 5, and what
# its strict run says when the library is absent (in the compile log for a CE, else stderr).
USES_A_LIBRARY = {
    "cpp": ("#include <boost/any.hpp>\n#include <iostream>\nint main() { boost::any a = 5; "
            "std::cout << boost::any_cast<int>(a); }\n", "CE", "boost/any.hpp"),
    "java": ("import org.javatuples.*;\npublic class Main { public static void main(String[] a)"
             " { System.out.print(Pair.with(1, 5).getValue1()); } }\n", "CE",
             "package org.javatuples does not exist"),
    "python": ("import numpy as np, pandas as pd, scipy.special, sklearn, requests, bs4\n"
               "print(int(pd.Series(np.array([2, 3])).sum()))\n", "RE",
               "No module named 'numpy'"),
    "javascript": ("const _ = require('lodash');\nprocess.stdout.write(String(_.sum([2, 3])));\n",
                   "RE", "Cannot find module 'lodash'"),
    "typescript": ("import _ from 'lodash';\nprocess.stdout.write(String(_.sum([2, 3])));\n", "RE",
                   "Cannot find module 'lodash'"),
    "perl": ("use Test::Deep; use Data::Compare;\nprint Compare([1], [1]) ? 5 : 0;\n", "RE",
             "Can't locate Test/Deep.pm"),
    "lua": ("local lu = require('luaunit')\nio.write(lu.LuaUnit and 5 or 0)\n", "RE",
            "module 'luaunit' not found"),
}
LIMITS = dict(time_limit_ms=scaled(20_000), wall_time_limit_ms=scaled(60_000),
              memory_limit_mb=1024, processes=64)


@pytest.fixture(scope="module")
def grader():
    with Grader(slot=next_slot(), scratch=ScratchBox(box_mb=64, max_fetch_bytes=1 << 20)) as g:
        yield g


def test_every_language_that_holds_libraries_is_tested_here():
    holding = {name for name, language in LANGUAGES.items()
               if language.in_profile(Profile.COMPATIBLE).libraries
               and not language.compatible_only}
    assert holding == set(USES_A_LIBRARY)


@pytest.mark.parametrize("name", sorted(LANGUAGES))
def test_make_setup_installs_every_compatible_library(name):
    compatible = get_language(name, Profile.COMPATIBLE)
    assert not compatible.missing_libraries, [lib.describe() for lib in
                                              compatible.missing_libraries]
    assert not get_language(name).libraries, "the strict profile holds no library"


@pytest.mark.parametrize("name", sorted(USES_A_LIBRARY))
def test_a_library_runs_in_the_compatible_profile_and_fails_cleanly_in_the_strict_one(grader,
                                                                                       name):
    program, verdict, message = USES_A_LIBRARY[name]
    compatible = grader.run_program(program, get_language(name, Profile.COMPATIBLE),
                                    Limits(**LIMITS), stdin=b"", files={}, fetch=[])
    assert compatible.run is not None, compatible.compile
    assert compatible.run.run.status == "OK", compatible.run.stderr[-2000:]
    assert compatible.run.stdout.strip() == b"5"

    strict = grader.run_program(program, get_language(name), Limits(**LIMITS), stdin=b"",
                                files={}, fetch=[])
    if verdict == "CE":
        assert strict.compile is not None and strict.compile.status == "CE"
        assert message in strict.compile.log, strict.compile.log
    else:
        assert strict.run is not None and strict.run.run.status == "RE", strict
        assert message in strict.run.stderr.decode(), strict.run.stderr[-2000:]


def test_a_failed_import_is_told_against_the_profiles_environment(grader):
    """Graded in the compatible profile (as /submit grades), a module the layer does not hold
    is named against the compatible environment; in the strict one, against the standard
    library."""
    problem = Problem("local/imports", "imports", "", scaled(2000), 256, "wcmp",
                      (Case(b"", b"5\n"),))
    program = "import numpy\nimport judge_no_such_module\n"
    for profile, environment in ((Profile.COMPATIBLE, "sandboxfusion"),
                                 (Profile.STRICT, "stdlib")):
        result = grader.grade(program, get_language("python", profile), problem)
        assert result.verdict == Verdict.RE, result
        missing = "judge_no_such_module" if profile is Profile.COMPATIBLE else "numpy"
        assert (f"no module '{missing}' in the {environment} Python environment"
                in result.tests[0].checker_message), result.tests[0].checker_message


def test_programs_cannot_change_the_layer(grader):
    """Read-only to every program: a submission that rewrote numpy, boost or lodash would
    change every later run."""
    debian, node = runtime.DEBIAN_ROOT, runtime.NODE_MODULES
    targets = ["numpy.__file__", f"'{debian}/usr/include/boost/any.hpp'",
               f"'{node}/lodash/lodash.js'", f"'{debian}/new'", f"'{node}/new'"]
    probe = ("import os, numpy\n"
             f"for path in [{', '.join(targets)}]:\n"
             "    try:\n"
             "        open(path, 'a').close(); print('written', path)\n"
             "    except OSError as exc:\n"
             "        print('refused', exc.errno)\n"
             "    try:\n"
             "        os.chmod(path, 0o777); print('chmod', path)\n"
             "    except OSError:\n"
             "        pass\n")
    outcome = grader.run_program(probe, get_language("python", Profile.COMPATIBLE),
                                 Limits(**LIMITS), stdin=b"", files={}, fetch=[])
    assert outcome.run is not None and outcome.run.run.status == "OK", outcome
    lines = outcome.run.stdout.decode().splitlines()
    assert len(lines) == 5 and all(line.startswith("refused") for line in lines), lines


def test_a_missing_library_is_the_servers_failure(monkeypatch):
    """A compatible request in a language whose libraries the layer lacks is refused as the
    judge's failure (a 504 the client retries), never run to a CE the client would score."""
    assert resolve_language("cpp").libraries
    monkeypatch.setattr(runtime.Library, "installed",
                        property(lambda library: library.name != "boost"))
    with pytest.raises(JudgeError, match="boost .*not installed on this server"):
        resolve_language("cpp")
    assert resolve_language("java").libraries   # its own libraries are there


def test_an_optional_library_is_listed_not_promised():
    python = get_language("python", Profile.COMPATIBLE)
    optional = [lib for lib in python.libraries if lib.optional]
    assert [lib.name for lib in optional] == ["torch"]
    assert all(lib not in python.missing_libraries for lib in optional)


def test_the_opt_in_set_runs_when_installed_and_is_absent_otherwise(grader):
    """PyTorch (make setup PYTHON_EXTRAS=sandboxfusion-ml) runs under the unchanged general
    policy where it is installed; elsewhere its import fails as any absent module does."""
    torch = next(lib for lib in get_language("python", Profile.COMPATIBLE).libraries
                 if lib.name == "torch")
    program = ("import torch, numpy as np\nx = torch.tensor(np.arange(6.0)).reshape(2, 3)\n"
               "print(int((x @ x.T).sum()))\n")
    outcome = grader.run_program(program, get_language("python", Profile.COMPATIBLE),
                                 Limits(**{**LIMITS, "memory_limit_mb": 2048}), stdin=b"",
                                 files={}, fetch=[])
    assert outcome.run is not None
    if torch.installed:
        assert outcome.run.run.status == "OK", outcome.run.stderr[-2000:]
        assert outcome.run.stdout.strip() == b"83"
    else:
        assert outcome.run.run.status == "RE"
        assert b"No module named 'torch'" in outcome.run.stderr


def test_doctor_reports_a_library_the_host_gives_every_program(monkeypatch):
    assert _strict_profile_check().ok
    monkeypatch.setattr(runtime, "installed_on_host", lambda package: package == "libboost-dev")
    check = _strict_profile_check()
    assert not check.ok and "libboost-dev" in check.detail


def _install(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "judge.languages.install", *argv],
                          capture_output=True, text=True)


def test_the_install_command_line():
    listed = _install("debian-packages")
    assert listed.returncode == 0 and listed.stdout.split() == LIBRARY_PACKAGES
    assert "libboost-dev" in listed.stdout.split()
    assert _install("debian-missing").returncode == 0
    assert _install("python-missing").returncode == 0
    requirements = _install("python-requirements").stdout.split()
    assert "numpy==1.26.3" in requirements and "torch==2.13.0" not in requirements
    assert "torch==2.13.0" in _install("python-requirements",
                                       "--with=sandboxfusion-ml").stdout.split()
    for bad in (("bogus",), ("python", "--with=no-such-environment"), ()):
        refused = _install(*bad)
        assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1, refused
        assert "Traceback" not in refused.stderr


# -- MultiPL-E's programs through /run_code ----------------------------------------------------
# Each is assembled as SandboxFusion assembles MultiPL-E's: its prelude of imports first, then
# the solution, then the tests as assertions in a main.

CPP_PRELUDE = ("using namespace std;\n#include<optional>\n#include<cassert>\n#include<stdlib.h>\n"
               "#include<algorithm>\n#include<cmath>\n#include<numeric>\n#include<vector>\n"
               "#include<map>\n#include<boost/any.hpp>\n#include<string>\n#include<iostream>\n")
JAVA_PRELUDE = ("import java.util.*;\nimport java.lang.reflect.*;\nimport org.javatuples.*;\n"
                "import java.security.*;\nimport java.math.*;\nimport java.io.*;\n"
                "import java.util.stream.*;\n")
PYTHON_PRELUDE = ("import math\nimport re\nimport sys\nimport copy\nimport itertools\n"
                  "import collections\nimport heapq\nimport functools\nimport numpy\n"
                  "import numpy as np\nfrom typing import *\nfrom collections import *\n")

MULTIPLE = {
    "cpp": CPP_PRELUDE + (
        "std::vector<boost::any> filter_integers(std::vector<boost::any> values) {\n"
        "    std::vector<boost::any> out;\n"
        "    for (auto &v : values) if (v.type() == typeid(long)) out.push_back(v);\n"
        "    return out;\n}\n"
        "int main() {\n"
        "    auto got = filter_integers({(long)4, std::string(\"x\"), 3.5, (long)9});\n"
        "    assert(got.size() == 2 && boost::any_cast<long>(got[1]) == {answer});\n}\n"),
    "java": JAVA_PRELUDE + (
        "class Main {\n"
        "    public static Pair<Long, Long> sumProduct(ArrayList<Long> numbers) {\n"
        "        long sum = 0, product = 1;\n"
        "        for (long n : numbers) { sum += n; product *= n; }\n"
        "        return Pair.with(sum, product);\n    }\n"
        "    public static void main(String[] args) {\n"
        "    assert(sumProduct((new ArrayList<Long>(Arrays.asList((long)1l, (long)2l, (long)3l))))"
        ".equals((Pair.with({answer}l, 6l))));\n    }\n}\n"),
    "python": PYTHON_PRELUDE + (
        "def mean_absolute_deviation(numbers: List[float]) -> float:\n"
        "    values = np.array(numbers)\n"
        "    return float(np.mean(np.abs(values - values.mean())))\n\n"
        "def check(candidate):\n"
        "    assert candidate([1.0, 2.0, 3.0, 4.0]) == {answer}\n\n"
        "check(mean_absolute_deviation)\n"),
}
RIGHT = {"cpp": "9", "java": "6", "python": "1.0"}
WRONG = {"cpp": "4", "java": "7", "python": "2.0"}


@pytest.fixture(scope="module")
def server(require_sandbox):
    with Server(slots=1) as running:
        yield running


@pytest.mark.parametrize("language", sorted(MULTIPLE))
def test_multiple_programs_pass_through_run_code(server, language):
    """Its preludes need boost, javatuples and numpy: a right answer is Success, a wrong one
    Failed on its assertion (not on a missing library)."""
    for answers, status in ((RIGHT, "Success"), (WRONG, "Failed")):
        code = MULTIPLE[language].replace("{answer}", answers[language])
        body = server.post("/run_code", {"code": code, "language": language,
                                         "compile_timeout": 60, "run_timeout": 30}).json()
        assert body["status"] == status, body
        compiled = body.get("compile_result")
        assert compiled is None or compiled["return_code"] == 0, body
        if status == "Failed":
            stderr = body["run_result"]["stderr"]
            assert "Assertion" in stderr or "assert" in stderr.lower(), body


def test_v1_languages_shows_each_profile(server):
    listed = {entry["name"]: entry for entry in server.get("/v1/languages").json()}
    cpp = {profile["name"]: profile for profile in listed["cpp"]["profiles"]}
    assert set(cpp) == {"strict", "compatible"} and cpp["strict"]["libraries"] == []
    assert [lib["name"] for lib in cpp["compatible"]["libraries"]] == ["boost"]
    assert cpp["compatible"]["libraries"][0]["installed"] is True
    assert cpp["compatible"]["policy"] == "general"
    python = {profile["name"]: profile for profile in listed["python"]["profiles"]}
    held = {lib["name"]: lib for lib in python["compatible"]["libraries"]}
    assert held["numpy"]["package"] == "numpy==1.26.3" and held["torch"]["optional"] is True
    assert [profile["name"] for profile in listed["go_test"]["profiles"]] == ["compatible"]
