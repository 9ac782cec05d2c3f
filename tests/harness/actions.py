"""Tests and benches are an edge too: they hand the pool raw actions as a model or a client would write them, so
they parse them as the browser tool and `bua act` do (app.protocol.actions.parse_action), and an invalid one
answers as it would there."""

from __future__ import annotations

import itertools
from typing import Any

from app.protocol.actions import ActionModel, parse_action
from app.protocol.envelope import Request, Response
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


_asked = itertools.count(1)


async def ask_extension(bridge: Any, raw: Any, task_id: str, timeout: float = 30.0) -> Response:
    """An action sent to the extension itself, past the app's mirror of its tab state (app/bridge/tab_mirror.py):
    to hold the mirror to what the extension answers, and to time the whole pipe beside it."""
    action = parsed(raw)
    if isinstance(action, Response):
        return action
    envelope = Request.of_action(f"asked-{next(_asked)}", task_id, action)
    response: Response = await bridge.send_and_wait(envelope.model_dump(mode="json", exclude_none=True), envelope.id,
                                                    None, timeout, task_id)
    return response
