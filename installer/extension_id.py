"""The extension's ID, derived from the fixed `key` in its manifest.json.

Chrome derives an unpacked extension's ID from the public key when the
manifest has one: sha256 of the DER bytes, first 32 hex digits, each digit
0-f mapped to a-p. Computing it here keeps the host manifest's
`allowed_origins` in step with whatever key the extension ships.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from pathlib import Path

from installer.errors import InstallError


def extension_dir() -> Path:
    """The repository's unpacked extension (the folder to "Load unpacked")."""
    return Path(__file__).resolve().parents[1] / "extension"


def id_from_key(key: str) -> str:
    """Extension ID for a base64-encoded DER public key."""
    try:
        der = base64.b64decode("".join(key.split()), validate=True)
    except (binascii.Error, ValueError) as err:
        raise InstallError(f"the extension key is not valid base64: {err}") from err
    digest = hashlib.sha256(der).hexdigest()[:32]
    return "".join(chr(ord("a") + int(digit, 16)) for digit in digest)


def read_extension_id(ext_dir: Path | None = None) -> str:
    """Extension ID from `<ext_dir>/manifest.json` (default: the repo's extension)."""
    manifest = (ext_dir or extension_dir()) / "manifest.json"
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except FileNotFoundError as err:
        raise InstallError(f"no extension manifest at {manifest}") from err
    except (OSError, ValueError) as err:
        raise InstallError(f"cannot read the extension manifest {manifest}: {err}") from err
    key = data.get("key") if isinstance(data, dict) else None
    if not isinstance(key, str) or not key.strip():
        raise InstallError(
            f"{manifest} has no \"key\"; without it the extension ID is random "
            "and the native host cannot allow it"
        )
    return id_from_key(key)
