"""extract reads pages lean: the element index lists only what the markdown does not already say, left-out regions'
links share a line, and the walker charges only what the index lists (tests/fixtures/pages/extract/lean.html)."""

from __future__ import annotations

import re

from tests.e2e.test_extract import element_lines, extract, open_page, uid_of

LONG_LINK = ("the whole story of how a small team rebuilt the town's water supply in a single dry summer, with every "
             "setback, every borrowed pump and every late-night repair written down as it happened")


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
    for uid in (story.group(1), report.group(1), nameless.group(1)):
        assert uid not in listed, f"{uid} is listed again: {listed.get(uid)}"
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
