"""Import PySide6 through here first. shiboken replaces `builtins.__import__` so that every module imported
afterwards has its source read and scanned for PySide's opt-in `__feature__` switches (PYSIDE-2029): each later
import pays a source read, and the text stays in linecache. bua uses no `__feature__`, so the plain import is
put back right after PySide6 is loaded."""

from __future__ import annotations

import builtins

_plain_import = builtins.__import__

import PySide6.QtCore  # noqa: E402,F401  (loads shiboken, which installs its import wrapper)

if getattr(builtins.__import__, "__name__", "") == "__feature_import__":
    builtins.__import__ = _plain_import
