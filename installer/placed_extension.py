"""The extension where the person loads it from: `<BUA_HOME>/extension`, with a zip beside it.

The wheel's copy sits deep in site-packages and moves with every new Python or venv, and Chrome remembers an
unpacked extension by its folder; so `bua install` places it in a folder that stays put and updates that
folder in place. The extension's ID comes from the fixed `key` in manifest.json, so a reloaded or updated
copy keeps its ID, its host permission and its settings. The zip is the same files for handing around
(Chrome loads only the unzipped folder).
"""

from __future__ import annotations

import os
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from installer.errors import InstallError
from installer.extension_files import loaded_files

FOLDER = "extension"
ARCHIVE = "bua-extension.zip"


@dataclass(frozen=True)
class PlacedExtension:
    folder: Path
    archive: Path
    changed: int
    """Files written or removed by this run (0: the folder was already up to date)."""


def placed_folder(home: Path) -> Path:
    return home / FOLDER


def archive_path(home: Path) -> Path:
    return home / ARCHIVE


def _sync(source: Path, target: Path, files: list[Path]) -> int:
    """Make `target` hold exactly `files` from `source`; returns how many files it wrote or removed."""
    changed = 0
    for rel in files:
        data = (source / rel).read_bytes()
        dest = target / rel
        if dest.is_file() and dest.read_bytes() == data:
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", dir=dest.parent)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
        changed += 1
    wanted = {target / rel for rel in files}
    for path in sorted(target.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        if path.is_dir():
            if not any(path.iterdir()):
                path.rmdir()
        elif path not in wanted:
            path.unlink()
            changed += 1
    return changed


def _write_zip(source: Path, files: list[Path], archive: Path) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{archive.name}.", dir=archive.parent)
    os.close(fd)
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zipped:
            for rel in files:
                zipped.write(source / rel, rel.as_posix())
        os.chmod(tmp, 0o644)
        os.replace(tmp, archive)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def place_extension(source: Path, home: Path) -> PlacedExtension:
    """Copy the files Chrome loads from `source` into `<home>/extension` (in place) and zip them beside it."""
    try:
        files = loaded_files(source)
    except ValueError as err:
        raise InstallError(f"{err}; reinstall bua (pipx install --force bua-browser)") from None
    folder, archive = placed_folder(home), archive_path(home)
    if folder.exists() and not folder.is_dir():
        raise InstallError(f"{folder} is a file, not the extension folder; move it away and run `bua install` again")
    folder.mkdir(parents=True, exist_ok=True)
    same = source.resolve() == folder.resolve()
    changed = 0 if same else _sync(source, folder, files)
    _write_zip(folder, files, archive)
    return PlacedExtension(folder, archive, changed)



def loadable_folder(home: Path, shipped: Path) -> Path:
    """The folder to tell the person to load: the placed copy once `bua install` made it, else the shipped one."""
    folder = placed_folder(home)
    return folder if (folder / "manifest.json").is_file() else shipped
