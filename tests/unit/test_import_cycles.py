"""No import circles in `app`, `native_host` or `installer`.

The rule: module A imports module B when A's source holds `import B`, `from B import …` or `from B.pkg import
submodule` anywhere: at module level, inside a function or class, and under `if TYPE_CHECKING:` (a type-only
import is still a dependency a reader has to follow, and the circles it hides come back the day someone needs
the name at run time). `from pkg import name` where `name` is a submodule counts as importing that submodule.
Any cycle in that graph fails the test, with the path that closes it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("app", "native_host", "installer")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[module_name(path)] = path
    return found


def _resolve_relative(module: str, is_package: bool, level: int, target: str | None) -> str:
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join([*base, *([target] if target else [])])


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """Every project module that `module` imports, wherever in the file the import statement stands."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                source = _resolve_relative(module, path.name == "__init__.py", node.level, node.module)
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                targets.add(submodule if submodule in known else source)
    found: set[str] = set()
    for target in targets:
        # `import app.a.b` needs app.a.b; a name that is not a module (a class, a function) falls back to the
        # module it is taken from.
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != module:
            found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = all_modules()
    known = set(modules)
    return {name: imports_of(name, path, known) for name, path in modules.items()}


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One closing path per cycle found by a depth-first walk (enough to name each circle to be broken)."""
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return cycles


def test_the_graph_covers_both_packages():
    graph = import_graph()
    assert {"app.core.service", "app.agent.loop", "app.ui.controller", "native_host.host", "installer.cli"} <= set(graph)
    assert "app.agent.model" in graph["app.agent.loop"], "the loop's imports are read"


def test_no_module_imports_one_that_imports_it_back():
    cycles = find_cycles(import_graph())
    assert not cycles, "import circles:\n" + "\n".join(" → ".join(c) for c in cycles)


@pytest.mark.parametrize("source,expected", [
    ("def f():\n    from app.b import thing\n", {"app.b"}),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from app.b import Thing\n", {"app.b"}),
    ("from app import b\n", {"app.b"}),
    ("from . import b\n", {"app.b"}),
    ("import app.b\n", {"app.b"}),
])
def test_every_kind_of_import_is_an_edge(tmp_path, source, expected):
    path = tmp_path / "a.py"
    path.write_text(source, encoding="utf-8")
    assert imports_of("app.a", path, {"app", "app.a", "app.b"}) == expected


def test_a_cycle_is_found():
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []
