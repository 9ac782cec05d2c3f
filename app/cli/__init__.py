"""`bua` command line: one module per subcommand group, wired in app.cli.main."""

from app.cli.main import main

__all__ = ["main"]
