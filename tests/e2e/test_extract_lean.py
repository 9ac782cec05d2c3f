"""extract reads pages lean: the element index lists only what the markdown does not already say, left-out regions'
links share a line, and max_chars bounds what the model really receives (tests/fixtures/pages/extract/lean.html)."""

from __future__ import annotations

import re

import pytest

from app.agent.page_text.boundary import token_for
from app.agent.results import render_tool_result
from app.agent.tools.base import ToolOutput
from tests.e2e.test_extract import element_lines, extract, open_page, uid_of

LONG_LINK = ("the whole story of how a small team rebuilt the town's water supply in a single dry summer, with every "
             "setback, every borrowed pump and every late-night repair written down as it happened")


def model_text(result: dict, task: str) -> str:
    """The text block the model receives for this extract result (envelope and page-data markers included)."""
    output = ToolOutput({"ok": True, "action": "extract", "result": result}, boundary=token_for(task))
    return render_tool_result("toolu_lean", output)["content"][0]["text"]


def test_left_out_regions_list_their_links_on_one_line(act, fixture_server):
    result = extract(open_page(act, fixture_server, "lean.html"))
    lines = result["elements"].splitlines()
    home, sport = uid_of(result, r'link "Home" \(in navigation "Main"\)'), uid_of(result, r'link "Sport" .*')
    privacy, terms = uid_of(result, r'link "Privacy" .*'), uid_of(result, r'link "Terms" .*')
    assert f'navigation "Main": [Home]({home})' in lines
    assert f'navigation "Main": [Sport]({sport})' in lines
    assert f"footer: [Privacy]({privacy}) [Terms]({terms})" in lines
    assert uid_of(result, r'link "News" current'), "a link with a state keeps its own line"
    assert uid_of(result, r'button "Back to top"'), "other roles keep their lines"
    for stripped in ("Home", "Privacy", "Back to top"):
        assert stripped not in result["markdown"]


def test_links_the_markdown_names_are_not_listed_again(act, fixture_server):
    result = extract(open_page(act, fixture_server, "lean.html"))
    markdown, listed = result["markdown"], element_lines(result)
    story = re.search(rf"\[{re.escape(LONG_LINK)}\]\((e\d+)\)", markdown)
    assert story, "a prose link keeps its whole text inline (over 100 characters)"
    report = re.search(r"\[Annual report of the water board for 2024\]\((e\d+)\)", markdown)
    assert report, "an image link shows its alt text"
    nameless = re.search(r"is online, as is the \[(e\d+)\] map", markdown)
    assert nameless, "a link with nothing to name is a bare marker"
    index = result["elements"].split()
    for uid in (story.group(1), report.group(1), nameless.group(1)):
        assert uid not in index, f"{uid} is listed again: {listed.get(uid)}"
    reply = uid_of(result, r'link "Reply to Ana"')
    assert f"[Reply]({reply})" in markdown, "a link whose name says more than its text stays listed"


def test_a_long_page_within_the_full_budget_is_read_whole(act, fixture_server):
    """The walker charges only what the index really lists: a page of long prose links under 200,000 characters is
    not cut (charged per element as a line of its own, it was)."""
    send = open_page(act, fixture_server, "lean.html?sections=350")
    result = extract(send, max_chars=200_000)
    assert "note" not in result, result.get("note")
    assert "## Section 350" in result["markdown"]
    assert 'navigation "Section 350": [Previous](' in result["elements"]
    assert len(result["markdown"]) > 140_000, "the page is long enough to have been cut"


@pytest.mark.parametrize(("page", "max_chars"), [
    ("lean.html?sections=400", 1_000), ("lean.html?sections=400", 5_000), ("lean.html?sections=400", None),
    ("large.html?rows=2000", None), ("large.html?rows=2000", 60_000),
])
def test_the_model_receives_at_most_max_chars(act, fixture_server, page, max_chars):
    task = f"t-lean-{page}-{max_chars}"
    response = act({"type": "navigate", "url": fixture_server.url(f"/extract/{page}")}, task_id=task)
    assert response.ok, response.error
    fields = {} if max_chars is None else {"max_chars": max_chars}
    response = act({"type": "extract", **fields}, task_id=task)
    assert response.ok, response.error
    limit = max_chars or 24_000
    text = model_text(response.result, task)
    assert "truncated at max_chars" in response.result["note"], "the page is larger than the budget"
    assert len(text) <= limit, f"{len(text)} > {limit}"
    if limit >= 5_000:  # below, the note and the reserve for the envelope are most of it
        assert len(text) >= limit * 0.85, f"{len(text)}: the budget is used, not wasted"
