"""Entry point of the `bua` console script.

Exit codes: 0 success, 1 the action/operation failed, 2 usage or connection errors.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import sqlite3
import sys

from app.cli import control_commands, install_command, uninstall_command
from app.cli.client import CoreClient, CoreUnavailable, dumps
from app.mcp import cli as mcp_cli
from app.ui.format import ago, last_action
from native_host.paths import bua_home


def _serve(args: argparse.Namespace) -> int:
    from app.bridge.server import AlreadyRunning
    from app.core.service import serve_forever

    try:
        asyncio.run(serve_forever(bua_home()))
    except AlreadyRunning as err:
        print(f"bua: {err}", file=sys.stderr)
        return 2
    except (OSError, sqlite3.Error) as err:  # e.g. BUA_HOME not writable, or the store locked by another program
        print(f"bua: cannot start the core for {bua_home()}: {err}. Check that the folder is yours and writable, "
              "and that no other program holds bua.sqlite3.", file=sys.stderr)
        return 2
    return 0


def _ui(args: argparse.Namespace) -> int:
    """`bua` alone: the tray app; without a usable display, the windowless core with a clear message."""
    from app.ui.platform_check import why_no_ui

    reason = why_no_ui()
    if reason is not None:
        print(f"bua: cannot open a window ({reason}); running the core without one, like `bua serve`.",
              file=sys.stderr, flush=True)
        return _serve(args)
    from app.ui.app import main as ui_main

    try:
        return ui_main()
    except (OSError, sqlite3.Error) as err:  # the store cannot be opened for a reason other than damage
        print(f"bua: cannot start for {bua_home()}: {err}. Check that the folder is yours and writable, "
              "and that no other program holds bua.sqlite3.", file=sys.stderr)
        return 2


def _action_list() -> str:
    """`bua act --help`'s epilog: every action with its input, from the declarations (app/protocol/actions)."""
    from app.protocol.actions.registry import MODEL_BY_TYPE, signature

    lines = [f"  {name} {signature(model)}" for name, model in MODEL_BY_TYPE.items()]
    return "actions (fields with ? are optional):\n" + "\n".join(lines) + (
        "\n\nexit codes: 0 ok, 1 the action failed (the error names the next step), 2 usage or connection errors "
        "(no core, no browser)")


def _act(args: argparse.Namespace) -> int:
    try:
        action = json.loads(args.action)
    except json.JSONDecodeError as err:
        print(f"bua act: the action is not JSON ({err}); e.g. '{{\"type\":\"get_tabs\"}}'", file=sys.stderr)
        return 2
    try:
        with CoreClient(bua_home()) as client:
            reply = client.call("act", action=action, task_id=args.task, wait_s=args.wait, confirm=args.confirm)
    except CoreUnavailable as err:
        print(f"bua act: {err}", file=sys.stderr)
        return 2
    if "response" not in reply:
        print(dumps(reply), file=sys.stderr)
        return 2
    print(dumps(reply["response"]))
    if reply["ok"]:
        return 0
    code = (reply["response"].get("error") or {}).get("code")
    return 2 if code == "extension_disconnected" else 1


def _status(args: argparse.Namespace) -> int:
    try:
        with CoreClient(bua_home()) as client:
            reply = client.call("status")
    except CoreUnavailable as err:
        print(f"core: not running ({err})")
        return 1
    status = reply["result"]
    print(f"core: running (pid {status['pid']}, up {status['uptime_s']} s)")
    if status.get("store_recovered"):
        print(f"store: {status['store_recovered']}")
    if not status["browsers"]:
        print("browsers: none connected — load the extension (see `bua install`) or run `bua browser`")
    for b in status["browsers"]:
        print(f"browser: {b['browser']}  profile {b['profile_id']}  extension {b['extension_version']}  "
              f"host pid {b['host_pid']}  pending {b['pending']}")
    print(f"sessions: {len(status['sessions'])} live")
    for s in status["sessions"]:
        print(f"  {s['task_id']:<16} {s['domain']:<28} tab {s['tab_id']:<6} {s['title'][:40]:<40} "
              f"since {ago(s['started'])}, last action {last_action(s)}")
    for t in status["tasks"]:
        print(f"task {t['task_id']}: {t['status']}, {t['steps']} steps — {t['last'][:80]}")
    print(f"blocklist: {', '.join(status['blocklist']) or '(empty)'}")
    return 0


def _announce_browser() -> None:
    """Tells a running core that a browser is on its way, so `bua act` waits for it rather than failing at once."""
    try:
        with CoreClient(bua_home()) as client:
            client.call("expect_browser", seconds=60)
    except (CoreUnavailable, OSError):
        pass  # no core yet: it will see the browser connect when it starts


