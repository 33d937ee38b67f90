#!/usr/bin/env python3
"""Builds the embedded problem pack from the sources in this directory.

For every problem directory (one holding problem.json):
  1. runs gen.py (deterministic, seeded) to write the test inputs;
  2. compiles the C++ reference (sol.cpp) with the judge's C++ command and runs it, unsandboxed,
     to produce the expected outputs (it must finish within the time limit);
  3. unless --no-verify: runs the Python (sol.py) and Java (Main.java) references with the
     judge's commands and checks that they agree with the C++ outputs under the problem's
     checker (and that the custom checker, when there is one, accepts all three), within 2x
     the time limit.
An interactive problem (problem.json names an "interactor_file") has no expected outputs: each
reference instead talks to the interactor, built against the judge's testlib.h, through two
pipes, and the interactor must accept it on every test;
then writes judge/problems/pack/pack.parquet in the CF-Div2-Stepfun schema.

The output is byte-for-byte deterministic: running the script twice gives the same file.

    python3 problems/pack/build_pack.py [--no-verify] [--out PATH] [--only SLUG...]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE.parents[1] / "judge" / "problems" / "pack" / "pack.parquet"

CXX = ["g++", "-std=c++20", "-fno-asm", "-fsanitize=bounds", "-fno-sanitize-recover=bounds",
       "-static", "-O2", "-DONLINE_JUDGE"]
CHECKER_CXX = ["g++", "-std=c++20", "-O2"]
JUDGE_TESTLIB = HERE.parents[1] / "judge" / "checkers" / "testlib"
PYTHON = ["python3"]
JAVAC = ["javac", "-J-Xmx544m"]
JAVA = ["java", "-XX:+UseSerialGC", "-Xmx544m", "-Xss64m", "-DONLINE_JUDGE"]
SLOW_LANGUAGE_FACTOR = 2  # Python and Java get twice the time limit
COMFORT = 0.5             # a reference should use at most half its (language's) limit


class BuildError(Exception):
    pass


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def problem_dirs(only: list[str] | None) -> list[Path]:
    dirs = sorted(p.parent for p in HERE.glob("*/problem.json"))
    # Codeforces problems first, then the pack's own, each group by name.
    dirs.sort(key=lambda d: (not d.name.startswith("codeforces-"), d.name))
    if only:
        dirs = [d for d in dirs if d.name in only]
        missing = set(only) - {d.name for d in dirs}
        if missing:
            raise BuildError(f"no such problem directories: {', '.join(sorted(missing))}")
    return dirs


def run(cmd: list[str], cwd: Path, stdin: Path | None = None, timeout: float = 60.0):
    """Runs cmd; returns (CompletedProcess, CPU time in ms of user + system).

    CPU time, not wall time: the machine may be busy, and CPU time is what the judge limits.
    Children run one at a time, so the RUSAGE_CHILDREN difference is this child's.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as f:
        proc = subprocess.run(cmd, cwd=cwd, stdin=f, capture_output=True, timeout=timeout)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return proc, cpu * 1000.0


# ----------------------------------------------------------------- checker semantics (testlib)

def _tokens(data: bytes) -> list[bytes]:
    return data.split()


def compare(checker: str, output: bytes, answer: bytes) -> str | None:
    """None if `output` matches `answer` under a testlib standard checker, else a reason."""
    try:
        return _compare(checker, output, answer)
    except ValueError as exc:
        return f"not a number: {exc}"


