"""A real browser for the e2e suite: headless Chromium, the real extension, the host registered in its profile."""

from __future__ import annotations

from pathlib import Path

from app.browser.launch import LaunchedBrowser, launch_browser
from tests.harness.core_thread import CoreThread

CONNECT_TIMEOUT_S = 45.0


def start_connected_browser(core: CoreThread, profile: Path, extra_flags: tuple[str, ...] = ()):
    """Launch and wait until the extension said hello through the real native host."""
    browser = launch_browser(core.home, headless=True, user_data_dir=profile, extra_flags=extra_flags)
    try:
        bridge = core.call(core.pool.wait_for_bridge(CONNECT_TIMEOUT_S), timeout=CONNECT_TIMEOUT_S + 5)
    except Exception:
        log = browser.log_path.read_text(errors="replace")[-4000:]
        browser.stop()
        raise RuntimeError(f"the extension never connected; browser log tail:\n{log}") from None
    return browser, bridge


def describe_failure(browser: LaunchedBrowser) -> str:
    return browser.log_path.read_text(errors="replace")[-4000:]
