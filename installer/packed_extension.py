"""A packed extension offered to Chromium without Developer mode: `bua install --crx` (Linux, Chromium only).

Chromium builds on Linux read `<user-data-dir>/External Extensions/<id>.json` files that point at a local CRX
(chrome/common/chrome_paths.cc, DIR_USER_EXTERNAL_EXTENSIONS) and install that extension enabled, with no
"Load unpacked" and no Developer mode; measured on Chromium 156. Google Chrome reads such files only from
/usr/share/google-chrome/extensions and /opt/google/chrome/extensions (root), and Chrome on macOS and Windows
takes external extensions only from the Chrome Web Store, so there is no such path for a local program.

The repository holds only the public half of the key in manifest.json, so a CRX packed here is signed with a key
made for this BUA_HOME and gets its own ID (not the unpacked extension's); the host manifest allows both. The
CRX is packed by the browser itself (`--pack-extension`). Chromium updates the installed copy when the file
names a higher `external_version`, i.e. with a new bua release.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from installer.errors import InstallError
from installer.extension_id import id_from_key
from installer.manifest import write_json

KEY_NAME = "extension-key.pem"
CRX_NAME = "bua-extension.crx"


@dataclass(frozen=True)
class PackedExtension:
    crx: Path
    extension_id: str
    version: str


def external_file(user_data_dir: Path, extension_id: str) -> Path:
    return user_data_dir / "External Extensions" / f"{extension_id}.json"


def _public_key_b64(pem: Path) -> str:
    """The DER public key of a PKCS#8 RSA private key, base64 (what Chrome hashes into the ID), via openssl."""
    try:
        der = subprocess.run(["openssl", "pkey", "-in", str(pem), "-pubout", "-outform", "DER"], check=True,
                             capture_output=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError) as err:
        raise InstallError(f"cannot read the extension key {pem} with openssl ({err}); install openssl") from None
    return base64.b64encode(der).decode("ascii")


def pack(folder: Path, home: Path, binary: str) -> PackedExtension:
    """Pack `folder` into `<home>/bua-extension.crx` with `<home>/extension-key.pem` (made on first use)."""
    key, crx = home / KEY_NAME, home / CRX_NAME
    version = json.loads((folder / "manifest.json").read_text(encoding="utf-8")).get("version", "0")
    with tempfile.TemporaryDirectory(prefix="bua-pack-") as tmp:
        work = Path(tmp) / "extension"
        shutil.copytree(folder, work)
        command = [binary, "--no-sandbox", "--headless=new", f"--user-data-dir={Path(tmp) / 'profile'}",
                   f"--pack-extension={work}"]
        if key.is_file():
            command.append(f"--pack-extension-key={key}")
        try:
            subprocess.run(command, capture_output=True, timeout=120, check=False, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.SubprocessError) as err:
            raise InstallError(f"{binary} could not pack the extension: {err}") from None
        made = Path(tmp) / "extension.crx"
        if not made.is_file():
            raise InstallError(f"{binary} --pack-extension made no CRX; run `bua install` without --crx and load "
                               "the folder instead")
        os.replace(made, crx)
        os.chmod(crx, 0o644)
        new_key = Path(tmp) / "extension.pem"
        if new_key.is_file():
            os.replace(new_key, key)
            os.chmod(key, 0o600)
    return PackedExtension(crx, id_from_key(_public_key_b64(key)), str(version))


def offer(packed: PackedExtension, user_data_dir: Path) -> Path:
    """Point that Chromium profile root at the CRX; it installs the extension at its next start."""
    path = external_file(user_data_dir, packed.extension_id)
    write_json(path, {"external_crx": str(packed.crx), "external_version": packed.version})
    return path
