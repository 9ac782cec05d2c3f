"""Where the app listens and where its handshake token lives, under BUA_HOME.

Shared by the host and the app (the app imports this; the host never imports
the app). All state lives under one directory so that tests and several
instances stay isolated: `BUA_HOME`, default the platformdirs user data dir.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

HOST_NAME = "com.bua.native_host"


def bua_home() -> Path:
    env = os.environ.get("BUA_HOME")
    if env:
        return Path(env).expanduser().resolve()
    return default_home()


def default_home() -> Path:
    """BUA_HOME when the environment names none: the platformdirs user data dir."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("bua", appauthor=False))


def runtime_dir(home: Path | None = None) -> Path:
    """0700 directory holding the socket and the token."""
    return (home or bua_home()) / "run"


def token_path(home: Path | None = None) -> Path:
    return runtime_dir(home) / "token"


def socket_address(home: Path | None = None) -> str:
    """Unix socket path, or a named pipe on Windows (keyed by BUA_HOME so instances never collide)."""
    home = home or bua_home()
    if sys.platform == "win32":
        digest = hashlib.sha256(str(home).encode("utf-8")).hexdigest()[:16]
        return rf"\\.\pipe\bua-{digest}"
    return str(runtime_dir(home) / "bridge.sock")
