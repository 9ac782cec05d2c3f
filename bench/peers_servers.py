"""How the peer suite starts each MCP server over stdio: `bua mcp` against the bench's running core, and the two
peers, pinned in bench/peers/package.json and installed by `make bench` (npm ci), each launching Debian's
Chromium headless with the flags this machine needs (no sandbox as root, no background networking)."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from mcp.client.stdio import StdioServerParameters

from tests.e2e.mcp_helpers import server_params

PEERS_DIR = Path(__file__).resolve().parent / "peers"
BIN = PEERS_DIR / "node_modules" / ".bin"
CHROMIUM_FLAGS = ("--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-features=DialMediaRouteProvider,MediaRouter")
BUA, PLAYWRIGHT, DEVTOOLS = "bua", "playwright-mcp", "chrome-devtools-mcp"


@dataclass(frozen=True)
class Server:
    name: str
    params: StdioServerParameters | None
    missing: str = ""
    """Why the server cannot be started (empty when it can)."""


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def installed_version(package: str) -> str:
    manifest = PEERS_DIR / "node_modules" / package / "package.json"
    return str(json.loads(manifest.read_text()).get("version", "?")) if manifest.exists() else ""


def _peer_missing(bin_name: str, package: str) -> str:
    if shutil.which("node") is None:
        return "node is not installed (Debian: apt-get install nodejs npm)"
    if chromium() is None:
        return "no Chromium (Debian: apt-get install chromium)"
    if not (BIN / bin_name).exists():
        return (f"{package} is not installed in bench/peers/node_modules: `npm ci` there failed or did not run "
                "(`make bench` runs it; see its output)")
    return ""


def bua(home: Path) -> Server:
    return Server(BUA, server_params(home))


def playwright(work: Path) -> Server:
    """Playwright MCP with its defaults but the browser: Debian's Chromium, headless, an in-memory profile. Its
    output files (the snapshots its actions write instead of answering them) go to `work`."""
    missing = _peer_missing("playwright-mcp", "@playwright/mcp")
    if missing:
        return Server(PLAYWRIGHT, None, missing)
    config = {"browser": {"browserName": "chromium", "isolated": True,
                          "launchOptions": {"executablePath": chromium(), "headless": True, "chromiumSandbox": False,
                                            "args": list(CHROMIUM_FLAGS)}},
              "outputDir": str(work / "playwright-output")}
    path = work / "playwright-mcp.json"
    path.write_text(json.dumps(config))
    return Server(PLAYWRIGHT, StdioServerParameters(command="node", args=[str(BIN / "playwright-mcp"), "--config",
                                                                          str(path)],
                                                    env=_node_env(), cwd=str(work)))


def devtools(work: Path) -> Server:
    """chrome-devtools-mcp with its defaults but the browser (Debian's Chromium, headless, a temporary profile),
    no usage statistics or CrUX look-ups (no network here), and page-id routing off, so that no call needs a
    `pageId` read from `list_pages` first (the cheaper way for it)."""
    missing = _peer_missing("chrome-devtools-mcp", "chrome-devtools-mcp")
    if missing:
        return Server(DEVTOOLS, None, missing)
    args = [str(BIN / "chrome-devtools-mcp"), "--headless", "--isolated", f"--executablePath={chromium()}",
            "--no-usage-statistics", "--no-performance-crux", "--no-page-id-routing",
            *[f"--chromeArg={flag}" for flag in CHROMIUM_FLAGS]]
    return Server(DEVTOOLS, StdioServerParameters(command="node", args=args, cwd=str(work),
                                                  env={**_node_env(), "CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS": "1"}))


def _node_env() -> dict[str, str]:
    keep = ("PATH", "HOME", "LANG", "TMPDIR", "DISPLAY")
    return {k: v for k, v in os.environ.items() if k in keep}
