"""Start Chromium/Chrome with a dedicated profile, the extension loaded and the host registered there.

Flags and quirks are in docs/architecture.md ("Measured facts"): launch the real binary (not Debian's
wrapper), developer mode on so a reloaded unpacked extension stays enabled,
and the host manifest inside `<user-data-dir>/NativeMessagingHosts/`.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from app.browser.child_env import child_env
from app.store.home import private_dir
from installer.extension_id import extension_dir
from installer.install import install

CANDIDATES = (
    "/usr/lib/chromium/chromium",
    "/usr/bin/chromium",
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
)

BASE_FLAGS = (
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=DialMediaRouteProvider,MediaRouter",
)


class BrowserNotFound(Exception):
    pass


def find_binary(explicit: str | None = None) -> str:
    for candidate in ([explicit] if explicit else []) + [os.environ.get("BUA_BROWSER", "")] + list(CANDIDATES):
        if not candidate:
            continue
        path = candidate if os.path.isabs(candidate) else shutil.which(candidate)
        if path and os.access(path, os.X_OK):
            return path
    if explicit:
        raise BrowserNotFound(f"{explicit} is not an executable browser binary")
    raise BrowserNotFound(
        "no Chromium or Chrome found; install one (Debian: `apt-get install chromium`) or pass --binary PATH"
    )


def prepare_profile(user_data_dir: Path) -> None:
    """Developer mode on, so `chrome.runtime.reload()` keeps the unpacked extension enabled."""
    prefs_path = user_data_dir / "Default" / "Preferences"
    prefs_path.parent.mkdir(parents=True, exist_ok=True)
    prefs = json.loads(prefs_path.read_text()) if prefs_path.exists() else {}
    prefs.setdefault("extensions", {}).setdefault("ui", {})["developer_mode"] = True
    prefs_path.write_text(json.dumps(prefs))


@dataclass
class LaunchedBrowser:
    process: subprocess.Popen[bytes]
    user_data_dir: Path
    log_path: Path

    def stop(self, timeout: float = 5.0) -> None:
        if self.process.poll() is not None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def browser_command(binary: str, user_data_dir: Path, headless: bool, extra: tuple[str, ...] = ()) -> list[str]:
    flags = list(BASE_FLAGS) + [f"--user-data-dir={user_data_dir}", f"--load-extension={extension_dir()}"]
    if headless:
        flags += ["--headless=new", "--disable-gpu", "--window-size=1280,800"]
    if sys.platform.startswith("linux") and os.geteuid() == 0:
        flags.append("--no-sandbox")
    return [binary, *flags, *extra, "about:blank"]


def launch_browser(
    home: Path,
    *,
    headless: bool = False,
    user_data_dir: str | Path | None = None,
    binary: str | None = None,
    extra_flags: tuple[str, ...] = (),
    pass_fds: tuple[int, ...] = (),
    preexec_fn: Callable[[], object] | None = None,
) -> LaunchedBrowser:
    exe = find_binary(binary)
    profile = Path(user_data_dir) if user_data_dir else home / "browser-profile"
    private_dir(profile)
    prepare_profile(profile)
    install(browsers=None, user_data_dir=profile, home=home, place=False)
    log_path = profile / "bua-browser.log"
    env = child_env(BUA_HOME=str(home))
    with open(log_path, "ab") as log:
        process = subprocess.Popen(
            browser_command(exe, profile, headless, extra_flags),
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env,
            start_new_session=True, pass_fds=pass_fds, preexec_fn=preexec_fn,
        )
    return LaunchedBrowser(process, profile, log_path)
