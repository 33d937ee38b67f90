"""A fresh (not cached) C++ compile of SandboxFusion's `/run_code`: its command now (gold, and
the headers such code includes first precompiled) against the command it had before (the
Codeforces one, GNU ld, only bits/stdc++.h precompiled), both through the same Compiler and
compile sandbox, interleaved, each source made distinct by a comment so that no compile comes
from the cache.

`python -m tests.bench.compile_bench` runs this section alone."""
from __future__ import annotations

import dataclasses
import statistics
import tempfile
from pathlib import Path

from rich.table import Table

from judge import config
from judge.compiler import Compiler
from judge.languages import Flavour, get_language

PROGRAMS = {
    "hello world (<iostream>)":
        '#include <iostream>\nint main() { std::cout << "Hello, world!" << std::endl; }\n',
    "<bits/stdc++.h> program":
        "#include <bits/stdc++.h>\nusing namespace std;\nint main() { int n; cin >> n; "
        "vector<long long> a(n); for (auto &x : a) cin >> x; sort(a.begin(), a.end()); "
        "cout << accumulate(a.begin(), a.end(), 0LL) << '\\n'; }\n",
    "sorted includes (<algorithm> first)":
        "#include <algorithm>\n#include <iostream>\n#include <vector>\nint main() { "
        "std::vector<int> v{3, 1, 2}; std::sort(v.begin(), v.end()); std::cout << v[0]; }\n",
}


def run(console, rounds: int = 10) -> dict[str, tuple[float, float]]:
    console.rule("fresh C++ compile of /run_code (SandboxFusion's flavour)")
    new = get_language("cpp", Flavour.SANDBOXFUSION)
    codeforces = get_language("cpp")
    old = dataclasses.replace(new, name="cpp-run-code-before", compile=codeforces.compile,
                              precompiled_headers=codeforces.precompiled_headers)
    figures: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory(prefix="compile-bench-") as cache, \
            config.overridden(cache_dir=Path(cache)), Compiler() as compiler:
        for language in (old, new):              # built once per toolchain, not timed
            compiler.precompiled_header(language)
        for name, source in PROGRAMS.items():
            times: dict[str, list[float]] = {"old": [], "new": []}
            for i in range(rounds):
                for label, language in (("old", old), ("new", new)):
                    result = compiler.compile(f"{source}// {label} {i}\n", language)
                    assert result.status == "OK" and not result.cached, result.log
                    times[label].append(result.time_ms)
            figures[name] = (statistics.median(times["old"]), statistics.median(times["new"]))
    table = Table(title=f"median of {rounds} distinct programs each, interleaved")
    for column in ("program", "before (CF command, GNU ld)", "now (gold, headers)", "ratio"):
        table.add_column(column, justify="right")
    for name, (before, now) in figures.items():
        table.add_row(name, f"{before:.0f} ms", f"{now:.0f} ms", f"{now / before:.2f}x")
    console.print(table)
    return figures


if __name__ == "__main__":
    from rich.console import Console
    run(Console())
