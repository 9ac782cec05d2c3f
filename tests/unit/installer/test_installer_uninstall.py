from pathlib import Path

from installer.install import install
from installer.registry import InMemoryRegistry
from installer.system import Platform
from installer.uninstall import uninstall

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
