"""`bua install --crx`: real Chromium installs the packed extension from `External Extensions` by itself, with
no --load-extension and no Developer mode, and it reaches the core through the host the installer registered."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from app.browser.child_env import child_env
from app.browser.launch import BASE_FLAGS, find_binary
from installer.install import install
from installer.uninstall import uninstall
from tests.harness.actions import pool_request
from tests.harness.core_thread import CoreThread

pytestmark = [pytest.mark.timeout(240),
              pytest.mark.skipif(not sys.platform.startswith("linux") or not shutil.which("chromium")
                                 or not shutil.which("openssl"), reason="Linux with Chromium and openssl on PATH")]


def test_chromium_installs_the_offered_crx_and_it_connects(tmp_path) -> None:
    home, profile = tmp_path / "home", tmp_path / "profile"
    report = install(user_data_dir=profile, home=home, crx=True)
    assert len(report.offered) == 1 and report.offered[0].parent == profile / "External Extensions"
    crx_id = report.offered[0].stem
    assert crx_id != report.extension_id, "signed with this BUA_HOME's key, not the manifest's (no private key)"
    manifest = json.loads((profile / "NativeMessagingHosts" / "com.bua.native_host.json").read_text())
    assert f"chrome-extension://{crx_id}/" in manifest["allowed_origins"]

    core = CoreThread(home)
    command = [find_binary(), *BASE_FLAGS, f"--user-data-dir={profile}", "--headless=new", "--no-sandbox",
               "about:blank"]
    browser = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=child_env(BUA_HOME=str(home)), start_new_session=True)
    try:
        bridge = core.call(core.pool.wait_for_bridge(90), timeout=95)
        assert bridge is not None, "only the packed extension is in this profile: no --load-extension"
        response = core.call(pool_request(core.pool, {"type": "get_tabs"}, "t-crx", None, None), timeout=90)
        assert response.ok, response
    finally:
        browser.terminate()
        browser.wait(20)
        core.stop()
    prefs = json.loads((profile / "Default" / "Preferences").read_text())  # written by the time Chromium exits
    setting = prefs["extensions"]["settings"][crx_id]
    assert setting["location"] == 2 and setting.get("disable_reasons", []) == [], "external (pref file), enabled"
    assert not prefs["extensions"].get("ui", {}).get("developer_mode"), "no Developer mode"
    removed = uninstall(home, profile)
    assert report.offered[0] in removed.removed_files and not (home / "bua-extension.crx").exists()