def _compare(checker: str, output: bytes, answer: bytes) -> str | None:
    if checker in ("wcmp",):
        o, a = _tokens(output), _tokens(answer)
        if o != a:
            return f"tokens differ ({len(o)} vs {len(a)} tokens)"
        return None
    if checker == "ncmp":
        o, a = _tokens(output), _tokens(answer)
        if len(o) != len(a):
            return f"{len(o)} numbers vs {len(a)}"
        for i, (x, y) in enumerate(zip(o, a, strict=True), 1):
            if int(x) != int(y):
                return f"number {i}: {x!r} vs {y!r}"
        return None
    if checker == "lcmp":
        def lines(data: bytes) -> list[list[bytes]]:
            out = [ln.split() for ln in data.split(b"\n")]
            while out and not out[-1]:
                out.pop()
            return out
        o, a = lines(output), lines(answer)
        if o != a:
            return f"lines differ ({len(o)} vs {len(a)} lines)"
        return None
    if checker == "yesno":
        o, a = _tokens(output), _tokens(answer)
        if len(o) != 1 or o[0].upper() != a[0].upper():
            return f"{o[:2]!r} vs {a[0]!r}"
        return None
    m = re.fullmatch(r"rcmp(\d+)", checker)
    if m:
        eps = 10.0 ** -int(m.group(1))
        o, a = _tokens(output), _tokens(answer)
        if len(o) != len(a):
            return f"{len(o)} numbers vs {len(a)}"
        for i, (x, y) in enumerate(zip(o, a, strict=True), 1):
            fx, fy = float(x), float(y)
            if not math.isfinite(fx) or abs(fx - fy) > eps * max(1.0, abs(fy)) + 1e-15:
                return f"number {i}: {x!r} vs {y!r}"
        return None
    raise BuildError(f"build_pack has no comparison for checker {checker!r}")


# ----------------------------------------------------------------------------- one problem

class Built:
    def __init__(self, meta: dict, statement: str, checker_field: str, tests: list[dict],
                 interactor: str | None = None):
        self.meta, self.statement, self.checker_field, self.tests = meta, statement, \
            checker_field, tests
        self.interactor = interactor


def build_problem(pdir: Path, work: Path, verify: bool) -> Built:
    meta = json.loads((pdir / "problem.json").read_text())
    pid = meta["problem_id"]
    statement = (pdir / "statement.md").read_text()
    custom = meta["checker"] == "custom"
    checker_field = (pdir / meta["checker_file"]).read_text() if custom else meta["checker"]

    tdir = work / "tests"
    proc, _ = run([sys.executable, str(pdir / "gen.py"), str(tdir)], cwd=work, timeout=300)
    if proc.returncode != 0:
        raise BuildError(f"{pid}: gen.py failed: {proc.stderr.decode(errors='replace')[-500:]}")
    inputs = sorted(tdir.glob("*.in"))
    if not inputs:
        raise BuildError(f"{pid}: gen.py wrote no tests")

    exe = work / "sol.exe"
    proc, _ = run(CXX + ["-o", str(exe), str(pdir / "sol.cpp")], cwd=work, timeout=300)
    if proc.returncode != 0:
        raise BuildError(f"{pid}: sol.cpp does not compile:\n{proc.stderr.decode()[-2000:]}")

    checker_exe = None
    if custom:
        checker_exe = work / "checker.exe"
        proc, _ = run(CHECKER_CXX + ["-o", str(checker_exe), str(pdir / meta["checker_file"])],
                      cwd=work, timeout=300)
        if proc.returncode != 0:
            raise BuildError(f"{pid}: the checker does not compile:\n{proc.stderr.decode()[-2000:]}")

    java_dir = None
    if verify:
        java_dir = work / "java"
        java_dir.mkdir()
        shutil.copy(pdir / "Main.java", java_dir / "Main.java")
        proc, _ = run(JAVAC + ["Main.java"], cwd=java_dir, timeout=300)
        if proc.returncode != 0:
            raise BuildError(f"{pid}: Main.java does not compile:\n{proc.stderr.decode()[-2000:]}")
    if "interactor_file" in meta:
        return build_interactive(pdir, meta, statement, inputs, exe, java_dir, work)
    return build_batch(pdir, meta, statement, checker_field, inputs, exe, checker_exe, java_dir,
                       work)


def references(pdir: Path, exe: Path, java_dir: Path | None, work: Path):
    """(name, command, directory) of each reference to run: C++, then Python and Java when
    verifying."""
    yield "cpp", [str(exe)], work
    if java_dir is not None:
        yield "py", PYTHON + [str(pdir / "sol.py")], work
        yield "java", JAVA + ["Main"], java_dir


