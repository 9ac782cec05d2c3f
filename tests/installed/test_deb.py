"""The Debian package (`make deb`), installed into a throwaway root with dpkg --root, used, and removed.

Run by `make test-installed` with the .deb in BUA_DEB (skipped without it). The package has no maintainer
scripts, so dpkg needs no chroot: its files land under the root, the venv inside runs on this machine's
python3 (the one it links to), and `dpkg -r` must take every file away again.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

DEB = Path(os.environ["BUA_DEB"]).resolve() if os.environ.get("BUA_DEB") else None
pytestmark = [pytest.mark.skipif(DEB is None, reason="set BUA_DEB (make test-installed)"), pytest.mark.timeout(300)]
FILES = ("usr/bin/bua", "opt/bua-browser/venv/bin/bua", "opt/bua-browser/bin/bua-native-host",
         "etc/opt/chrome/native-messaging-hosts/com.bua.native_host.json",
         "etc/chromium/native-messaging-hosts/com.bua.native_host.json",
         "usr/share/applications/bua.desktop", "usr/share/icons/hicolor/scalable/apps/bua.svg")


def dpkg(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["dpkg", f"--root={root}", "--force-depends", "--force-not-root", "--log=/dev/null",
                           *args], capture_output=True, text=True, timeout=240)


def test_deb_installs_runs_and_removes_cleanly(tmp_path: Path) -> None:
    root = tmp_path / "root"
    for folder in ("var/lib/dpkg/updates", "var/lib/dpkg/info"):
        (root / folder).mkdir(parents=True)
    for name in ("status", "available"):
        (root / "var/lib/dpkg" / name).touch()
    installed = dpkg(root, "-i", str(DEB))
    assert installed.returncode == 0, installed.stdout + installed.stderr
    for rel in FILES:
        assert (root / rel).exists() or (root / rel).is_symlink(), rel
    assert os.readlink(root / "usr/bin/bua") == "/opt/bua-browser/venv/bin/bua"
    assert (root / "opt/bua-browser/venv/bin/bua").read_text().startswith("#!/opt/bua-browser/venv/bin/python")
    for rel in FILES[3:5]:
        manifest = json.loads((root / rel).read_text())
        assert manifest["path"] == "/opt/bua-browser/bin/bua-native-host"
        assert manifest["allowed_origins"] == ["chrome-extension://jgifgcbigoglnhkhkpdmjmgljnjkkbpg/"]

    python, bua = root / "opt/bua-browser/venv/bin/python", root / "opt/bua-browser/venv/bin/bua"
    env = {"PATH": os.defpath, "HOME": str(tmp_path / "user"), "BUA_HOME": str(tmp_path / "bua-home")}
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    version = subprocess.run([str(python), str(bua), "--version"], cwd=cwd, env=env, capture_output=True, text=True,
                             timeout=60)
    assert version.returncode == 0 and version.stdout.startswith("bua "), version
    dry = subprocess.run([str(python), str(bua), "install", "--user-data-dir", str(tmp_path / "profile"), "--no-open"],
                         cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert dry.returncode == 0, dry.stderr
    assert (tmp_path / "bua-home" / "extension" / "manifest.json").is_file()
    assert (tmp_path / "profile" / "NativeMessagingHosts" / "com.bua.native_host.json").is_file()

    removed = dpkg(root, "-r", "bua-browser")
    assert removed.returncode == 0, removed.stdout + removed.stderr
    left = [rel for rel in FILES if (root / rel).exists() or (root / rel).is_symlink()]
    assert left == [] and not (root / "opt/bua-browser").exists(), left
