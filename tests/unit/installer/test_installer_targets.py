from pathlib import Path

from installer.registry import InMemoryRegistry
from installer.system import Platform
from installer.targets import BROWSERS, detect_browsers, manifest_path, registry_key

NAME = "com.bua.native_host.json"


def test_linux_manifest_paths(linux: Platform, user_home: Path) -> None:
    config = user_home / ".config"
    assert {n: manifest_path(b, linux) for n, b in BROWSERS.items()} == {
        "chrome": config / "google-chrome" / "NativeMessagingHosts" / NAME,
        "chromium": config / "chromium" / "NativeMessagingHosts" / NAME,
        "edge": config / "microsoft-edge" / "NativeMessagingHosts" / NAME,
        "brave": config / "BraveSoftware" / "Brave-Browser" / "NativeMessagingHosts" / NAME,
    }


def test_linux_honours_xdg_config_home(user_home: Path, tmp_path: Path) -> None:
    platform = Platform(system="linux", home=user_home, env={"XDG_CONFIG_HOME": str(tmp_path / "xdg")})
    assert manifest_path(BROWSERS["chromium"], platform) == tmp_path / "xdg" / "chromium" / "NativeMessagingHosts" / NAME


def test_darwin_manifest_paths(darwin: Platform, user_home: Path) -> None:
    support = user_home / "Library" / "Application Support"
    assert {n: manifest_path(b, darwin) for n, b in BROWSERS.items()} == {
        "chrome": support / "Google" / "Chrome" / "NativeMessagingHosts" / NAME,
        "chromium": support / "Chromium" / "NativeMessagingHosts" / NAME,
        "edge": support / "Microsoft Edge" / "NativeMessagingHosts" / NAME,
        "brave": support / "BraveSoftware" / "Brave-Browser" / "NativeMessagingHosts" / NAME,
    }


def test_windows_registry_keys() -> None:
    assert [registry_key(b) for b in BROWSERS.values()] == [
        r"Software\Google\Chrome\NativeMessagingHosts\com.bua.native_host",
        r"Software\Chromium\NativeMessagingHosts\com.bua.native_host",
        r"Software\Microsoft\Edge\NativeMessagingHosts\com.bua.native_host",
        r"Software\BraveSoftware\Brave-Browser\NativeMessagingHosts\com.bua.native_host",
    ]


def test_linux_detects_nothing_on_an_empty_machine(linux: Platform) -> None:
    assert detect_browsers(linux) == []


def test_linux_detects_config_dir_or_binary(linux: Platform, user_home: Path, bin_dir: Path, make_executable) -> None:
    (user_home / ".config" / "BraveSoftware" / "Brave-Browser").mkdir(parents=True)
    make_executable(bin_dir / "chromium-browser")
    make_executable(bin_dir / "google-chrome-stable")
    assert detect_browsers(linux) == ["chrome", "chromium", "brave"]


def test_darwin_detects_app_bundle_or_config_dir(darwin: Platform, user_home: Path, tmp_path: Path) -> None:
    (tmp_path / "Applications" / "Microsoft Edge.app").mkdir(parents=True)
    (user_home / "Library" / "Application Support" / "Google" / "Chrome").mkdir(parents=True)
    assert detect_browsers(darwin) == ["chrome", "edge"]


def test_windows_detects_registry_key_or_user_data(win: Platform, user_home: Path, registry: InMemoryRegistry) -> None:
    registry.create_key(r"Software\Microsoft\Edge\BLBeacon")
    (user_home / "AppData" / "Local" / "Chromium" / "User Data").mkdir(parents=True)
    assert detect_browsers(win, registry) == ["chromium", "edge"]


def test_in_memory_registry_is_case_insensitive(registry: InMemoryRegistry) -> None:
    registry.set_default_value(r"Software\A\B", "v")
    assert registry.get_default_value(r"software\a\b") == "v"
    assert registry.key_exists(r"Software\A")
    assert registry.delete_key(r"SOFTWARE\A\B") is True
    assert registry.delete_key(r"Software\A\B") is False
    assert not registry.key_exists(r"Software\A")
