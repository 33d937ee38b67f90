"""No function of the judge is longer than 60 lines, in Python or in C: a function that long
does more than one step, and its steps want names (docs/contributing.md). Counted are the
lines that hold code, the signature included: blank lines, comments and a docstring are not."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 60


def python_functions(path: Path) -> list[tuple[str, int, int]]:
    """(name, first line, lines of code) of every function and method in `path`."""
    text = path.read_text()
    lines = text.splitlines()
    found = []
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        docstring: set[int] = set()
        first = node.body[0]
        if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)):
            docstring = set(range(first.lineno, (first.end_lineno or first.lineno) + 1))
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        count = sum(1 for number in range(start, (node.end_lineno or node.lineno) + 1)
                    if number not in docstring and _holds_code(lines[number - 1], "#"))
        found.append((node.name, node.lineno, count))
    return found


def _holds_code(line: str, comment: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith(comment)


C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
C_LITERAL = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')


def c_functions(path: Path) -> list[tuple[str, int, int]]:
    """(name, first line, lines of code) of every function defined in `path`: a brace block at
    file level whose head (the text since the previous declaration) has a parameter list and
    no `=` (an initialiser) and is not a struct, union or enum."""
    text = C_COMMENT.sub(lambda m: "\n" * m.group().count("\n"), path.read_text())
    text = C_LITERAL.sub('""', text)
    text = "\n".join("" if line.lstrip().startswith("#") else line for line in text.split("\n"))
    found, depth, head_start, block_start = [], 0, 0, 0
    for index, char in enumerate(text):
        if char == "{":
            if depth == 0:
                block_start = index
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                head = text[head_start:block_start]
                name = _c_function_name(head)
                if name is not None:
                    start = head_start + len(head) - len(head.lstrip())
                    block = text[start:index + 1]
                    line = text.count("\n", 0, start) + 1
                    found.append((name, line, sum(1 for s in block.split("\n") if s.strip())))
                head_start = index + 1
        elif char == ";" and depth == 0:
            head_start = index + 1
    return found


def _c_function_name(head: str) -> str | None:
    flat = " ".join(head.split())
    if "(" not in flat or "=" in flat or re.match(r"(typedef |static )?(struct|union|enum)\b",
                                                 flat):
        return None
    match = re.search(r"(\w+)\s*\((?!.*\().*\)\s*$", flat) or re.search(r"(\w+)\s*\(", flat)
    return match.group(1) if match else None


def sources() -> list[Path]:
    return sorted([*(ROOT / "judge").rglob("*.py"), *(ROOT / "native").rglob("*.py"),
                   *(ROOT / "native").rglob("*.c")])


def functions(path: Path) -> list[tuple[str, int, int]]:
    return python_functions(path) if path.suffix == ".py" else c_functions(path)


def test_no_function_is_longer_than_the_limit():
    long = [f"{path.relative_to(ROOT)}:{line} {name}: {count} lines"
            for path in sources() for name, line, count in functions(path) if count > LIMIT]
    assert not long, f"functions over {LIMIT} lines of code:\n" + "\n".join(long)


@pytest.mark.parametrize("suffix", [".py", ".c"])
def test_the_count_sees_every_function_of_a_language(suffix):
    """The scanners find the functions a file holds, and each one's whole length: a scanner that
    found none would pass the limit for every file."""
    counted = {path: functions(path) for path in sources() if path.suffix == suffix}
    assert sum(len(found) for found in counted.values()) > 100
    longest = max(count for found in counted.values() for _, _, count in found)
    assert 30 < longest <= LIMIT


def test_the_c_count_measures_a_definition_as_written(tmp_path):
    source = tmp_path / "sample.c"
    source.write_text(
        '#include <stdio.h>\n'
        'struct pair { int a; int b; };\n'
        'static const int table[] = {1, 2};\n'
        '/* a comment with { a brace */\n'
        'static int\n'
        'sum(const struct pair *p,\n'
        '    int extra) {\n'
        '    const char *s = "}";  // a closing brace in a string\n'
        '\n'
        '    if (p->a) {\n'
        '        return p->a + extra;\n'
        '    }\n'
        '    return (int)s[0];\n'
        '}\n')
    assert c_functions(source) == [("sum", 5, 9)]


def test_the_python_count_leaves_out_the_docstring_and_comments(tmp_path):
    source = tmp_path / "sample.py"
    source.write_text('@staticmethod\n'
                      'def f(x):\n'
                      '    """Says what f does,\n'
                      '    on two lines."""\n'
                      '    # why\n'
                      '\n'
                      '    return x\n')
    assert python_functions(source) == [("f", 2, 3)]
