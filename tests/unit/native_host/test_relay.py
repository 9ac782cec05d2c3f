"""The real native host process, driven over its stdio exactly as Chrome drives it, against the real core."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import threading
import time

import pytest

from native_host import framing
from native_host.paths import token_path
from tests.harness.core_thread import CoreThread

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


class HostProcess:
    """The host started as Chrome starts it: [python -m native_host, origin], stdio pipes."""

    def __init__(self, home) -> None:
        env = dict(os.environ, BUA_HOME=str(home), PYTHONPATH=ROOT)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "native_host", "chrome-extension://test/"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=ROOT,
        )

    def send(self, message: dict) -> None:
        self.send_raw(framing.encode(message))

    def send_raw(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def read(self) -> dict:
        body = framing.read_frame_body(self.proc.stdout.read)
        assert body is not None, "host closed stdout"
        return json.loads(body)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


@pytest.fixture
def core(tmp_path):
    core = CoreThread(tmp_path / "home", request_timeout=5)
    events: list = []
    core.run(core.pool.subscribe, lambda bridge, event: events.append(event))
    core.events = events
    yield core
    core.stop()


@pytest.fixture
def host(core):
    host = HostProcess(core.home)
    yield host
    host.close()


def connect(core, host) -> object:
    assert host.read()["type"] == "host_ready"
    host.send({"v": 1, "kind": "event", "type": "hello",
               "data": {"extension_version": "test", "browser": "stdio", "profile_id": "p1"}})
    bridge = core.call(core.pool.wait_for_bridge(5))
    first = answer_one(host)
    assert first["kind"] == "control" and first["op"] == "set_blocklist", "the core sends its blocklist on hello"
    second = answer_one(host)
    assert second["op"] == "configure" and "idle_threshold_s" in second["args"], "and the idle threshold in force"
    return bridge


def answer_one(host) -> dict:
    """Play the extension for one request: echo a pong."""
    request = host.read()
    host.send({"v": 1, "kind": "response", "id": request["id"], "ok": True, "result": {"pong": True}})
    return request


def ping(core, host, bridge) -> bool:
    worker = threading.Thread(target=answer_one, args=(host,))
    worker.start()
    response = core.call(bridge.control("ping"))
    worker.join(5)
    return response.ok


def host_errors(core, count: int, timeout: float = 5.0) -> list[dict]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        errors = [e.data for e in core.events if e.type == "host_error"]
        if len(errors) >= count:
            return errors
        time.sleep(0.01)
    return [e.data for e in core.events if e.type == "host_error"]


def test_relay_round_trip(core, host):
    bridge = connect(core, host)
    assert bridge.info.host_pid == host.proc.pid
    assert bridge.info.origin == "chrome-extension://test/"
    assert ping(core, host, bridge)


@pytest.mark.parametrize("body, expect", [
    (b"\xff\xfe{}", "not valid UTF-8"),
    (b"[1, 2, 3]", "expected an object"),
    (b"{not json", "not JSON"),
    (b"", "not JSON"),
])
def test_non_fatal_malformed_frames_are_reported_and_the_stream_stays_usable(core, host, body, expect):
    bridge = connect(core, host)
    host.send_raw(framing.encode_body(body))
    errors = host_errors(core, 1)
    assert errors and expect in errors[0]["message"] and errors[0]["fatal"] is False
    assert errors[0]["side"] == "extension"
    assert ping(core, host, bridge), "the stream must stay usable"


def test_length_over_64_mib_is_reported_and_closes_cleanly(core, host):
    bridge = connect(core, host)
    host.send_raw(struct.pack("<I", 64 * 1024 * 1024 + 1))
    errors = host_errors(core, 1)
    assert errors[0]["fatal"] is True and "exceeds the limit" in errors[0]["message"]
    assert host.proc.wait(5) == 0
    response = core.call(bridge.control("ping"))
    assert response.error.code == "extension_disconnected"


def test_truncated_body_is_reported_and_pending_requests_fail_fast(core, host):
    bridge = connect(core, host)
    result = {}
    worker = threading.Thread(target=lambda: result.update(r=core.call(bridge.control("ping", timeout=30))))
    worker.start()
    host.read()  # the request reached the "extension"; it will never be answered
    host.send_raw(struct.pack("<I", 100) + b'{"v":1')
    host.proc.stdin.close()
    worker.join(5)
    assert result["r"].error.code == "extension_disconnected"
    errors = host_errors(core, 1)
    assert "truncated" in errors[0]["message"]
    assert host.proc.wait(5) == 0


def test_stdin_eof_exits_cleanly(core, host):
    connect(core, host)
    host.proc.stdin.close()
    assert host.proc.wait(5) == 0


def test_app_side_eof_exits_cleanly(core, host):
    bridge = connect(core, host)
    core.run(core.pool.remove, bridge, "test closes the app side")
    assert host.proc.wait(5) == 0


def test_oversize_frame_from_app_is_answered_not_forwarded(core, host):
    """The app refuses these itself; the host still guards Chrome's 1 MiB limit."""
    bridge = connect(core, host)
    message = {"v": 1, "kind": "control", "id": "big-1", "op": "ping", "args": {"pad": "x" * (1024 * 1024)}}

    async def send_raw_and_wait():
        import asyncio
        future = asyncio.get_running_loop().create_future()
        bridge._pending["big-1"] = future
        bridge._writer.write(framing.encode_body(json.dumps(message).encode()))
        return await asyncio.wait_for(future, 5)

    response = core.call(send_raw_and_wait())
    assert response.error.code == "payload_too_large"
    assert ping(core, host, bridge), "the next frame the extension sees is the ping, not the oversize one"


def test_malformed_frame_from_app_is_reported(core, host):
    bridge = connect(core, host)
    core.run(bridge._writer.write, framing.encode_body(b"[]"))
    errors = host_errors(core, 1)
    assert errors[0]["side"] == "app" and "expected an object" in errors[0]["message"]
    assert ping(core, host, bridge)


def test_host_waits_for_the_app_to_start(tmp_path):
    home = tmp_path / "late"
    host = HostProcess(home)
    try:
        time.sleep(0.5)
        assert host.proc.poll() is None, "the host waits for the app instead of exiting"
        core = CoreThread(home)
        try:
            assert host.read()["type"] == "host_ready"
        finally:
            core.stop()
        assert host.proc.wait(5) == 0, "the app going away is EOF: the host exits"
    finally:
        host.close()


def test_wrong_token_makes_the_host_report_and_exit(core):
    token_path(core.home).write_text("wrong-token")
    host = HostProcess(core.home)
    try:
        message = host.read()
        assert message["type"] == "host_error" and message["data"]["code"] == "auth_failed"
        assert host.proc.wait(5) == 1
    finally:
        host.close()
