"""extract {changes: true} and the change lists of input results, in real Chromium on an SPA that changes part
of itself (tests/fixtures/pages/extract/spa-changes.html)."""

from __future__ import annotations

import time

from tests.e2e.test_extract import extract, open_page, uid_of


def fresh(act, fixture_server):
    send = open_page(act, fixture_server, "spa-changes.html")
    first = extract(send)
    return send, first


def test_extract_changes_after_a_click_lists_exactly_what_changed_with_stable_uids(act, fixture_server):
    send, first = fresh(act, fixture_server)
    item1, item3 = uid_of(first, r'button "Delete"', on="Item 1"), uid_of(first, r'button "Delete"', on="Item 3")
    item2, done = uid_of(first, r'button "Delete"', on="Item 2"), uid_of(first, r'checkbox "Done"')
    rename = uid_of(first, r'button "Rename me"')
    buttons = first["markdown"].splitlines()[6]
    assert buttons.startswith(f"[Rename me]({rename}) ")
    clicked = send({"type": "click", "uid": uid_of(first, r'button "Update later"')})
    assert clicked.ok and clicked.result["effects"]["nothing_changed"], "the page changes after the settle window"
    assert "changes" not in clicked.result, "no change list when the effects saw no change"
    deadline = time.monotonic() + 5  # find reads without moving the task's snapshot (a wait_for would carry the list)
    while not send({"type": "find", "text": "Item 4"}).result.get("total") and time.monotonic() < deadline:
        time.sleep(0.1)

    changed = extract(send, changes=True)
    assert set(changed) == {"url", "title", "changes"}, "a change list, not a full extract"
    after = extract(send)
    item4 = uid_of(after, r'button "Delete"', on="Item 4")
    assert item4 not in (item1, item2, item3)
    changes = changed["changes"]
    assert changes["markdown"].splitlines() == [
        "@ after: # Tasks",
        "~ Status: saved",
        "  was: Status: idle",
        f"- - Item 1 [Delete]({item1})",
        f"@ after: - Item 3 [Delete]({item3})",
        f"+ - Item 4 [Delete]({item4})",
        f"@ after: [{done}] Done",
        f"~ labels now: [Renamed]({rename})",
    ], "a line whose only change is a label gives just the new token"
    assert buttons.startswith(f"[Rename me]({rename}) ")
    assert changes["elements"].splitlines() == [
        f'+ {item4} button "Delete" (item: Item 4)',
        f'~ {done} checkbox "Done" checked (was: checkbox "Done")',
    ], "a name change and a removal the markdown lines show are not listed again"
    assert rename and item1
    assert changes["summary"] == "text lines: 1 added, 1 removed, 2 changed; elements: 1 added, 1 removed, 2 changed"
    assert f"[Delete]({item2})" in after["markdown"] and f"[Renamed]({rename})" in after["markdown"], \
        "uids stay stable across the change"
    again = extract(send, changes=True)
    assert again["changes"] == {"summary": "no text or element changed"}


def test_a_click_result_carries_its_small_change_list_and_the_next_extract_starts_from_it(act, fixture_server):
    send, first = fresh(act, fixture_server)
    clicked = send({"type": "click", "uid": uid_of(first, r'button "Add now"')})
    assert clicked.ok
    changes = clicked.result["changes"]
    opened = changes["elements"].split()[1]
    item3 = uid_of(first, r'button "Delete"', on="Item 3")
    assert changes == {
        "summary": "text lines: 1 added; elements: 1 added",
        "markdown": f"@ after: - Item 3 [Delete]({item3})\n+ - Quick item [Open]({opened})",
        "elements": f'+ {opened} button "Open"',
    }
    assert send({"type": "click", "uid": opened}).ok, "the listed uid works"
    assert extract(send, changes=True)["changes"] == {"summary": "no text or element changed"}, \
        "the click's change list moved the task's snapshot on"


def test_without_an_earlier_extract_a_click_carries_no_change_list(act, fixture_server):
    send = open_page(act, fixture_server, "spa-changes.html")
    clicked = send({"type": "click", "selector": "#now"})
    assert clicked.ok and clicked.result["effects"]["dom_mutations"] > 0 and "changes" not in clicked.result
    first = extract(send, changes=True)
    assert first["changes"] == {"summary": "no earlier extract of this tab in this task: this is a full extract",
                                "full": True}
    assert "Quick item" in first["markdown"]


def test_a_huge_change_falls_back_to_a_full_extract_with_a_note(act, fixture_server):
    send, first = fresh(act, fixture_server)
    clicked = send({"type": "click", "uid": uid_of(first, r'button "Big change"')})
    summary = clicked.result["changes"]["summary"]
    assert set(clicked.result["changes"]) == {"summary"} and "too many to list here" in summary
    assert "extract {changes: true}" in summary
    result = extract(send, changes=True)
    assert result["changes"]["full"] is True and "larger than the page" in result["changes"]["summary"]
    assert result["markdown"].startswith("Paragraph 0 of the new page")


