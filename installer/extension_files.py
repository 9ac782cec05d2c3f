"""Which files of the extension folder Chrome loads: what the wheel ships and what `bua install` places.

Stdlib only and free of package imports: setup.py loads this file by path at build time, so the wheel and
the placed copy follow one rule. Tests, node_modules, package*.json, tsconfig and `.d.ts` declarations
are development files and stay out.
"""

from __future__ import annotations

from pathlib import Path

TOP_LEVEL = ("manifest.json", "background.js")


def loaded_files(source: Path) -> list[Path]:
    """The files Chrome loads, relative to `source`, sorted; ValueError naming what is missing."""
    files = [Path(name) for name in TOP_LEVEL]
    src = source / "src"
    files += sorted(p.relative_to(source) for p in src.rglob("*.js") if p.is_file()) if src.is_dir() else []
    missing = [str(f) for f in files if not (source / f).is_file()]
    if missing or len(files) == len(TOP_LEVEL):
        raise ValueError(f"the extension at {source} is incomplete: missing {', '.join(missing) or 'src/*.js'}")
    return files
