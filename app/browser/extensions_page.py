"""Open `<scheme>://extensions` in the person's browser, where they load the bua extension.

Shared by `bua install` and the app's first-run guide. A browser that exits at once with an error did not
open anything and is reported as such; one that exits 0 at once handed the page to its running instance.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from app.browser.child_env import child_env
from installer.errors import UsageError
from installer.system import Platform
from installer.targets import BROWSERS, Browser, detect_browsers

SETTLE_S = 3.0
"""How long a just-started browser may take to fail before it counts as having opened the page."""


def _command(browser: Browser, url: str, platform: Platform, user_data_dir: Path | None) -> list[str]:
    profile = [f"--user-data-dir={user_data_dir}"] if user_data_dir is not None else []
    if platform.system == "darwin":
        return ["open", "-a", browser.mac_app, url, *(["--args", *profile] if profile else [])]
    if platform.system == "win32":
        return ["cmd", "/c", "start", "", browser.name if browser.name != "edge" else "msedge", url]
    for candidate in browser.linux_binaries:
        binary = platform.which(candidate)
        if binary:
            return [binary, *profile, url]
    raise UsageError(f"{browser.display_name} was found but its program is not on PATH; open {url} in it yourself")


def has_display(platform: Platform) -> bool:
    """Whether a browser window can appear (Linux needs X11 or Wayland; macOS and Windows always can)."""
    return platform.system != "linux" or bool(platform.env.get("DISPLAY") or platform.env.get("WAYLAND_DISPLAY"))


def open_extensions_page(platform: Platform | None = None, names: list[str] | None = None,
                         user_data_dir: Path | None = None) -> str:
    """Open the extensions page in the first of `names` (default: browsers found); returns what was opened.

    With `user_data_dir`, in the browser running on that profile (the one `bua install --user-data-dir` set up).

    Raises UsageError with the next step when there is no browser, no display, or the browser failed at once.
    """
    platform = platform or Platform.current()
    names = names if names is not None else detect_browsers(platform, None)
    if not names:
        raise UsageError("no Chrome, Chromium, Edge or Brave found on this computer")
    browser = BROWSERS[names[0]]
    url = f"{browser.scheme}://extensions"
    if not has_display(platform):
        raise UsageError(f"no display to open a window on (DISPLAY is not set); open {url} in {browser.display_name} "
                         "yourself")
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(_command(browser, url, platform, user_data_dir), stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=errors, start_new_session=True,
                                   env=child_env(platform.env))
        try:
            code = process.wait(SETTLE_S)
        except subprocess.TimeoutExpired:
            return f"{url} in {browser.display_name}"  # still running: its window is open
        if code != 0:
            errors.seek(0)
            said = errors.read().decode(errors="replace").strip().splitlines()
            raise UsageError(f"{browser.display_name} exited at once (code {code}) without opening {url}"
                             + (f" ({said[-1][:200]})" if said else "") + f"; open it in {browser.display_name} yourself")
    return f"{url} in the running {browser.display_name}"  # handed to the browser already open
