"""`bua install` opens chrome://extensions in a real program: stand-in browsers record what they were given."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.browser.extensions_page import open_extensions_page
from installer.errors import UsageError
from installer.system import Platform


def _browser(bin_dir: Path, name: str, body: str) -> None:
    path = bin_dir / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    path = tmp_path / "bin"
    path.mkdir()
    return path


def _linux(tmp_path: Path, bin_dir: Path, **env: str) -> Platform:
    return Platform(system="linux", home=tmp_path, env={"PATH": str(bin_dir), **env})


@pytest.mark.skipif(os.name == "nt", reason="POSIX stand-in browser")
def test_opens_the_page_in_the_browser_found_with_the_profile(tmp_path, bin_dir) -> None:
    seen = tmp_path / "argv"
    _browser(bin_dir, "chromium", f'echo "$@" > {seen}\n')
    opened = open_extensions_page(_linux(tmp_path, bin_dir, DISPLAY=":9"), user_data_dir=tmp_path / "p")
    assert opened == "chrome://extensions in the running Chromium", "it exited 0 at once: handed to a running one"
    assert seen.read_text().split() == [f"--user-data-dir={tmp_path / 'p'}", "chrome://extensions"]


@pytest.mark.skipif(os.name == "nt", reason="POSIX stand-in browser")
def test_a_browser_that_fails_at_once_is_not_reported_as_opened(tmp_path, bin_dir) -> None:
    _browser(bin_dir, "chromium", "exit 3\n")
    with pytest.raises(UsageError, match=r"exited at once \(code 3\).*open it in Chromium yourself"):
        open_extensions_page(_linux(tmp_path, bin_dir, DISPLAY=":9"))


def test_no_display_says_what_to_open(tmp_path, bin_dir) -> None:
    _browser(bin_dir, "chromium", "exit 0\n")
    with pytest.raises(UsageError, match="no display.*chrome://extensions in Chromium yourself"):
        open_extensions_page(_linux(tmp_path, bin_dir))


def test_no_browser_is_a_clear_error(tmp_path, bin_dir) -> None:
    with pytest.raises(UsageError, match="no Chrome, Chromium"):
        open_extensions_page(_linux(tmp_path, bin_dir, DISPLAY=":9"))
