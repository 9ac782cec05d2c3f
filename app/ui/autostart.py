"""Start at login: an XDG autostart entry (Linux), a LaunchAgent (macOS) or a Run registry value (Windows)."""

from __future__ import annotations

import os
import plistlib
import shlex
import sys
from pathlib import Path

LABEL = "com.bua.app"
RUN_KEY = r"Software\Microsoft\Windows\CurrentVersion\Run"


def launch_command() -> list[str]:
    """How to start the app again: the `bua` script next to this interpreter, else `python -m app.ui`."""
    script = Path(sys.executable).with_name("bua.exe" if sys.platform == "win32" else "bua")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "app.ui"]


def _desktop_file() -> Path:
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "autostart" / "bua.desktop"


def _launch_agent() -> Path:
    return Path.home() / "Library" / "LaunchAgents" / f"{LABEL}.plist"


def is_enabled() -> bool:
    if sys.platform == "win32":
        import winreg

        try:
            with winreg.OpenKey(winreg.HKEY_CURRENT_USER, RUN_KEY) as key:
                winreg.QueryValueEx(key, "bua")
            return True
        except OSError:
            return False
    return (_launch_agent() if sys.platform == "darwin" else _desktop_file()).exists()


def entry_home() -> Path | None:
    """The BUA_HOME the login entry starts (the default one when it names none); None without an entry."""
    if not is_enabled():
        return None
    named: str | None = None
    if sys.platform == "darwin":
        try:
            env = plistlib.loads(_launch_agent().read_bytes()).get("EnvironmentVariables") or {}
        except (OSError, plistlib.InvalidFileException):
            env = {}
        named = env.get("BUA_HOME") if isinstance(env, dict) else None
    elif sys.platform != "win32":
        for line in _desktop_file().read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("Exec="):
                words = shlex.split(line.removeprefix("Exec="))
                named = next((w.removeprefix("BUA_HOME=") for w in words if w.startswith("BUA_HOME=")), None)
    from native_host.paths import default_home

    return Path(named).absolute() if named else default_home()


def set_enabled(enabled: bool, home: Path | None = None) -> Path | str:
    """Create or remove the entry; returns where it lives. BUA_HOME is passed on when given."""
    command = launch_command()
    env = {"BUA_HOME": str(home)} if home is not None else {}
    if sys.platform == "win32":
        return _set_windows(enabled, command)
    if sys.platform == "darwin":
        path = _launch_agent()
        if enabled:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(plistlib.dumps({"Label": LABEL, "ProgramArguments": command, "RunAtLoad": True,
                                             "EnvironmentVariables": env}))
        else:
            path.unlink(missing_ok=True)
        return path
    path = _desktop_file()
    if enabled:
        prefix = "env " + " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items()) + " " if env else ""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join([
            "[Desktop Entry]", "Type=Application", "Name=bua",
            "Comment=An LLM agent in your own browser", f"Exec={prefix}{shlex.join(command)}",
            "X-GNOME-Autostart-enabled=true", "Terminal=false", ""]))
    else:
        path.unlink(missing_ok=True)
    return path


def _set_windows(enabled: bool, command: list[str]) -> str:
    if sys.platform != "win32":
        raise OSError("the Run key exists only on Windows")
    import subprocess
    import winreg

    with winreg.CreateKey(winreg.HKEY_CURRENT_USER, RUN_KEY) as key:
        if enabled:
            winreg.SetValueEx(key, "bua", 0, winreg.REG_SZ, subprocess.list2cmdline(command))
        else:
            try:
                winreg.DeleteValue(key, "bua")
            except OSError:
                pass
    return rf"HKCU\{RUN_KEY}\bua"
