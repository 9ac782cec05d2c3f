"""Errors the installer reports to the person running it."""

from __future__ import annotations


class InstallError(Exception):
    """Installing or uninstalling failed; the message says what to do."""


class UsageError(InstallError):
    """The request itself cannot be honoured (the CLI exits with 2)."""
