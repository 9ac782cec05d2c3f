"""The app drops invisible format characters from page text as the extension does (shared vectors), and every
reader's page text in the model's view goes through it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.agent.page_text.invisible import drop_invisible
from app.agent.tools.browser_result import model_view

VECTORS = json.loads((Path(__file__).parents[4] / "extension/test/fixtures/invisible-vectors.json").read_text("utf-8"))


@pytest.mark.parametrize(("given", "read"), VECTORS["cases"])
def test_the_same_as_the_extension(given: str, read: str) -> None:
    assert drop_invisible(given) == read


def test_page_text_of_any_result_is_read_without_them() -> None:
    data = {"ok": True, "action": "find", "result": {"matches": [{"uid": "e1", "name": "Pur\u00adchase \u200bnow"}]}}
    text = model_view(data, "k7q2m").text()
    assert "\u00ad" not in text and "\u200b" not in text and "Purchase now" in text, text
