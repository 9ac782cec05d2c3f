from __future__ import annotations

from typing import Literal

from app.protocol.actions.fields import ActionModel
from app.protocol.actions.shapes import DOWNLOAD
from app.protocol.actions.spec import ActionSpec, Raw, Result


def _listed(raw: Raw, result: Result) -> str:
    count = len(result.get("downloads") or [])
    return f"Listed {count} download{'' if count == 1 else 's'}"


class Downloads(ActionModel):
    type: Literal["downloads"]

    spec = ActionSpec(
        rank=96,
        signature="{}",
        guide="this task's downloads (id, name, path, state); an unapproved `executable` is `stopped`: hand off.",
        done=_listed,
        failed="list the downloads",
        needs_tab=False,
        read_only=True,
        result={"downloads": DOWNLOAD},
    )
