"""The house's layers, enforced (docs/architecture.md, "Layers").

Like Playwright's per-folder `DEPS.list`: each package names the packages it may import, and any other edge fails
here, whether the import sits at the top of a module, inside a function or under `TYPE_CHECKING`. A new package, or
a new edge that is meant, is one line in `ALLOWED` and a sentence in the architecture's "Layers" section.

Heavy dependencies have one import point each (`IMPORT_POINTS`): Qt only under app/ui, the Anthropic SDK only in
the model client, keyring only in the key store, the MCP SDK only in app/mcp, and the native host nothing but the
standard library and platformdirs (Chrome starts it; it must not pay for the app).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OURS = ("app", "native_host", "installer")

NEUTRAL = {"app.protocol", "app.events", "app.abort"}
"""Imported by every layer: the wire's types and codes, the notification words, the cancellation signal."""

ALLOWED: dict[str, set[str]] = {
    "native_host": set(),
    "installer": {"native_host"},
    "app": set(),
    "app.__main__": {"app.cli"},
    "app.protocol": set(),
    "app.events": set(),
    "app.abort": set(),
    "app.store": NEUTRAL,
    "app.files": NEUTRAL,
    "app.safety": NEUTRAL | {"app.store", "app.files"},
    "app.bridge": NEUTRAL | {"app.safety", "app.store", "app.files", "native_host"},
    "app.agent": NEUTRAL | {"app.bridge", "app.store"},
    "app.browser": NEUTRAL | {"app.store", "installer", "native_host"},
    "app.core": NEUTRAL | {"app.agent", "app.bridge", "app.safety", "app.store", "app.files", "app.browser",
                           "native_host"},
    "app.mcp": NEUTRAL | {"app", "app.agent", "app.bridge", "app.core", "app.store", "installer", "native_host"},
    "app.demo": NEUTRAL | {"app.agent", "app.bridge", "app.browser", "app.core", "app.store"},
    "app.cli": NEUTRAL | {"app", "app.agent", "app.bridge", "app.browser", "app.core", "app.demo", "app.mcp",
                          "app.store", "app.safety", "app.ui", "installer", "native_host"},
    "app.ui": NEUTRAL | {"app", "app.agent", "app.bridge", "app.browser", "app.core", "app.demo", "app.files",
                         "app.safety", "app.store", "installer", "native_host"},
}
"""package → the packages it may import. app/cli is the entry: it may start the UI (app.ui.app), and it reads the
UI's Qt-free formatting helpers; the test below holds that this never loads Qt."""

IMPORT_POINTS: dict[str, tuple[str, ...]] = {
    "PySide6": ("app/ui/",),
    "qasync": ("app/ui/",),
    "anthropic": ("app/agent/model.py",),
    "keyring": ("app/agent/keys.py",),
    "mcp": ("app/mcp/",),
}
"""A heavy third-party package → the only files (or folders, ending in /) that may import it."""


def package_of(module: str) -> str:
    """`app.safety.guard` → `app.safety`; a top-level module of app (`app.events`) is a package of its own."""
    parts = module.removesuffix(".__init__").split(".")
    if parts[0] != "app" or len(parts) == 1:
        return parts[0]
    return f"app.{parts[1]}"


def python_files() -> list[Path]:
    files = [path for root in OURS for path in (ROOT / root).rglob("*.py")]
    return sorted(path for path in files if "_extension" not in path.parts and "__pycache__" not in path.parts)


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) for every import in the file, relative ones resolved against its package."""
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    package = module.split(".")[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                found.append((node.lineno, ".".join([*base, *([node.module] if node.module else [])])))
            elif node.module:
                found.append((node.lineno, node.module))
    return found


def test_every_package_imports_only_what_its_layer_allows() -> None:
    broken: list[str] = []
    for path in python_files():
        source = package_of(".".join(path.relative_to(ROOT).with_suffix("").parts))
        assert source in ALLOWED, f"{path.relative_to(ROOT)}: package {source} has no line in ALLOWED"
        for line, module in imports_of(path):
            if module.split(".")[0] not in OURS:
                continue
            target = package_of(module)
            if target != source and target not in ALLOWED[source]:
                broken.append(f"{path.relative_to(ROOT)}:{line}: {source} imports {module}")
    assert not broken, "edges outside the layers (tests/unit/test_layers.py ALLOWED):\n" + "\n".join(broken)


def test_heavy_dependencies_have_one_import_point() -> None:
    broken: list[str] = []
    for path in python_files():
        relative = path.relative_to(ROOT).as_posix()
        for line, module in imports_of(path):
            allowed = IMPORT_POINTS.get(module.split(".")[0])
            if allowed is not None and not any(relative == point or (point.endswith("/") and relative.startswith(point))
                                               for point in allowed):
                broken.append(f"{relative}:{line}: imports {module} (only {', '.join(allowed)} may)")
    assert not broken, "\n".join(broken)


HOST_MAY_IMPORT = {"native_host", "platformdirs"}
"""Besides the standard library: platformdirs (pure Python, a few ms) finds the default BUA_HOME as the app does."""


def test_the_native_host_needs_only_the_standard_library() -> None:
    broken = [f"{path.relative_to(ROOT)}:{line}: {module}"
              for path in python_files() if path.relative_to(ROOT).parts[0] == "native_host"
              for line, module in imports_of(path)
              if module.split(".")[0] not in sys.stdlib_module_names | HOST_MAY_IMPORT]
    assert not broken, "\n".join(broken)


@pytest.mark.parametrize("entry", ["app.cli.main", "app.mcp.server", "app.core.service", "native_host.host"])
def test_entries_without_a_window_never_load_qt(entry: str) -> None:
    """The CLI, `bua mcp`, the core and the host run without a display; loading Qt there would cost ~100 ms and
    a 272 MB dependency's import for nothing."""
    probe = f"import sys, {entry}; print(sorted(m for m in ('PySide6', 'qasync') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", f"{entry} loaded {done.stdout.strip()}"
