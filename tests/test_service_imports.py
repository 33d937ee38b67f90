"""judge/service's imports point one way (docs/design.md §9): no cycle among its modules, not
even through an import inside a function or under TYPE_CHECKING, and nothing above it (the
library facade judge.api, the CLI)."""
from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[1] / "judge" / "service"
ABOVE = ("judge.api", "judge.cli")


def _imports(path: Path) -> set[str]:
    """Every module `path` imports anywhere in it, and every name it imports from one."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_the_service_modules_import_each_other_without_a_cycle():
    modules = {f"judge.service.{path.stem}": _imports(path) for path in SERVICE.glob("*.py")}
    graph = {module: {name for name in imports if name in modules and name != module}
             for module, imports in modules.items()}
    try:
        list(TopologicalSorter(graph).static_order())
    except CycleError as exc:
        raise AssertionError(f"an import cycle in judge/service: {exc.args[1]}") from None


def test_the_service_imports_nothing_above_it():
    upward = {f"{path.name}: {name}" for path in SERVICE.glob("*.py") for name in _imports(path)
              if name.startswith(ABOVE)}
    assert not upward
