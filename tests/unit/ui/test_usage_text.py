"""A turn's footer: a cost for a real model's turn, none for the offline demo (the scripted model bills nobody)."""

from __future__ import annotations

from app.ui.chat.model import TurnRecord
from app.ui.chat.turn import usage_text

USAGE = {"claude-sonnet-4-6": {"calls": 2, "input_tokens": 1200, "output_tokens": 300,
                               "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}


def test_a_real_turn_shows_its_cost_and_the_demo_none() -> None:
    assert "≈ $" in usage_text(TurnRecord("hi", cost=USAGE, elapsed=2.0))
    demo = usage_text(TurnRecord("hi", cost=USAGE, elapsed=2.0, demo=True))
    assert "$" not in demo and "offline demo, no cost" in demo and "2 model calls" in demo
