"""A fresh (not cached) C++ compile of SandboxFusion's `/run_code`: its command now (gold, and
the headers such code includes first precompiled) against the command it had before (the
Codeforces one, GNU ld, only bits/stdc++.h precompiled), both through the same Compiler and
compile sandbox, interleaved, each source made distinct by a comment so that no compile comes
from the cache. Beside the wall time of the judge's compile, the CPU time of the same command run
bare (g++ and the programs it starts, on the same precompiled headers), which a busy machine
disturbs much less.

`python -m tests.bench.compile_bench` runs this section alone."""
from __future__ import annotations

import dataclasses
import resource
import statistics
import subprocess
import tempfile
from pathlib import Path

from rich.table import Table

from judge import config
from judge.compiler import Compiler
from judge.languages import Language, Profile, get_language
from judge.sandbox.environment import SANDBOX_PATH

PROGRAMS = {
    "hello world, <iostream>":
        '#include <iostream>\nint main() { std::cout << "Hello, world!" << std::endl; }\n',
    "bits/stdc++.h program":
        "#include <bits/stdc++.h>\nusing namespace std;\nint main() { int n; cin >> n; "
        "vector<long long> a(n); for (auto &x : a) cin >> x; sort(a.begin(), a.end()); "
        "cout << accumulate(a.begin(), a.end(), 0LL) << '\\n'; }\n",
    "<algorithm> first":
        "#include <algorithm>\n#include <iostream>\n#include <vector>\nint main() { "
        "std::vector<int> v{3, 1, 2}; std::sort(v.begin(), v.end()); std::cout << v[0]; }\n",
}


def bare_cpu_ms(language: Language, pch: Path | None, source: str, work: Path) -> float:
    """CPU time of the language's compile command run bare, with its headers."""
    argv = language.compile_argv(source)
    assert argv is not None
    if pch is not None:
        argv = [argv[0], "-I", str(pch), *argv[1:]]
    (work / language.file_name(source)).write_text(source)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, cwd=work, check=True, env={"PATH": SANDBOX_PATH})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1e3


def run(console, rounds: int = 10) -> dict[str, dict[str, float]]:
    console.rule("fresh C++ compile of /run_code (SandboxFusion's profile)")
    new = get_language("cpp", Profile.COMPATIBLE)
    codeforces = get_language("cpp")
    old = dataclasses.replace(new, name="cpp-run-code-before", compile=codeforces.compile,
                              precompiled_headers=codeforces.precompiled_headers)
    figures: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="compile-bench-") as cache, \
            config.overridden(cache_dir=Path(cache)), Compiler() as compiler:
        work = Path(cache) / "bare"
        work.mkdir()
        # Built once per toolchain, not timed.
        variants = {"old": (old, compiler.precompiled_header(old)),
                    "new": (new, compiler.precompiled_header(new))}
        for name, source in PROGRAMS.items():
            times: dict[str, list[float]] = {f"{label} {kind}": [] for label in variants
                                             for kind in ("wall", "cpu")}
            for i in range(rounds):
                for label, (language, pch) in variants.items():
                    result = compiler.compile(f"{source}// {label} {i}\n", language)
                    assert result.status == "OK" and not result.cached, result.log
                    times[f"{label} wall"].append(result.time_ms)
                    times[f"{label} cpu"].append(
                        bare_cpu_ms(language, pch, f"{source}// bare {label} {i}\n", work))
            figures[name] = {key: statistics.median(values) for key, values in times.items()}
    table = Table(title=f"median of {rounds} distinct programs each, interleaved; before: the "
                        "Codeforces command and GNU ld, now: gold and the headers")
    for column in ("program", "wall before", "wall now", "ratio", "CPU before", "CPU now",
                   "ratio"):
        table.add_column(column, justify="right")
    for name, f in figures.items():
        table.add_row(name, f"{f['old wall']:.0f} ms", f"{f['new wall']:.0f} ms",
                      f"{f['new wall'] / f['old wall']:.2f}x", f"{f['old cpu']:.0f} ms",
                      f"{f['new cpu']:.0f} ms", f"{f['new cpu'] / f['old cpu']:.2f}x")
    console.print(table)
    return figures


if __name__ == "__main__":
    from rich.console import Console
    run(Console())
