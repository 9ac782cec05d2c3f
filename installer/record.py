"""`<BUA_HOME>/native-host/installed.json`: what install wrote, so uninstall removes exactly that."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from installer.launcher import host_dir
from installer.manifest import write_json


@dataclass
class InstallRecord:
    manifests: list[str] = field(default_factory=list)
    registry_keys: list[str] = field(default_factory=list)
    launcher: str | None = None
    mcp_configs: list[str] = field(default_factory=list)
    """MCP client config files `bua install --mcp` added bua to (uninstall removes that entry only)."""
    offered: list[str] = field(default_factory=list)
    """External Extensions files `bua install --crx` wrote (installer/packed_extension.py)."""

    def add(self, *, manifests: list[Path], registry_keys: list[str], launcher: Path) -> None:
        """Merge one install run in; earlier runs (other browsers, other dirs) are kept."""
        self.manifests += [str(m) for m in manifests if str(m) not in self.manifests]
        self.registry_keys += [k for k in registry_keys if k not in self.registry_keys]
        self.launcher = str(launcher)

    def add_offered(self, paths: list[Path]) -> None:
        self.offered += [str(p) for p in paths if str(p) not in self.offered]

    def add_mcp_config(self, path: Path) -> None:
        if str(path) not in self.mcp_configs:
            self.mcp_configs.append(str(path))


def record_path(home: Path) -> Path:
    return host_dir(home) / "installed.json"


def load_record(home: Path) -> InstallRecord:
    """The record, or an empty one if there is none or it is unreadable."""
    try:
        data = json.loads(record_path(home).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return InstallRecord()
    if not isinstance(data, dict):
        return InstallRecord()
    launcher = data.get("launcher")
    return InstallRecord(
        manifests=[m for m in data.get("manifests", []) if isinstance(m, str)],
        registry_keys=[k for k in data.get("registry_keys", []) if isinstance(k, str)],
        launcher=launcher if isinstance(launcher, str) else None,
        mcp_configs=[c for c in data.get("mcp_configs", []) if isinstance(c, str)],
        offered=[o for o in data.get("offered", []) if isinstance(o, str)],
    )


def save_record(home: Path, record: InstallRecord) -> None:
    write_json(record_path(home), asdict(record))
