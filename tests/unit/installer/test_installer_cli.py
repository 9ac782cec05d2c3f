import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from installer.cli import add_install_arguments, add_uninstall_arguments, run_install, run_uninstall

REPO_ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def bua_home_env(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BUA_HOME", str(home))


def _parse(add, argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add(parser)
    return parser.parse_args(argv)


def test_install_then_uninstall(linux, user_home, home, ext_dir, capsys, expected_id) -> None:
    args = _parse(add_install_arguments, ["--browser", "chrome", "--extension-dir", str(ext_dir)])
    assert run_install(args, platform=linux) == 0
    out = capsys.readouterr().out
    manifest = user_home / ".config" / "google-chrome" / "NativeMessagingHosts" / "com.bua.native_host.json"
    assert str(manifest) in out and str(home / "native-host" / "bua-native-host") in out
    assert "Load unpacked" in out and expected_id in out
    assert run_uninstall(_parse(add_uninstall_arguments, []), platform=linux) == 0
    assert not manifest.exists()
    assert str(manifest) in capsys.readouterr().out
    assert run_uninstall(_parse(add_uninstall_arguments, []), platform=linux) == 0
    assert "Nothing to remove" in capsys.readouterr().out


def test_browser_all(linux, user_home, ext_dir) -> None:
    args = _parse(add_install_arguments, ["--browser", "all", "--extension-dir", str(ext_dir)])
    assert run_install(args, platform=linux) == 0
    assert len(list(user_home.rglob("com.bua.native_host.json"))) == 4


def test_nothing_found_exits_2(linux, ext_dir, capsys) -> None:
    args = _parse(add_install_arguments, ["--extension-dir", str(ext_dir)])
    assert run_install(args, platform=linux) == 2
    assert "--browser" in capsys.readouterr().err


def test_user_data_dir_on_windows_exits_2(win, registry, ext_dir, tmp_path) -> None:
    args = _parse(add_install_arguments, ["--user-data-dir", str(tmp_path / "p"), "--extension-dir", str(ext_dir)])
    assert run_install(args, platform=win, registry=registry) == 2
    assert run_uninstall(_parse(add_uninstall_arguments, ["--user-data-dir", "x"]), platform=win, registry=registry) == 2


def test_missing_extension_manifest_exits_1(linux, tmp_path, capsys) -> None:
    args = _parse(add_install_arguments, ["--browser", "chrome", "--extension-dir", str(tmp_path / "nope")])
    assert run_install(args, platform=linux) == 1
    assert "no extension manifest" in capsys.readouterr().err


def _module(*argv: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "installer", *argv], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_python_dash_m_installer(tmp_path: Path, home: Path, ext_dir: Path) -> None:
    """Standalone entry point, with HOME pointed at a temporary root."""
    env = {**os.environ, "HOME": str(tmp_path / "h"), "BUA_HOME": str(home), "PATH": os.defpath}
    env.pop("XDG_CONFIG_HOME", None)
    profile = tmp_path / "profile"
    done = _module("install", "--user-data-dir", str(profile), "--extension-dir", str(ext_dir), env=env)
    assert done.returncode == 0, done.stderr
    assert (profile / "NativeMessagingHosts" / "com.bua.native_host.json").is_file()
    assert _module("install", "--browser", "firefox", env=env).returncode == 2
    assert _module("uninstall", "--user-data-dir", str(profile), env=env).returncode == 0
    assert not (profile / "NativeMessagingHosts" / "com.bua.native_host.json").exists()
