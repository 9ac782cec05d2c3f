"""A damaged store (truncated, garbage header, broken page) is moved aside, replaced, and reported."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

import pytest

from app.store.db import Store
from app.store.recovery import RESTORE_BLOCKLIST_KEY, problem

PAGE = 4096


def _filled(home: Path) -> Path:
    store = Store(home)
    for i in range(200):
        store.create_conversation(f"c{i}", "title")
        store.append_message(f"c{i}", "user", {"text": "x" * 400})
    store.block("bank.example")
    store.close()
    return home / "bua.sqlite3"


def _truncate(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _garbage_header(data: bytes) -> bytes:
    return b"this is not sqlite" * 6 + data[108:]


def _broken_page(data: bytes) -> bytes:
    broken = bytearray(data)
    broken[PAGE * 3: PAGE * 4] = bytes((i * 37 + 11) % 251 for i in range(PAGE))
    return bytes(broken)


@pytest.mark.parametrize("damage", [_truncate, _garbage_header, _broken_page], ids=["truncated", "garbage-header",
                                                                                   "broken-page"])
def test_a_damaged_store_is_moved_aside_and_replaced(tmp_path, damage):
    path = _filled(tmp_path)
    original = damage(path.read_bytes())
    path.write_bytes(original)

    store = Store(tmp_path)

    assert store.recovered is not None
    kept = Path(store.recovered.damaged_path)
    assert kept.parent == tmp_path and kept.name.startswith("bua.sqlite3.damaged-")
    assert kept.read_bytes() == original, "the damaged file is kept byte for byte"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert store.conversations() == [] and store.blocklist() == []
    store.block("shop.example")
    assert store.blocklist() == ["shop.example"], "the fresh store works"
    assert store.get_setting(RESTORE_BLOCKLIST_KEY) is True
    message = store.last_recovery().message()
    assert str(kept) in message and "chat history" in message and "blocklist" in message
    store.close()

    again = Store(tmp_path)
    assert again.recovered is None, "the fresh store passes the check at the next start"
    assert again.last_recovery() is not None, "the notice stays until the person dismisses it"
    again.dismiss_recovery()
    assert again.last_recovery() is None
    again.close()


def test_a_healthy_store_is_left_alone(tmp_path):
    path = _filled(tmp_path)
    store = Store(tmp_path)
    assert store.recovered is None and store.last_recovery() is None
    assert len(store.conversations()) == 200 and store.blocklist() == ["bank.example"]
    store.close()
    assert sorted(p.name for p in tmp_path.iterdir() if "damaged" in p.name) == []
    assert path.exists()


def test_two_recoveries_in_one_second_keep_both_files(tmp_path):
    for _ in range(2):
        path = tmp_path / "bua.sqlite3"
        path.write_bytes(b"garbage" * 1000)
        Store(tmp_path).close()
    assert len([p for p in tmp_path.iterdir() if ".damaged-" in p.name]) == 2


def test_a_locked_store_is_not_taken_for_damage(tmp_path):
    _filled(tmp_path)
    holder = sqlite3.connect(tmp_path / "bua.sqlite3", isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(sqlite3.OperationalError):
            problem(tmp_path / "bua.sqlite3")
    finally:
        holder.close()
    assert not [p for p in tmp_path.iterdir() if ".damaged-" in p.name]
