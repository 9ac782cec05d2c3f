"""The native-messaging host manifest: its content and how it is written."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from native_host.paths import HOST_NAME

DESCRIPTION = "bua: lets the bua desktop app drive this browser through the bua extension"


def host_manifest(launcher: Path, extension_id: str, *also: str) -> dict[str, Any]:
    """`also`: more extension IDs to allow (the packed CRX's, installer/packed_extension.py)."""
    ids = dict.fromkeys([extension_id, *also])
    return {
        "name": HOST_NAME,
        "description": DESCRIPTION,
        "path": str(launcher),
        "type": "stdio",
        "allowed_origins": [f"chrome-extension://{i}/" for i in ids],
    }


def write_json(path: Path, data: Any) -> None:
    """Write atomically, so a browser never reads half a manifest."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=2)
            out.write("\n")
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
