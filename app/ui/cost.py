"""Token counts → an approximate cost, per model family (USD per million tokens, public list prices).

Cache writes cost 1.25× input, cache reads 0.1× input. Unknown models (e.g. a
custom base URL's) get no price rather than a wrong one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.agent.usage import Usage

# (input, output) per million tokens, matched by prefix; the first match wins.
PRICES: tuple[tuple[str, float, float], ...] = (
    ("claude-opus-4-5", 5.0, 25.0),
    ("claude-opus-4-6", 5.0, 25.0),
    ("claude-opus", 15.0, 75.0),
    ("claude-sonnet", 3.0, 15.0),
    ("claude-3-7-sonnet", 3.0, 15.0),
    ("claude-3-5-sonnet", 3.0, 15.0),
    ("claude-haiku-4", 1.0, 5.0),
    ("claude-3-5-haiku", 0.8, 4.0),
    ("claude-3-haiku", 0.25, 1.25),
)


def price_of(model: str) -> tuple[float, float] | None:
    for prefix, inp, out in PRICES:
        if model.startswith(prefix):
            return inp, out
    return None


def cost_usd(model: str, usage: Usage) -> float | None:
    price = price_of(model)
    if price is None:
        return None
    inp, out = price
    return (usage.input_tokens * inp + usage.cache_creation_input_tokens * inp * 1.25
            + usage.cache_read_input_tokens * inp * 0.1 + usage.output_tokens * out) / 1_000_000


@dataclass
class TurnCost:
    """Usage of one chat turn, by model (the main agent and its subagents may use different models)."""

    by_model: dict[str, Usage] = field(default_factory=dict)

    def add(self, model: str, usage: Usage) -> None:
        self.by_model.setdefault(model, Usage()).add(usage)

    @property
    def total(self) -> Usage:
        total = Usage()
        for usage in self.by_model.values():
            total.add(usage)
        return total

    @property
    def usd(self) -> float | None:
        costs = [cost_usd(model, usage) for model, usage in self.by_model.items()]
        return None if any(c is None for c in costs) else sum(c for c in costs if c is not None)

    def as_dict(self) -> dict[str, dict[str, int]]:
        return {model: usage.as_dict() for model, usage in self.by_model.items()}

    @classmethod
    def from_dict(cls, data: dict[str, dict[str, int]]) -> "TurnCost":
        return cls({model: Usage(**usage) for model, usage in data.items()})
