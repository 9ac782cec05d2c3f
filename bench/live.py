"""A core and a connected headless browser (with a CDP pipe for direct comparisons), torn down after a suite."""

from __future__ import annotations

import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from app.core.background import CoreThread
from tests.harness.browser import start_connected_browser


@contextmanager
def live_browser(prefix: str = "bua-bench-") -> Iterator[tuple[CoreThread, Any, Any]]:
    """(core, browser, bridge); `browser.cdp` talks CDP directly over --remote-debugging-pipe."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        core = CoreThread(Path(tmp) / "home")
        browser, bridge = start_connected_browser(core, Path(tmp) / "profile")
        try:
            yield core, browser, bridge
        finally:
            browser.stop()
            core.stop()
