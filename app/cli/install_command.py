"""`bua install`: the installer (installer/cli.py), then the extensions page opened for the person."""

from __future__ import annotations

import argparse
import sys
from typing import Callable

from app.browser.extensions_page import open_extensions_page
from installer.errors import UsageError


def add_open_argument(install: argparse.ArgumentParser) -> None:
    install.add_argument("--no-open", action="store_true",
                         help="do not open chrome://extensions afterwards (it opens in the first browser found)")


def with_extensions_page(run_install: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Open the extensions page after a successful install, so the steps it printed can be followed at once."""
    def run(args: argparse.Namespace) -> int:
        code = run_install(args)
        if code != 0 or getattr(args, "no_open", False):
            return code
        names = list(args.browser) if args.browser and "all" not in args.browser else None
        try:
            opened = open_extensions_page(names=names, user_data_dir=args.user_data_dir)
        except UsageError as err:
            print(f"\nNot opened: {err}.", file=sys.stderr)
            return code
        except OSError as err:
            print(f"\nNot opened: the browser did not start ({err}); open chrome://extensions yourself.",
                  file=sys.stderr)
            return code
        print(f"\nOpened {opened}.")
        return code
    return run
