"""The guide's "Open the extensions page" says what really happened: a browser that exits at once is an error."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from app.ui import setup_check
from installer.errors import UsageError

CHROMIUM = Path("/usr/lib/chromium/chromium")


@pytest.mark.skipif(sys.platform != "linux" or not CHROMIUM.exists(), reason="needs Linux and Debian's chromium")
@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() != 0,
                    reason="real Chromium exits at once only as root (no --no-sandbox); elsewhere it opens a window")
def test_a_browser_that_exits_at_once_is_reported_not_called_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(setup_check, "detect_browsers", lambda platform, root: ["chromium"])
    monkeypatch.setattr(setup_check, "_binary_for", lambda name: str(CHROMIUM))
    with pytest.raises(UsageError) as refused:
        setup_check.open_extensions_page()
    assert "exited at once" in str(refused.value) and "chrome://extensions" in str(refused.value)
