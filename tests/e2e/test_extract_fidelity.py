"""extract reads pages faithfully (issue 21, "Reading fidelity"), on small fixture pages of its own
(tests/fixtures/pages/extract/fidelity/): headings that hold blocks, a page-wide click wrapper around content,
a word split by a link's end, invisible format characters, the text fallback, content footers.

Each page's whole output is also held in a golden file (tests/fixtures/golden/extract/fidelity-<page>.txt,
`UPDATE_GOLDEN=1` rewrites them, as tests/e2e/test_extract.py's)."""

from __future__ import annotations

import json
import re

import pytest

from tests.e2e.test_extract import check_golden, element_lines, extract, open_page

PAGES = ["headings", "wrapper", "listened-wrapper", "invisible", "fallback", "footer", "controls"]
FORMAT_CHARS = re.compile("[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]")


def read(act, fixture_server, name: str) -> dict:
    return extract(open_page(act, fixture_server, f"fidelity/{name}.html"))


@pytest.mark.parametrize("name", PAGES)
def test_golden(act, fixture_server, name):
    check_golden(f"fidelity-{name}", read(act, fixture_server, name), fixture_server.port)


def test_a_heading_is_read_whatever_blocks_it_holds(act, fixture_server):
    markdown = read(act, fixture_server, "headings")["markdown"].splitlines()
    for line in ("## Title inside a strong with a block", "### Heading that is a list item", "## Block one block two"):
        assert line in markdown, markdown
    assert markdown.index("### Heading that is a list item") < markdown.index("Second section text.")


def test_no_space_where_the_page_has_none_after_a_links_end(act, fixture_server):
    markdown = read(act, fixture_server, "headings")["markdown"]
    assert re.search(r"Our \[MacBook\]\(e\d+\)s and \[iPad\]\(e\d+\), the \[Watch\]\(e\d+\)\.", markdown), markdown
    assert re.search(r"Also \[x\]\(e\d+\)-rays and boldly\.", markdown), markdown
    assert re.search(r"Read \[the terms\]\(e\d+\) first\.", markdown), "a space inside the link's end still spaces"


@pytest.mark.parametrize("name", ["wrapper", "listened-wrapper"])
def test_a_page_wide_click_wrapper_does_not_swallow_its_content(act, fixture_server, name):
    result = read(act, fixture_server, name)
    markdown, lines = result["markdown"], element_lines(result)
    assert markdown.startswith("# "), markdown
    links = re.findall(r"\[([^\]]+)\]\((e\d+)\)", markdown)
    assert len(links) >= 2, markdown
    assert not any(len(rest) > 120 for rest in lines.values()), "no control is named by the whole article"
    headline = "bridge" if name == "wrapper" else "harbour"
    controls = [rest for uid, rest in lines.items() if f"]({uid})" not in markdown or not rest.startswith("link ")]
    assert not any(headline in rest.lower() for rest in controls), f"the wrapper is no control: {lines}"


def test_a_pointer_card_and_an_accordion_header_stay_controls(act, fixture_server):
    result = read(act, fixture_server, "listened-wrapper")
    lines = element_lines(result).values()
    assert 'clickable "Weekend offer Two nights for one."' in lines, lines
    assert 'button "What is included?"' in lines, lines


def test_invisible_format_characters_never_reach_the_model(act, fixture_server):
    send = open_page(act, fixture_server, "fidelity/invisible.html")
    result = extract(send)
    shown = {k: v for k, v in result.items() if k != "elements"}
    assert not FORMAT_CHARS.search(json.dumps(shown, ensure_ascii=False)), shown
    names = [rest.split(' value="')[0] for rest in element_lines(result).values()]
    assert not FORMAT_CHARS.search(" ".join(names)), names
    assert "# Donaudampfschifffahrtsgesellschaft" in result["markdown"]
    assert "Die Gesellschaft betrieb Dampfschiffe." in result["markdown"]
    assert 'button "Schließen"' in names
    assert result["title"] == "Donaudampfschiff"
    value = send({"type": "evaluate", "expression": "document.querySelector('input').value"}).result["value"]
    assert f"value={json.dumps(value, ensure_ascii=False)}" in result["elements"], "a field's value stays exact"


def test_the_text_fallback_carries_only_visible_text_the_markdown_does_not_have(act, fixture_server):
    result = read(act, fixture_server, "fallback")
    assert "Median time to hire: 31 days." in result["text"], "visible text the walker cannot read comes back"
    assert "| Basic | 10 EUR |" in result["markdown"]
    for said in ("Basic", "10 EUR", "Tiny visible intro", "Plan"):
        assert said not in result["text"], f"{said!r} is in the markdown already: {result['text']}"
    for hidden in ("MEGAMENU", "CLIPPEDAWAY"):
        assert hidden not in json.dumps(result), "a hidden menu or clipped text is not brought back"


def test_a_page_footer_is_read_compactly_its_links_on_the_index_line(act, fixture_server):
    result = read(act, fixture_server, "footer")
    footer = [line for line in result["markdown"].splitlines() if line.startswith("[footer: ")]
    assert footer == ["[footer: Hireline GmbH, Musterstraße 1, 10115 Berlin. Registered at Amtsgericht Charlottenburg "
                      "HRB 12345. · Phone +49 30 1234567 · © 2024 Hireline]"], result["markdown"]
    assert re.fullmatch(r"footer: \[Privacy\]\(e\d+\) \[Imprint\]\(e\d+\)", result["elements"]), result["elements"]


def test_a_long_footer_says_how_much_more_and_the_selector_that_reads_it(act, fixture_server):
    send = open_page(act, fixture_server, "fidelity/footer.html")
    send({"type": "evaluate", "expression": "document.querySelector('footer').insertAdjacentHTML('beforeend',"
                                            " '<p>' + 'Our offices and opening hours. '.repeat(30) + '</p>')"})
    result = extract(send)
    line = next(line for line in result["markdown"].splitlines() if line.startswith("[footer: "))
    more = re.search(r' … (\d+) more characters: extract with selector "([^"]+)"\]$', line)
    assert more and len(line) < 450, line
    scoped = extract(send, selector=more.group(2))
    assert scoped["markdown"].count("Our offices and opening hours.") == 30, scoped["markdown"]


def test_every_control_is_named_and_each_name_reaches_its_control(act, fixture_server):
    send = open_page(act, fixture_server, "fidelity/controls.html")
    result = extract(send)
    lines = element_lines(result)
    by_name = {re.match(r'\w+ "([^"]*)"', rest).group(1): uid for uid, rest in lines.items()}
    assert set(by_name) == {"type bold", "format italic", "Underline", "Close panel", "Home", "North 40%", "South 60%"}, lines
    assert "format_italic" not in result["markdown"], "a ligature's glyph name is not shown as its text"
    for name, said in (("type bold", "tool b"), ("format italic", "tool i"), ("Underline", "tool u"),
                       ("Close panel", "close"), ("South 60%", "slice south")):
        clicked = send({"type": "click", "uid": by_name[name]})
        assert clicked.ok, clicked.error
        assert send({"type": "evaluate", "expression": "document.getElementById('out').textContent"}).result["value"] == said
    found = send({"type": "find", "name": "Close panel"})
    assert found.ok and [m["uid"] for m in found.result["matches"]] == [by_name["Close panel"]], found