def _browser(args: argparse.Namespace) -> int:
    from app.browser.launch import BrowserNotFound, launch_browser

    def on_term(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    # SIGTERM/SIGINT wait while the browser starts, so that one arriving at any moment stops it too.
    signal.signal(signal.SIGTERM, on_term)
    held = {signal.SIGTERM, signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, held)
    _announce_browser()
    try:
        browser = launch_browser(bua_home(), headless=args.headless, user_data_dir=args.user_data_dir,
                                 binary=args.binary)
    except BrowserNotFound as err:
        print(f"bua browser: {err}", file=sys.stderr)
        return 2
    try:
        print(f"browser started (pid {browser.process.pid}, profile {browser.user_data_dir})", flush=True)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, held)
        return browser.process.wait()
    except KeyboardInterrupt:
        return 0
    finally:
        browser.stop()


def _demo(args: argparse.Namespace) -> int:
    from app.demo.run import main as demo_main

    return demo_main(headless=True if args.headless else None, count=args.count, delay_ms=args.delay_ms)


def build_parser() -> argparse.ArgumentParser:
    from app import __version__
    from installer import cli as installer_cli

    parser = argparse.ArgumentParser(prog="bua", description="An LLM agent in your own Chrome. `bua` alone starts "
                                     "the tray app.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log what happens (with a command)")
    parser.add_argument("-V", "--version", action="version", version=f"bua {__version__}")
    sub = parser.add_subparsers(dest="command")

    sub.add_parser("serve", help="run the core (bridge + local control socket) without any window").set_defaults(
        func=_serve)

    act = sub.add_parser("act", help="send one browser action through the running core",
                         epilog=_action_list(), formatter_class=argparse.RawDescriptionHelpFormatter)
    act.add_argument("action", help="JSON action, e.g. '{\"type\":\"get_tabs\"}'")
    act.add_argument("--task", default=None,
                     help="task id the action belongs to. Without it the action is yours, under the task `cli`: "
                          "each call is a new instruction and lifts an earlier Stop or idle end of `cli`; a task "
                          "named here stays stopped once stopped")
    act.add_argument("--wait", type=float, default=None,
                     help="seconds to wait for a browser to connect (default: up to 30 s, and only while one is "
                          "starting or reconnecting; with none on its way the answer is immediate)")
    act.add_argument("--confirm", action="store_true",
                     help="you approve the action if it is sensitive (pays, sends, deletes, changes an account, "
                          "carries one site's data to another); without it such an action answers "
                          "confirmation_required. Only for the command line's own tasks: a task an agent or an MCP "
                          "client holds is refused")
    act.set_defaults(func=_act)

    sub.add_parser("status", help="is the core running, which browsers are connected").set_defaults(func=_status)
    mcp_cli.add_parser(sub)
    control_commands.add_parsers(sub)

    browser = sub.add_parser("browser", help="start Chromium/Chrome with a dedicated profile and the extension")
    browser.add_argument("--headless", action="store_true")
    browser.add_argument("--user-data-dir", default=None)
    browser.add_argument("--binary", default=None)
    browser.set_defaults(func=_browser)

    demo = sub.add_parser("demo", help="see bua work without an API key: offline model, demo site, a browser")
    demo.add_argument("--headless", action="store_true", help="no window even when a display exists")
    demo.add_argument("--count", type=int, default=3, help="how many candidates to collect (default 3)")
    demo.add_argument("--delay-ms", type=int, default=300, help="how slowly the candidate panel opens")
    demo.set_defaults(func=_demo)

    install = sub.add_parser("install", help="register the native host for your browsers")
    installer_cli.add_install_arguments(install)
    mcp_cli.add_install_argument(install)
    install_command.add_open_argument(install)
    install.set_defaults(func=mcp_cli.with_mcp_config(install_command.with_extensions_page(installer_cli.run_install)))
    uninstall = sub.add_parser("uninstall", help="remove what install wrote (host registration, MCP entries, "
                               "login entry); --purge also BUA_HOME")
    installer_cli.add_uninstall_arguments(uninstall)
    uninstall_command.add_purge_argument(uninstall)
    uninstall.set_defaults(func=uninstall_command.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if not getattr(args, "func", None):
        if args.verbose:  # `bua -v` alone reads as "version" to many: say so rather than start the app
            from app import __version__

            print(f"bua {__version__}\n(-v/--verbose turns on logging for a command: `bua -v serve`; `bua` alone "
                  "starts the app)")
            return 0
        return _ui(args)
    return int(args.func(args) or 0)
