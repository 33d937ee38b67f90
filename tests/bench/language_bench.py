"""Each language's warm hello world in the sandbox against the same command started bare (the
runtime's own start-up is the baseline: the judge's cost is what it adds to it)."""
from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from judge.compiler import Compiler
from judge.languages import LANGUAGES, Family, Language
from judge.sandbox import Limits, Sandbox
from judge.sandbox.environment import DEFAULT_ENV

HELLO = {
    "cpp": '#include <cstdio>\nint main() { puts("hi"); }\n',
    "c": '#include <stdio.h>\nint main(void) { puts("hi"); return 0; }\n',
    "python": 'print("hi")\n',
    "pypy3": 'print("hi")\n',
    "java": 'public class Main { public static void main(String[] a) { System.out.println("hi"); } }\n',
    "kotlin": 'fun main() { println("hi") }\n',
    "scala": 'object Main { def main(args: Array[String]): Unit = println("hi") }\n',
    "csharp": 'class P { static void Main() { System.Console.WriteLine("hi"); } }\n',
    "rust": 'fn main() { println!("hi"); }\n',
    "go": 'package main\nimport "fmt"\nfunc main() { fmt.Println("hi") }\n',
    "javascript": 'console.log("hi");\n',
    "typescript": 'const s: string = "hi";\nconsole.log(s);\n',
    "php": '<?php echo "hi\\n";\n',
    "ruby": 'puts "hi"\n',
    "perl": 'print "hi\\n";\n',
    "lua": 'print("hi")\n',
    "r": 'cat("hi\\n")\n',
    "bash": 'echo hi\n',
    "racket": '#lang racket/base\n(displayln "hi")\n',
    "haskell": 'main = putStrLn "hi"\n',
    "ocaml": 'let () = print_endline "hi"\n',
    "pascal": "begin writeln('hi') end.\n",
    "d": 'import std.stdio;\nvoid main() { writeln("hi"); }\n',
    "verilog": 'module tb; initial $display("hi"); endmodule\n',
}
RUNS = {Family.JVM: 6, Family.MANAGED: 10}
DEFAULT_RUNS = 20
TARGET = 1.2
# Both on one CPU: the sandbox pins each run to one (a JVM started bare on two would compile on
# the second, which a judged run never has).
CPU = 1
LIMITS = Limits(time_limit_ms=20_000, wall_time_limit_ms=40_000, memory_limit_mb=1024,
                processes=64)


def _bare_argv(argv: list[str]) -> list[str]:
    program = argv[0] if argv[0].startswith("./") else shutil.which(argv[0],
                                                                    path=DEFAULT_ENV["PATH"])
    return [program or argv[0], *argv[1:]]


def bare_spawn(argv: list[str], cwd: Path, env: dict[str, str]) -> int:
    """posix_spawn + waitpid on the bench's own CPU (it is pinned to CPU), output discarded."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    here = os.getcwd()
    try:
        os.chdir(cwd)
        pid = os.posix_spawn(argv[0], argv, env, file_actions=[
            (os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
    finally:
        os.chdir(here)
        os.close(devnull)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def measure(language: Language, compiler: Compiler) -> tuple[float, float] | None:
    """(bare ms, judge ms): medians of interleaved runs of the same command."""
    source = HELLO[language.name]
    compiled = compiler.compile(source, language)
    if compiled.status != "OK" or compiled.artifacts is None:
        return None
    with tempfile.TemporaryDirectory(prefix="judge-lang-bench-") as tmp:
        box = Path(tmp)
        os.chmod(box, 0o755)
        for item in compiled.artifacts.iterdir():
            shutil.copy2(item, box / item.name)
            os.chmod(box / item.name, 0o755)
        argv = language.run_argv(source)
        bare_argv = _bare_argv(argv)
        env = {**DEFAULT_ENV, "HOME": tmp, "TMPDIR": tmp}
        bare, judged = [], []
        with Sandbox(box=box, policy=language.policy.name, cpu=CPU) as sandbox:
            for round_ in range(RUNS.get(language.family, DEFAULT_RUNS) + 2):
                start = time.perf_counter()
                returncode = bare_spawn(bare_argv, box, env)
                bare_ms = (time.perf_counter() - start) * 1e3
                start = time.perf_counter()
                run = sandbox.run(argv, LIMITS)
                judge_ms = (time.perf_counter() - start) * 1e3
                if returncode != 0 or run.status != "OK":
                    return None
                if round_ >= 2:                   # the first two warm the caches of both
                    bare.append(bare_ms)
                    judged.append(judge_ms)
    return statistics.median(bare), statistics.median(judged)


def run(console: Console) -> None:
    table = Table(title="Warm hello world per language: the judge against the same command "
                        "started bare (subprocess), medians of interleaved runs")
    for column in ("language", "family", "policy", "bare ms", "judge ms", "added ms", "x bare",
                   "target"):
        table.add_column(column)
    affinity = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {CPU})
    try:
        _measure_all(table)
    finally:
        os.sched_setaffinity(0, affinity)
    console.print(table)


def _measure_all(table: Table) -> None:
    with Compiler() as compiler:
        for name in HELLO:
            language = LANGUAGES[name]
            if not language.available:
                table.add_row(name, language.family.value, language.policy.name, "not installed")
                continue
            figures = measure(language, compiler)
            if figures is None:
                table.add_row(name, language.family.value, language.policy.name, "failed")
                continue
            bare, judged = figures
            table.add_row(name, language.family.value, language.policy.name, f"{bare:.1f}",
                          f"{judged:.1f}", f"{judged - bare:.1f}", f"{judged / bare:.2f}",
                          f"<= {TARGET}x")


if __name__ == "__main__":
    run(Console(width=150))
