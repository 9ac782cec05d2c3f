"""Faults in real Chromium: the host, Chromium, the service worker and the app die or restart mid-request, and the
socket file vanishes under a running core. Each time the pending request fails at once with the right code, the
pipe comes back by itself, the sessions table and the chat history are intact, and the next action works. Last, the
app restarts on a damaged store and gets the blocklist back from the extension's copy.

This module runs its own core and browser (it restarts both), in the order written.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app.bridge.bridge import BrowserBridge
from app.browser.launch import LaunchedBrowser
from app.protocol.envelope import Response
from app.store.db import store_path
from native_host.paths import socket_address
from tests.harness.actions import pool_request
from tests.harness.browser import start_connected_browser
from tests.harness.core_thread import CoreThread

SECRETS = {"ANTHROPIC_API_KEY": "sk-ant-test-secret", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9/",
           "SOME_SERVICE_TOKEN": "tok-secret", "OPENAI_API_KEY": "sk-other", "DB_SECRET": "hunter2"}
TASK = "t-faults"
CONVERSATION = "c-faults"
GONE = {"extension_disconnected", "stopped"}


@dataclass
class Rig:
    home: Path
    profile: Path
    core: CoreThread
    browser: LaunchedBrowser

    def act(self, action: dict, task_id: str = TASK, timeout: float | None = None) -> Response:
        return self.core.call(pool_request(self.core.pool, action, task_id, None, timeout), timeout=90)

    def bridge(self) -> BrowserBridge:
        bridge = self.core.pool.select()
        assert bridge is not None, "a browser is connected"
        return bridge

    def reconnected(self, old: BrowserBridge | None, timeout: float = 30) -> BrowserBridge:
        return self.core.call(self.core.pool.wait_for_bridge(timeout, exclude=old), timeout=timeout + 5)


@pytest.fixture(scope="module")
def rig(tmp_path_factory, fixture_server):
    home = tmp_path_factory.mktemp("faults-home")
    profile = tmp_path_factory.mktemp("faults-profile")
    saved = {name: os.environ.get(name) for name in SECRETS}
    os.environ.update(SECRETS)
    core = CoreThread(home)
    try:
        browser, _bridge = start_connected_browser(core, profile)
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    rig = Rig(home, profile, core, browser)
    tab = rig.act({"type": "navigate", "url": fixture_server.url("/sessions.html?faults")})
    assert tab.ok, tab.error
    rig.tab_id = tab.result["tab_id"]
    core.core.store.create_conversation(CONVERSATION, "faults")
    core.core.store.append_message(CONVERSATION, "user", {"text": "remember this"})
    yield rig
    rig.browser.stop()
    rig.core.stop()


class Pending:
    """An action that takes `ms` to answer, sent from a thread; `.response` once it settles."""

    def __init__(self, rig: Rig, fixture_server: Any, ms: int = 8000) -> None:
        self.response: Response | None = None
        self.bridge = rig.bridge()
        url = fixture_server.url(f"/slow?ms={ms}")
        self._thread = threading.Thread(target=self._run, args=(rig, url), daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while "t-pending" not in self.bridge.pending_tasks() and time.monotonic() < deadline:
            time.sleep(0.01)
        # Only this request's own count: the core may have its own controls in flight too (settings it pushes
        # when a browser connects, as right after the previous test's reconnect).
        assert self.bridge.pending_tasks().count("t-pending") == 1, f"in flight: {self.bridge.pending_tasks()}"
        self.faulted_at = 0.0

    def _run(self, rig: Rig, url: str) -> None:
        self.response = rig.act({"type": "navigate", "url": url}, task_id="t-pending")

    def settled_within(self, seconds: float) -> Response:
        self._thread.join(seconds)
        assert not self._thread.is_alive(), f"the pending request did not settle within {seconds} s"
        assert self.response is not None
        return self.response


def _intact(rig: Rig) -> None:
    """The sessions table still lists the task's tab, the chat history is whole, and the next action works."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any(r["tab_id"] == rig.tab_id for r in rig.core.core.sessions.rows()):
        time.sleep(0.05)
    assert any(r["tab_id"] == rig.tab_id and r["task_id"] == TASK for r in rig.core.core.sessions.rows()), \
        rig.core.core.sessions.rows()
    assert [m["payload"] for m in rig.core.core.store.messages(CONVERSATION)] == [{"text": "remember this"}]
    after = rig.act({"type": "extract"})
    assert after.ok and after.result["title"] == "Sessions fixture", after.error


def _environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    return dict(item.split("=", 1) for item in raw.decode(errors="replace").split("\0") if "=" in item)


def _group(pgid: int) -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getpgid(int(entry)) == pgid:
                    pids.append(int(entry))
            except ProcessLookupError:
                continue
    return pids


