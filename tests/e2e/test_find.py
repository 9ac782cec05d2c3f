"""find: elements by role and name, and text, with uids from the tab's uid map, through the whole pipe."""

from __future__ import annotations

import json
import re

from tests.e2e.actions_helpers import evaluate, page  # noqa: F401 (fixture)
from tests.e2e.test_extract import element_lines, extract, open_page, uid_of


def test_find_by_text_returns_the_smallest_visible_element_with_a_snippet(page):
    send = page("find.html", "t-find-text")
    response = send({"type": "find", "text": "QUICK brown fox"})
    assert response.ok, response.error
    result = response.result
    assert result["total"] == 1, result["matches"]
    match = result["matches"][0]
    assert match["uid"].startswith("e") and "quick brown fox jumps" in match["text"]
    assert "hidden copy" not in str(result)
    shadow = send({"type": "find", "text": "invoices are due"}).result
    assert shadow["total"] == 1 and "Friday" in shadow["matches"][0]["text"]


def test_find_by_role_and_name_gives_row_context_and_uids_that_click(page):
    send = page("find.html", "t-find-role")
    response = send({"type": "find", "role": "button", "name": "email"})
    assert response.ok, response.error
    matches = response.result["matches"]
    assert [m["name"] for m in matches] == ["Email"] * 3
    assert [m["context"] for m in matches] == ["row: Ada Lovelace", "row: Grace Hopper", "row: Alan Turing"]
    clicked = send({"type": "click", "uid": matches[1]["uid"]})
    assert clicked.ok, clicked.error
    assert evaluate(send, "document.querySelector('#out').textContent") == "mail Grace Hopper"
    extract = send({"type": "extract"}).result
    assert f'{matches[2]["uid"]} button "Email"' in extract["elements"] or f'({matches[2]["uid"]})' in extract["markdown"]


def test_find_text_matches_element_names_and_limit_is_honoured(page):
    send = page("find.html", "t-find-name")
    trash = send({"type": "find", "text": "delete"}).result
    assert [(m["role"], m["name"]) for m in trash["matches"]] == [("button", "Delete draft")]
    assert send({"type": "click", "uid": trash["matches"][0]["uid"]}).ok
    assert evaluate(send, "document.querySelector('#out').textContent") == "deleted"
    field = send({"type": "find", "role": "textbox", "name": "search people"}).result
    assert field["total"] == 1 and field["matches"][0]["name"] == "Search people"
    limited = send({"type": "find", "role": "button", "limit": 2}).result
    assert len(limited["matches"]) == 2 and limited["total"] >= 5 and "more matches" in limited["note"]


def test_find_says_when_nothing_matched_and_refuses_an_empty_query(page):
    send = page("find.html", "t-find-none")
    none = send({"type": "find", "text": "no such words anywhere"})
    assert none.ok and none.result["total"] == 0 and "nothing matched" in none.result["note"]
    empty = send({"type": "find"})
    assert not empty.ok and empty.error.code == "invalid_action" and "'text'" in empty.error.message


def test_find_structural_roles_by_name(page):
    send = page("find.html", "t-find-structure")
    headings = send({"type": "find", "role": "heading"}).result["matches"]
    assert [m["name"] for m in headings] == ["Team", "Tools"]
    cell = send({"type": "find", "role": "cell", "name": "grace"}).result["matches"]
    assert [m["name"] for m in cell] == ["Grace Hopper"]


def listed_as(result: dict, role: str) -> dict[str, str]:
    """uid → name of extract's index lines with this role (`clickable class="icon"` has the name "")."""
    out = {}
    for uid, rest in element_lines(result).items():
        match = re.match(rf'{role}(?: ("(?:[^"\\]|\\.)*"))?(?= |$)', rest)
        if match:
            out[uid] = json.loads(match.group(1)) if match.group(1) else ""
    return out


def test_find_by_role_reports_script_controls_exactly_as_extract_lists_them(act, fixture_server):
    """clickable.html: span links, div rows, delegated list items, icon spans. find runs first, on a fresh tab:
    the uids it issues are the ones extract then lists, with the same role and name."""
    send = open_page(act, fixture_server, "clickable.html")
    found = {}
    for role in ("clickable", "item", "draggable", "row"):
        response = send({"type": "find", "role": role, "limit": 100})
        assert response.ok, response.error
        found[role] = {m["uid"]: m["name"] for m in response.result["matches"] if m["role"] == role}
    result = extract(send)
    for role in ("clickable", "item", "draggable"):
        assert found[role] == listed_as(result, role), role
    assert len(found["clickable"]) >= 15 and len(found["item"]) == 5 and list(found["draggable"].values()) == ["Drag me"]
    rows = listed_as(result, "row")
    assert sorted(rows.values()) == ["Ana Meeting notes", "Ben Invoice March", "Cleo Lunch?"]
    assert rows.items() <= found["row"].items(), "the inbox's div rows, besides the date picker's table rows"


def test_find_by_name_and_text_give_the_script_control_extract_lists(act, fixture_server):
    send = open_page(act, fixture_server, "clickable.html")
    result = extract(send)
    eget = uid_of(result, r'clickable "Eget"')
    by_name = send({"type": "find", "name": "Eget"}).result["matches"]
    assert [(m["uid"], m["role"], m["name"]) for m in by_name] == [(eget, "clickable", "Eget")]
    by_text = send({"type": "find", "text": "Eget"}).result["matches"]
    assert [(m["uid"], m["role"], m["name"]) for m in by_text] == [(eget, "clickable", "Eget")]
    row = uid_of(result, r'row "Ben Invoice March"')
    in_row = send({"type": "find", "text": "Invoice March"}).result["matches"]
    assert [(m["uid"], m["role"], m["name"]) for m in in_row] == [(row, "row", "Ben Invoice March")]
    stars = send({"type": "find", "role": "clickable", "name": "Star"}).result["matches"]
    assert [m["context"] for m in stars] == ["row: Ana Meeting notes", "row: Ben Invoice March", "row: Cleo Lunch?"]
    assert stars[1]["uid"] == uid_of(result, r'clickable "Star"', on="Ben Invoice March")
    clicked = send({"type": "click", "uid": by_text[0]["uid"]})
    assert clicked.ok, clicked.error
    assert evaluate(send, "document.title") == "clicked Eget"
    apple = send({"type": "find", "text": "Banana"}).result["matches"]
    assert [(m["role"], m["name"]) for m in apple] == [("item", "Banana")]
    assert apple[0]["uid"] == uid_of(result, r'item "Banana"')
