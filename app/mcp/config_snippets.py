"""`bua mcp --print-config CLIENT`: the snippet that client needs to start `bua mcp`, with absolute paths.

Where each client reads it (as of their current docs):
* Claude Code: `claude mcp add` (user or project scope), or `.mcp.json` in a project.
* Claude Desktop: `claude_desktop_config.json` in the app's config folder (Settings → Developer → Edit Config).
* Cursor: `~/.cursor/mcp.json` (all projects) or `.cursor/mcp.json` (one project).
* VS Code: `.vscode/mcp.json` in a workspace (note: `servers`, not `mcpServers`), or `code --add-mcp`.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any, Callable

from app import DISTRIBUTION

CLIENTS = ("claude-code", "claude-desktop", "cursor", "vscode")
VIA = ("path", "uvx")
"""How the client starts bua: `path` the installed `bua` by absolute path; `uvx` through uv from the package
index, with nothing installed beforehand (as Playwright MCP's `npx` line)."""


def uvx_command() -> list[str]:
    return ["uvx", "--from", DISTRIBUTION, "bua"]


def bua_command() -> list[str]:
    """The installed `bua` as an absolute path: the script beside this interpreter (a venv's bin), else the one
    on PATH, else this interpreter running the package."""
    scripts = Path(sys.executable).parent
    for name in ("bua", "bua.exe"):
        if (scripts / name).is_file():
            return [str((scripts / name).absolute())]
    found = shutil.which("bua")
    if found:
        return [str(Path(found).absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "app"]


def server_entry(command: list[str], env: dict[str, str]) -> dict[str, Any]:
    entry: dict[str, Any] = {"command": command[0], "args": [*command[1:], "mcp"]}
    if env:
        entry["env"] = env
    return entry


def _env() -> dict[str, str]:
    """A BUA_HOME set here must reach the server too, or it would look for another core."""
    home = os.environ.get("BUA_HOME")
    return {"BUA_HOME": str(Path(home).absolute())} if home else {}


def desktop_config_path() -> Path:
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming")) / "Claude" / "claude_desktop_config.json"
    return Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) / "Claude" / "claude_desktop_config.json"


def snippet(client: str, via: str = "path") -> str:
    if via not in VIA:
        raise ValueError(f"unknown way to start bua {via!r}; valid: {', '.join(VIA)}")
    command, env = (uvx_command() if via == "uvx" else bua_command()), _env()
    entry = server_entry(command, env)
    if client == "claude-code":
        env_flags = "".join(f" --env {k}={shlex.quote(v)}" for k, v in env.items())
        return (f"# Run once (add --scope project to share it through .mcp.json):\n"
                f"claude mcp add bua{env_flags} -- {shlex.join([*command, 'mcp'])}\n")
    if client == "claude-desktop":
        return (f"// Merge into {desktop_config_path()} (or run `bua install --mcp claude-desktop`), "
                f"then restart Claude Desktop:\n{json.dumps({'mcpServers': {'bua': entry}}, indent=2)}\n")
    if client == "cursor":
        return (f"// Merge into ~/.cursor/mcp.json (all projects; or run `bua install --mcp cursor`) or "
                f".cursor/mcp.json (this project):\n"
                f"{json.dumps({'mcpServers': {'bua': entry}}, indent=2)}\n")
    if client == "vscode":
        return (f"// Merge into .vscode/mcp.json in your workspace:\n"
                f"{json.dumps({'servers': {'bua': {'type': 'stdio', **entry}}}, indent=2)}\n")
    raise ValueError(f"unknown client {client!r}; valid: {', '.join(CLIENTS)}")


WRITABLE: dict[str, Callable[[], Path]] = {"claude-desktop": desktop_config_path, "cursor": lambda: Path.home() / ".cursor" / "mcp.json"}
"""The clients whose user-wide config `bua install --mcp` can write: both keep servers under `mcpServers`."""


def write_config(client: str, path: Path | None = None) -> Path:
    """Add (or update) bua in the client's user-wide config, keeping every other server and setting."""
    path = path or WRITABLE[client]()
    config: dict[str, Any] = {}
    if path.exists():
        text = path.read_text(encoding="utf-8").strip()
        try:
            config = json.loads(text) if text else {}
        except json.JSONDecodeError as err:
            raise ValueError(f"{path} is not valid JSON ({err}); fix it or move it away, then run this again") from None
        if not isinstance(config, dict):
            raise ValueError(f"{path} does not hold a JSON object; fix it or move it away, then run this again")
    servers = config.setdefault("mcpServers", {})
    servers["bua"] = server_entry(bua_command(), _env())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    return path
