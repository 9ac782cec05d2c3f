"""Which files the agent may upload: only regular files under a folder the person allowed in Settings → Files,
each at most MAX_UPLOAD_MB. Checked in the app before an upload request goes out, since the extension cannot
see the file system. Paths are resolved first (symlinks and `..`), so a link inside an allowed folder that
points outside it is refused, and the extension is handed the resolved path."""

from __future__ import annotations

from pathlib import Path

from app.protocol.actions.upload import MAX_UPLOAD_MB
from app.protocol.errors import ActionFailed, ErrorCode

FOLDERS_SETTING = "file_folders"
"""The store setting: the folders the person allowed, a list of absolute paths."""
MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024


def allowed_folders(stored: object) -> list[Path]:
    """The stored setting as resolved folders (anything else in it is ignored)."""
    if not isinstance(stored, list):
        return []
    return [Path(f).expanduser().resolve() for f in stored if isinstance(f, str) and f.strip()]


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def check_uploads(paths: list[str], folders: list[Path]) -> list[str]:
    """The resolved paths to hand to the browser, or ActionFailed: file_not_allowed (outside every allowed folder,
    or none allowed), invalid_action (relative, missing, not a file), payload_too_large (over the cap)."""
    resolved: list[str] = []
    for raw in paths:
        given = Path(raw).expanduser()
        if not given.is_absolute():
            raise ActionFailed(ErrorCode.INVALID_ACTION, f"'{raw}' is not an absolute path; give the full path "
                                                         "(for a download, the `path` from downloads)")
        path = given.resolve()
        if not folders:
            raise ActionFailed(ErrorCode.FILE_NOT_ALLOWED,
                               f"no folder is allowed for uploads yet; ask the person to allow {path.parent} "
                               "in Settings → Files")
        if not any(_inside(path, folder) for folder in folders):
            shown = f"{raw} (which is {path})" if str(path) != raw else raw
            raise ActionFailed(ErrorCode.FILE_NOT_ALLOWED,
                               f"{shown} is outside the folders allowed for uploads "
                               f"({', '.join(str(f) for f in folders)}); ask the person to allow {path.parent} "
                               "in Settings → Files")
        if not path.is_file():
            raise ActionFailed(ErrorCode.INVALID_ACTION, f"there is no file at {path}; check the path")
        size = path.stat().st_size
        if size > MAX_UPLOAD_BYTES:
            raise ActionFailed(ErrorCode.PAYLOAD_TOO_LARGE,
                               f"{path.name} is {size / 1024 / 1024:.1f} MB; uploads are capped at {MAX_UPLOAD_MB} MB "
                               "per file: choose a smaller file or ask the person to upload it")
        resolved.append(str(path))
    return resolved
