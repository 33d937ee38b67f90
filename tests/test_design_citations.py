"""The design is one page per part, docs/design/N-subject.md (docs/design/README.md is the
index), and every citation of it leads somewhere: the code, the tests and the docs cite a section
by its page and number, `docs/design/3-isolation.md §3.5`, and that page must hold that section;
a bare `§N.M` (a second section after a page's citation, or a reference inside the design) must
be a section of part N's page; a link into the design must name a page and an anchor it has, and
a link whose text cites a section must land in that section. Sections are added as the design
grows; a citation left pointing at nothing, or at the wrong page, sends a reader nowhere."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DESIGN = ROOT / "docs" / "design"
HEADING = re.compile(r"^(#{2,3}) (\d+(?:\.\d+)?)\.? ", re.MULTILINE)
ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
SECTION = r"§(\d+(?:\.\d+)?)"
BARE = re.compile(SECTION)
# A page and its section, the number allowed onto the next line of a comment.
PAGE_CITATION = re.compile(r"(?:docs/)?design/(\d+-[\w-]+\.md)\s+(?:(?:#|\*|//)\s+)?" + SECTION)
LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]+)\)")
ONE_PAGE = re.compile(r"\bdesign\.md\b")


def pages() -> dict[str, Path]:
    return {page.name: page for page in sorted(DESIGN.glob("[0-9]*-*.md"))}


def sections(page: Path) -> dict[str, int]:
    """Section number -> the line of its heading."""
    text = page.read_text()
    return {m.group(2): text.count("\n", 0, m.start()) + 1 for m in HEADING.finditer(text)}


def anchors(page: Path) -> dict[str, str]:
    """Anchor -> the section it is in (an anchor just above a heading is that heading's)."""
    found, section = {}, ""
    lines = page.read_text().split("\n")
    for index, line in enumerate(lines):
        heading = HEADING.match(line)
        if heading:
            section = heading.group(2)
        for name in ANCHOR.findall(line):
            below = HEADING.match(lines[index + 1]) if index + 1 < len(lines) else None
            found[name] = below.group(2) if below else section
    return found


def slug(heading: str) -> str:
    """GitHub's anchor for a heading of another page."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def page_anchors(path: Path) -> set[str]:
    text = path.read_text()
    return set(ANCHOR.findall(text)) | {slug(h) for h in re.findall(r"^#+ (.*)$", text, re.M)}


def tracked() -> list[str]:
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return [name for name in files if (ROOT / name).is_file()
            and (name.endswith((".py", ".c", ".h", ".md", ".sh")) or name == "Makefile")]


def part_of(number: str) -> str:
    return number.split(".")[0]


def test_each_page_holds_one_part_and_the_index_lists_them_all():
    found = pages()
    assert len(found) >= 9, sorted(found)
    for name, page in found.items():
        parts = [number for number in sections(page) if "." not in number]
        assert parts == [name.split("-")[0]], (name, parts)
        assert all(part_of(number) == parts[0] for number in sections(page)), name
    table = [line for line in (DESIGN / "README.md").read_text().split("\n") if line[:1] == "|"]
    listed = [target for line in table for _, target in LINK.findall(line)]
    assert listed == list(found), listed


class Design:
    """The pages' sections and anchors, and what each citation in one file gets wrong."""

    def __init__(self):
        self.pages = pages()
        self.by_part = {name.split("-")[0]: name for name in self.pages}
        self.sections = {name: sections(page) for name, page in self.pages.items()}
        self.anchors = {name: anchors(page) for name, page in self.pages.items()}

    def wrong(self, name: str) -> list[str]:
        path = ROOT / name
        text = path.read_text(errors="replace")
        found: list[tuple[int, str]] = []
        if ONE_PAGE.search(text):
            found.append((ONE_PAGE.search(text).start(), "the one-page design is gone"))
        checked: set[int] = set()
        for m in PAGE_CITATION.finditer(text):
            checked.add(m.start(2))
            if m.group(1) not in self.pages:
                found.append((m.start(), f"no page {m.group(1)}"))
            elif m.group(2) not in self.sections[m.group(1)]:
                found.append((m.start(), f"§{m.group(2)} is not on {m.group(1)}"))
        for m in LINK.finditer(text) if name.endswith(".md") else ():
            found += [(m.start(), what) for what in self.link(path, m, checked)]
        for m in BARE.finditer(text):
            page = self.by_part.get(part_of(m.group(1)))
            if m.start(1) not in checked and (page is None
                                              or m.group(1) not in self.sections[page]):
                found.append((m.start(), f"no §{m.group(1)} in the design"))
        return [f"{name}:{text.count(chr(10), 0, offset) + 1}: {what}" for offset, what in found]

    def link(self, path: Path, m: re.Match, checked: set[int]) -> list[str]:
        """A link into the design lands on a page, an anchor it has and the sections its text
        cites; a link out of a design page lands on a file and a heading it has."""
        words, target = m.groups()
        file, _, anchor = target.partition("#")
        if re.match(r"[a-z]+:", file):
            return []
        aim = (path.parent / file).resolve() if file else path
        if aim.parent != DESIGN:
            leaves = path.parent == DESIGN and file
            missing = leaves and (not aim.is_file() or anchor and anchor not in page_anchors(aim))
            return [f"no {target}"] if missing else []
        checked.update(m.start(1) + cited.start(1) for cited in BARE.finditer(words))
        if aim.name == "README.md":
            return []
        if aim.name not in self.pages:
            return [f"no page {target}"]
        landed = self.anchors[aim.name].get(anchor) if anchor else aim.name.split("-")[0]
        if landed is None:
            return [f"{aim.name} has no anchor #{anchor}"]
        return [f"§{cited} links to §{landed}" for cited in BARE.findall(words)
                if not (landed == cited or landed.startswith(cited + "."))]


def test_every_citation_names_a_section_of_its_page():
    design = Design()
    assert {"1", "3.3", "6.5", "9.1"} <= set().union(*design.sections.values())
    wrong = [line for name in tracked() for line in design.wrong(name)]
    assert not wrong, "\n".join(wrong)
