"""First-run facts: is the native host registered, where is the extension, how to open the extensions page."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.browser.extensions_page import open_extensions_page
from installer.errors import InstallError, UsageError
from installer.extension_id import extension_dir, read_extension_id
from installer.install import InstallReport, install
from installer.placed_extension import loadable_folder
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
    return SetupFacts(bool(manifests), manifests, loadable_folder(home, extension_dir()), ext_id, [BROWSERS[n].display_name for n in found])


def register_host(home: Path) -> InstallReport:
    """Runs the installer for every browser found. Raises UsageError/InstallError with a readable message."""
    return install(home=home)


__all__ = ["SetupFacts", "facts", "register_host", "open_extensions_page", "UsageError", "InstallError"]
