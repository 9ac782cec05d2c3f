from __future__ import annotations

import ntpath
from typing import Annotated, Literal

from pydantic import Field

from app.protocol.actions.fields import Target
from app.protocol.actions.shapes import EFFECTS, OWN, PAGE
from app.protocol.actions.spec import ActionSpec, Carries, Raw, Result
from app.protocol.actions.wording import target

MAX_UPLOAD_FILES = 10
MAX_UPLOAD_MB = 50
"""Per file; checked by the app before the request goes out (app/bridge/files.py)."""

FilePath = Annotated[str, Field(min_length=1, max_length=4_096, description="An absolute path on the person's disk.")]


def file_names(raw: Raw) -> str:
    """The files an upload names, by their base names: `report.csv, photo.png`."""
    given = raw.get("paths")
    paths: list[object] = given if isinstance(given, list) else []
    names = [ntpath.basename(str(p).replace("/", "\\")) or str(p) for p in paths]
    return ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "") or "files"


def _uploaded(raw: Raw, result: Result) -> str:
    how = " (dropped)" if result.get("how") == "drop" else ""
    return f"Uploaded {file_names(raw)} to {target(raw, result, 'to')}{how}"


class Upload(Target):
    type: Literal["upload"]
    paths: Annotated[list[FilePath], Field(min_length=1, max_length=MAX_UPLOAD_FILES), Carries.FILE_PATHS]

    spec = ActionSpec(
        asks="Upload files",
        rank=45,
        signature="{uid | selector, paths}",
        guide=f"put files (absolute paths in folders the person allowed, ≤ {MAX_UPLOAD_MB} MB) on a file input or a "
              f"drop zone.",
        done=_uploaded,
        failed="upload",
        failed_subject=file_names,
        may_navigate=True,
        needs_input_focus=True,
        sensitive_by="pointer",
        result={"to": PAGE, "how": OWN, "files": OWN, "effects": EFFECTS, "uploaded": {"name": PAGE}, "accept": PAGE,
                "x": OWN, "y": OWN, "note": OWN},
    )
