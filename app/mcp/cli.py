"""The `bua mcp` subcommand: serve MCP on stdio, or print a client's config snippet."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Callable

from app.mcp.config_snippets import CLIENTS, VIA, WRITABLE, snippet, write_config
from installer.record import load_record, save_record
from native_host.paths import bua_home


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    mcp = sub.add_parser("mcp", help="serve bua to an MCP client (Claude Code, Claude Desktop, Cursor, VS Code) "
                                     "on stdio, one lane per client")
    mcp.add_argument("--print-config", choices=CLIENTS, metavar="CLIENT",
                     help=f"print the snippet that starts bua from CLIENT ({', '.join(CLIENTS)}) and exit")
    mcp.add_argument("--via", choices=VIA, default="path",
                     help="with --print-config: start the installed bua by its absolute path (default), or through "
                          "`uvx --from bua-browser bua mcp`, which needs only uv (then run `uvx --from bua-browser "
                          "bua install` once for the extension and the native host)")
    mcp.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.print_config:
        # The hint (where it goes) to stderr, so that stdout is exactly the config: `… > mcp.json` is valid JSON.
        hint, body = snippet(args.print_config, args.via).split("\n", 1)
        print(hint, file=sys.stderr)
        sys.stdout.write(body)
        return 0
    if sys.stdin.isatty():
        print("bua mcp: this is an MCP server for an agent to start, speaking JSON-RPC on stdin/stdout. "
              "To set it up: bua mcp --print-config claude-code|claude-desktop|cursor|vscode", file=sys.stderr)
    from app.mcp.server import serve

    try:
        asyncio.run(serve(bua_home()))
    except KeyboardInterrupt:
        pass
    return 0


def add_install_argument(install: argparse.ArgumentParser) -> None:
    install.add_argument("--mcp", choices=sorted(WRITABLE), metavar="CLIENT",
                         help=f"also add `bua mcp` to CLIENT's config ({', '.join(sorted(WRITABLE))}); for other "
                              "clients see `bua mcp --print-config`")


def with_mcp_config(run_install: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """`bua install`, then, with --mcp CLIENT, bua written into that client's MCP config."""
    def run(args: argparse.Namespace) -> int:
        code = run_install(args)
        if not getattr(args, "mcp", None):
            return code
        try:
            path = write_config(args.mcp)
        except (ValueError, OSError) as err:
            print(f"bua install --mcp {args.mcp}: {err}", file=sys.stderr)
            return max(code, 1)
        record = load_record(bua_home())
        record.add_mcp_config(path)
        save_record(bua_home(), record)
        print(f"MCP: bua added to {path}; restart {args.mcp} to load it (`bua uninstall` takes it out again).")
        return code
    return run
