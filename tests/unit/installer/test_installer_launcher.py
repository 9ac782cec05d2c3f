import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from installer.launcher import render_posix, render_windows, source_root, write_launcher

REPO_ROOT = Path(__file__).resolve().parents[3]

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="runs a POSIX shell script")


def test_posix_launcher_content_and_mode(home: Path) -> None:
    path = write_launcher(home, "linux", python="/opt/py/bin/python3")
    assert path == home / "native-host" / "bua-native-host"
    assert stat.S_IMODE(path.stat().st_mode) == 0o755
    text = path.read_text(encoding="utf-8")
    assert text.startswith("#!/bin/sh\n")
    assert "exec /opt/py/bin/python3 -m native_host \"$@\"" in text
    assert "export BUA_HOME" in text and "export PYTHONPATH" in text


def test_windows_launcher_content(home: Path) -> None:
    path = write_launcher(home, "win32", python=r"C:\Py 3\python.exe")
    assert path == home / "native-host" / "bua-native-host.bat"
    text = path.read_bytes().decode()
    lines = text.split("\r\n")
    assert lines[0] == "@echo off"
    assert f'if not defined BUA_HOME set "BUA_HOME={home}"' in lines
    assert f'set "PYTHONPATH={REPO_ROOT}%PYTHONPATH%"' in lines
    assert r'"C:\Py 3\python.exe" -m native_host %*' in lines


def test_checkout_is_the_source_root() -> None:
    """Run from this checkout, the launcher must put it on PYTHONPATH; an installed bua needs none."""
    assert source_root() == REPO_ROOT


def test_installed_form_has_no_pythonpath(tmp_path: Path) -> None:
    assert "PYTHONPATH" not in render_posix(tmp_path, "/venv/bin/python", None)
    assert "PYTHONPATH" not in render_windows(tmp_path, r"C:\venv\python.exe", None)


def test_windows_launcher_escapes_percent() -> None:
    text = render_windows(Path(r"C:\100%\bua"), r"C:\py.exe")
    assert r'set "BUA_HOME=C:\100%%\bua"' in text


def _run(launcher: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(launcher), "chrome-extension://abc/"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env, timeout=20, cwd=launcher.parent,
    )


@posix_only
def test_posix_launcher_passes_env_and_args(tmp_path: Path, make_executable) -> None:
    """A stand-in interpreter shows exactly what the launcher hands to Python."""
    home = tmp_path / "it's home"
    fake_python = make_executable(
        tmp_path / "py dir" / "python", 'printf "%s|%s|%s\\n" "$BUA_HOME" "$PYTHONPATH" "$*"\n'
    )
    launcher = write_launcher(home, "linux", python=str(fake_python))
    baked = _run(launcher, {"PATH": os.defpath})
    assert baked.stdout == f"{home}|{REPO_ROOT}|-m native_host chrome-extension://abc/\n"
    overridden = _run(launcher, {"PATH": os.defpath, "BUA_HOME": "/elsewhere", "PYTHONPATH": "/x"})
    assert overridden.stdout == f"/elsewhere|{REPO_ROOT}:/x|-m native_host chrome-extension://abc/\n"


BASE_PYTHON = Path(sys.base_prefix) / "bin" / "python3"


@posix_only
@pytest.mark.skipif(not (REPO_ROOT / "native_host" / "__main__.py").exists(), reason="native_host has no __main__ yet")
@pytest.mark.parametrize("python", [sys.executable, str(BASE_PYTHON)], ids=["venv", "base-no-bua-installed"])
def test_posix_launcher_starts_the_real_host_which_exits_on_eof(tmp_path: Path, python: str) -> None:
    """The base interpreter has no editable install of bua: only the launcher's PYTHONPATH finds native_host."""
    if not Path(python).exists():
        pytest.skip(f"{python} not found")
    launcher = write_launcher(tmp_path / "bua-home", "linux", python=python)
    result = _run(launcher, {"PATH": os.defpath, "HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr
