"""The app waits longer for an action than the extension does, so the extension's own answer arrives first."""

from __future__ import annotations

from app.bridge.bridge import ACTION_MARGIN_S
from app.bridge.pool import BrowserBridgePool
from app.protocol.actions import MODEL_BY_TYPE, parse_action


def test_a_left_out_timeout_uses_the_declared_default_plus_the_margin():
    pool = BrowserBridgePool()
    waiting = [name for name, model in MODEL_BY_TYPE.items() if "timeout_ms" in model.model_fields]
    assert "navigate" in waiting and "wait_for" in waiting
    for name in waiting:
        model = MODEL_BY_TYPE[name]
        default = model.model_fields["timeout_ms"].default
        left_out = model.model_construct(type=name)  # the parsed model fills the declared default in
        assert pool.deadline_for(left_out) >= default / 1000 + ACTION_MARGIN_S, name


def test_a_given_timeout_wins_and_actions_without_one_get_the_pool_default():
    pool = BrowserBridgePool(timeout=30.0)
    assert pool.deadline_for(parse_action({"type": "wait_for", "text": "Saved", "timeout_ms": 29_000})) \
        == 29 + ACTION_MARGIN_S
    assert pool.deadline_for(parse_action({"type": "navigate", "url": "https://a.example/", "timeout_ms": 1_000})) \
        == 30.0
    assert pool.deadline_for(parse_action({"type": "click", "uid": "e1"})) == 30.0
