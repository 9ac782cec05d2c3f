"""How an older `browser` output shrinks once a newer one of the same action is in the conversation (the agent
loop calls `compact` for it), as the action declares: never by its name."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from app.agent.tools.base import ToolOutput
from app.protocol.actions import MODEL_BY_TYPE
from app.protocol.actions.shapes import UNDECLARED, Part

OLD_RESULT_CHARS = 600
"""How much of each page-text string a superseded read keeps (ActionSpec.cut_when_superseded)."""
SCREENSHOT_PLACEHOLDER = "[older screenshot omitted]"


def compact(raw: dict[str, Any], output: ToolOutput) -> ToolOutput:
    """Screenshots become a placeholder, whatever the action; the page text of a read that `cut_when_superseded`
    (each string its declared result shape calls page text, an undeclared key too) is cut to OLD_RESULT_CHARS."""
    data = copy.deepcopy(output.data)
    result = data.get("result")
    if output.images:
        if isinstance(result, dict):
            result["image"] = SCREENSHOT_PLACEHOLDER
        return replace(output, data=data, images=[])
    kind = raw.get("type")
    model = MODEL_BY_TYPE.get(kind) if isinstance(kind, str) else None
    if model is not None and model.spec.cut_when_superseded and isinstance(result, dict):
        for key, value in result.items():
            if model.spec.result.get(key, UNDECLARED) == Part.PAGE and isinstance(value, str) \
                    and len(value) > OLD_RESULT_CHARS:
                result[key] = value[:OLD_RESULT_CHARS] + f"\n[… older {kind} cut; {len(value)} chars]"
    return replace(output, data=data)
