"""What the model reads of a red-team page of injections: the page served from a test's folder, one extract of
it through the model's view, and its lines (the red-team rounds' tests ask each line whether it is flagged)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.agent.page_text.region import read_view
from tests.harness.fixture_server import FixtureServer


def served(folder: Path, name: str, html: str) -> Iterator[str]:
    """A fixture body: the page written into `folder` and served on loopback while the test runs; yields its URL."""
    (folder / name).write_text(html, encoding="utf-8")
    server = FixtureServer(folder)
    yield server.url(f"/{name}")
    server.stop()


@dataclass
class Extracted:
    result: dict[str, Any]
    body: str
    lines: list[str]

    def line_with(self, words: str) -> str:
        """The first line that holds `words` (an assertion names the lines when none does)."""
        found = [line for line in self.lines if words in line]
        assert found, (words, self.lines)
        return found[0]


def extracted(model_reads: Callable[..., Any], url: str, task: str) -> Extracted:
    """Navigate a task's tab to `url` and read one extract's markdown as the model sees it."""
    model_reads({"type": "navigate", "url": url}, task)
    result = read_view(model_reads({"type": "extract"}, task))["result"]
    body = result["markdown"]
    return Extracted(result, body, [line for line in body.split("\n") if line.strip()])
