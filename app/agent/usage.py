"""Token usage per model call, summed per loop and per task."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass
class Usage:
    input_tokens: int = 0
    cache_read_input_tokens: int = 0
    cache_creation_input_tokens: int = 0
    output_tokens: int = 0
    calls: int = 0

    @classmethod
    def from_api(cls, usage: Any) -> "Usage":
        return cls(
            input_tokens=getattr(usage, "input_tokens", 0) or 0,
            cache_read_input_tokens=getattr(usage, "cache_read_input_tokens", 0) or 0,
            cache_creation_input_tokens=getattr(usage, "cache_creation_input_tokens", 0) or 0,
            output_tokens=getattr(usage, "output_tokens", 0) or 0,
            calls=1,
        )

    def add(self, other: "Usage") -> None:
        self.input_tokens += other.input_tokens
        self.cache_read_input_tokens += other.cache_read_input_tokens
        self.cache_creation_input_tokens += other.cache_creation_input_tokens
        self.output_tokens += other.output_tokens
        self.calls += other.calls

    @property
    def total_input(self) -> int:
        return self.input_tokens + self.cache_read_input_tokens + self.cache_creation_input_tokens

    @property
    def billed_input(self) -> float:
        """Input tokens weighted as the API prices them: plain 1×, cache writes 1.25×, cache reads 0.1×."""
        return self.input_tokens + 1.25 * self.cache_creation_input_tokens + 0.1 * self.cache_read_input_tokens

    @property
    def budget_tokens(self) -> int:
        """What a token budget counts: input as billed plus output."""
        return round(self.billed_input) + self.output_tokens

    def as_dict(self) -> dict[str, int]:
        return asdict(self)
