"""The code of a model completion: its LAST fenced code block.

Rules (a pragmatic subset of CommonMark fenced code blocks, tuned for model output):

* A fence is a line made of optional indentation (any amount: models indent fences inside list
  items), then three or more backticks or three or more tildes, then an optional info string
  whose first word is the tag (```cpp, ```c++, ~~~python, ```py title="x"). A backtick fence's
  info string may not contain a backtick (so a line like ```x``` is not an opening fence).
* A block closes at the first later line with the same fence character, at least as many of them,
  and nothing but whitespace after. Lines inside are stripped of the opening fence's indentation
  (as far as they have it).
* An unclosed block runs to the end of the completion (a truncated generation).
* CRLF and lone CR line ends are normalised to LF.
* Blocks with nothing but whitespace are skipped; the last non-empty block wins. No block at all
  is "no code": ``extract_code`` returns None.

A benchmark may have its own rule (judge/problems/rules.py): ``take_code`` applies it.
LiveCodeBench's (lcb_runner/utils/extraction_utils.py ``extract_code``) takes the lines between
the last two lines that contain ``` anywhere, whatever the tag, and is Python-only.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from judge.languages import canonical_name
from judge.problems.rules import BenchmarkRules, Extraction

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")


class CodeBlock(NamedTuple):
    code: str
    tag: str | None          # first word of the info string, lower-cased; None when absent


def _blocks(text: str) -> list[CodeBlock]:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks: list[CodeBlock] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m or (m["fence"][0] == "`" and "`" in m["info"]):
            i += 1
            continue
        indent, fence, info = m["indent"], m["fence"], m["info"].strip()
        tag = info.split()[0].lower() if info else None
        if tag is not None:
            tag = tag.strip("{}.") or None
        body: list[str] = []
        j = i + 1
        closed = False
        while j < len(lines):
            line = lines[j]
            stripped = line.strip()
            if (stripped and set(stripped) == {fence[0]} and len(stripped) >= len(fence)):
                closed = True
                break
            body.append(_dedent(line, indent))
            j += 1
        code = "\n".join(body)
        if code.strip():
            blocks.append(CodeBlock(code.rstrip("\n") + "\n", tag))
        i = j + 1 if closed else j
    return blocks


def _dedent(line: str, indent: str) -> str:
    if not indent:
        return line
    k = 0
    while k < len(indent) and k < len(line) and line[k] == indent[k]:
        k += 1
    return line[k:]


def extract_code(completion: str) -> CodeBlock | None:
    """(code, tag) of the last non-empty fenced block of ``completion``; None when there is none."""
    if not completion:
        return None
    blocks = _blocks(completion)
    return blocks[-1] if blocks else None


def extract_all(completion: str) -> list[CodeBlock]:
    """Every non-empty fenced block, in order."""
    return _blocks(completion) if completion else []


def extract_livecodebench(completion: str) -> CodeBlock | None:
    """LiveCodeBench's extract_code: the text between the last two lines containing ```; None
    (no code) when fewer than two lines have one or nothing but whitespace is between them."""
    lines = completion.split("\n")
    fences = [i for i, line in enumerate(lines) if "```" in line]
    if len(fences) < 2:
        return None
    code = "\n".join(lines[fences[-2] + 1:fences[-1]])
    return CodeBlock(code, None) if code.strip() else None


def take_code(completion: str, rules: BenchmarkRules) -> CodeBlock | None:
    """The code a benchmark's rule takes from a completion; None when there is none."""
    if rules.extraction is Extraction.LIVECODEBENCH:
        return extract_livecodebench(completion or "")
    return extract_code(completion)


def wanted_language(rules: BenchmarkRules, row_language: str | None, tag: str | None,
                    default: str | None) -> str | None:
    """The language asked for: the row's own, else (where the rule reads tags) the block's tag,
    else `default` (--lang), else the benchmark's. None: no language given at all."""
    reads_tags = rules.extraction is Extraction.LAST_BLOCK
    return (row_language or (tag if reads_tags else None) or default
            or rules.default_language)


def language_from_tag(tag: str | None) -> str | None:
    """Canonical language name ("cpp", "python", "java", ...) of a fence tag; None if unknown."""
    if not tag:
        return None
    return canonical_name(tag)


__all__ = ["CodeBlock", "extract_code", "extract_all", "extract_livecodebench", "take_code",
           "wanted_language", "language_from_tag"]
