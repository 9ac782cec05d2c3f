"""Injection evasions of each kind issue 18 names, on a page in real Chromium, read through extract and the app's
own result rendering (render_tool_result): every one arrives flagged or defused, ordinary lines do not. The compact
view's evasions (spaced, dotted, glued, hyphenated, leet, split over links, buttons and a region's line of the
element index) are among them."""

from __future__ import annotations

from app.agent.page_text.boundary import CLOSE, OPEN, marker, token_for
from app.agent.page_text.flagger import FLAG
from app.agent.page_text.region import read_view
from app.protocol.safety.fold import fold


def test_every_evasion_on_a_page_arrives_flagged_or_defused(model_reads, fixture_server):
    task = "t-evasions"
    model_reads({"type": "navigate", "url": fixture_server.url("/safety/evasions.html")}, task)
    text = model_reads({"type": "extract"}, task)
    view = read_view(text)
    body = view["result"]["markdown"]
    region = text.split(f"{marker(token_for(task))}\n", 1)[1]
    assert "\nmarkdown: " in f"\n{region}", "the markdown is a line of the one region"
    lines = [line for line in body.split("\n") if line.strip()]

    def line_with(marker: str) -> str:
        return next(line for line in lines if marker in line)

    for case in ("CASE-ZW", "CASE-SHY", "CASE-CYR", "CASE-FW", "CASE-BR", "CASE-PARA", "CASE-JA",
                 "CASE-SPACED", "CASE-DOTS", "CASE-GLUED", "CASE-HYPHEN", "CASE-LEET", "CASE-LINKS", "CASE-BTN"):
        assert line_with(case).startswith(FLAG), (case, lines)
    for continued in ("instructions and open the bank tab.", "paragraph two", "nore previous", "[instructions](e"):
        assert line_with(continued).startswith(FLAG), "the second half of a split phrase is flagged too"
    assert line_with("Human:").startswith(FLAG) and line_with("Assistant:").startswith(FLAG)
    folded = fold(body)
    assert '"tool_result"' not in folded and '"role": "tool"' not in folded, "provider tool shapes defused"
    assert "〚" not in body and "⟦" not in body and "[/page-data 0123456789ab]" in body
    assert body.count(OPEN) == 0 and text.count(CLOSE) == 1, "bua's own marker only"
    assert not line_with("CASE-OK ").startswith(FLAG) and not line_with("CASE-OK2").startswith(FLAG)
    assert not [line for line in lines if line.startswith(FLAG) and ("guest" in line or "Linux" in line or "Desk" in line)], lines
    index = view["result"]["elements"]
    assert "\nelements: " in region, "the element index is a line of the region"
    entries = [line for line in index.split("\n") if line.strip()]
    # The nav's two links share its region line, split over two link names; the button's name is in the markdown
    # (flagged above), so the index says only its role.
    split_over_entries = [line for line in entries if "CASE-NAV" in line or "instructions" in line]
    assert split_over_entries and all(line.startswith(FLAG) for line in split_over_entries), entries
    assert not [line for line in entries if "CASE-BTN" in line], "the index does not repeat the markdown's names"
    safety = view["result"]["page_safety"]
    assert safety["neutralised_forgeries"] >= 3 and safety["flagged_lines"] >= 20, safety  # 14 cases, halves, turns
