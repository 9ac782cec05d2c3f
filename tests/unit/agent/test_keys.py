"""The API key: env overrides the keyring, a missing backend is said plainly, plaintext backends are refused."""

from __future__ import annotations

import keyring
import pytest
from keyring.backends import fail

from app.agent.keys import (
    KeyringUnavailable,
    delete_api_key,
    get_api_key,
    keyring_backend_name,
    set_api_key,
    stored_in_keyring,
)
from tests.harness.memory_keyring import MemoryKeyring, memory_keyring_in_use


@pytest.fixture
def backend(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with memory_keyring_in_use() as memory:
        yield memory


def test_key_round_trips_through_the_keyring(backend):
    assert get_api_key() is None
    set_api_key("sk-from-keyring")
    assert backend.secrets == {("bua", "anthropic_api_key"): "sk-from-keyring"}
    assert get_api_key() == "sk-from-keyring"
    delete_api_key()
    delete_api_key()
    assert get_api_key() is None


def test_environment_overrides_the_keyring(backend, monkeypatch):
    set_api_key("sk-from-keyring")
    monkeypatch.setenv("ANTHROPIC_API_KEY", " sk-from-env ")
    assert get_api_key() == "sk-from-env"


def test_what_the_keyring_holds_is_told_apart_from_the_environment(backend, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-from-env")
    assert not stored_in_keyring(), "Settings says where the key comes from: the environment, not the keyring"
    set_api_key("sk-from-keyring")
    assert stored_in_keyring()


def test_no_backend_is_refused_with_the_way_out(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        assert keyring_backend_name() is None
        assert get_api_key() is None
        with pytest.raises(KeyringUnavailable, match="ANTHROPIC_API_KEY"):
            set_api_key("sk-x")
    finally:
        keyring.set_keyring(previous)


def test_plaintext_backends_are_never_used_for_the_key(monkeypatch):
    class PlaintextKeyring(MemoryKeyring):
        pass

    previous = keyring.get_keyring()
    keyring.set_keyring(PlaintextKeyring())
    try:
        with pytest.raises(KeyringUnavailable):
            set_api_key("sk-x")
    finally:
        keyring.set_keyring(previous)