def interact(solution: list[str], solution_dir: Path, interactor: list[str], work: Path):
    """Runs a solution against the interactor through two pipes; returns (the interactor's
    exit code and message, the solution's exit code, the solution's CPU time in ms)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    to_interactor, to_solution = os.pipe(), os.pipe()
    program = subprocess.Popen(solution, cwd=solution_dir, stdin=to_solution[0],
                               stdout=to_interactor[1], stderr=subprocess.DEVNULL)
    judge = subprocess.Popen(interactor, cwd=work, stdin=to_interactor[0],
                             stdout=to_solution[1], stderr=subprocess.PIPE)
    for fd in (*to_interactor, *to_solution):
        os.close(fd)
    _, message = judge.communicate(timeout=60)
    program.wait(timeout=60)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # Both children's CPU: an upper bound of the solution's, enough for the comfort check.
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return judge.returncode, message.decode(errors="replace").strip(), program.returncode, cpu * 1000


def build_interactive(pdir: Path, meta: dict, statement: str, inputs: list[Path], exe: Path,
                      java_dir: Path | None, work: Path) -> Built:
    pid, tl = meta["problem_id"], int(meta["time_limit_ms"])
    source = pdir / meta["interactor_file"]
    interactor_exe = work / "interactor.exe"
    proc, _ = run(CHECKER_CXX + ["-I", str(JUDGE_TESTLIB), "-o", str(interactor_exe), str(source)],
                  cwd=work, timeout=300)
    if proc.returncode != 0:
        raise BuildError(f"{pid}: the interactor does not compile:\n{proc.stderr.decode()[-2000:]}")
    tests, worst = [], {}
    for inp in inputs:
        tout = work / "tout.txt"
        for name, command, cwd in references(pdir, exe, java_dir, work):
            code, message, exit_code, ms = interact(command, cwd, [str(interactor_exe), str(inp),
                                                                    str(tout)], work)
            if code != 0 or exit_code != 0:
                raise BuildError(f"{pid} test {inp.stem}: the {name} reference ends with exit "
                                 f"code {exit_code}, the interactor with {code}: {message}")
            worst[name] = max(worst.get(name, 0.0), ms)
        tests.append({"input": inp.read_text(), "output": ""})
    log(f"{pid}: {len(tests)} tests, interactive; slowest interaction (CPU of both, "
        f"unsandboxed): " + ", ".join(f"{k} {v:.0f} ms" for k, v in worst.items())
        + f" (time limit {tl} ms)")
    return Built(meta, statement, "", tests, interactor=source.read_text())


def build_batch(pdir: Path, meta: dict, statement: str, checker_field: str, inputs: list[Path],
                exe: Path, checker_exe: Path | None, java_dir: Path | None, work: Path) -> Built:
    pid, tl = meta["problem_id"], int(meta["time_limit_ms"])
    custom = checker_exe is not None
    verify = java_dir is not None

    def judge(name: str, inp: Path, out: bytes, ans_path: Path) -> None:
        if custom:
            out_path = work / "participant.out"
            out_path.write_bytes(out)
            proc, _ = run([str(checker_exe), str(inp), str(out_path), str(ans_path)], cwd=work)
            if proc.returncode != 0:
                raise BuildError(f"{pid} test {inp.stem}: the checker rejects the {name} "
                                 f"reference (exit {proc.returncode}): "
                                 f"{proc.stderr.decode(errors='replace').strip()}")
        else:
            reason = compare(meta["checker"], out, ans_path.read_bytes())
            if reason:
                raise BuildError(f"{pid} test {inp.stem}: the {name} reference disagrees with "
                                 f"C++: {reason}")

    tests, worst = [], {"cpp": 0.0, "py": 0.0, "java": 0.0}
    for inp in inputs:
        proc, ms = run([str(exe)], cwd=work, stdin=inp, timeout=max(10.0, tl / 100))
        if proc.returncode != 0:
            raise BuildError(f"{pid} test {inp.stem}: sol.cpp exits {proc.returncode}")
        if ms > tl:
            raise BuildError(f"{pid} test {inp.stem}: sol.cpp takes {ms:.0f} ms > {tl} ms")
        worst["cpp"] = max(worst["cpp"], ms)
        ans_path = inp.with_suffix(".ans")
        ans_path.write_bytes(proc.stdout)
        if verify:
            judge("C++", inp, proc.stdout, ans_path)
            for lang, cmd, cwd in list(references(pdir, exe, java_dir, work))[1:]:
                p2, ms2 = run(cmd, cwd=cwd, stdin=inp, timeout=60)
                if p2.returncode != 0:
                    raise BuildError(f"{pid} test {inp.stem}: the {lang} reference exits "
                                     f"{p2.returncode}: {p2.stderr.decode(errors='replace')[-300:]}")
                if ms2 > SLOW_LANGUAGE_FACTOR * tl:
                    raise BuildError(f"{pid} test {inp.stem}: the {lang} reference takes "
                                     f"{ms2:.0f} ms > {SLOW_LANGUAGE_FACTOR * tl} ms")
                worst[lang] = max(worst[lang], ms2)
                judge(lang, inp, p2.stdout, ans_path)
        tests.append({"input": inp.read_text(), "output": proc.stdout.decode()})

    limits = {"cpp": tl, "py": SLOW_LANGUAGE_FACTOR * tl, "java": SLOW_LANGUAGE_FACTOR * tl}
    figures = ", ".join(f"{k} {v:.0f}/{limits[k]} ms" for k, v in worst.items()
                        if verify or k == "cpp")
    log(f"{pid}: {len(tests)} tests; slowest run (CPU, unsandboxed): {figures}")
    for lang, ms in worst.items():
        if ms > COMFORT * limits[lang]:
            log(f"  warning: the {lang} reference uses {ms / limits[lang]:.0%} of its limit")
    return Built(meta, statement, checker_field, tests)


# ----------------------------------------------------------------------------- the pack file

def write_pack(problems: list[Built], out: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema([
        ("id", pa.int64()),
        ("problem_id", pa.string()),
        ("problem_desc", pa.string()),
        ("time_limit_ms", pa.int64()),
        ("memory_limit_MB", pa.int64()),
        ("checker", pa.string()),
        ("test_cases", pa.list_(pa.struct([("input", pa.string()), ("output", pa.string())]))),
        # The loader's optional column: an interactive problem's interactor, else null.
        ("interactor", pa.string()),
    ])
    rows = {name: [] for name in schema.names}
    for i, b in enumerate(problems):
        rows["id"].append(i)
        rows["problem_id"].append(b.meta["problem_id"])
        rows["problem_desc"].append(b.statement)
        rows["time_limit_ms"].append(int(b.meta["time_limit_ms"]))
        rows["memory_limit_MB"].append(int(b.meta["memory_limit_MB"]))
        rows["checker"].append(b.checker_field)
        rows["interactor"].append(b.interactor)
        rows["test_cases"].append(b.tests)
    table = pa.table(rows, schema=schema)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".parquet.tmp")
    # One row per row group keeps memory low when reading; zstd keeps the file small.
    pq.write_table(table, tmp, compression="zstd", compression_level=19, row_group_size=1,
                   write_statistics=False)
    os.replace(tmp, out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--no-verify", action="store_true",
                    help="skip the Python/Java references and the agreement checks")
    ap.add_argument("--only", nargs="*", help="problem directories to build (default: all)")
    args = ap.parse_args(argv)
    try:
        built = []
        for pdir in problem_dirs(args.only):
            with tempfile.TemporaryDirectory(prefix=f"pack-{pdir.name}-") as tmp:
                built.append(build_problem(pdir, Path(tmp), verify=not args.no_verify))
        write_pack(built, args.out)
    except BuildError as exc:
        log(f"build_pack: {exc}")
        return 1
    except subprocess.TimeoutExpired as exc:
        log(f"build_pack: timed out: {' '.join(map(str, exc.cmd))}")
        return 1
    digest = hashlib.sha256(args.out.read_bytes()).hexdigest()
    log(f"wrote {args.out} ({args.out.stat().st_size} bytes, {len(built)} problems, "
        f"sha256 {digest[:16]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
