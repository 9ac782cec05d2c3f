"""Builds the wheel with the browser extension inside it, so an installed bua needs no clone.

The extension's source of truth stays `extension/` at the top of the repository (the layout of
docs/architecture.md); this build step copies what Chrome loads (installer/extension_files.py says
which) into the wheel as the data folder `installer/_extension`, which
`installer.extension_id.extension_dir()` finds through `importlib.resources`. Everything else is in
pyproject.toml.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
EXTENSION = ROOT / "extension"
BUNDLED_AS = Path("installer") / "_extension"


def extension_files(source: Path) -> list[Path]:
    """The files Chrome loads, by the rule `bua install` also places them with (installer/extension_files.py)."""
    spec = importlib.util.spec_from_file_location("_bua_extension_files", ROOT / "installer" / "extension_files.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        return list(module.loaded_files(source))
    except ValueError as err:
        raise SystemExit(f"cannot build bua: {err}") from None


class BuildPyWithExtension(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads extension/ in the checkout itself
        target = Path(self.build_lib) / BUNDLED_AS
        shutil.rmtree(target, ignore_errors=True)
        for rel in extension_files(EXTENSION):
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(EXTENSION / rel, target / rel)


setup(cmdclass={"build_py": BuildPyWithExtension})
