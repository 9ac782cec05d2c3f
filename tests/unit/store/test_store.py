"""The SQLite store and the blocklist rule (the same vectors as the extension's tests)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.store.blocklist import InvalidEntry, is_blocked, matches, normalise_entry
from app.store.db import Store

CASES = json.loads((Path(__file__).resolve().parents[3] / "extension/test/fixtures/blocklist-cases.json").read_text())


@pytest.mark.parametrize("pattern, host, expected", CASES["matches"])
def test_matching_rule_shared_with_the_extension(pattern, host, expected):
    assert matches(pattern, host) is expected


@pytest.mark.parametrize("patterns, url, expected", CASES["urls"])
def test_url_blocking_shared_with_the_extension(patterns, url, expected):
    assert is_blocked(patterns, url) == expected


@pytest.mark.parametrize("raw, normal", [("Bank.Example", "bank.example"), ("https://www.bank.example/x", "www.bank.example"),
                                         ("*.Bank.example.", "*.bank.example"), ("bücher.example", "xn--bcher-kva.example")])
def test_entries_are_normalised(raw, normal):
    assert normalise_entry(raw) == normal


@pytest.mark.parametrize("raw", ["", "bank", "*.", "a..b", "-x.example", "has space.example", "*.*.example"])
def test_invalid_entries_are_refused_with_an_example(raw):
    with pytest.raises(InvalidEntry, match="bank.example|not a valid"):
        normalise_entry(raw)


def test_blocklist_settings_and_history_persist(tmp_path):
    store = Store(tmp_path)
    assert store.block("*.Bank.example") == "*.bank.example"
    store.block("shop.test")
    store.block("shop.test")
    assert store.blocklist() == ["*.bank.example", "shop.test"]
    assert store.unblock("shop.test") and not store.unblock("shop.test")
    store.set_setting("main_model", "m1")
    store.create_conversation("c1", "hello")
    store.append_message("c1", "user", {"text": "hi"})
    store.close()
    again = Store(tmp_path)
    assert again.blocklist() == ["*.bank.example"]
    assert again.get_setting("main_model") == "m1" and again.get_setting("missing", 3) == 3
    assert [m["payload"]["text"] for m in again.messages("c1")] == ["hi"]
    assert again.conversations()[0]["title"] == "hello"
    again.close()
