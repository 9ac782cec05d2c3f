"""Remove what `install` wrote: manifests, registry keys, the launcher, the record.

Removes the recorded items plus bua's manifest at every browser's default
location, so a lost record still leaves nothing behind. Safe to run twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from installer.errors import UsageError
from installer.launcher import POSIX_NAME, WINDOWS_NAME, host_dir
from installer.record import load_record, record_path
from installer.registry import Registry, WinRegistry
from installer.system import Platform
from installer.targets import BROWSERS, custom_manifest_path, manifest_path, registry_key, windows_manifest_path
from native_host.paths import bua_home


@dataclass(frozen=True)
class UninstallReport:
    removed_files: list[Path] = field(default_factory=list)
    removed_registry_keys: list[str] = field(default_factory=list)


def _candidate_files(home: Path, user_data_dir: Path | None, platform: Platform) -> list[Path]:
    record = load_record(home)
    files = [Path(m) for m in record.manifests]
    for browser in BROWSERS.values():
        if platform.system == "win32":
            files.append(windows_manifest_path(browser, home))
        else:
            files.append(manifest_path(browser, platform))
    if user_data_dir is not None:
        files.append(custom_manifest_path(user_data_dir.absolute()))
    if record.launcher:
        files.append(Path(record.launcher))
    files += [host_dir(home) / POSIX_NAME, host_dir(home) / WINDOWS_NAME, record_path(home)]
    return list(dict.fromkeys(files))


def _remove_empty_dirs(home: Path) -> None:
    """Drop bua's own `native-host` folders once empty; never the browsers' folders."""
    for sub in [host_dir(home) / name for name in BROWSERS] + [host_dir(home)]:
        try:
            sub.rmdir()
        except OSError:
            pass


def uninstall(
    home: Path | None = None,
    user_data_dir: Path | None = None,
    *,
    platform: Platform | None = None,
    registry: Registry | None = None,
) -> UninstallReport:
    platform = platform or Platform.current()
    home = (home or bua_home()).absolute()
    if user_data_dir is not None and platform.system == "win32":
        raise UsageError("--user-data-dir is not supported on Windows (hosts are registered in the registry)")
    report = UninstallReport()
    if platform.system == "win32":
        registry = registry if registry is not None else WinRegistry()
        keys = load_record(home).registry_keys + [registry_key(b) for b in BROWSERS.values()]
        for key in dict.fromkeys(keys):
            if registry.delete_key(key):
                report.removed_registry_keys.append(key)
    for path in _candidate_files(home, user_data_dir, platform):
        if path.is_file():
            path.unlink()
            report.removed_files.append(path)
    _remove_empty_dirs(home)
    return report
