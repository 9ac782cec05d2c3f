"""The command line against a real core and a real browser: `bua serve`, `bua browser --headless`, `bua act`, `bua status`."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def bua(home: Path, *args: str, timeout: float = 90) -> subprocess.CompletedProcess:
    env = dict(os.environ, BUA_HOME=str(home))
    return subprocess.run([sys.executable, "-m", "app", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def spawn(home: Path, *args: str) -> subprocess.Popen:
    env = dict(os.environ, BUA_HOME=str(home))
    return subprocess.Popen([sys.executable, "-m", "app", *args], cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.fixture
def cli_home(tmp_path):
    return tmp_path / "h"


def test_act_without_a_core_is_a_connection_error(cli_home):
    result = bua(cli_home, "act", '{"type":"get_tabs"}')
    assert result.returncode == 2
    assert "bua serve" in result.stderr


def test_no_browser_answers_at_once_with_the_setup_step(cli_home):
    """A core with no browser and none on its way: `bua act` does not wait, exits 2 (a connection error) and names
    the setup step; the no-core message reads without a raw errno."""
    missing = bua(cli_home, "status")
    assert missing.returncode == 1 and "Errno" not in missing.stdout
    serve = spawn(cli_home, "serve")
    try:
        assert "listening" in serve.stdout.readline()
        result = bua(cli_home, "act", '{"type":"get_tabs"}', timeout=20)
        assert result.returncode == 2, result.stdout + result.stderr
        error = json.loads(result.stdout)["error"]
        assert error["code"] == "extension_disconnected" and "bua install" in error["next_step"]
    finally:
        stop(serve)


def test_serve_browser_act_status(cli_home, fixture_server):
    serve = spawn(cli_home, "serve")
    browser = None
    try:
        assert "listening" in serve.stdout.readline()
        second = bua(cli_home, "serve", timeout=20)
        assert second.returncode == 2 and "already runs" in second.stderr, "single instance per BUA_HOME"
        browser = spawn(cli_home, "browser", "--headless", "--user-data-dir", str(cli_home / "profile"))

        result = bua(cli_home, "act", "--wait", "45", json.dumps({"type": "navigate", "url": fixture_server.url("/index.html")}))
        assert result.returncode == 0, result.stdout + result.stderr
        response = json.loads(result.stdout)
        assert response["ok"] is True and isinstance(response["result"]["tab_id"], int)

        status = bua(cli_home, "status")
        assert status.returncode == 0 and "core: running" in status.stdout
        assert "browser: Chromium" in status.stdout

        failed = bua(cli_home, "act", '{"type":"navigate","url":"javascript:alert(1)"}')
        assert failed.returncode == 1 and json.loads(failed.stdout)["error"]["code"] == "forbidden_url"
        usage = bua(cli_home, "act", "{not json")
        assert usage.returncode == 2 and "not JSON" in usage.stderr

        # Without --task the action is the person's own: Stop ends the `cli` task, the next call reopens it. A task
        # named with --task stays stopped.
        named = bua(cli_home, "act", "--task", "named", json.dumps({"type": "navigate", "url": fixture_server.url("/index.html")}))
        assert named.returncode == 0, named.stdout + named.stderr
        assert bua(cli_home, "stop").returncode == 0
        again = bua(cli_home, "act", '{"type":"get_tabs"}')
        assert again.returncode == 0, again.stdout + again.stderr
        still = bua(cli_home, "act", "--task", "named", '{"type":"get_tabs"}')
        assert still.returncode == 1 and json.loads(still.stdout)["error"]["code"] == "stopped", still.stdout
    finally:
        if browser is not None:
            stop(browser)
        stop(serve)
    time.sleep(0.1)
    assert bua(cli_home, "status").returncode == 1


def test_browser_command_stops_its_chromium_on_sigterm(cli_home):
    browser = spawn(cli_home, "browser", "--headless", "--user-data-dir", str(cli_home / "p2"))
    line = browser.stdout.readline()
    assert "browser started (pid" in line
    chromium_pid = int(line.split("pid ")[1].split(",")[0])
    stop(browser)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(chromium_pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("chromium outlived `bua browser`")


def test_blocklist_stop_status_and_run_against_a_running_core(cli_home, fixture_server):
    """The user's controls and one agent turn from the command line; the model is the scripted server,
    configured the way a person would (base URL in settings, key in the environment)."""
    from app.demo.scripted_model.policy import route
    from app.demo.scripted_model.server import ScriptedModelServer
    from app.demo.site_server import StaticServer
    from app.store.db import Store

    model = ScriptedModelServer(route)
    site = StaticServer()
    store = Store(cli_home)
    store.set_setting("base_url", model.base_url)
    store.close()
    env_key = os.environ.get("ANTHROPIC_API_KEY")
    os.environ["ANTHROPIC_API_KEY"] = "sk-test-offline"
    serve = spawn(cli_home, "serve")
    browser = None
    try:
        assert "listening" in serve.stdout.readline()
        browser = spawn(cli_home, "browser", "--headless", "--user-data-dir", str(cli_home / "profile"))
        assert bua(cli_home, "act", "--wait", "45", '{"type":"get_tabs"}').returncode == 0

        added = bua(cli_home, "blocklist", "add", "*.Bank.example")
        assert added.returncode == 0 and "*.bank.example" in added.stdout
        assert "now in force in 1/1 connected browser(s)" in added.stderr, "the extension acknowledged the new list"
        assert bua(cli_home, "blocklist", "add", "not a domain").returncode == 2
        assert "*.bank.example" in bua(cli_home, "blocklist", "list").stdout
        assert bua(cli_home, "blocklist", "remove", "nope.example").returncode == 1
        assert bua(cli_home, "blocklist", "remove", "*.bank.example").returncode == 0

        run = bua(cli_home, "run", f"On {site.url('/index.html?delay=50')} get the contact details of the first 2 "
                                   "candidates in the list.", timeout=120)
        assert run.returncode == 0, run.stderr
        assert "jane.doe1@example.org" in run.stdout and "Here are the contact details" in run.stdout
        assert "] Read " in run.stderr and "[end_turn]" in run.stderr, "milestones and the outcome go to stderr"

        status = bua(cli_home, "status")
        assert "sessions: 1 live" in status.stdout and "127.0.0.1" in status.stdout
        assert re.search(r"since [^,]+, last action (navigate|extract|click|wait_for), ", status.stdout), status.stdout
        assert "task cli-" in status.stdout and "completed" in status.stdout
        stopped = bua(cli_home, "stop")
        assert stopped.returncode == 0 and "1/1 browser(s) ended sessions" in stopped.stdout
        assert "sessions: 0 live" in bua(cli_home, "status").stdout
    finally:
        if env_key is None:
            os.environ.pop("ANTHROPIC_API_KEY", None)
        else:
            os.environ["ANTHROPIC_API_KEY"] = env_key
        if browser is not None:
            stop(browser)
        stop(serve)
        site.stop()
        model.stop()


def test_bua_demo_runs_the_offline_scenario_end_to_end(tmp_path):
    """The default scenario (three candidates), and the README's numbers are the demo's own."""
    demo = bua(tmp_path / "demo-home", "demo", "--headless", timeout=180)
    assert demo.returncode == 0, demo.stdout[-2000:] + demo.stderr[-2000:]
    assert "main agent → task:" in demo.stdout
    assert demo.stdout.count("@example.org") >= 3, "three contacts in the answer"
    assert re.search(r"model calls: main 2, browser subagent \d+", demo.stdout), demo.stdout[-500:]
    steps = max(int(n) for n in re.findall(r"^\s+\[\s*(\d+)\]", demo.stdout, re.MULTILINE))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = {int(n) for n in re.findall(r"(\d+) browser steps", readme)}
    # make screenshots writes the count of the app's demo run into the README. A click whose own change list
    # already carries the slow panel saves that candidate's wait, so a run may take up to one step per candidate
    # fewer; never more.
    assert len(said) == 1, f"the README's step counts disagree: {said}"
    assert 0 <= min(said) - steps <= 3, f"README says {min(said)} browser steps, the demo took {steps}"


def test_the_demo_shows_a_window_wherever_there_is_a_display(monkeypatch):
    from app.demo.run import has_display

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    for platform, expected in (("linux", False), ("darwin", True), ("win32", True)):
        monkeypatch.setattr("sys.platform", platform)
        assert has_display() is expected, platform
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    assert has_display()

