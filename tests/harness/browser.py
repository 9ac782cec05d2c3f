"""A real browser for the e2e suite: headless Chromium, the real extension, the host registered in its profile."""

from __future__ import annotations

import json
import os
from pathlib import Path

from app.browser.launch import LaunchedBrowser, launch_browser
from tests.harness.cdp_pipe import CdpPipe
from tests.harness.core_thread import CoreThread

CONNECT_TIMEOUT_S = 45.0


def start_connected_browser(core: CoreThread, profile: Path, extra_flags: tuple[str, ...] = ()):
    """Launch and wait until the extension said hello through the real native host.

    The browser also gets a CDP pipe, `browser.cdp`: the person's hands in tests (open a tab of their own,
    close one, stop the extension's service worker), never used to drive the agent's actions. Its download
    folder, `browser.download_dir`, is the profile's own (set in its preferences as a person would in Settings),
    so a download never lands in the real home.
    """
    download_dir = profile / "Downloads"
    download_dir.mkdir(parents=True, exist_ok=True)
    prefs_path = profile / "Default" / "Preferences"
    prefs_path.parent.mkdir(parents=True, exist_ok=True)
    prefs = json.loads(prefs_path.read_text()) if prefs_path.exists() else {}
    prefs["download"] = {**prefs.get("download", {}), "default_directory": str(download_dir),
                         "prompt_for_download": False}
    prefs_path.write_text(json.dumps(prefs))
    to_browser, from_browser, preexec = CdpPipe.child_fds()
    browser = launch_browser(core.home, headless=True, user_data_dir=profile,
                             extra_flags=("--remote-debugging-pipe", *extra_flags), pass_fds=(3, 4),
                             preexec_fn=preexec)
    os.close(to_browser[0])
    os.close(from_browser[1])
    browser.cdp = CdpPipe(to_browser[1], from_browser[0])
    browser.download_dir = download_dir
    try:
        bridge = core.call(core.pool.wait_for_bridge(CONNECT_TIMEOUT_S), timeout=CONNECT_TIMEOUT_S + 5)
    except Exception:
        log = browser.log_path.read_text(errors="replace")[-4000:]
        browser.stop()
        raise RuntimeError(f"the extension never connected; browser log tail:\n{log}") from None
    return browser, bridge


def describe_failure(browser: LaunchedBrowser) -> str:
    return browser.log_path.read_text(errors="replace")[-4000:]
