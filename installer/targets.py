"""Where each supported browser looks for native-messaging hosts, and which are present.

Per-user locations from Chrome's and Edge's native-messaging docs: a
`NativeMessagingHosts` folder in the browser's default user-data directory on
Linux and macOS, an HKCU registry key on Windows.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from installer.launcher import host_dir
from installer.registry import Registry
from installer.system import Platform
from native_host.paths import HOST_NAME

MANIFEST_NAME = f"{HOST_NAME}.json"


@dataclass(frozen=True)
class Browser:
    name: str
    display_name: str
    scheme: str
    """URL scheme of its internal pages: `<scheme>://extensions`."""
    linux_dir: str
    """Under $XDG_CONFIG_HOME."""
    linux_binaries: tuple[str, ...]
    mac_dir: str
    """Under ~/Library/Application Support."""
    mac_app: str
    win_key: str
    """Under HKEY_CURRENT_USER."""
    win_dir: str
    """Under %LOCALAPPDATA%, '/'-separated so it joins on any OS."""


_ALL = (
    Browser(
        name="chrome", display_name="Google Chrome", scheme="chrome",
        linux_dir="google-chrome", linux_binaries=("google-chrome", "google-chrome-stable"),
        mac_dir="Google/Chrome", mac_app="Google Chrome.app",
        win_key=r"Software\Google\Chrome", win_dir="Google/Chrome/User Data",
    ),
    Browser(
        name="chromium", display_name="Chromium", scheme="chrome",
        linux_dir="chromium", linux_binaries=("chromium", "chromium-browser"),
        mac_dir="Chromium", mac_app="Chromium.app",
        win_key=r"Software\Chromium", win_dir="Chromium/User Data",
    ),
    Browser(
        name="edge", display_name="Microsoft Edge", scheme="edge",
        linux_dir="microsoft-edge", linux_binaries=("microsoft-edge", "microsoft-edge-stable"),
        mac_dir="Microsoft Edge", mac_app="Microsoft Edge.app",
        win_key=r"Software\Microsoft\Edge", win_dir="Microsoft/Edge/User Data",
    ),
    Browser(
        name="brave", display_name="Brave", scheme="brave",
        linux_dir="BraveSoftware/Brave-Browser", linux_binaries=("brave-browser", "brave-browser-stable"),
        mac_dir="BraveSoftware/Brave-Browser", mac_app="Brave Browser.app",
        win_key=r"Software\BraveSoftware\Brave-Browser", win_dir="BraveSoftware/Brave-Browser/User Data",
    ),
)
BROWSERS: dict[str, Browser] = {browser.name: browser for browser in _ALL}


def user_data_dir(browser: Browser, platform: Platform) -> Path:
    """The browser's default user-data directory (the default profile's root)."""
    if platform.system == "win32":
        return platform.local_app_data() / browser.win_dir
    if platform.system == "darwin":
        return platform.home / "Library" / "Application Support" / browser.mac_dir
    return platform.xdg_config_home() / browser.linux_dir


def manifest_path(browser: Browser, platform: Platform) -> Path:
    """Linux/macOS: where the browser reads the host manifest. Not used on Windows."""
    return user_data_dir(browser, platform) / "NativeMessagingHosts" / MANIFEST_NAME


def custom_manifest_path(custom_user_data_dir: Path) -> Path:
    """Where Chromium looks when started with `--user-data-dir=<dir>`."""
    return custom_user_data_dir / "NativeMessagingHosts" / MANIFEST_NAME


def registry_key(browser: Browser) -> str:
    """Windows: the HKCU key whose default value is the manifest's path."""
    return rf"{browser.win_key}\NativeMessagingHosts\{HOST_NAME}"


def windows_manifest_path(browser: Browser, home: Path) -> Path:
    """Windows: the manifest file lives with bua, the registry points at it."""
    return host_dir(home) / browser.name / MANIFEST_NAME


def is_installed(browser: Browser, platform: Platform, registry: Registry | None) -> bool:
    """Whether this browser appears to be installed or to have been used."""
    if user_data_dir(browser, platform).is_dir():
        return True
    if platform.system == "win32":
        return registry is not None and registry.key_exists(browser.win_key)
    if platform.system == "darwin":
        return any((apps / browser.mac_app).is_dir() for apps in platform.applications)
    return any(platform.which(binary) for binary in browser.linux_binaries)


def detect_browsers(platform: Platform, registry: Registry | None = None) -> list[str]:
    """Names of every supported browser found, in the order of `BROWSERS`."""
    return [name for name, b in BROWSERS.items() if is_installed(b, platform, registry)]
