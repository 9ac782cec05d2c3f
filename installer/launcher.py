"""The executable a browser starts as the native-messaging host.

A host manifest's `path` must name one absolute executable, and the browser
runs it with the browser's own environment, so the launcher bakes in the
Python interpreter and BUA_HOME (unless the environment already sets one).
An installed bua needs nothing more: `native_host` is in that interpreter's
site-packages. Run from a checkout, the launcher also puts the checkout on
PYTHONPATH, which makes `python -m native_host` work even when bua is not
pip-installed.
"""

from __future__ import annotations

import codecs
import os
import shlex
import sys
import sysconfig
from importlib.resources import files
from pathlib import Path

from installer.system import System

POSIX_NAME = "bua-native-host"
WINDOWS_NAME = "bua-native-host.bat"


def host_dir(home: Path) -> Path:
    """`<BUA_HOME>/native-host`: the launcher, install record and Windows manifests."""
    return home / "native-host"


def launcher_path(home: Path, system: System) -> Path:
    return host_dir(home) / (WINDOWS_NAME if system == "win32" else POSIX_NAME)


def source_root() -> Path | None:
    """The folder holding the `native_host` package when it is not an installed one (a checkout), else None."""
    root = Path(str(files("native_host"))).resolve().parent
    installed = {Path(sysconfig.get_paths()[kind]).resolve() for kind in ("purelib", "platlib")}
    return None if root in installed else root


def render_posix(home: Path, python: str, repo_root: Path | None = None) -> str:
    q_home, q_python = shlex.quote(str(home)), shlex.quote(python)
    path_lines = (
        f'PYTHONPATH={shlex.quote(str(repo_root))}"${{PYTHONPATH:+:$PYTHONPATH}}"\n'
        "export PYTHONPATH\n"
    ) if repo_root is not None else ""
    return (
        "#!/bin/sh\n"
        "# bua native-messaging host launcher, written by `bua install`.\n"
        f'[ -n "${{BUA_HOME:-}}" ] || BUA_HOME={q_home}\n'
        "export BUA_HOME\n"
        f"{path_lines}"
        f'exec {q_python} -m native_host "$@"\n'
    )


def _bat(value: str) -> str:
    """Escape for a quoted `set "NAME=value"` or "path" in a batch file (only % is special)."""
    return value.replace("%", "%%")


def render_windows(home: Path, python: str, repo_root: Path | None = None) -> str:
    path_lines = [
        'if defined PYTHONPATH set "PYTHONPATH=;%PYTHONPATH%"',
        f'set "PYTHONPATH={_bat(str(repo_root))}%PYTHONPATH%"',
    ] if repo_root is not None else []
    lines = [
        "@echo off",
        "rem bua native-messaging host launcher, written by `bua install`.",
        f'if not defined BUA_HOME set "BUA_HOME={_bat(str(home))}"',
        *path_lines,
        f'"{_bat(python)}" -m native_host %*',
    ]
    return "\r\n".join(lines) + "\r\n"


def _batch_encoding() -> str:
    """cmd.exe reads batch files in the OEM code page, not UTF-8 (matters for non-ASCII paths)."""
    try:
        codecs.lookup("oem")
    except LookupError:
        return "utf-8"
    return "oem"


def write_launcher(home: Path, system: System, python: str | None = None) -> Path:
    """Write the launcher for `system` under `<home>/native-host/`; returns its absolute path."""
    python = python or sys.executable
    path = launcher_path(home, system)
    path.parent.mkdir(parents=True, exist_ok=True)
    root = source_root()
    if system == "win32":
        path.write_bytes(render_windows(home, python, root).encode(_batch_encoding()))
    else:
        path.write_text(render_posix(home, python, root), encoding="utf-8")
        os.chmod(path, 0o755)
    return path
