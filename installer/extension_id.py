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
from importlib.resources import files
from pathlib import Path

from installer.errors import InstallError

BUNDLED = "_extension"
"""The extension's folder inside the installed `installer` package (put there by setup.py's build step)."""


def extension_dir() -> Path:
    """The unpacked extension this bua ships: inside the installed package, or `extension/` of a checkout.

    A wheel carries it as `installer/_extension`; an editable install or a plain checkout has none there
    and uses the repository's `extension/` beside the `installer` package, the source it is built from.
    """
    package = Path(str(files("installer")))
    bundled = package / BUNDLED
    if (bundled / "manifest.json").is_file():
        return bundled
    checkout = package.parent / "extension"
    if (checkout / "manifest.json").is_file() and (package.parent / "pyproject.toml").is_file():
        return checkout
    raise InstallError(
        f"this bua has no extension: neither {bundled} nor a checkout's {checkout} holds a manifest.json. "
        "Reinstall bua from its wheel (pipx install --force bua-browser), or build it with `python -m build`"
    )


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
