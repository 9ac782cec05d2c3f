"""`bua uninstall`: the installer's part (manifests, registry keys, recorded MCP entries), then what the app
wrote: bua in the MCP clients' user-wide configs, the login entry, and with --purge BUA_HOME itself.

Each of these is removed only when it belongs to this BUA_HOME (installer/uninstall.py says how a manifest is
told apart); whatever stays is named, with how to remove the extension from the browser.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from app.cli.client import CoreClient, CoreUnavailable
from app.mcp.config_snippets import WRITABLE
from app.ui import autostart
from installer.cli import EXIT_FAILED, EXIT_USAGE, run_uninstall
from installer.placed_extension import placed_folder
from installer.record import load_record
from installer.uninstall import remove_mcp_entry
from native_host.paths import bua_home

HOME_MARKERS = ("bua.sqlite3", "native-host", "run", "extension", "browser-profile")
"""What a folder holds once bua used it: --purge deletes only a folder with one of them."""


def add_purge_argument(uninstall: argparse.ArgumentParser) -> None:
    uninstall.add_argument("--purge", action="store_true",
                           help="also delete BUA_HOME: settings, history, screenshots, the browser profile "
                                "`bua browser` uses and the extension folder")


def _core_running(home: Path) -> bool:
    try:
        with CoreClient(home) as client:
            client.call("status")
    except (CoreUnavailable, OSError):
        return False
    return True


def purge_refusal(home: Path) -> str | None:
    """Why `home` must not be deleted, or None."""
    if not home.exists():
        return None
    if home in (Path.home().absolute(), Path(home.anchor)) or not home.is_dir():
        return f"{home} is not a bua folder; set BUA_HOME to the folder bua uses"
    if not any((home / marker).exists() for marker in HOME_MARKERS):
        return f"{home} holds none of bua's files ({', '.join(HOME_MARKERS)}); nothing deleted"
    if _core_running(home):
        return f"bua is running for {home}: quit the app (tray → Quit) or stop `bua serve`, then run this again"
    return None


def _app_entries(home: Path) -> tuple[list[str], list[str]]:
    """MCP entries written before the record knew them, and the login entry: (removed, kept)."""
    removed, kept = [], []
    recorded = set(load_record(home).mcp_configs)
    for client, where in WRITABLE.items():
        path = where()
        if str(path) in recorded:
            continue  # the installer's part already handled it
        taken, why = remove_mcp_entry(path, home)
        if taken:
            removed.append(f"bua from {client}'s MCP config {path}")
        if why:
            kept.append(why)
    started = autostart.entry_home()
    if started is not None and started == home:
        removed.append(f"the login entry {autostart.set_enabled(False)}")
    elif started is not None:
        kept.append(f"the login entry: it starts another BUA_HOME ({started})")
    return removed, kept


def run(args: argparse.Namespace) -> int:
    home = bua_home().absolute()
    if args.purge and (refusal := purge_refusal(home)):
        print(f"bua uninstall --purge: {refusal}", file=sys.stderr)
        return EXIT_USAGE
    code = run_uninstall(args)
    if code != 0:
        return code
    try:
        removed, kept = _app_entries(home)
    except (OSError, ValueError) as err:
        print(f"bua uninstall: {err}", file=sys.stderr)
        return EXIT_FAILED
    for item in removed:
        print(f"Removed {item}")
    for item in kept:
        print(f"Kept {item}")
    if args.purge and home.exists():
        shutil.rmtree(home)
        print(f"Removed {home} (settings, history, the browser profile, the extension folder)")
    elif home.exists():
        print(f"Kept {home}: your settings, history, screenshots, the `bua browser` profile and the extension "
              "folder. `bua uninstall --purge` deletes it.")
    print(f"The extension stays in your browser until you remove it: open chrome://extensions and click Remove on "
          f"bua (it was loaded from {placed_folder(home)}). Then uninstall the program itself: "
          "pipx uninstall bua-browser (or uv tool uninstall bua-browser).")
    return code
