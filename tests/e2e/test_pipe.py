"""The whole pipe with real parts: app bridge ⇄ native host (started by Chromium) ⇄ extension ⇄ tab."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time

from app.abort import AbortSignal
from native_host import framing
from native_host.paths import socket_address


def test_navigate_round_trip_returns_the_tab(act, fixture_server):
    response = act({"type": "navigate", "url": fixture_server.url("/index.html")}, task_id="t-nav")
    assert response.ok, response.error
    assert isinstance(response.result["tab_id"], int)
    assert response.result["url"] == fixture_server.url("/index.html")
    assert response.result["title"] == "bua fixture index"


def test_navigate_reuses_the_task_tab_and_follows_redirects(act, fixture_server):
    first = act({"type": "navigate", "url": fixture_server.url("/index.html")}, task_id="t-reuse")
    second = act({"type": "navigate", "url": fixture_server.url("/redirect?to=/second.html")}, task_id="t-reuse")
    assert first.ok and second.ok, (first.error, second.error)
    assert second.result["tab_id"] == first.result["tab_id"]
    assert second.result["url"] == fixture_server.url("/second.html")


def test_get_tabs_marks_the_task_tab(act, fixture_server):
    nav = act({"type": "navigate", "url": fixture_server.url("/second.html")}, task_id="t-tabs")
    tabs = act({"type": "get_tabs"}, task_id="t-tabs")
    assert tabs.ok, tabs.error
    mine = [t for t in tabs.result["tabs"] if t["in_task"]]
    assert [t["tab_id"] for t in mine] == [nav.result["tab_id"]]
    assert mine[0]["url"] == fixture_server.url("/second.html")
    others = act({"type": "get_tabs"}, task_id="t-someone-else")
    assert not any(t["in_task"] for t in others.result["tabs"])


def test_navigate_to_a_closed_port_is_navigation_failed(act):
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    response = act({"type": "navigate", "url": f"http://127.0.0.1:{port}/"}, task_id="t-fail")
    assert not response.ok
    assert response.error.code == "navigation_failed"
    assert "ERR_CONNECTION_REFUSED" in response.error.message


def test_forbidden_url_is_refused_before_sending(act):
    response = act({"type": "navigate", "url": "file:///etc/passwd"})
    assert response.error.code == "forbidden_url"


def test_ping_control(core, browser):
    bridge = core.pool.select()
    response = core.call(bridge.control("ping"))
    assert response.ok and response.result["pong"] is True
    assert response.result["extension_version"] == bridge.info.extension_version


def test_unknown_op_and_unknown_action_type_answered_by_the_extension(core, browser):
    """Raw frames: the app's own Control model cannot carry an op outside ControlOp."""
    bridge = core.pool.select()
    raw_op = {"v": 1, "kind": "control", "id": "raw-op", "op": "reboot_the_world", "args": {}}
    unknown_op = core.call(bridge.send_and_wait(raw_op, "raw-op", None, 10))
    assert not unknown_op.ok and unknown_op.error.code == "invalid_action"
    assert "ping" in unknown_op.error.message
    raw = {"v": 1, "kind": "request", "id": "raw-1", "task_id": "t", "action": {"type": "teleport"}}
    response = core.call(bridge.send_and_wait(raw, "raw-1", None, 10))
    assert not response.ok and response.error.code == "invalid_action"
    assert "get_tabs" in response.error.message


def test_oversize_message_refused_before_sending(core, browser):
    bridge = core.pool.select()
    huge = {"domains": ["x" * 60 + f"{i}.example" for i in range(20_000)]}
    response = core.call(bridge.control("set_blocklist", huge))
    assert response.error.code == "payload_too_large"
    assert "1048576" in response.error.message
    assert core.call(bridge.control("ping")).ok, "the pipe stays usable"


def test_timeout_path(act, fixture_server):
    response = act({"type": "navigate", "url": fixture_server.url("/slow?ms=3000")}, task_id="t-timeout", timeout=0.3)
    assert response.error.code == "timeout"
    assert "0.3 s" in response.error.message


def test_abort_settles_at_once_and_clears_the_request(core, act, fixture_server):
    abort = AbortSignal()
    threading.Timer(0.3, lambda: core.loop.call_soon_threadsafe(abort.abort)).start()
    response = act({"type": "navigate", "url": fixture_server.url("/slow?ms=4000")}, task_id="t-abort", abort=abort)
    assert response.error.code == "stopped"
    assert response.error.message == "aborted by caller"
    assert "t-abort" not in core.pool.select().pending_tasks()


def test_wrong_token_is_refused(core, browser):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(socket_address(core.home))
    sock.sendall(framing.encode({"v": 1, "kind": "auth", "role": "host", "token": "not-the-token"}))
    reply = framing.decode_body(framing.read_frame_body(sock.recv))
    assert reply["kind"] == "auth_error"
    assert sock.recv(1) == b"", "the core closes the connection after refusing"
    sock.close()
    assert core.pool.select() is not None, "the real browser stays connected"


def test_host_killed_mid_request_fails_fast_then_reconnects(core, act, fixture_server):
    old = core.pool.select()
    result: dict = {}

    def pending() -> None:
        result["response"] = act({"type": "navigate", "url": fixture_server.url("/slow?ms=8000")}, task_id="t-kill")

    worker = threading.Thread(target=pending)
    worker.start()
    deadline = time.monotonic() + 10
    while "t-kill" not in old.pending_tasks() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert old.pending_tasks().count("t-kill") == 1, old.pending_tasks()
    os.kill(old.info.host_pid, signal.SIGKILL)
    worker.join(5)
    assert not worker.is_alive(), "the pending request must settle as soon as the host dies"
    assert result["response"].error.code == "extension_disconnected"
    new = core.call(core.pool.wait_for_bridge(30, exclude=old), timeout=35)
    assert new is not old and new.info.host_pid != old.info.host_pid
    assert new.info.profile_id == old.info.profile_id
    after = act({"type": "get_tabs"}, task_id="t-kill")
    assert after.ok, after.error


def test_a_waiting_action_gets_its_own_wait_plus_a_margin(core, act, fixture_server):
    act({"type": "navigate", "url": fixture_server.url("/sessions.html")}, task_id="t-wait-margin")
    act({"type": "evaluate", "expression": "setTimeout(() => document.getElementById('never-shown').hidden = false, "
         "1000); 1"}, task_id="t-wait-margin")
    default = core.pool.timeout
    core.pool.timeout = 0.5
    try:
        waited = act({"type": "wait_for", "selector": "#never-shown", "timeout_ms": 3000}, task_id="t-wait-margin")
    finally:
        core.pool.timeout = default
    assert waited.ok, waited.error
