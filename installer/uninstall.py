"""Remove what `install` wrote for this BUA_HOME: manifests, registry keys, MCP entries, the launcher, the record.

Removes the recorded items plus bua's manifest at every browser's default location, so a lost record still
leaves nothing behind; but a manifest (or registry key) counts as this install's only when it points at this
BUA_HOME's launcher, so uninstalling one BUA_HOME never unregisters another. Safe to run twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from installer.errors import UsageError
from installer.launcher import POSIX_NAME, WINDOWS_NAME, host_dir, launcher_path
from installer.manifest import write_json
from installer.packed_extension import CRX_NAME
from installer.record import load_record, record_path
from installer.registry import Registry, WinRegistry
from installer.system import Platform
from installer.targets import BROWSERS, custom_manifest_path, manifest_path, registry_key, windows_manifest_path
from native_host.paths import bua_home, default_home

MCP_SERVER_NAME = "bua"


@dataclass(frozen=True)
class UninstallReport:
    removed_files: list[Path] = field(default_factory=list)
    removed_registry_keys: list[str] = field(default_factory=list)
    removed_mcp_entries: list[Path] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    """What was left in place and why (another BUA_HOME's manifest, an MCP entry changed by hand, …)."""


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _ours(manifest: Path, home: Path) -> bool:
    """Whether this manifest starts this BUA_HOME's launcher (a damaged bua manifest counts as ours too)."""
    data = _json(manifest)
    if not isinstance(data, dict) or not isinstance(data.get("path"), str):
        return True
    mine = {str(launcher_path(home, "linux")), str(launcher_path(home, "win32"))}
    return data["path"] in mine


def _manifest_candidates(home: Path, user_data_dir: Path | None, platform: Platform) -> list[Path]:
    files = [Path(m) for m in load_record(home).manifests]
    for browser in BROWSERS.values():
        files.append(windows_manifest_path(browser, home) if platform.system == "win32"
                     else manifest_path(browser, platform))
    if user_data_dir is not None:
        files.append(custom_manifest_path(user_data_dir.absolute()))
    return list(dict.fromkeys(files))


def _own_files(home: Path) -> list[Path]:
    record = load_record(home)
    files = [Path(record.launcher)] if record.launcher else []
    return files + [host_dir(home) / POSIX_NAME, host_dir(home) / WINDOWS_NAME, record_path(home), home / CRX_NAME]


def remove_mcp_entry(path: Path, home: Path) -> tuple[bool, str | None]:
    """Drop `mcpServers.bua` from a client's config, keeping every other server and setting.

    Returns (removed, why it was kept); an entry that starts another BUA_HOME is kept.
    """
    data = _json(path)
    if data is None:
        return False, (f"{path}: not valid JSON, left as it is" if path.exists() else None)
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    entry = servers.get(MCP_SERVER_NAME) if isinstance(servers, dict) else None
    if not isinstance(servers, dict) or not isinstance(entry, dict):
        return False, None
    env = entry.get("env")
    named = env.get("BUA_HOME") if isinstance(env, dict) else None
    entry_home = Path(named).absolute() if isinstance(named, str) else default_home()
    if entry_home != home:
        return False, f"{path}: its bua entry starts another BUA_HOME ({entry_home})"
    del servers[MCP_SERVER_NAME]
    write_json(path, data)
    return True, None


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
    record = load_record(home)
    if platform.system == "win32":
        registry = registry if registry is not None else WinRegistry()
        own = {str(windows_manifest_path(b, home)).lower() for b in BROWSERS.values()}
        for key in dict.fromkeys(record.registry_keys + [registry_key(b) for b in BROWSERS.values()]):
            value = registry.get_default_value(key) if registry.key_exists(key) else None
            if value is not None and value.lower() not in own:
                report.kept.append(rf"HKEY_CURRENT_USER\{key}: points at another bua ({value})")
            elif registry.delete_key(key):
                report.removed_registry_keys.append(key)
    for path in _manifest_candidates(home, user_data_dir, platform):
        if not path.is_file():
            continue
        if _ours(path, home):
            path.unlink()
            report.removed_files.append(path)
        else:
            report.kept.append(f"{path}: registers another BUA_HOME's host")
    crx = str(home / CRX_NAME)
    for offered in map(Path, record.offered):
        data = _json(offered)
        if isinstance(data, dict) and data.get("external_crx") == crx:
            offered.unlink()
            report.removed_files.append(offered)
    for config in record.mcp_configs:
        removed, why = remove_mcp_entry(Path(config), home)
        if removed:
            report.removed_mcp_entries.append(Path(config))
        if why:
            report.kept.append(why)
    for path in dict.fromkeys(_own_files(home)):
        if path.is_file():
            path.unlink()
            report.removed_files.append(path)
    _remove_empty_dirs(home)
    return report
