"""The app waits longer for an action than the extension does, so the extension's own answer arrives first."""

from __future__ import annotations

from app.bridge.bridge import ACTION_MARGIN_S
from app.bridge.pool import BrowserBridgePool
from app.protocol.actions import MODEL_BY_TYPE


def test_a_left_out_timeout_uses_the_declared_default_plus_the_margin():
    pool = BrowserBridgePool()
    waiting = [name for name, model in MODEL_BY_TYPE.items() if "timeout_ms" in model.model_fields]
    assert "navigate" in waiting and "wait_for" in waiting
    for name in waiting:
        default = MODEL_BY_TYPE[name].model_fields["timeout_ms"].default
        assert pool.deadline_for({"type": name}) >= default / 1000 + ACTION_MARGIN_S, name


def test_a_given_timeout_wins_and_actions_without_one_get_the_pool_default():
    pool = BrowserBridgePool(timeout=30.0)
    assert pool.deadline_for({"type": "wait_for", "timeout_ms": 29_000}) == 29 + ACTION_MARGIN_S
    assert pool.deadline_for({"type": "navigate", "timeout_ms": 1_000}) == 30.0
    assert pool.deadline_for({"type": "click"}) == 30.0
    assert pool.deadline_for("not an action") == 30.0
