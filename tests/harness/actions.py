"""Tests and benches are an edge too: they hand the pool raw actions as a model or a client would write them, so
they parse them as the browser tool and `bua act` do (app.protocol.actions.parse_action), and an invalid one
answers as it would there."""

from __future__ import annotations

from typing import Any

from app.protocol.actions import ActionModel, parse_action
from app.protocol.envelope import Response
from app.protocol.errors import ActionFailed


def parsed(raw: Any) -> ActionModel | Response:
    """The parsed action, or the invalid_action / forbidden_url failure an edge answers for it."""
    try:
        return parse_action(raw)
    except ActionFailed as err:
        return Response.failure("r0", err.code, err.message)


async def pool_request(pool: Any, raw: Any, task_id: str, *args: Any, **kwargs: Any) -> Response:
    """`pool.request` (or a bridge's) for a raw action: parsed first, an invalid one answered without sending."""
    action = parsed(raw)
    if isinstance(action, Response):
        return action
    response: Response = await pool.request(action, task_id, *args, **kwargs)
    return response
