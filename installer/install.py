"""Register the native-messaging host for the chosen browsers (or a custom --user-data-dir)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from installer.errors import UsageError
from installer.extension_id import extension_dir as default_extension_dir
from installer.extension_id import read_extension_id
from installer.instructions import load_unpacked_instructions
from installer.launcher import write_launcher
from installer.manifest import host_manifest, write_json
from installer.packed_extension import PackedExtension, offer, pack
from installer.placed_extension import place_extension
from installer.record import load_record, save_record
from installer.registry import Registry, WinRegistry
from installer.system import Platform
from installer.targets import (
    BROWSERS,
    Browser,
    custom_manifest_path,
    detect_browsers,
    manifest_path,
    registry_key,
    windows_manifest_path,
)
from installer.targets import (
    user_data_dir as default_user_data_dir,
)
from native_host.paths import bua_home


@dataclass(frozen=True)
class InstallReport:
    extension_id: str
    extension_dir: Path
    launcher: Path
    browsers: list[str]
    manifests: list[Path]
    registry_keys: list[str]
    message: str
    """How to load the unpacked extension, ready to show to the person."""
    archive: Path | None = None
    """The zip of the placed extension, when install placed it."""
    offered: list[Path] = field(default_factory=list)
    """External Extensions files pointing Chromium at the packed CRX (`crx=True`)."""


def check_browser_names(names: list[str]) -> list[str]:
    """Known names, duplicates dropped, order kept; UsageError for anything else."""
    unknown = [name for name in names if name not in BROWSERS]
    if unknown:
        raise UsageError(f"unknown browser {', '.join(unknown)}; choose from {', '.join(BROWSERS)}")
    return list(dict.fromkeys(names))


def _nothing_found(platform: Platform) -> UsageError:
    browsers = BROWSERS.values()
    if platform.system == "win32":
        checked = "registry keys " + ", ".join(rf"HKCU\{b.win_key}" for b in browsers)
    elif platform.system == "darwin":
        checked = "apps " + ", ".join(b.mac_app for b in browsers)
    else:
        checked = "programs on PATH " + ", ".join(x for b in browsers for x in b.linux_binaries)
    folders = ", ".join(str(default_user_data_dir(b, platform)) for b in browsers)
    custom = "" if platform.system == "win32" else (
        ", or pass --user-data-dir DIR for a browser started with --user-data-dir=DIR"
    )
    return UsageError(
        f"no supported browser found. Looked for {', '.join(b.display_name for b in browsers)}: "
        f"{checked}; folders {folders}. "
        f"Name the browser with --browser {'|'.join(BROWSERS)}|all{custom}."
    )


def _register(
    browser: Browser, content: dict[str, Any], home: Path, platform: Platform, registry: Registry | None
) -> tuple[Path, str | None]:
    """Write one browser's manifest (and, on Windows, its registry key)."""
    if platform.system != "win32":
        path = manifest_path(browser, platform)
        write_json(path, content)
        return path, None
    path = windows_manifest_path(browser, home)
    write_json(path, content)
    key = registry_key(browser)
    (registry if registry is not None else WinRegistry()).set_default_value(key, str(path))
    return path, key


def install(
    browsers: list[str] | None = None,
    user_data_dir: Path | None = None,
    home: Path | None = None,
    *,
    platform: Platform | None = None,
    registry: Registry | None = None,
    extension_dir: Path | None = None,
    python: str | None = None,
    place: bool = True,
    crx: bool = False,
) -> InstallReport:
    """Write the launcher and a host manifest per target; record them for `uninstall`.

    `browsers=None` means every browser found, or none when `user_data_dir`
    is given (then only that directory gets a manifest). The shipped extension
    is placed in `<home>/extension` to be loaded from there (installer/placed_extension.py),
    unless `extension_dir` names another folder or `place` is False (`bua browser`
    loads the shipped one itself).
    """
    platform = platform or Platform.current()
    home = (home or bua_home()).absolute()
    if user_data_dir is not None and platform.system == "win32":
        raise UsageError(
            "--user-data-dir is not supported on Windows: Chrome there finds native-messaging "
            "hosts only through the registry, whatever the user-data dir"
        )
    if platform.system == "win32" and registry is None:
        registry = WinRegistry()
    names = check_browser_names(browsers) if browsers is not None else []
    if browsers is None and user_data_dir is None:
        names = detect_browsers(platform, registry)
    if not names and user_data_dir is None:
        raise _nothing_found(platform)
    archive: Path | None = None
    if extension_dir is not None:
        ext_dir = extension_dir.resolve()
    elif place:
        placed = place_extension(default_extension_dir(), home)
        ext_dir, archive = placed.folder, placed.archive
    else:
        ext_dir = default_extension_dir().resolve()
    ext_id = read_extension_id(ext_dir)

    custom_dir = user_data_dir.absolute() if user_data_dir is not None else None
    offered: list[Path] = []
    also: list[str] = []
    if crx:
        packed, offered = _offer_crx(ext_dir, home, platform, names, custom_dir)
        also.append(packed.extension_id)

    launcher = write_launcher(home, platform.system, python)
    content = host_manifest(launcher, ext_id, *also)
    manifests: list[Path] = []
    keys: list[str] = []
    for name in names:
        path, key = _register(BROWSERS[name], content, home, platform, registry)
        manifests.append(path)
        keys += [key] if key else []
    if custom_dir is not None:
        path = custom_manifest_path(custom_dir)
        write_json(path, content)
        manifests.append(path)

    record = load_record(home)
    record.add(manifests=manifests, registry_keys=keys, launcher=launcher)
    record.add_offered(offered)
    save_record(home, record)
    message = load_unpacked_instructions([BROWSERS[n] for n in names], ext_dir, ext_id, custom_dir)
    if offered:
        message = (f"Chromium installs the packed bua extension (ID {also[0]}) by itself at its next start: quit "
                   "and reopen it. Nothing to load by hand there.\n\n" + message)
    return InstallReport(ext_id, ext_dir, launcher, names, manifests, keys, message, archive, offered)


def _offer_crx(ext_dir: Path, home: Path, platform: Platform, names: list[str],
               custom_dir: Path | None) -> tuple[PackedExtension, list[Path]]:
    """Pack the extension and point Chromium's profile roots at it (installer/packed_extension.py)."""
    if platform.system != "linux":
        raise UsageError("--crx works on Linux only: Chrome on macOS and Windows takes external extensions only "
                         "from the Chrome Web Store; load the unpacked folder instead")
    roots = ([default_user_data_dir(BROWSERS["chromium"], platform)] if "chromium" in names else [])
    roots += [custom_dir] if custom_dir is not None else []
    if not roots:
        raise UsageError("--crx is for Chromium (Google Chrome reads external extensions only from system folders): "
                         "add --browser chromium or --user-data-dir DIR")
    binary = next((found for b in BROWSERS["chromium"].linux_binaries if (found := platform.which(b))), None)
    if binary is None:
        raise UsageError("--crx needs Chromium on PATH to pack the extension (chromium or chromium-browser)")
    packed = pack(ext_dir, home, binary)
    return packed, [offer(packed, root) for root in roots]
