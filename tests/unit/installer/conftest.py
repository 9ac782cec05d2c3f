"""Fixtures: a temporary HOME, BUA_HOME and extension for every platform layout.

Nothing here reads or writes the real home directory or registry.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from installer.registry import InMemoryRegistry
from installer.system import Platform

TEST_KEY = (
    "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA3IRtiXFmzNwNmAAhaMu+1RH8fXtPbMrHvLdR/+qcDF/tCMiUX/V++joPM/z32WJiCS7op/"
    "jlOMAoitCHn6WvvxubZukdVTujiVhxLExy8urSsUVvKgxOxRyoQPp3EQL9KHKKHrdny0IPBpPIqNMzLzRnDncSN8jKGO55dNeYyOt4D1miGU3SYrO3P"
    "cyekl4Z/40+mQnsUaLU2zGSsM624GZdWCc6G3u8UZaPsCNAgWuzJZrc5JfL/8809d5BpkWSQFXW7YO3rw4/nUYhU+cXdbyoVw7Ge/ZdV6RvDygNe4E0"
    "rL7MY3PxQIhBn1uneZ8OAByhJ/ugZ6U+gjonuyC3WwIDAQAB"
)
TEST_ID = "jgifgcbigoglnhkhkpdmjmgljnjkkbpg"


@pytest.fixture
def test_key() -> str:
    return TEST_KEY


@pytest.fixture
def expected_id() -> str:
    return TEST_ID


@pytest.fixture
def ext_dir(tmp_path: Path) -> Path:
    path = tmp_path / "extension"
    path.mkdir()
    manifest = {"manifest_version": 3, "name": "bua", "version": "0.1.0", "key": TEST_KEY}
    (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return path


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """BUA_HOME."""
    return tmp_path / "bua-home"


@pytest.fixture
def user_home(tmp_path: Path) -> Path:
    path = tmp_path / "user"
    path.mkdir()
    return path


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    path = tmp_path / "bin"
    path.mkdir()
    return path


@pytest.fixture
def linux(user_home: Path, bin_dir: Path) -> Platform:
    return Platform(system="linux", home=user_home, env={"PATH": str(bin_dir)})


@pytest.fixture
def darwin(user_home: Path, tmp_path: Path) -> Platform:
    return Platform(system="darwin", home=user_home, env={}, applications=(tmp_path / "Applications",))


@pytest.fixture
def win(user_home: Path) -> Platform:
    return Platform(system="win32", home=user_home, env={"LOCALAPPDATA": str(user_home / "AppData" / "Local")})


@pytest.fixture
def registry() -> InMemoryRegistry:
    return InMemoryRegistry()


@pytest.fixture
def make_executable():
    def make(path: Path, body: str = "exit 0\n") -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
        path.chmod(0o755)
        return path

    return make
