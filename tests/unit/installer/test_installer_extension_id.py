import json
from pathlib import Path

import pytest

from installer.errors import InstallError
from installer.extension_id import extension_dir, id_from_key, read_extension_id


def test_known_key_gives_known_id(test_key: str, expected_id: str) -> None:
    assert id_from_key(test_key) == expected_id


def test_whitespace_in_key_is_ignored(test_key: str, expected_id: str) -> None:
    assert id_from_key(test_key[:40] + "\n  " + test_key[40:]) == expected_id


def test_reads_id_from_manifest(ext_dir: Path, expected_id: str) -> None:
    assert read_extension_id(ext_dir) == expected_id


def test_repo_extension_dir() -> None:
    assert extension_dir() == Path(__file__).resolve().parents[3] / "extension"


def test_missing_manifest_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InstallError, match="no extension manifest"):
        read_extension_id(tmp_path)


def test_manifest_without_key_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_text(json.dumps({"name": "x"}), encoding="utf-8")
    with pytest.raises(InstallError, match='no "key"'):
        read_extension_id(tmp_path)


def test_bad_base64_is_a_clear_error() -> None:
    with pytest.raises(InstallError, match="base64"):
        id_from_key("not base64!")
