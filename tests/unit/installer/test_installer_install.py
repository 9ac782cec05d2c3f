import json
from pathlib import Path

import pytest

from installer.errors import UsageError
from installer.install import install
from installer.manifest import DESCRIPTION
from installer.registry import InMemoryRegistry
from installer.system import Platform

NAME = "com.bua.native_host.json"


def _read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _expected(launcher: Path, expected_id: str) -> dict:
    return {
        "name": "com.bua.native_host",
        "description": DESCRIPTION,
        "path": str(launcher),
        "type": "stdio",
        "allowed_origins": [f"chrome-extension://{expected_id}/"],
    }


@pytest.mark.parametrize(
    ("browser", "relative"),
    [
        ("chrome", ".config/google-chrome"),
        ("chromium", ".config/chromium"),
        ("edge", ".config/microsoft-edge"),
        ("brave", ".config/BraveSoftware/Brave-Browser"),
    ],
)
def test_linux_manifest_per_browser(browser, relative, linux, user_home, home, ext_dir, expected_id) -> None:
    report = install([browser], home=home, platform=linux, extension_dir=ext_dir)
    manifest = user_home / relative / "NativeMessagingHosts" / NAME
    assert report.manifests == [manifest]
    assert report.launcher == home / "native-host" / "bua-native-host"
    assert report.launcher.is_absolute()
    assert _read(manifest) == _expected(report.launcher, expected_id)


@pytest.mark.parametrize(
    ("browser", "relative"),
    [
        ("chrome", "Google/Chrome"),
        ("chromium", "Chromium"),
        ("edge", "Microsoft Edge"),
        ("brave", "BraveSoftware/Brave-Browser"),
    ],
)
def test_darwin_manifest_per_browser(browser, relative, darwin, user_home, home, ext_dir, expected_id) -> None:
    report = install([browser], home=home, platform=darwin, extension_dir=ext_dir)
    manifest = user_home / "Library" / "Application Support" / relative / "NativeMessagingHosts" / NAME
    assert report.manifests == [manifest]
    assert _read(manifest) == _expected(report.launcher, expected_id)


def test_windows_writes_manifest_under_home_and_registry_value(win, home, ext_dir, registry, expected_id) -> None:
    report = install(["chrome", "edge"], home=home, platform=win, registry=registry, extension_dir=ext_dir)
    assert report.launcher == home / "native-host" / "bua-native-host.bat"
    chrome = home / "native-host" / "chrome" / NAME
    edge = home / "native-host" / "edge" / NAME
    assert report.manifests == [chrome, edge]
    assert registry.get_default_value(r"Software\Google\Chrome\NativeMessagingHosts\com.bua.native_host") == str(chrome)
    assert registry.get_default_value(r"Software\Microsoft\Edge\NativeMessagingHosts\com.bua.native_host") == str(edge)
    assert _read(chrome) == _expected(report.launcher, expected_id)


def test_user_data_dir_only(linux, user_home, home, ext_dir, tmp_path, expected_id) -> None:
    profile = tmp_path / "profile"
    report = install(None, profile, home=home, platform=linux, extension_dir=ext_dir)
    assert report.manifests == [profile / "NativeMessagingHosts" / NAME]
    assert _read(report.manifests[0])["allowed_origins"] == [f"chrome-extension://{expected_id}/"]
    assert not (user_home / ".config").exists()
    assert "--user-data-dir=" + str(profile) in report.message


def test_user_data_dir_with_browser(linux, user_home, home, ext_dir, tmp_path) -> None:
    report = install(["chromium"], tmp_path / "profile", home=home, platform=linux, extension_dir=ext_dir)
    assert len(report.manifests) == 2


def test_user_data_dir_is_an_error_on_windows(win, home, ext_dir, registry, tmp_path) -> None:
    with pytest.raises(UsageError, match="registry"):
        install(None, tmp_path / "profile", home=home, platform=win, registry=registry, extension_dir=ext_dir)


def test_default_installs_every_browser_found(linux, user_home, home, ext_dir, bin_dir, make_executable) -> None:
    make_executable(bin_dir / "microsoft-edge")
    (user_home / ".config" / "chromium").mkdir(parents=True)
    report = install(home=home, platform=linux, extension_dir=ext_dir)
    assert report.browsers == ["chromium", "edge"]


def test_nothing_found_is_a_clear_error(linux: Platform, home: Path, ext_dir: Path) -> None:
    with pytest.raises(UsageError) as caught:
        install(home=home, platform=linux, extension_dir=ext_dir)
    text = str(caught.value)
    for expected in ("Google Chrome", "Chromium", "Microsoft Edge", "Brave", "google-chrome", "--browser"):
        assert expected in text
    assert not home.exists()


def test_unknown_browser_is_a_usage_error(linux: Platform, home: Path, ext_dir: Path) -> None:
    with pytest.raises(UsageError, match="firefox"):
        install(["firefox"], home=home, platform=linux, extension_dir=ext_dir)


def test_message_explains_load_unpacked(linux, home, ext_dir, expected_id) -> None:
    report = install(["chrome", "edge", "brave"], home=home, platform=linux, extension_dir=ext_dir)
    for expected in ("chrome://extensions", "edge://extensions", "brave://extensions",
                     "Developer mode", "Load unpacked", str(ext_dir), expected_id):
        assert expected in report.message


def test_record_accumulates_installs(linux, home, ext_dir, tmp_path) -> None:
    install(["chrome"], home=home, platform=linux, extension_dir=ext_dir)
    install(None, tmp_path / "profile", home=home, platform=linux, extension_dir=ext_dir)
    record = _read(home / "native-host" / "installed.json")
    assert len(record["manifests"]) == 2
    assert record["launcher"] == str(home / "native-host" / "bua-native-host")


def test_posix_install_never_writes_the_registry(linux, home, ext_dir) -> None:
    registry = InMemoryRegistry()
    report = install(["chrome"], home=home, platform=linux, registry=registry, extension_dir=ext_dir)
    assert report.registry_keys == [] and registry.keys == {}


def test_crx_is_refused_where_a_local_program_cannot_offer_one(darwin, linux, home, ext_dir) -> None:
    with pytest.raises(UsageError, match="Linux only.*Chrome Web Store"):
        install(["chrome"], home=home, platform=darwin, extension_dir=ext_dir, crx=True)
    with pytest.raises(UsageError, match="for Chromium"):
        install(["chrome"], home=home, platform=linux, extension_dir=ext_dir, crx=True)
