"""The core's verbs: each change is told once to the core's listeners, whoever asked for it (here `bua`'s client
over the real socket, and the verb called directly as the tray does). Pushing to real browsers: tests/e2e/
test_core_verbs.py."""

from __future__ import annotations

import time
from typing import Any, get_args

import pytest

from app.cli.client import CoreClient
from app.events import SUBAGENT_EVENTS, LoopEvent, SubagentEvent
from tests.harness.core_thread import CoreThread


@pytest.fixture
def core(tmp_path):
    core = CoreThread(tmp_path / "home", request_timeout=5)
    yield core
    core.stop()


def listen(core: CoreThread) -> list[tuple[str, dict[str, Any]]]:
    heard: list[tuple[str, dict[str, Any]]] = []
    core.run(core.core.subscribe, lambda kind, payload: heard.append((kind, payload)))
    return heard


def test_bua_blocklist_add_and_remove_are_told_once_each(core):
    heard = listen(core)
    with CoreClient(core.home) as client:
        added = client.call("blocklist", action="add", entry="*.Bank.Example")
        assert added["ok"] and added["result"]["blocklist"] == ["*.bank.example"]
        assert heard == [("blocklist_changed", {"patterns": ["*.bank.example"], "browsers": []})]

        bad = client.call("blocklist", action="add", entry="not a domain")
        assert bad["error"]["code"] == "invalid_entry"
        missing = client.call("blocklist", action="remove", entry="other.example")
        assert missing["error"]["code"] == "not_found" and "other.example" in missing["error"]["message"]
        assert client.call("blocklist", action="list")["result"]["blocklist"] == ["*.bank.example"]
        assert len(heard) == 1, "a refused change and a read tell nobody"

        removed = client.call("blocklist", action="remove", entry="*.bank.example")
        assert removed["ok"] and removed["result"]["blocklist"] == []
        assert heard[1:] == [("blocklist_changed", {"patterns": [], "browsers": []})]

        unknown = client.call("blocklist", action="clear")
        assert unknown["error"]["code"] == "invalid_request" and "valid: list, add, remove" in unknown["error"]["message"]


def test_the_trays_path_is_the_same_verb(core):
    heard = listen(core)
    change = core.call(core.core.block("shop.example"))
    assert change.pattern == "shop.example" and change.patterns == ["shop.example"]
    assert heard == [("blocklist_changed", {"patterns": ["shop.example"], "browsers": []})]
    assert core.call(core.core.unblock("never.example")) is None and len(heard) == 1


def test_bua_stop_and_act_are_told_and_status_is_a_read(core):
    heard = listen(core)
    with CoreClient(core.home) as client:
        assert client.call("stop")["ok"]
        assert heard == [("stopped", {"task_id": None, "cancelled_tasks": [], "settled_requests": 0})]
        assert client.call("stop", task_id="t-1")["ok"]
        assert heard[-1] == ("stopped", {"task_id": "t-1", "cancelled_tasks": [], "settled_requests": 0})

        acted = client.call("act", action={"type": "get_tabs"}, task_id="t-2")
        assert acted["ok"] is False and acted["response"]["error"]["code"] == "extension_disconnected"
        assert heard[-1] == ("acted", {"task_id": "t-2", "action": "get_tabs", "ok": False})

        status = client.call("status")
        assert status["ok"] and status["result"]["browsers"] == [] and status["result"]["blocklist"] == []
        assert len(heard) == 3, "status tells nobody"


def test_every_loop_event_has_its_subagent_form():
    assert set(SUBAGENT_EVENTS) == set(get_args(LoopEvent))
    assert set(SUBAGENT_EVENTS.values()) == set(get_args(SubagentEvent))
    assert all(sub == f"subagent_{kind}" for kind, sub in SUBAGENT_EVENTS.items())


def test_a_blocklist_restored_from_a_browser_is_told_like_any_change(tmp_path):
    from tests.unit.native_host.test_relay import HostProcess, answer_one
    from tests.unit.store.test_blocklist_restore import _damaged_core, _hello

    core = _damaged_core(tmp_path)
    heard = listen(core)
    host = HostProcess(core.home)
    try:
        _hello(host, ["bank.example"])
        assert answer_one(host)["args"]["patterns"] == ["bank.example"]
        deadline = time.monotonic() + 5
        while not any(kind == "blocklist_changed" for kind, _ in heard) and time.monotonic() < deadline:
            time.sleep(0.02)
        changes = [payload["patterns"] for kind, payload in heard if kind == "blocklist_changed"]
        assert changes == [["bank.example"]], heard
    finally:
        host.close()
        core.stop()
