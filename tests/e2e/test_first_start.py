"""First start as a person has it: `bua` from the installed venv on a real X display (Xvfb and a window manager)
opens its window, with Qt's X11 plugin loading for real — no offscreen platform."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.harness.display import x_display

TOOLS = ("Xvfb", "openbox", "xdotool")
MISSING = [t for t in TOOLS if shutil.which(t) is None]
pytestmark = pytest.mark.skipif(bool(MISSING) and not os.environ.get("CI"),
                                reason=f"needs {', '.join(MISSING)} (make test installs them)")

BUA = Path(sys.executable).with_name("bua")


def visible_windows(env: dict[str, str], pid: int) -> list[str]:
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(pid)], env=env,
                           capture_output=True, text=True).stdout.split()
    names = []
    for window in found:
        name = subprocess.run(["xdotool", "getwindowname", window], env=env, capture_output=True, text=True)
        names.append(name.stdout.strip())
    return [n for n in names if n]


def test_bua_opens_its_window_on_a_real_display(tmp_path):
    assert BUA.exists(), f"{BUA} is installed by `make` (pip install -e .)"
    with x_display() as display:
        env = {k: v for k, v in display.items() if not k.startswith("QT_QPA")} | {"BUA_HOME": str(tmp_path / "home")}
        app = subprocess.Popen([str(BUA)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            names: list[str] = []
            while time.monotonic() < deadline and app.poll() is None and not names:
                time.sleep(0.5)
                names = visible_windows(env, app.pid)
            alive = app.poll() is None
        finally:
            app.terminate()
            try:
                out, err = app.communicate(timeout=15)
            except subprocess.TimeoutExpired:
                app.kill()
                out, err = app.communicate()
        assert alive, f"bua exited early: {err[-2000:]}"
        assert names, f"no window appeared within 60 s; stderr: {err[-2000:]}"
        assert any("bua" in n.lower() for n in names), names
        assert "could not load the Qt platform plugin" not in err
