"""The core's local socket under bad input: one bad connection never costs another, nor the browser's."""

from __future__ import annotations

import os
import socket
import struct
import time

import pytest

from app.abort import AbortSignal
from app.cli.client import CoreClient
from native_host import framing
from native_host.paths import socket_address, token_path
from tests.harness.core_thread import CoreThread


@pytest.fixture
def core(tmp_path):
    core = CoreThread(tmp_path / "home", request_timeout=5)
    yield core
    core.stop()


def _raw(core, role: str = "cli") -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(5)
    sock.connect(socket_address(core.home))
    token = token_path(core.home).read_text()
    sock.sendall(framing.encode({"v": 1, "kind": "auth", "role": role, "token": token}))
    assert framing.decode_body(framing.read_frame_body(sock.recv))["kind"] == "auth_ok"
    return sock


def _reply_then_closed(sock: socket.socket) -> dict:
    reply = framing.decode_body(framing.read_frame_body(sock.recv))
    assert sock.recv(1) == b"", "the connection is closed after the error reply"
    return reply


def test_an_oversize_cli_frame_is_answered_then_that_connection_closes(core):
    other = CoreClient(core.home)
    sock = _raw(core)
    sock.sendall(struct.pack("<I", framing.MAX_INBOUND + 1) + framing.encode({"v": 1, "kind": "cli", "op": "status"}))
    reply = _reply_then_closed(sock)
    assert reply["ok"] is False and reply["error"]["code"] == "invalid_request"
    assert "exceeds the limit" in reply["error"]["message"] and "reconnect" in reply["error"]["message"]
    assert other.call("status")["ok"], "another client's connection is untouched"
    other.close()


def test_a_malformed_cli_frame_is_answered_then_that_connection_closes(core):
    sock = _raw(core)
    sock.sendall(framing.encode_body(b"{not json"))
    reply = _reply_then_closed(sock)
    assert "not JSON" in reply["error"]["message"]
    with CoreClient(core.home) as client:
        assert client.call("status")["ok"]


def test_a_malformed_handshake_is_answered(core):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(5)
    sock.connect(socket_address(core.home))
    sock.sendall(framing.encode_body(b"[" * 60_000))
    reply = _reply_then_closed(sock)
    assert reply["kind"] == "auth_error" and "nested too deeply" in reply["message"]


def test_a_malformed_host_event_is_reported_and_skipped(core, caplog):
    host = _raw(core, role="host")
    host.sendall(framing.encode({"v": 1, "kind": "event", "type": "hello",
                                 "data": {"extension_version": "t", "browser": "stdio", "profile_id": "p1"}}))
    bridge = core.call(core.pool.wait_for_bridge(5))
    framing.read_frame_body(host.recv)  # the blocklist the core sends on hello
    host.sendall(framing.encode({"v": 1, "kind": "event", "type": ["not", "a", "type"], "data": "nor data"}))
    host.sendall(framing.encode({"v": 1, "kind": "event", "type": "navigated", "data": {"tab_id": 1}}))
    deadline = time.monotonic() + 5
    while "malformed" not in caplog.text and time.monotonic() < deadline:
        time.sleep(0.02)
    assert "malformed" in caplog.text, "the bad event is reported"
    assert bridge.info.host_errors[-1]["code"] == "malformed_event"
    assert not bridge.closed and core.pool.select() is bridge, "and skipped: the browser stays connected"
    host.close()


def test_a_cli_action_cannot_take_a_running_agents_task(core):
    agent = AbortSignal()
    core.run(core.core.controls.register, "t-agent", agent)
    with CoreClient(core.home) as client:
        reply = client.call("act", action={"type": "get_tabs"}, task_id="t-agent", wait_s=0)
    assert reply["ok"] is False
    assert "belongs to a running agent" in reply["response"]["error"]["message"]
    assert "bua stop --task t-agent" in reply["response"]["error"]["message"]
    assert core.core.controls.running == {"t-agent": agent}, "the agent's Stop entry is untouched"


def test_the_socket_file_deleted_under_a_running_core_comes_back(core):
    address = socket_address(core.home)
    held = CoreClient(core.home)
    os.unlink(address)
    deadline = time.monotonic() + 10
    while not os.path.exists(address) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert os.path.exists(address), "the core listens again by itself"
    assert oct(os.stat(address).st_mode & 0o777) == "0o600"
    with CoreClient(core.home) as client:
        assert client.call("status")["ok"], "new clients connect"
    assert held.call("status")["ok"], "a connection made before the deletion still works"
    held.close()


def test_the_whole_runtime_dir_deleted_comes_back_with_the_same_token(core):
    import shutil

    token = token_path(core.home).read_text()
    shutil.rmtree(token_path(core.home).parent)
    deadline = time.monotonic() + 10
    while not os.path.exists(socket_address(core.home)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert token_path(core.home).read_text() == token
    with CoreClient(core.home) as client:
        assert client.call("status")["ok"]
