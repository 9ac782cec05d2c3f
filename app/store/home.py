"""BUA_HOME is private to the person: the directory and every directory in it 0700, every file 0600.

Runs at every start, so an install made before this rule existed (0755 home,
0644 store) is fixed the first time the new version starts. Files keep the
owner's execute bit (the host launcher must stay runnable); group and others
lose everything. Symlinks are skipped (never followed).
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

DIR_MODE = 0o700
FILE_MODE = 0o600
NOT_WALKED = ("browser-profile",)
"""Chromium keeps its profile 0700/0600 itself and it can hold tens of thousands of cache files: only the folder's
own mode is fixed (inside a 0700 home nothing in it is reachable by another account anyway)."""


def _private_mode(mode: int) -> int:
    if stat.S_ISDIR(mode):
        return DIR_MODE
    return FILE_MODE | (mode & stat.S_IXUSR)


def _fix(path: Path | str, st: os.stat_result) -> bool:
    wanted = _private_mode(st.st_mode)
    if stat.S_IMODE(st.st_mode) == wanted:
        return False
    os.chmod(path, wanted)
    return True


def secure_home(home: Path) -> int:
    """Create `home` 0700 if missing and make everything under it private; returns how many modes changed."""
    home.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    if sys.platform == "win32":
        return 0  # the profile folder's ACL is already the person's alone; modes mean little there
    changed = int(_fix(home, home.stat()))
    for root, dirs, files in os.walk(home):
        if root == str(home):
            skipped = [d for d in dirs if d in NOT_WALKED]
            for name in skipped:
                changed += _fix(home / name, os.lstat(home / name))
            dirs[:] = [d for d in dirs if d not in NOT_WALKED]
        for name in dirs + files:
            path = os.path.join(root, name)
            try:
                st = os.lstat(path)
                if stat.S_ISLNK(st.st_mode) or not (stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode)):
                    continue
                changed += _fix(path, st)
            except (FileNotFoundError, PermissionError):
                continue  # a file another process just removed, or one we do not own
    return changed


def private_dir(path: Path) -> Path:
    """A directory that exists and is 0700 (the runtime dir: socket, token, single-instance lock)."""
    path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    os.chmod(path, DIR_MODE)
    return path


def create_private_file(path: Path) -> None:
    """Create `path` empty with mode 0600 unless it exists (so SQLite never creates it 0644)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return
    os.close(fd)
