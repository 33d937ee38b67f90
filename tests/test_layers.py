"""The import graph of the judge: no module imports a layer above its own, and no modules import
each other in a cycle, counting every import (at the top, inside functions, under
TYPE_CHECKING). The layers are docs/design/1-architecture.md §1's, bottom up; a module may import
its own layer and those below."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "judge"

# Bottom up. A module belongs to the first layer with a prefix of its name.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("judge", "judge.verdicts", "judge.config", "judge.cpus", "judge.ownership", "judge.cache",
     "judge.build_info", "judge._native", "judge.exclusion", "judge.terminal_text"),
    ("judge.sandbox",),
    ("judge.languages", "judge.compile_cache", "judge.compiler", "judge.compile_control"),
    ("judge.problems", "judge.harness"),
    ("judge.checkers",),
    ("judge.grade", "judge.single_run", "judge.run_evidence", "judge.busy_retry"),
    ("judge.audit",),
    ("judge.evaluate",),
    ("judge.service",),
    ("judge.api", "judge.doctor", "judge.reward"),
    ("judge.cli",),
)


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _known(name: str, known: dict[str, Path]) -> str | None:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The judge modules `name` imports: `from P import x` names the module P.x when there is
    one, else P."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        else:
            continue
        for target in targets:
            module = _known(target, known) if target.startswith("judge") else None
            if module and module != name:
                found.add(module)
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def layer(module: str) -> int:
    best = None
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + ".") and prefix != "judge":
                if best is None or len(prefix) > best[1]:
                    best = (index, len(prefix))
    assert best is not None, f"{module} is in no layer: add it to LAYERS"
    return best[0]


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_every_module_has_a_layer():
    for module in graph():
        layer(module)


def test_no_module_imports_a_layer_above_its_own():
    upward = [f"{m} (layer {layer(m)}) imports {t} (layer {layer(t)})"
              for m, targets in sorted(graph().items()) for t in sorted(targets)
              if layer(t) > layer(m)]
    assert upward == []


def test_no_modules_import_each_other_in_a_cycle():
    assert cycles(graph()) == []


def test_the_checks_find_what_they_look_for():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]
    assert layer("judge.cli.app") > layer("judge.grade") > layer("judge.sandbox.slot")
