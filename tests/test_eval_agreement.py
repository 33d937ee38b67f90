"""Verdict agreement on realistic fixtures: four Codeforces-style problems in the CF-Div2-Stepfun
schema, three with custom testlib checkers (a float answer with doubleCompare, "any
derangement" reading the input, multiple test cases with setTestCase) built against the judge's
own testlib.h (no checkout anywhere), and generations written the way models write them (chatter
around fenced blocks, C++, Python and Java), each with the verdict a careful human judge gives
it. `judge eval` must agree on every one; the figure is printed (pytest -s)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import EVAL_SLOTS, scaled, scaled_time_factors_env

ROOT = Path(__file__).resolve().parent.parent

AREA_CHECKER = r"""#include "testlib.h"
int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    double want = ans.readDouble();
    double got = ouf.readDouble();
    if (!doubleCompare(want, got, 1e-6))
        quitf(_wa, "expected %.9f, found %.9f", want, got);
    quitf(_ok, "area %.9f", got);
}
"""

DERANGEMENT_CHECKER = r"""#include "testlib.h"
#include <vector>
int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    int n = inf.readInt();
    std::vector<bool> seen(n + 1);
    for (int i = 1; i <= n; i++) {
        int p = ouf.readInt(1, n, format("p[%d]", i));
        if (seen[p])
            quitf(_wa, "%d appears twice", p);
        if (p == i)
            quitf(_wa, "p[%d] = %d is a fixed point", i, i);
        seen[p] = true;
    }
    quitf(_ok, "a derangement of %d %s", n, englishEnding(n).c_str());
}
"""

SUMS_CHECKER = r"""#include "testlib.h"
int main(int argc, char *argv[]) {
    registerTestlibCmd(argc, argv);
    int t = inf.readInt();
    for (int i = 1; i <= t; i++) {
        setTestCase(i);
        long long want = ans.readLong();
        long long got = ouf.readLong();
        if (want != got)
            quitf(_wa, "expected %lld, found %lld", want, got);
    }
    quitf(_ok, "%d sums", t);
}
"""


def problem(pid: str, statement: str, checker: str, tests: list[tuple[str, str]]) -> dict:
    return {"problem_id": pid, "problem_desc": statement, "time_limit_ms": 1000,
            "memory_limit_MB": 256, "checker": checker,
            "test_cases": [{"input": i, "output": o} for i, o in tests]}


PROBLEMS = [
    problem("codeforces/1900A", "Print the area of a circle of radius r.", AREA_CHECKER,
            [("1\n", "3.14159265358979\n"), ("2.5\n", "19.6349540849362\n"),
             ("1000\n", "3141592.65358979\n")]),
    problem("codeforces/1900B", "Print a permutation of 1..n with no fixed point.",
            DERANGEMENT_CHECKER, [("2\n", "2 1\n"), ("5\n", "2 3 4 5 1\n"), ("6\n", "2 3 4 5 6 1\n")]),
    problem("codeforces/1900C", "t lines of a b: print each a + b (up to 4e18).", SUMS_CHECKER,
            [("2\n1 2\n3 4\n", "3\n7\n"),
             ("3\n2000000000 2000000000\n-5 5\n1000000000000000000 3000000000000000000\n",
              "4000000000\n0\n4000000000000000000\n")]),
    problem("codeforces/1900D", "Print the words of the line in reverse order.", "wcmp",
            [("a b c\n", "c b a\n"), ("judge the judges\n", "judges the judge\n")]),
]


def answer(lang: str, code: str, chatter: str = "Here is my solution.") -> str:
    return f"{chatter}\n\n```{lang}\n{code.strip()}\n```\n\nThis runs in linear time."


# (problem, completion, the verdict a careful judge gives)
GENERATIONS = [
    ("1900A", answer("cpp", """#include <cstdio>
#include <cmath>
int main() { double r; std::scanf("%lf", &r); std::printf("%.10f\\n", M_PI * r * r); }"""), "AC"),
    ("1900A", answer("python", "import math\nr = float(input())\nprint(f'{math.pi * r * r:.10f}')"), "AC"),
    ("1900A", answer("java", """import java.util.*;
public class Main { public static void main(String[] a) {
    double r = new Scanner(System.in).nextDouble(); System.out.println(Math.PI * r * r); } }"""), "AC"),
    # Two decimals: off by 1.6e-3 at r = 1, beyond both 1e-6 errors.
    ("1900A", answer("python", "r = float(input())\nprint('%.2f' % (3.14159265 * r * r))"), "WA"),
    # Nothing printed: the checker reads past the end of the output.
    ("1900A", answer("python", "r = float(input())"), "PE"),
    ("1900B", answer("python", "n = int(input())\nprint(*range(2, n + 1), 1)"), "AC"),
    ("1900B", answer("cpp", """#include <cstdio>
