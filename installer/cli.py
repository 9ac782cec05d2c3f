"""`bua install` / `bua uninstall` as argparse subcommands (also `python -m installer`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from installer.errors import InstallError, UsageError
from installer.install import install
from installer.registry import Registry
from installer.system import Platform
from installer.targets import BROWSERS
from installer.uninstall import uninstall

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_install_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--browser",
        action="append",
        choices=[*BROWSERS, "all"],
        help="register the host for this browser (repeatable; default: every browser found)",
    )
    parser.add_argument(
        "--user-data-dir",
        type=Path,
        metavar="DIR",
        help="register it for a browser started with --user-data-dir=DIR "
        "(only there unless --browser is given; not on Windows)",
    )
    parser.add_argument(
        "--extension-dir",
        type=Path,
        metavar="DIR",
        help="the unpacked extension to allow (default: the one shipped with bua)",
    )
    parser.add_argument(
        "--crx",
        action="store_true",
        help="Linux, Chromium: also pack the extension and have Chromium install it at its next start, without "
        "Developer mode (for --browser chromium and --user-data-dir; needs openssl)",
    )


def add_uninstall_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--user-data-dir",
        type=Path,
        metavar="DIR",
        help="also remove the host manifest from this --user-data-dir",
    )


def _browsers(args: argparse.Namespace) -> list[str] | None:
    chosen: list[str] | None = args.browser
    if not chosen:
        return None
    return list(BROWSERS) if "all" in chosen else chosen


def run_install(
    args: argparse.Namespace, *, platform: Platform | None = None, registry: Registry | None = None
) -> int:
    try:
        report = install(
            _browsers(args),
            args.user_data_dir,
            platform=platform,
            registry=registry,
            extension_dir=args.extension_dir,
            crx=args.crx,
        )
    except UsageError as err:
        print(f"bua install: {err}", file=sys.stderr)
        return EXIT_USAGE
    except (InstallError, OSError) as err:
        print(f"bua install failed: {err}", file=sys.stderr)
        return EXIT_FAILED
    print(f"Extension: {report.extension_dir}")
    if report.archive is not None:
        print(f"Extension zip: {report.archive}")
    print(f"Launcher: {report.launcher}")
    for path in report.manifests:
        print(f"Host manifest: {path}")
    for key in report.registry_keys:
        print(f"Registry key: HKEY_CURRENT_USER\\{key}")
    for path in report.offered:
        print(f"Offered to Chromium: {path}")
    print()
    print(report.message)
    return EXIT_OK


def run_uninstall(
    args: argparse.Namespace, *, platform: Platform | None = None, registry: Registry | None = None
) -> int:
    try:
        report = uninstall(user_data_dir=args.user_data_dir, platform=platform, registry=registry)
    except UsageError as err:
        print(f"bua uninstall: {err}", file=sys.stderr)
        return EXIT_USAGE
    except (InstallError, OSError) as err:
        print(f"bua uninstall failed: {err}", file=sys.stderr)
        return EXIT_FAILED
    for path in report.removed_files:
        print(f"Removed {path}")
    for key in report.removed_registry_keys:
        print(f"Removed registry key HKEY_CURRENT_USER\\{key}")
    for config in report.removed_mcp_entries:
        print(f"Removed bua from the MCP config {config}")
    for kept in report.kept:
        print(f"Kept {kept}")
    if not report.removed_files and not report.removed_registry_keys and not report.removed_mcp_entries:
        print("Nothing to remove: the bua native host is not installed.")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m installer", description="Register or remove bua's native-messaging host."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    add_install_arguments(commands.add_parser("install", help="register the native-messaging host"))
    add_uninstall_arguments(commands.add_parser("uninstall", help="remove everything install wrote"))
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return run_install(args) if args.command == "install" else run_uninstall(args)
