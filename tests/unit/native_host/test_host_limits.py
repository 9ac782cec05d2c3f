"""The real host process under hostile input: deep nesting, and a flood while the app is away."""

from __future__ import annotations

import json
import time

from native_host import framing
from native_host.host import PENDING_BYTES, Relay, describe
from tests.harness.core_thread import CoreThread
from tests.unit.native_host.test_relay import HostProcess, connect, host_errors, ping

MIB = 1024 * 1024


def _vm(pid: int, field: str) -> int:
    """A /proc/<pid>/status size in bytes (VmRSS, VmHWM)."""
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"{field} missing")


def test_100000_nested_brackets_are_a_host_error_not_a_crash(core, host):
    bridge = connect(core, host)
    host.send_raw(framing.encode_body(b"[" * 100_000))
    host.send_raw(framing.encode_body(b'{"a":' * 100_000 + b"1" + b"}" * 100_000))
    errors = host_errors(core, 2)
    assert [e["code"] for e in errors] == ["malformed_frame", "malformed_frame"]
    assert all("nested too deeply" in e["message"] and e["fatal"] is False for e in errors)
    assert host.proc.poll() is None, "the host is still running"
    assert ping(core, host, bridge), "and the stream is still usable"


def test_frames_waiting_for_the_app_are_capped_by_bytes_oldest_dropped_and_named(tmp_path):
    home = tmp_path / "home"
    flooded = HostProcess(home)
    try:
        frames = 30
        size = 8 * MIB
        for i in range(frames):
            pad = "x" * (size - 200)
            flooded.send({"v": 1, "kind": "response", "id": f"flood-{i}", "ok": True, "result": {"pad": pad}})
        time.sleep(1.0)  # the host has read everything (the pipe would block otherwise)
        held_rss = _vm(flooded.proc.pid, "VmRSS")
        core = CoreThread(home)
        try:
            received: list[dict] = []
            core.run(core.pool.subscribe, lambda bridge, event: received.append(event))
            assert flooded.read()["type"] == "host_ready"
            errors = []
            deadline = time.monotonic() + 10
            while not errors and time.monotonic() < deadline:
                errors = [e.data for e in received if e.type == "host_error"]
                time.sleep(0.05)
        finally:
            core.stop()
    finally:
        flooded.close()
    kept = PENDING_BYTES // size
    assert errors, "the core was told that frames were dropped"
    assert len(errors) == 1, "one notice for the whole flood"
    notice = errors[0]
    assert notice["code"] == "frames_dropped" and notice["fatal"] is False
    dropped = notice["dropped"]
    assert len(dropped) == notice["dropped_count"] >= frames - kept
    assert dropped[0].startswith("response flood-0 ("), "the oldest goes first and is named"
    assert all(f"response flood-{i} (" in dropped[i] for i in range(len(dropped)))
    assert held_rss < 2 * PENDING_BYTES, f"the host held {held_rss / MIB:.0f} MiB for {frames * 8} MiB sent"


def test_the_byte_cap_in_the_relay_itself():
    relay = Relay(None, None, "origin")  # type: ignore[arg-type]
    relay.pending_limit = 100
    for i in range(5):
        relay.to_app(b"x" * 40, f"response r{i}")
    assert [what for _body, what in relay._pending] == ["response r3", "response r4"]
    notice = json.loads(relay._lost_notice())
    assert notice["data"]["dropped"] == ["response r0 (40 bytes)", "response r1 (40 bytes)", "response r2 (40 bytes)"]
    assert notice["data"]["dropped_count"] == 3 and "over the 100-byte limit" in notice["data"]["message"]
    assert relay._lost_notice() is None, "said once"


def test_describe_names_a_frame_briefly():
    assert describe({"kind": "response", "id": "r12"}) == "response r12"
    assert describe({"kind": "event", "type": "session_started"}) == "event session_started"
    assert describe({}) == "frame"
