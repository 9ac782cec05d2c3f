"""Full screenshots of finished tasks live on disk under BUA_HOME, within a byte cap; memory keeps thumbnails.

A running task keeps its screenshots in memory (the chat shows them live).
When it finishes, each full image is written to `<BUA_HOME>/screenshots/`
(0600, in a 0700 directory) and replaced in memory by a small JPEG. Past the
cap the oldest files go first. Blocking (decode, resize, write): run it off
the event loop.
"""

from __future__ import annotations

import base64
import binascii
import io
import os
import re
from pathlib import Path

from app.store.home import FILE_MODE, private_dir

DEFAULT_CAP_BYTES = 256 * 1024 * 1024
THUMB_WIDTH = 320
SAFE = re.compile(r"[^A-Za-z0-9_.-]+")
EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg", "image/webp": "webp"}


def decode_data_url(data_url: str) -> tuple[str, bytes] | None:
    """(media type, bytes) of a base64 image data URL, or None."""
    header, _, payload = data_url.partition(",")
    if not header.startswith("data:image/") or not header.endswith(";base64"):
        return None
    try:
        return header[5:-7], base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        return None


def thumbnail(data_url: str, width: int = THUMB_WIDTH) -> str | None:
    """A JPEG data URL at most `width` px wide, or None when the data is not a readable image."""
    from PIL import Image, UnidentifiedImageError

    decoded = decode_data_url(data_url)
    if decoded is None:
        return None
    try:
        with Image.open(io.BytesIO(decoded[1])) as image:
            image.draft("RGB", (width, width))
            small = image.convert("RGB")
            if small.width > width:
                small = small.resize((width, max(1, round(small.height * width / small.width))))
            out = io.BytesIO()
            small.save(out, "JPEG", quality=70)
    except (UnidentifiedImageError, OSError, ValueError):
        return None
    return "data:image/jpeg;base64," + base64.b64encode(out.getvalue()).decode("ascii")


class ScreenshotArchive:
    def __init__(self, directory: Path, cap_bytes: int = DEFAULT_CAP_BYTES) -> None:
        self.directory = directory
        self.cap_bytes = cap_bytes

    def save(self, name: str, data_url: str) -> Path | None:
        """Write the image as `<name>.<ext>`; trims the oldest files past the cap. None if it is not an image."""
        decoded = decode_data_url(data_url)
        if decoded is None:
            return None
        media_type, data = decoded
        private_dir(self.directory)
        path = self.directory / f"{SAFE.sub('_', name)[:120]}.{EXTENSIONS.get(media_type, 'img')}"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        self.trim(keep=path)
        return path

    def load(self, path: str | Path) -> str | None:
        """The saved image as a data URL, or None when it was trimmed away."""
        path = Path(path)
        media_type = next((m for m, ext in EXTENSIONS.items() if path.suffix == f".{ext}"), "image/png")
        try:
            data = path.read_bytes()
        except OSError:
            return None
        return f"data:{media_type};base64," + base64.b64encode(data).decode("ascii")

    def files(self) -> list[Path]:
        """Saved images, oldest first."""
        try:
            entries = [p for p in self.directory.iterdir() if p.is_file()]
        except FileNotFoundError:
            return []
        return sorted(entries, key=lambda p: (p.stat().st_mtime_ns, p.name))

    def size(self) -> int:
        return sum(p.stat().st_size for p in self.files())

    def trim(self, keep: Path | None = None) -> list[Path]:
        """Delete the oldest images until the total fits the cap (never `keep`); returns what was deleted."""
        files = self.files()
        total = sum(p.stat().st_size for p in files)
        removed: list[Path] = []
        for path in files:
            if total <= self.cap_bytes:
                break
            if path == keep:
                continue
            total -= path.stat().st_size
            path.unlink(missing_ok=True)
            removed.append(path)
        return removed
