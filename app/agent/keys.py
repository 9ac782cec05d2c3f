"""The Anthropic API key: env ANTHROPIC_API_KEY overrides the keyring; never written in plain text."""

from __future__ import annotations

import os

SERVICE = "bua"
ACCOUNT = "anthropic_api_key"


class KeyringUnavailable(Exception):
    """No secure keyring backend on this system."""


def get_api_key() -> str | None:
    env = os.environ.get("ANTHROPIC_API_KEY")
    if env:
        return env.strip()
    try:
        import keyring
        from keyring.errors import KeyringError

        try:
            value = keyring.get_password(SERVICE, ACCOUNT)
        except KeyringError:
            return None
    except ImportError:
        return None
    return value or None


def keyring_backend_name() -> str | None:
    """The usable backend's name, or None when only fail/plaintext backends exist."""
    import keyring
    from keyring.backends import fail

    backend = keyring.get_keyring()
    if isinstance(backend, fail.Keyring) or "plaintext" in type(backend).__name__.lower():
        return None
    return f"{type(backend).__module__}.{type(backend).__name__}"


def stored_in_keyring() -> bool:
    """Whether the keyring holds a key (whatever the environment says). Blocking: keyring may talk to D-Bus."""
    import keyring
    from keyring.errors import KeyringError

    try:
        return bool(keyring.get_password(SERVICE, ACCOUNT))
    except KeyringError:
        return False


def set_api_key(value: str) -> None:
    import keyring

    if keyring_backend_name() is None:
        raise KeyringUnavailable("no secure keyring on this system; set ANTHROPIC_API_KEY in the environment instead")
    keyring.set_password(SERVICE, ACCOUNT, value)


def delete_api_key() -> None:
    import keyring
    from keyring.errors import PasswordDeleteError

    try:
        keyring.delete_password(SERVICE, ACCOUNT)
    except PasswordDeleteError:
        pass
