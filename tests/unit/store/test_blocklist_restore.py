"""After a recovery the blocklist comes back from the connecting extension's copy (the real host, a stand-in
extension on its stdio)."""

from __future__ import annotations

import threading

from app.store.db import store_path
from app.store.recovery import restore_pending
from tests.harness.core_thread import CoreThread
from tests.unit.native_host.test_relay import HostProcess, answer_one


def _hello(host: HostProcess, blocklist: list | None) -> None:
    assert host.read()["type"] == "host_ready"
    data = {"extension_version": "test", "browser": "stdio", "profile_id": "p1"}
    if blocklist is not None:
        data["blocklist"] = blocklist
    host.send({"v": 1, "kind": "event", "type": "hello", "data": data})


def _damaged_core(tmp_path) -> CoreThread:
    home = tmp_path / "home"
    home.mkdir()
    store_path(home).write_bytes(b"garbage" * 1000)
    return CoreThread(home, request_timeout=5)


def test_the_extensions_copy_fills_the_fresh_store_and_is_pushed_back(tmp_path):
    core = _damaged_core(tmp_path)
    host = HostProcess(core.home)
    try:
        assert core.core.store.recovered is not None
        _hello(host, ["bank.example", "*.mail.example", "not a domain!", 42])
        pushed = answer_one(host)
        assert pushed["op"] == "set_blocklist"
        assert pushed["args"]["patterns"] == ["*.mail.example", "bank.example"]
        assert core.core.store.blocklist() == ["*.mail.example", "bank.example"]
        assert not restore_pending(core.core.store), "restored once"
    finally:
        host.close()
        core.stop()


def test_an_extension_without_a_copy_is_not_overwritten_with_the_empty_list(tmp_path):
    core = _damaged_core(tmp_path)
    host = HostProcess(core.home)
    try:
        _hello(host, None)
        bridge = core.call(core.pool.wait_for_bridge(5))
        assert answer_one(host)["op"] == "configure", "no blocklist is pushed; the idle threshold is"
        worker = threading.Thread(target=answer_one, args=(host,))
        worker.start()
        assert core.call(bridge.control("ping")).ok
        worker.join(5)
        assert restore_pending(core.core.store), "still waiting for a browser that has a copy"
    finally:
        host.close()
        core.stop()


def test_without_a_recovery_the_store_wins(tmp_path):
    core = CoreThread(tmp_path / "home", request_timeout=5)
    core.core.store.block("shop.example")
    host = HostProcess(core.home)
    try:
        _hello(host, ["bank.example"])
        pushed = answer_one(host)
        assert pushed["args"]["patterns"] == ["shop.example"], "the store is the source of truth"
        assert core.core.store.blocklist() == ["shop.example"]
    finally:
        host.close()
        core.stop()


def test_every_connect_gets_the_idle_threshold_settings_shows_even_before_it_is_saved(tmp_path):
    """Settings shows DEFAULT_IDLE_S before anyone saves it; the extension must have the same value in force."""
    from app.core.sessions import DEFAULT_IDLE_S

    core = CoreThread(tmp_path / "home", request_timeout=5)
    host = HostProcess(core.home)
    try:
        _hello(host, None)
        assert answer_one(host)["op"] == "set_blocklist"
        configure = answer_one(host)
        assert configure["op"] == "configure" and configure["args"] == {"idle_threshold_s": DEFAULT_IDLE_S}
    finally:
        host.close()
        core.stop()
