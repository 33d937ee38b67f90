"""Every section of docs/design.md that the code, the tests and the docs cite as `§N` or `§N.M`
exists: a heading of that number. The design is renumbered as it grows; a citation left
pointing at nothing sends a reader nowhere."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DESIGN = ROOT / "docs" / "design"
CITATION = re.compile(r"§(\d+(?:\.\d+)?)")
HEADING = re.compile(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", re.MULTILINE)


def cited() -> dict[str, list[str]]:
    """Section number -> the files (and lines) citing it, over every file git tracks."""
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    found: dict[str, list[str]] = {}
    for name in files:
        if not name.endswith((".py", ".c", ".h", ".md", ".sh")) and name != "Makefile":
            continue
        text = (ROOT / name).read_text(errors="replace")
        for number, line in ((m.group(1), text.count("\n", 0, m.start()) + 1)
                             for m in CITATION.finditer(text)):
            found.setdefault(number, []).append(f"{name}:{line}")
    return found


def test_every_cited_section_of_the_design_exists():
    sections = {n for page in DESIGN.glob("*.md") for n in HEADING.findall(page.read_text())}
    assert {"1", "3.3", "6.5", "9.1"} <= sections, sorted(sections)
    dangling = {number: where for number, where in cited().items() if number not in sections}
    assert not dangling, dangling