def test_chromium_and_the_host_get_no_secrets(rig):
    browser_env = _environ(rig.browser.process.pid)
    assert browser_env.get("BUA_HOME") == str(rig.home) and "PATH" in browser_env
    host_pid = rig.bridge().info.host_pid
    checked = {rig.browser.process.pid, host_pid, *_group(rig.browser.process.pid)}
    assert len(checked) > 2, "the renderers and helpers are checked too"
    for pid in checked:
        try:
            env = _environ(pid)
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
        leaked = sorted(set(SECRETS) & set(env))
        assert not leaked, f"process {pid} got {leaked}"


def test_host_killed_mid_request(rig, fixture_server):
    pending = Pending(rig, fixture_server)
    os.kill(pending.bridge.info.host_pid, signal.SIGKILL)
    assert pending.settled_within(5).error.code == "extension_disconnected"
    new = rig.reconnected(pending.bridge)
    assert new.info.profile_id == pending.bridge.info.profile_id
    _intact(rig)


def test_service_worker_restarted_mid_request(rig, fixture_server):
    pending = Pending(rig, fixture_server)
    cdp = rig.browser.cdp
    person = cdp.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    hands = cdp.send("Target.attachToTarget", {"targetId": person, "flatten": True})["sessionId"]
    cdp.send("ServiceWorker.enable", {}, hands)
    cdp.send("ServiceWorker.stopAllWorkers", {}, hands)
    assert pending.settled_within(5).error.code in GONE
    cdp.send("Page.navigate", {"url": fixture_server.url("/second.html")}, hands)  # any event wakes the worker
    rig.reconnected(pending.bridge)
    _intact(rig)
    cdp.send("Target.closeTarget", {"targetId": person})


def test_socket_file_deleted_under_a_running_core(rig, fixture_server):
    address = socket_address(rig.home)
    pending = Pending(rig, fixture_server, ms=1500)
    os.unlink(address)
    answer = pending.settled_within(15)
    assert answer.ok, "the live connection does not depend on the file: nothing in flight is lost"
    deadline = time.monotonic() + 5
    while not os.path.exists(address) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert os.path.exists(address), "the core listens again by itself"
    old = rig.bridge()
    os.kill(old.info.host_pid, signal.SIGKILL)  # a new host must find the new socket
    rig.reconnected(old)
    _intact(rig)


def test_app_restarted_while_a_browser_is_connected(rig, fixture_server):
    pending = Pending(rig, fixture_server)
    rig.core.stop()
    assert pending.settled_within(5).error.code in GONE
    rig.core = CoreThread(rig.home)
    rig.reconnected(None, timeout=40)
    _intact(rig)


def test_chromium_killed_mid_request(rig, fixture_server):
    pending = Pending(rig, fixture_server)
    os.killpg(rig.browser.process.pid, signal.SIGKILL)
    rig.browser.process.wait(10)
    assert pending.settled_within(5).error.code == "extension_disconnected"
    browser, bridge = start_connected_browser(rig.core, rig.profile)
    rig.browser = browser
    assert bridge.info.profile_id == pending.bridge.info.profile_id, "the same profile comes back"
    assert [m["payload"] for m in rig.core.core.store.messages(CONVERSATION)] == [{"text": "remember this"}]
    for row in rig.core.core.sessions.rows():  # get_tabs shows each task its own tabs
        tabs = rig.act({"type": "get_tabs"}, task_id=row["task_id"])
        assert tabs.ok, tabs.error
        assert row["tab_id"] in {t["tab_id"] for t in tabs.result["tabs"]}, "no row for a tab that died with Chromium"
    again = rig.act({"type": "navigate", "url": fixture_server.url("/sessions.html?after-kill")})
    assert again.ok, again.error


def test_app_restarted_on_a_damaged_store_gets_the_blocklist_back_from_the_extension(rig, fixture_server):
    rig.core.core.store.block("localhost")
    [pushed] = rig.core.call(rig.core.core.controls.push_blocklist())
    assert pushed["ok"], pushed
    rig.core.stop()
    store_path(rig.home).write_bytes(b"garbage header, not sqlite" * 400)
    rig.core = CoreThread(rig.home)
    recovery = rig.core.core.store.recovered
    assert recovery is not None and Path(recovery.damaged_path).exists()
    rig.reconnected(None, timeout=40)
    deadline = time.monotonic() + 10
    while rig.core.core.store.blocklist() != ["localhost"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert rig.core.core.store.blocklist() == ["localhost"], "restored from the extension's copy"
    refused = rig.act({"type": "navigate", "url": fixture_server.url("/second.html", host="localhost")})
    assert refused.error is not None and refused.error.code == "blocked", "and still enforced"
    assert rig.act({"type": "navigate", "url": fixture_server.url("/sessions.html?after-recovery")}).ok
