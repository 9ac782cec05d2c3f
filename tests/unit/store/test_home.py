"""BUA_HOME is the person's alone: 0700 directories, 0600 files, an old install fixed at start."""

from __future__ import annotations

import os
import stat

from app.store.db import Store
from app.store.home import secure_home


def _mode(path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_a_new_home_and_store_are_private(tmp_path):
    home = tmp_path / "home"
    old = os.umask(0o022)
    try:
        Store(home).close()
    finally:
        os.umask(old)
    assert _mode(home) == 0o700
    assert {p.name: _mode(p) for p in home.iterdir()} == {"bua.sqlite3": 0o600}


def test_an_existing_install_is_fixed_at_start(tmp_path):
    home = tmp_path / "home"
    (home / "native-host").mkdir(parents=True)
    home.chmod(0o755)
    (home / "native-host").chmod(0o755)
    launcher = home / "native-host" / "bua-native-host"
    launcher.write_text("#!/bin/sh\n")
    launcher.chmod(0o755)
    record = home / "native-host" / "installed.json"
    record.write_text("{}")
    record.chmod(0o644)
    store = home / "bua.sqlite3"
    Store(home).close()
    store.chmod(0o644)
    outside = tmp_path / "elsewhere"
    outside.write_text("not ours")
    outside.chmod(0o644)
    (home / "link").symlink_to(outside)

    Store(home).close()

    assert _mode(home) == 0o700 and _mode(home / "native-host") == 0o700
    assert _mode(launcher) == 0o700, "the launcher stays runnable by its owner only"
    assert _mode(record) == 0o600 and _mode(store) == 0o600
    assert _mode(outside) == 0o644, "a symlink is never followed"


def test_secure_home_reports_what_it_changed(tmp_path):
    home = tmp_path / "home"
    assert secure_home(home) == 0
    (home / "f").write_text("x")
    (home / "f").chmod(0o666)
    assert secure_home(home) == 1
    assert secure_home(home) == 0


def test_the_browser_profile_folder_is_closed_but_not_walked(tmp_path):
    home = tmp_path / "home"
    profile = home / "browser-profile" / "Default"
    profile.mkdir(parents=True)
    home.chmod(0o700)
    (home / "browser-profile").chmod(0o755)
    (profile / "Cookies").write_text("x")
    (profile / "Cookies").chmod(0o644)
    assert secure_home(home) == 1
    assert _mode(home / "browser-profile") == 0o700
    assert _mode(profile / "Cookies") == 0o644, "Chromium's own files are left to Chromium"
