"""A real X display for headful tests: Xvfb with a window manager (openbox), as a person's desktop has."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def x_display(size: str = "1400x900x24") -> Iterator[dict[str, str]]:
    """Start Xvfb on a free display number and openbox on it; yields the environment with DISPLAY set."""
    number = next(n for n in range(90, 200) if not os.path.exists(f"/tmp/.X{n}-lock"))
    xvfb = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", size, "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while not os.path.exists(f"/tmp/.X11-unix/X{number}") and time.monotonic() < deadline:
        time.sleep(0.05)
    env = dict(os.environ, DISPLAY=f":{number}")
    wm = subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    try:
        yield env
    finally:
        wm.terminate()
        xvfb.terminate()
        wm.wait(5)
        xvfb.wait(5)
