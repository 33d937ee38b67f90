"""The judge's configuration: every JUDGE_* variable read in judge/config.py and nowhere else,
parsed into one frozen value, refused with one line when bad, documented, shown by doctor, and
split between driver and node for Ray workers."""
from __future__ import annotations

import ast
import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from judge import JudgeError, config
from judge.config import VARIABLES, Config
from judge.languages import get_language

ROOT = Path(__file__).resolve().parent.parent
# Where reading the environment is not reading a setting of the judge: the terminal's own
# convention (COLUMNS), and the harness programs, which run inside the sandbox.
NOT_SETTINGS = {"judge/cli/console.py", "judge/harness/lcb_stdin_program.py"}


def test_every_variable_parses_into_its_field():
    environ = {"JUDGE_CGROUP": "none", "JUDGE_SUPERVISOR": "/opt/sup", "JUDGE_CACHE_DIR": "/c",
               "JUDGE_TIME_FACTORS": "python=3, java=2.5", "JUDGE_COMPILE_TIME_LIMIT_MS": "90000",
               "JUDGE_ARTIFACT_LIMIT_MB": "8", "JUDGE_COMPILE_CACHE_MB": "16", "JUDGE_NO_PCH": "1",
               "JUDGE_TESTLIB": "/t", "JUDGE_SERVE_PORT": "9000", "JUDGE_AUDIT_BREAK": "memory"}
    assert set(environ) == {v.name for v in VARIABLES}
    assert Config.from_environ(environ) == Config(
        cgroup="none", supervisor=Path("/opt/sup"), cache_dir=Path("/c"),
        time_factors=(("python", 3.0), ("java", 2.5)), compile_time_limit_ms=90000,
        artifact_limit_mb=8, compile_cache_mb=16, precompiled_headers=False,
        testlib=Path("/t"), serve_port=9000, audit_break=frozenset({"memory"}))


def test_the_cache_directory_follows_xdg_then_home():
    assert Config.from_environ({"XDG_CACHE_HOME": "/x"}).cache_dir == Path("/x/judge")
    assert Config.from_environ({"HOME": "/h"}).cache_dir == Path("/h/.cache/judge")
    assert Config.from_environ({"HOME": "/h", "JUDGE_CACHE_DIR": "/j"}).cache_dir == Path("/j")


@pytest.mark.parametrize("name, value", [
    ("JUDGE_CGROUP", "v3"), ("JUDGE_TIME_FACTORS", "python"), ("JUDGE_TIME_FACTORS", "java=0"),
    ("JUDGE_COMPILE_TIME_LIMIT_MS", "soon"), ("JUDGE_ARTIFACT_LIMIT_MB", "-1"),
    ("JUDGE_COMPILE_CACHE_MB", "0"), ("JUDGE_SERVE_PORT", "70000")])
def test_a_bad_value_is_refused_naming_its_variable(name, value):
    with pytest.raises(JudgeError, match=name):
        Config.from_environ({name: value})


def test_a_bad_variable_stops_a_command_with_one_line():
    done = subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", "problems",
                           "list"], capture_output=True, text=True,
                          env={"JUDGE_TIME_FACTORS": "cobol=2", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2
    assert done.stderr == "judge: JUDGE_TIME_FACTORS: unknown language 'cobol'\n"


def test_time_factors_apply_through_the_configuration(configure):
    configure(time_factors=(("py", 3.0),))
    assert get_language("python").time_factor == 3.0
    assert get_language("cpp").time_factor == 1.0


def test_a_ray_worker_takes_the_drivers_time_factors_and_its_own_node(monkeypatch):
    driver = Config(cgroup="v1", cache_dir=Path("/driver"), time_factors=(("java", 4.0),))
    monkeypatch.setenv("JUDGE_CACHE_DIR", "/node")
    monkeypatch.setenv("JUDGE_TIME_FACTORS", "java=1")
    worker = driver.on_node()
    assert worker.time_factors == (("java", 4.0),)
    assert worker.cache_dir == Path("/node") and worker.cgroup == "auto"


def test_nothing_else_reads_the_environment():
    readers = []
    for path in sorted((ROOT / "judge").rglob("*.py")):
        relative = str(path.relative_to(ROOT))
        if relative in NOT_SETTINGS or relative == "judge/config.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            reads = (isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv")
                     and isinstance(node.value, ast.Name) and node.value.id == "os")
            if reads and not _writes_only(path, node):
                readers.append(f"{relative}:{node.lineno}")
    assert readers == []


def _writes_only(path: Path, node: ast.Attribute) -> bool:
    """os.environ.setdefault of a variable of another program (Ray's usage statistics)."""
    line = path.read_text().splitlines()[node.lineno - 1]
    return "os.environ.setdefault(\"RAY_" in line


def test_the_docs_list_every_variable():
    text = (ROOT / "docs" / "operations.md").read_text()
    section = text.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    documented = re.findall(r"^\| `(JUDGE_\w+)` \|", section, re.M)
    assert documented == [v.name for v in VARIABLES]


def test_doctor_shows_the_configuration_in_effect(configure):
    done = subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", "doctor",
                           "--json"], capture_output=True, text=True,
                          env={"JUDGE_COMPILE_CACHE_MB": "77", "PATH": "/usr/bin:/bin",
                               "HOME": "/root"})
    shown = json.loads(done.stdout)["config"]
    assert list(shown) == [v.name for v in VARIABLES]
    assert shown["JUDGE_COMPILE_CACHE_MB"] == "77"


def test_the_configuration_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.current().cgroup = "none"      # type: ignore[misc]