def test_a_new_document_gives_a_full_extract(act, fixture_server):
    send, first = fresh(act, fixture_server)
    link = first["markdown"].split("[Next document](")[1].split(")")[0]  # shown inline, so not in the index
    clicked = send({"type": "click", "uid": link})
    assert clicked.ok and clicked.result["effects"]["navigated"] and "changes" not in clicked.result
    result = extract(send, changes=True)
    assert result["changes"]["full"] is True and "new document" in result["changes"]["summary"]
    assert result["markdown"].startswith("# Tasks, again")


def test_type_and_press_key_results_carry_their_change_lists(act, fixture_server):
    send, first = fresh(act, fixture_server)
    field = uid_of(first, r'(searchbox|textbox) "Filter".*')
    item1, item3 = uid_of(first, r'button "Delete"', on="Item 1"), uid_of(first, r'button "Delete"', on="Item 3")
    typed = send({"type": "type", "uid": field, "text": "Item 2"})
    assert typed.ok, typed.error
    changes = typed.result["changes"]
    assert [line for line in changes["markdown"].splitlines() if line[0] in "+-"] == [
        f"- - Item 1 [Delete]({item1})", f"- - Item 3 [Delete]({item3})"]
    assert "elements" not in changes, "the removed buttons stand in the removed lines; the field's value is typed's own"
    assert typed.result["value"] == "Item 2" and "changed" not in changes["summary"], \
        "the field's change is typed's own to say, not counted again"
    pressed = send({"type": "press_key", "key": "Escape"})
    assert pressed.ok, pressed.error
    back = pressed.result["changes"]
    assert [line for line in back["markdown"].splitlines() if line[0] in "+-"] == [
        f"+ - Item 1 [Delete]({item1})", f"+ - Item 3 [Delete]({item3})"], "the same uids come back"


def test_a_fill_result_carries_its_change_list_with_stable_uids(act, fixture_server):
    send, first = fresh(act, fixture_server)
    field, done = uid_of(first, r'(searchbox|textbox) "Filter".*'), uid_of(first, r'checkbox "Done"')
    item1, item3 = uid_of(first, r'button "Delete"', on="Item 1"), uid_of(first, r'button "Delete"', on="Item 3")
    item2 = uid_of(first, r'button "Delete"', on="Item 2")
    filled = send({"type": "fill", "fields": [{"uid": field, "value": "Item 2"}, {"uid": done, "value": True}]})
    assert filled.ok, filled.error
    assert filled.result["as_asked"] == 2 and "fields" not in filled.result, filled.result
    changes = filled.result["changes"]
    assert [line for line in changes["markdown"].splitlines() if line[0] in "+-~"] == [
        f"- - Item 1 [Delete]({item1})", f"- - Item 3 [Delete]({item3})"]
    assert "elements" not in changes, "each field's new value or state is the fill's to say, once"
    assert changes["summary"] == "text lines: 2 removed; elements: 2 removed"
    after = extract(send)
    assert uid_of(after, r'button "Delete"') == item2, "the one Delete left keeps its uid (no context: not repeated)"
    assert f"- Item 2 [Delete]({item2})" in after["markdown"] and uid_of(after, r'checkbox "Done" checked') == done
    assert extract(send, changes=True)["changes"] == {"summary": "no text or element changed"}, \
        "the fill's change list moved the task's snapshot on"


def test_a_link_added_to_a_left_out_region_names_its_region(act, fixture_server):
    send, first = fresh(act, fixture_server)
    assert 'navigation "Main": [Jobs](' in first["elements"]
    clicked = send({"type": "click", "uid": uid_of(first, r'button "Add archive link"')})
    assert clicked.ok, clicked.error
    changes = clicked.result["changes"]
    assert "markdown" not in changes, "the markdown leaves the navigation out"
    archive = changes["elements"].split()[1]
    assert changes == {"summary": "elements: 1 added", "elements": f'+ {archive} link "Archive" (in navigation "Main")'}
    after = extract(send)
    assert f'navigation "Main": [Archive]({archive})' in after["elements"].splitlines(), \
        "the index lists it on a line of its region"


def test_a_wait_for_result_carries_the_change_it_waited_for(act, fixture_server):
    send, first = fresh(act, fixture_server)
    assert send({"type": "click", "uid": uid_of(first, r'button "Update later"')}).ok
    waited = send({"type": "wait_for", "text": "Item 4", "timeout_ms": 5000})
    assert waited.ok, waited.error
    assert "+ - Item 4 [Delete](" in waited.result["changes"]["markdown"]
    assert extract(send, changes=True)["changes"] == {"summary": "no text or element changed"}
