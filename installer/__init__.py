"""Registers bua's native-messaging host with Chrome, Chromium, Edge and Brave."""

from installer.errors import InstallError, UsageError
from installer.install import InstallReport, install
from installer.uninstall import UninstallReport, uninstall

__all__ = ["InstallError", "InstallReport", "UninstallReport", "UsageError", "install", "uninstall"]
