import json
from pathlib import Path

from installer.install import install
from installer.record import load_record, save_record
from installer.registry import InMemoryRegistry
from installer.system import Platform
from installer.uninstall import remove_mcp_entry, uninstall

NAME = "com.bua.native_host.json"


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


def test_uninstall_removes_everything_and_is_idempotent(linux, user_home, home, ext_dir, tmp_path) -> None:
    profile = tmp_path / "profile"
    installed = install(["chrome", "brave"], profile, home=home, platform=linux, extension_dir=ext_dir)
    removed = uninstall(home, platform=linux)
    assert set(removed.removed_files) >= {*installed.manifests, installed.launcher}
    assert _files(user_home) == [] and _files(profile) == []
    assert not home.joinpath("native-host").exists()
    again = uninstall(home, platform=linux)
    assert again.removed_files == [] and again.removed_registry_keys == []


def test_uninstall_without_record_still_cleans_default_locations(linux, user_home, home, ext_dir) -> None:
    install(["edge"], home=home, platform=linux, extension_dir=ext_dir)
    (home / "native-host" / "installed.json").unlink()
    uninstall(home, platform=linux)
    assert _files(user_home) == []


def test_uninstall_user_data_dir_without_record(linux, home, ext_dir, tmp_path) -> None:
    profile = tmp_path / "profile"
    install(None, profile, home=home, platform=linux, extension_dir=ext_dir)
    (home / "native-host" / "installed.json").unlink()
    uninstall(home, profile, platform=linux)
    assert _files(profile) == []


def test_uninstall_leaves_other_hosts_alone(linux, user_home, home, ext_dir) -> None:
    install(["chromium"], home=home, platform=linux, extension_dir=ext_dir)
    other = user_home / ".config" / "chromium" / "NativeMessagingHosts" / "org.other.host.json"
    other.write_text("{}", encoding="utf-8")
    uninstall(home, platform=linux)
    assert _files(user_home) == [other]


def test_uninstall_on_darwin(darwin: Platform, user_home: Path, home: Path, ext_dir: Path) -> None:
    install(["chrome", "chromium", "edge", "brave"], home=home, platform=darwin, extension_dir=ext_dir)
    uninstall(home, platform=darwin)
    assert _files(user_home) == [] and not home.joinpath("native-host").exists()


def test_uninstall_on_windows_removes_registry_keys(win, home, ext_dir) -> None:
    registry = InMemoryRegistry()
    registry.create_key(r"Software\Google\Chrome\BLBeacon")
    install(["chrome", "brave"], home=home, platform=win, registry=registry, extension_dir=ext_dir)
    removed = uninstall(home, platform=win, registry=registry)
    assert removed.removed_registry_keys == [
        r"Software\Google\Chrome\NativeMessagingHosts\com.bua.native_host",
        r"Software\BraveSoftware\Brave-Browser\NativeMessagingHosts\com.bua.native_host",
    ]
    assert list(registry.keys) == [r"software\google\chrome\blbeacon"]
    assert not home.joinpath("native-host").exists()
    assert uninstall(home, platform=win, registry=registry).removed_registry_keys == []


def test_uninstall_keeps_the_manifest_another_bua_home_wrote(linux, user_home, ext_dir, tmp_path) -> None:
    """Two BUA_HOMEs share Chromium's default manifest path: the last install owns it, the other leaves it."""
    first, second = tmp_path / "home-a", tmp_path / "home-b"
    install(["chromium"], home=first, platform=linux, extension_dir=ext_dir)
    shared = user_home / ".config" / "chromium" / "NativeMessagingHosts" / NAME
    install(["chromium"], tmp_path / "profile-b", home=second, platform=linux, extension_dir=ext_dir)
    report = uninstall(first, tmp_path / "profile-b", platform=linux)
    assert shared.is_file() and (tmp_path / "profile-b" / "NativeMessagingHosts" / NAME).is_file()
    assert str(second) in json.loads(shared.read_text())["path"]
    assert [k for k in report.kept if "another BUA_HOME" in k] and not first.joinpath("native-host").exists()
    uninstall(second, tmp_path / "profile-b", platform=linux)
    assert _files(user_home) == [] and _files(tmp_path / "profile-b") == []


def test_uninstall_on_windows_keeps_another_homes_registry_key(win, ext_dir, tmp_path) -> None:
    registry = InMemoryRegistry()
    install(["chrome"], home=tmp_path / "home-a", platform=win, registry=registry, extension_dir=ext_dir)
    install(["chrome"], home=tmp_path / "home-b", platform=win, registry=registry, extension_dir=ext_dir)
    report = uninstall(tmp_path / "home-a", platform=win, registry=registry)
    assert report.removed_registry_keys == [] and report.kept
    key = r"Software\Google\Chrome\NativeMessagingHosts\com.bua.native_host"
    assert str(tmp_path / "home-b") in (registry.get_default_value(key) or "")


def test_uninstall_takes_out_the_recorded_mcp_entry_and_keeps_the_rest(linux, home, ext_dir, tmp_path) -> None:
    install(["chrome"], home=home, platform=linux, extension_dir=ext_dir)
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"theme": "dark", "mcpServers": {
        "other": {"command": "x"}, "bua": {"command": "/v/bin/bua", "args": ["mcp"], "env": {"BUA_HOME": str(home)}}}}))
    record = load_record(home)
    record.add_mcp_config(config)
    save_record(home, record)
    report = uninstall(home, platform=linux)
    assert report.removed_mcp_entries == [config]
    assert json.loads(config.read_text()) == {"theme": "dark", "mcpServers": {"other": {"command": "x"}}}


def test_an_mcp_entry_for_another_home_is_kept(home, tmp_path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"bua": {"command": "bua", "env": {"BUA_HOME": "/elsewhere"}}}}))
    removed, why = remove_mcp_entry(config, home.absolute())
    assert not removed and why and "/elsewhere" in why
    assert "bua" in json.loads(config.read_text())["mcpServers"]
