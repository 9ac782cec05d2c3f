"""The `bua mcp` subcommand: serve MCP on stdio, or print a client's config snippet."""

from __future__ import annotations

import argparse
import asyncio
import sys

from app.mcp.config_snippets import CLIENTS, snippet
from native_host.paths import bua_home


def add_parser(sub: argparse._SubParsersAction) -> None:
    mcp = sub.add_parser("mcp", help="serve bua to an MCP client (Claude Code, Claude Desktop, Cursor, VS Code) "
                                     "on stdio, one lane per client")
    mcp.add_argument("--print-config", choices=CLIENTS, metavar="CLIENT",
                     help=f"print the snippet that starts bua from CLIENT ({', '.join(CLIENTS)}) and exit")
    mcp.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.print_config:
        sys.stdout.write(snippet(args.print_config))
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
