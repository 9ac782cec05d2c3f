"""The guide's "Open the extensions page" says what really happened: a browser that exits at once is an error."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from app.browser.extensions_page import open_extensions_page
from installer.errors import UsageError
from installer.system import Platform

CHROMIUM = Path("/usr/lib/chromium/chromium")


@pytest.mark.skipif(sys.platform != "linux" or not CHROMIUM.exists(), reason="needs Linux and Debian's chromium")
@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() != 0,
                    reason="real Chromium exits at once only as root (no --no-sandbox); elsewhere it opens a window")
def test_a_browser_that_exits_at_once_is_reported_not_called_opened(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "chromium").symlink_to(CHROMIUM)
    platform = Platform(system="linux", home=tmp_path, env={"PATH": str(bin_dir), "DISPLAY": os.environ.get(
        "DISPLAY", ":0"), "HOME": str(tmp_path)})
    with pytest.raises(UsageError) as refused:
        open_extensions_page(platform)
    assert "exited at once" in str(refused.value) and "chrome://extensions" in str(refused.value)
