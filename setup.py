"""Builds the wheel with the browser extension inside it, so an installed bua needs no clone.

The extension's source of truth stays `extension/` at the top of the repository (the layout of
docs/architecture.md); this build step copies what Chrome loads (manifest.json, background.js and
src/**/*.js) into the wheel as the data folder `installer/_extension`, which
`installer.extension_id.extension_dir()` finds through `importlib.resources`. Tests, node_modules,
package*.json, tsconfig and type declarations stay out. Everything else is in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
EXTENSION = ROOT / "extension"
BUNDLED_AS = Path("installer") / "_extension"


def extension_files(source: Path) -> list[Path]:
    """The files Chrome loads, relative to `source`."""
    files = [Path("manifest.json"), Path("background.js")]
    files += sorted(p.relative_to(source) for p in (source / "src").rglob("*.js") if p.is_file())
    missing = [str(f) for f in files if not (source / f).is_file()]
    if missing:
        raise SystemExit(f"cannot build bua: the extension is incomplete, missing {', '.join(missing)} in {source}")
    return files


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
