"""The first-start UI check: every library of Qt's xcb plugin is tried, and the missing ones are named as one apt line."""

from __future__ import annotations

import pytest

from app.ui import xcb_check
from app.ui.platform_check import why_no_ui


def test_the_plugin_libraries_are_read_from_the_real_plugin():
    names = xcb_check.system_libraries(xcb_check.qt_dir())
    for expected in ("libxcb.so.1", "libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-keysyms.so.1",
                     "libxkbcommon-x11.so.0", "libX11-xcb.so.1"):
        assert expected in names
    assert not any(n.startswith("libQt6") for n in names), "PySide6's own libraries are not checked"


@pytest.mark.parametrize("soname, package", [
    ("libxcb-icccm.so.4", "libxcb-icccm4"), ("libxcb-render-util.so.0", "libxcb-render-util0"),
    ("libX11-xcb.so.1", "libx11-xcb1"), ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"), ("libGL.so.1", "libgl1"),
    ("libglib-2.0.so.0", "libglib2.0-0"), ("libm.so.6", "libc6"), ("libdbus-1.so.3", "libdbus-1-3"),
])
def test_debian_package_names(soname, package):
    assert xcb_check.debian_package(soname) == package


@pytest.fixture
def without(monkeypatch):
    """Exactly the given libraries fail to load, as on a machine that lacks them (the rest load)."""
    def install(*missing: str) -> None:
        def fake(name, *args, **kwargs):
            if name in missing:
                raise OSError(f"{name}: cannot open shared object file: No such file or directory")
            return object()
        monkeypatch.setattr(xcb_check.ctypes, "CDLL", fake)
    return install


def test_every_missing_library_is_named_in_one_apt_line(without):
    without("libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxcb-image.so.0")
    missing = xcb_check.missing_libraries()
    assert missing == ["libxcb-icccm.so.4", "libxcb-image.so.0", "libxcb-keysyms.so.1"]
    assert xcb_check.apt_line(missing) == "sudo apt-get install libxcb-icccm4 libxcb-image0 libxcb-keysyms1"


def test_why_no_ui_names_the_packages_instead_of_letting_qt_abort(monkeypatch, without):
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("DISPLAY", ":99")
    without("libxcb-icccm.so.4", "libxcb-keysyms.so.1")
    reason = why_no_ui()
    assert reason is not None and "sudo apt-get install libxcb-icccm4 libxcb-keysyms1" in reason


def test_the_make_run_helper_prints_only_package_names(without, capsys):
    without("libxcb-cursor.so.0")
    assert xcb_check.main(["--packages"]) == 0
    assert capsys.readouterr().out.strip() == "libxcb-cursor0"
