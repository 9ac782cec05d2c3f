"""Can a window open here? Checked before Qt is imported, because Qt aborts the process when it cannot."""

from __future__ import annotations

import importlib.util
import os
import sys

from app.ui.xcb_check import apt_line, missing_libraries


def why_no_ui() -> str | None:
    """None when the UI can start; otherwise a short reason the person can act on."""
    for module in ("PySide6", "qasync"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install -e . installs it)"
    if not sys.platform.startswith("linux"):
        return None
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform and not platform.startswith("xcb"):
        return None
    wayland = bool(os.environ.get("WAYLAND_DISPLAY")) and not platform
    if not os.environ.get("DISPLAY") and not wayland:
        return "no display (DISPLAY and WAYLAND_DISPLAY are unset)"
    if not wayland:
        missing = missing_libraries()
        if missing:
            return (f"Qt's X11 support cannot load {', '.join(missing)}; on Debian/Ubuntu install them with: "
                    f"{apt_line(missing)} (make run does this for you)")
    return None
