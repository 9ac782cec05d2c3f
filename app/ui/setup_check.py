"""First-run facts: is the native host registered, where is the extension, how to open the extensions page."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from app.browser.child_env import child_env
from installer.errors import InstallError, UsageError
from installer.extension_id import extension_dir, read_extension_id
from installer.install import InstallReport, install
from installer.record import load_record
from installer.system import Platform
from installer.targets import BROWSERS, detect_browsers


@dataclass(frozen=True)
class SetupFacts:
    host_registered: bool
    manifests: list[str]
    extension_dir: Path
    extension_id: str | None
    browsers: list[str]
    """Display names of the browsers found on this machine."""


def facts(home: Path) -> SetupFacts:
    """Blocking (reads files): call through asyncio.to_thread."""
    record = load_record(home)
    manifests = [m for m in record.manifests if Path(m).exists()]
    try:
        ext_id: str | None = read_extension_id()
    except InstallError:
        ext_id = None
    try:
        found = detect_browsers(Platform.current(), None)
    except Exception:  # detection is a convenience; a broken registry must not break the page
        found = []
    return SetupFacts(bool(manifests), manifests, extension_dir(), ext_id, [BROWSERS[n].display_name for n in found])


def register_host(home: Path) -> InstallReport:
    """Runs the installer for every browser found. Raises UsageError/InstallError with a readable message."""
    return install(home=home)


def _binary_for(name: str) -> str | None:
    for candidate in BROWSERS[name].linux_binaries:
        path = shutil.which(candidate)
        if path:
            return path
    return None


STARTS_WITHIN_S = 2.0
"""A browser that exits within this with an error did not open the page (no display, a refused sandbox…)."""


def open_extensions_page() -> str:
    """Open `<scheme>://extensions` in the first browser found; returns what was opened. Raises UsageError."""
    platform = Platform.current()
    names = detect_browsers(platform, None)
    if not names:
        raise UsageError("no Chrome, Chromium, Edge or Brave found on this computer")
    browser = BROWSERS[names[0]]
    url = f"{browser.scheme}://extensions"
    if sys.platform == "darwin":
        subprocess.Popen(["open", "-a", browser.mac_app, url], env=child_env())
    elif sys.platform == "win32":
        subprocess.Popen(["cmd", "/c", "start", "", browser.name if browser.name != "edge" else "msedge", url],
                         env=child_env())
    else:
        binary = _binary_for(browser.name)
        if binary is None:
            raise UsageError(f"{browser.display_name} was found but its program is not on PATH")
        with tempfile.TemporaryFile() as errors:
            child = subprocess.Popen([binary, url], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=errors, start_new_session=True, env=child_env())
            try:
                code = child.wait(STARTS_WITHIN_S)
            except subprocess.TimeoutExpired:
                return f"{url} in {browser.display_name}"  # still running: its window is open
            if code != 0:
                errors.seek(0)
                said = errors.read().decode(errors="replace").strip().splitlines()
                raise UsageError(f"{browser.display_name} exited at once (code {code})"
                                 + (f": {said[-1][:200]}" if said else "")
                                 + f"; open {url} in it yourself")
        return f"{url} in the running {browser.display_name}"  # handed to the browser already open


__all__ = ["SetupFacts", "facts", "register_host", "open_extensions_page", "UsageError", "InstallError"]
