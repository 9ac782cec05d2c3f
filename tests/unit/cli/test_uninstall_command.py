"""`bua uninstall` end to end in a temporary HOME: the host, the MCP entries, the login entry, --purge."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from app.ui import autostart


@pytest.fixture
def user(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "user"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("PATH", "")
    monkeypatch.setenv("BUA_HOME", str(tmp_path / "bua-home"))
    return home


def test_uninstall_removes_what_install_wrote_and_purge_removes_bua_home(user, tmp_path, capsys) -> None:
    home, profile = tmp_path / "bua-home", tmp_path / "profile"
    cursor = user / ".cursor" / "mcp.json"
    cursor.parent.mkdir()
    cursor.write_text(json.dumps({"mcpServers": {"other": {"command": "x"}}, "editor": {"tabs": 2}}))
    assert main(["install", "--user-data-dir", str(profile), "--no-open", "--mcp", "cursor"]) == 0
    assert "bua" in json.loads(cursor.read_text())["mcpServers"]
    autostart.set_enabled(True, home)
    assert autostart.entry_home() == home
    capsys.readouterr()

    assert main(["uninstall", "--user-data-dir", str(profile)]) == 0
    out = capsys.readouterr().out
    assert json.loads(cursor.read_text()) == {"mcpServers": {"other": {"command": "x"}}, "editor": {"tabs": 2}}
    assert not autostart.is_enabled() and "login entry" in out
    assert not (profile / "NativeMessagingHosts" / "com.bua.native_host.json").exists()
    assert home.is_dir() and f"Kept {home}" in out and "chrome://extensions" in out and "Remove" in out

    assert main(["uninstall", "--purge"]) == 0
    assert not home.exists()


def test_login_entry_of_another_home_is_kept(user, tmp_path, capsys) -> None:
    autostart.set_enabled(True, tmp_path / "other-home")
    assert main(["uninstall"]) == 0
    assert autostart.is_enabled() and "starts another BUA_HOME" in capsys.readouterr().out


def test_purge_refuses_a_folder_that_is_not_bua_s(user, tmp_path, monkeypatch, capsys) -> None:
    stranger = tmp_path / "documents"
    stranger.mkdir()
    (stranger / "letter.txt").write_text("keep me")
    monkeypatch.setenv("BUA_HOME", str(stranger))
    assert main(["uninstall", "--purge"]) == 2
    assert (stranger / "letter.txt").exists() and "holds none of bua's files" in capsys.readouterr().err