int main() { int n; std::scanf("%d", &n); for (int i = 1; i <= n; i++) std::printf("%d ", i % n + 1); }"""), "AC"),
    # Reversing fixes the middle element when n is odd (test 2: n = 5).
    ("1900B", answer("python", "n = int(input())\nprint(*range(n, 0, -1))"), "WA"),
    ("1900B", answer("python", "n = int(input())\nprint(*range(1, n + 1))"), "WA"),
    # n + 1 is out of the range readInt(1, n) allows: WA, not PE.
    ("1900B", answer("python", "n = int(input())\nprint(*range(2, n + 2))"), "WA"),
    ("1900B", answer("python", "n = int(input())\nprint('two one')"), "PE"),
    ("1900C", answer("python", "for _ in range(int(input())):\n"
                               "    a, b = map(int, input().split())\n    print(a + b)"), "AC"),
    # 32-bit overflow on test 2.
    ("1900C", answer("cpp", """#include <cstdio>
int main() { int t; std::scanf("%d", &t); while (t--) { long long a, b; std::scanf("%lld %lld", &a, &b);
    int s = (int)(a + b); std::printf("%d\\n", s); } }"""), "WA"),
    ("1900C", answer("cpp", """#include <cstdio>
int main() { int t; std::scanf("%d", &t); while (t--) { long long a, b; std::scanf("%lld %lld", &a, &b);
    std::printf("%lld\\n", a + b); } }"""), "AC"),
    ("1900C", answer("python", "import sys\nwhile True:\n    pass"), "TLE"),
    ("1900C", answer("python", "t = int(input())\nraise SystemExit(f'cannot handle {t} cases')"), "RE"),
    ("1900D", answer("python", "print(*input().split()[::-1])"), "AC"),
    ("1900D", answer("java", """import java.util.*;
public class Main { public static void main(String[] a) {
    List<String> w = Arrays.asList(new Scanner(System.in).nextLine().split(" "));
    Collections.reverse(w); System.out.println(String.join(" ", w)); } }"""), "AC"),
    ("1900D", answer("python", "print(input())"), "WA"),
    ("1900D", answer("cpp", "int main() { return undeclared; }"), "CE"),
    # A table of 2^27 pointers: 1 GiB, every page written, for a 256 MB limit.
    ("1900D", answer("python", "table = [0] * (1 << 27)\nprint(len(table))"), "MLE"),
    # A completion without a code block is the model's failure.
    ("1900D", "I would reverse the words, but I am not sure how.", "NO_CODE"),
]


def test_verdicts_agree_with_a_careful_judge(tmp_path, audited_host):
    data = tmp_path / "cf.jsonl"
    data.write_text("".join(json.dumps({"id": i, **p}) + "\n" for i, p in enumerate(PROBLEMS)))
    gens = tmp_path / "gens.jsonl"
    gens.write_text("".join(json.dumps({"problem_id": pid, "completion": text}) + "\n"
                            for pid, text, _ in GENERATIONS))
    env = {**os.environ, **scaled_time_factors_env()}
    env.pop("JUDGE_TESTLIB", None)        # no testlib checkout: the judge's own header
    done = subprocess.run([sys.executable, "-c", "from judge.cli import main; main()", "eval",
                           str(gens), "--dataset", str(data), "--out", str(tmp_path / "out"),
                           "--jobs", "2", "--slot-base", str(EVAL_SLOTS + 10), "--no-progress", "--json"],
                          capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=scaled(900_000) / 1000)
    assert done.returncode == 0, done.stderr[-3000:]
    records = [json.loads(x) for x in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert len(records) == len(GENERATIONS)
    disagree = [(g[0], g[2], r["verdict"], (r["tests"][-1]["checker_message"] if r["tests"] else
                                           r.get("reason") or r["compile"]["log"][:200]))
                for g, r in zip(GENERATIONS, records, strict=True) if r["verdict"] != g[2]]
    print(f"\nverdict agreement: {len(records) - len(disagree)}/{len(records)} "
          f"({len({g[0] for g in GENERATIONS})} problems, 3 custom testlib checkers, no checkout)")
    assert not disagree, disagree
    messages = {r["problem_id"]: r["tests"][-1]["checker_message"] for r in records
                if r["verdict"] in ("WA", "PE") and r["tests"]}
    # setTestCase names the case: the overflow hits the first case of test 2.
    assert messages["codeforces/1900C"].endswith("found -294967296 (test case 1)")
    summary = json.loads(done.stdout)
    assert summary["complete"] is True
