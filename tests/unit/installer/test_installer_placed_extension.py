"""`bua install` places the shipped extension under BUA_HOME, in place, with a zip beside it."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from installer.errors import InstallError
from installer.extension_id import extension_dir, read_extension_id
from installer.install import install
from installer.placed_extension import loadable_folder, place_extension


def _extension(root: Path, key: str, files: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "manifest.json").write_text(json.dumps({"manifest_version": 3, "name": "bua", "key": key}))
    for rel, text in {"background.js": "import './src/a.js';", **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_places_only_what_chrome_loads_and_zips_it(tmp_path, test_key, expected_id) -> None:
    source = _extension(tmp_path / "src-ext", test_key, {
        "src/a.js": "a", "src/deep/b.js": "b", "test/a.test.js": "t", "package.json": "{}",
        "node_modules/x/index.js": "x", "src/page/types.d.ts": "d", "tsconfig.json": "{}"})
    placed = place_extension(source, tmp_path / "home")
    assert placed.folder == tmp_path / "home" / "extension"
    got = sorted(str(p.relative_to(placed.folder)) for p in placed.folder.rglob("*") if p.is_file())
    assert got == ["background.js", "manifest.json", "src/a.js", "src/deep/b.js"]
    with zipfile.ZipFile(placed.archive) as zipped:
        assert sorted(zipped.namelist()) == got
    assert read_extension_id(placed.folder) == expected_id


def test_reinstall_updates_in_place_and_drops_removed_files(tmp_path, test_key) -> None:
    source = _extension(tmp_path / "v1", test_key, {"src/a.js": "a1", "src/old.js": "old"})
    home = tmp_path / "home"
    first = place_extension(source, home)
    marker = first.folder.stat().st_ino
    (source / "src" / "old.js").unlink()
    (source / "src" / "a.js").write_text("a2")
    second = place_extension(source, home)
    assert second.folder.stat().st_ino == marker, "the same folder: Chrome keeps the loaded extension"
    assert (second.folder / "src" / "a.js").read_text() == "a2"
    assert not (second.folder / "src" / "old.js").exists()
    assert second.changed == 2
    assert place_extension(source, home).changed == 0


def test_incomplete_source_is_a_clear_error(tmp_path, test_key) -> None:
    source = tmp_path / "broken"
    source.mkdir()
    (source / "manifest.json").write_text("{}")
    with pytest.raises(InstallError, match="incomplete: missing background.js"):
        place_extension(source, tmp_path / "home")


def test_install_places_the_shipped_extension_and_tells_that_folder(linux, home, tmp_path) -> None:
    report = install(user_data_dir=tmp_path / "profile", home=home, platform=linux)
    assert report.extension_dir == home / "extension" and report.archive == home / "bua-extension.zip"
    assert str(home / "extension") in report.message
    shipped = sorted(p.relative_to(extension_dir()) for p in extension_dir().rglob("*.js")
                     if "node_modules" not in p.parts and "test" not in p.parts)
    placed = sorted(p.relative_to(report.extension_dir) for p in report.extension_dir.rglob("*.js"))
    assert placed == shipped
    assert loadable_folder(home, extension_dir()) == home / "extension"
    assert loadable_folder(tmp_path / "other-home", extension_dir()) == extension_dir()
