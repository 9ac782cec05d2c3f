"""The installed form: bua built as a wheel, installed non-editable into a fresh venv, run from outside the repo.

`make test-installed` builds the sdist and the wheel from it, installs the wheel into a new venv and runs this
module with that venv in BUA_INSTALLED_VENV (skipped without it). Every command runs with its working
directory in a temporary folder, no PYTHONPATH and HOME pointed at a temporary root, so nothing can resolve
through this checkout; the first test proves that, the others walk the person's path: install, serve, a
headless browser, act, one MCP call through the SDK's stdio client, the offline demo and uninstall.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import anyio
import mcp_types as types
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

REPO = Path(__file__).resolve().parents[2]
VENV = Path(os.environ["BUA_INSTALLED_VENV"]).resolve() if os.environ.get("BUA_INSTALLED_VENV") else None
pytestmark = [pytest.mark.skipif(VENV is None, reason="set BUA_INSTALLED_VENV (make test-installed)"),
              pytest.mark.timeout(300)]
PAGE = "<title>Installed fixture</title><h1>Read by the installed bua</h1><p>Seven lanterns on the quay.</p>"


@pytest.fixture
def where(tmp_path: Path) -> dict[str, Path]:
    paths = {name: tmp_path / name for name in ("cwd", "user", "home", "profile", "site")}
    for name in ("cwd", "user", "site"):
        paths[name].mkdir()
    (paths["site"] / "index.html").write_text(PAGE)
    return paths


def environment(where: dict[str, Path]) -> dict[str, str]:
    assert VENV is not None
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "XDG_CONFIG_HOME")}
    env.update(HOME=str(where["user"]), BUA_HOME=str(where["home"]), PATH=f"{VENV / 'bin'}:{os.defpath}")
    env.pop("DISPLAY", None)
    return env


def bua(where: dict[str, Path], *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    assert VENV is not None
    return subprocess.run([str(VENV / "bin" / "bua"), *args], cwd=where["cwd"], env=environment(where),
                          capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def started(where: dict[str, Path], *args: str, log: str) -> subprocess.Popen[bytes]:
    assert VENV is not None
    with open(where["cwd"] / log, "wb") as out:
        return subprocess.Popen([str(VENV / "bin" / "bua"), *args], cwd=where["cwd"], env=environment(where),
                                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture
def site(where: dict[str, Path]) -> Iterator[str]:
    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(where["site"])))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/index.html"
    httpd.shutdown()


def under(path: str | Path, root: Path) -> bool:
    return Path(path).resolve().is_relative_to(root)


def test_everything_resolves_inside_the_fresh_venv(where) -> None:
    assert VENV is not None
    probe = (
        "import json, app, installer, native_host\n"
        "from installer.extension_id import extension_dir\n"
        "from app.agent.page_text import flagger\n"
        "from app.protocol import safety\n"
        "from app.demo import site_server\n"
        "print(json.dumps({'modules': [app.__file__, installer.__file__, native_host.__file__],\n"
        "  'data': [str(extension_dir() / 'manifest.json'), str(flagger.PATTERNS_FILE), str(safety.WORDS_PATH),\n"
        "           str(site_server.SITE / 'index.html')]}))\n"
    )
    done = subprocess.run([str(VENV / "bin" / "python"), "-c", probe], cwd=where["cwd"], env=environment(where),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    for path in found["modules"] + found["data"]:
        assert under(path, VENV) and not under(path, REPO), path
        assert Path(path).is_file(), path
    version = bua(where, "--version")
    assert version.returncode == 0 and version.stdout.startswith("bua "), version


def test_install_serve_browser_act_mcp_uninstall(where, site) -> None:
    assert VENV is not None
    home, profile = where["home"], where["profile"]
    installed = bua(where, "install", "--user-data-dir", str(profile), "--no-open")
    assert installed.returncode == 0, installed.stderr
    assert str(home / "extension") in installed.stdout and str(home / "bua-extension.zip") in installed.stdout
    shipped = VENV / "lib"
    bundled = next(shipped.glob("python*/site-packages/installer/_extension"))
    assert sorted(p.relative_to(bundled) for p in bundled.rglob("*") if p.is_file()) == \
        sorted(p.relative_to(home / "extension") for p in (home / "extension").rglob("*") if p.is_file())
    launcher = (home / "native-host" / "bua-native-host").read_text()
    assert str(REPO) not in launcher and "PYTHONPATH" not in launcher and str(VENV / "bin") in launcher
    manifest = json.loads((profile / "NativeMessagingHosts" / "com.bua.native_host.json").read_text())
    assert manifest["path"] == str(home / "native-host" / "bua-native-host")

    core = started(where, "serve", log="serve.log")
    browser = None
    try:
        deadline = time.monotonic() + 60
        while bua(where, "status").returncode != 0:
            assert time.monotonic() < deadline and core.poll() is None, (where["cwd"] / "serve.log").read_text()
            time.sleep(0.5)
        browser = started(where, "browser", "--headless", "--user-data-dir", str(profile), log="browser.log")
        navigated = bua(where, "act", "--wait", "90", json.dumps({"type": "navigate", "url": site}), timeout=180)
        assert navigated.returncode == 0, navigated.stdout + navigated.stderr
        assert json.loads(navigated.stdout)["result"]["title"] == "Installed fixture"
        extracted = bua(where, "act", json.dumps({"type": "extract"}))
        assert extracted.returncode == 0 and "Seven lanterns on the quay." in extracted.stdout, extracted
        status = bua(where, "status").stdout
        assert "extension 0.1.0" in status, status
        answer = anyio.run(_mcp_navigate_and_extract, where, site)
        assert "Seven lanterns on the quay." in answer
    finally:
        if browser is not None:
            stop(browser)
        stop(core)

    removed = bua(where, "uninstall", "--user-data-dir", str(profile))
    assert removed.returncode == 0, removed.stderr
    assert not (profile / "NativeMessagingHosts" / "com.bua.native_host.json").exists()
    assert not (home / "native-host" / "bua-native-host").exists()
    assert f"Kept {home}" in removed.stdout and "chrome://extensions" in removed.stdout
    purged = bua(where, "uninstall", "--purge")
    assert purged.returncode == 0 and not home.exists(), purged.stdout + purged.stderr


async def _mcp_navigate_and_extract(where: dict[str, Path], site: str) -> str:
    """One client, as Claude Desktop or Cursor start bua: the installed `bua mcp` on stdio."""
    assert VENV is not None
    params = StdioServerParameters(command=str(VENV / "bin" / "bua"), args=["mcp"], env=environment(where),
                                   cwd=str(where["cwd"]))
    with open(where["cwd"] / "mcp.stderr", "w") as log:
        async with stdio_client(params, errlog=log) as (read, write):
            async with ClientSession(read, write, client_info=types.Implementation(name="Installed", version="1")) \
                    as session:
                await session.initialize()
                with anyio.fail_after(120):
                    opened = await session.call_tool("browser", {"type": "navigate", "url": site})
                    assert not opened.is_error, opened.content
                    result = await session.call_tool("browser", {"type": "extract"})
    assert not result.is_error, result.content
    first = result.content[0]
    assert isinstance(first, types.TextContent)
    return first.text


def test_demo_headless(where) -> None:
    done = bua(where, "demo", "--headless", "--delay-ms", "0", timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "model calls: main" in done.stdout
    assert done.stdout.count("@example.org") >= 3, "the three contacts in the answer: " + done.stdout[-1500:]
