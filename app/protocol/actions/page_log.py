from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.protocol.actions.fields import OnTab
from app.protocol.actions.shapes import OWN, PAGE, URL
from app.protocol.actions.spec import ActionSpec, Raw, Result

_KIND = {"console": "console messages", "errors": "uncaught errors", "network": "failed or slow requests"}


def _read(raw: Raw, result: Result) -> str:
    entries = len(result.get("entries") or [])
    return f"Read the page's {_KIND.get(str(raw.get('kind')), 'log')} ({entries})"


class PageLog(OnTab):
    type: Literal["page_log"]
    kind: Literal["console", "errors", "network"]
    since: Annotated[int, Field(ge=0, description="`last_seq` of an earlier page_log: only entries after it.")] | None = None

    spec = ActionSpec(
        rank=95,
        signature="{kind: console | errors | network, since?}",
        guide="console messages, uncaught errors, or failed and slow requests; `since` = an earlier `last_seq`. For "
              "a page that misbehaves.",
        done=_read,
        failed="read the page's log",
        read_only=True,
        result={"entries": {"seq": OWN, "t_ms": OWN, "level": OWN, "source": OWN, "text": PAGE, "url": URL,
                            "line": OWN, "column": OWN, "method": OWN, "type": OWN, "status": OWN, "ms": OWN},
                "last_seq": OWN, "dropped": OWN, "began_ms_ago": OWN, "listening": OWN, "kind": OWN, "note": OWN},
    )
