from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.protocol.actions.extract import MAX_MAX_CHARS
from app.protocol.actions.fields import ActionModel
from app.protocol.actions.shapes import DOWNLOAD, OWN, PAGE
from app.protocol.actions.spec import ActionSpec, Raw, Result


def _read(raw: Raw, result: Result) -> str:
    return f"Read {result.get('filename') or 'a download'}"


class ReadDownload(ActionModel):
    type: Literal["read_download"]
    id: Annotated[int, Field(ge=0, description="A download id from downloads or from a click's effects.")]
    max_chars: Annotated[int, Field(ge=1_000, le=MAX_MAX_CHARS)] | None = None

    spec = ActionSpec(
        rank=97,
        signature="{id, max_chars?}",
        guide="the text of a download (txt, csv, json, md, html, xml, a PDF's text).",
        done=_read,
        failed="read the download",
        failed_subject=lambda raw: f"#{raw.get('id')}",
        needs_tab=False,
        read_only=True,
        answers_from_disk=True,
        answer_budget="max_chars",
        cut_when_superseded=True,
        result={**DOWNLOAD, "text": PAGE, "chars": OWN, "truncated": OWN, "note": OWN, "pages": OWN},
    )
