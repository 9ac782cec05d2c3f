"""extract lists what script makes clickable (tests/fixtures/pages/extract/clickable.html), and the uids work."""

from __future__ import annotations

import re

import pytest

from tests.e2e.test_extract import element_lines, extract, open_page, uid_of


@pytest.fixture
def page(act, fixture_server):
    return open_page(act, fixture_server, "clickable.html")


def title(send) -> str:
    response = send({"type": "evaluate", "expression": "document.title"})
    assert response.ok, response.error
    return response.result["value"]


def click(send, uid: str) -> None:
    response = send({"type": "click", "uid": uid})
    assert response.ok, response.error


def test_span_links_tabs_and_icon_spans_are_listed_and_clickable(page):
    result = extract(page)
    eget = uid_of(result, r'clickable "Eget"')
    assert f"[Eget]({eget}), [Ipsum](" in result["markdown"], "inline where the text stands"
    uid_of(result, r'clickable "Ipsum"')
    uid_of(result, r'clickable "Billing"')
    reply = uid_of(result, r'clickable "reply" icon-name$')  # named from its class, the hint not repeated
    click(page, eget)
    assert title(page) == "clicked Eget"
    click(page, reply)
    assert title(page) == "clicked icon icon-reply"


def test_inbox_rows_are_rows_and_their_icons_keep_row_context(page):
    result = extract(page)
    row = uid_of(result, r'row "Ben Invoice March"')
    star = uid_of(result, r'clickable "Star"', on="Ben Invoice March")
    assert f"[{row}] Ben Invoice March [{star}]" in result["markdown"]
    click(page, row)
    assert title(page).startswith("clicked Ben")
    click(page, star)
    assert title(page) == "clicked icon star"


def test_delegated_listeners_list_the_containers_items_not_the_container(page):
    result = extract(page)
    lines = element_lines(result)
    for name in ("Apple", "Banana", "Cherry", "Java", "JavaScript"):
        uid_of(result, rf'item "{name}"')
    for name in ("Red", "Green", "Blue", "Documents", "Reports", "Letters", "Pictures"):
        uid_of(result, rf'clickable "{name}"')
    joined = "\n".join(lines.values())
    for container in ("Apple Banana", "Red Green", "Documents Reports", "Java JavaScript"):
        assert container not in joined, "a delegating container is not one control"
    click(page, uid_of(result, r'item "Banana"'))
    assert title(page).startswith("clicked Apple"), "the listener on the list ran"


def test_slider_handle_date_picker_and_other_signals(page):
    result = extract(page)
    handle = uid_of(result, r'clickable class="handle"')
    prev = uid_of(result, r'clickable "Prev"')
    uid_of(result, r'clickable "Next"')
    uid_of(result, r'clickable "Archive"')
    uid_of(result, r'draggable "Drag me"')
    uid_of(result, r'button "Inline handler"')
    uid_of(result, r'textbox value="Editable note"')
    uid_of(result, r'clickable "Pointer row text"')
    click(page, prev)
    assert title(page) == "clicked Prev"
    click(page, handle)
    assert title(page) == "clicked handle"


def test_wrappers_children_and_non_input_listeners_are_not_listed(page):
    result = extract(page)
    names = [rest for rest in element_lines(result).values() if "Save" in rest]
    assert names == ['button "Save"'], "the pointer wrapper of a button is not listed again"
    assert "Hover only" not in result["elements"], "a mouseover listener does not make a control"
    assert "Hover only" in result["markdown"]
    assert not any(rest.startswith("row") and "Star" in rest for rest in element_lines(result).values())


def test_listeners_added_later_are_found_by_the_next_extract(page):
    assert "Hover only" not in extract(page)["elements"]
    response = page({"type": "evaluate", "expression":
                     "document.getElementById('hover-only').addEventListener('pointerdown', () => {}); true"})
    assert response.ok, response.error
    uid_of(extract(page), r'clickable "Hover only"')


def test_a_listener_inside_a_same_origin_frame_is_found(act, fixture_server):
    send = open_page(act, fixture_server, "frames.html")
    response = send({"type": "evaluate", "expression": "(() => { const p = document.getElementById('same')"
                     ".contentDocument.querySelector('p'); p.addEventListener('click', () => { document.title ="
                     " 'clicked in the frame'; }); return true; })()"})
    assert response.ok, response.error
    result = extract(send)
    shipping = uid_of(result, r'clickable "Shipping address \(same-origin frame\)"')
    click(send, shipping)
    assert title(send) == "clicked in the frame"


def test_listeners_are_found_again_in_a_new_document_of_the_same_tab(page, fixture_server):
    first = uid_of(extract(page), r'clickable "Eget"')
    response = page({"type": "navigate", "url": fixture_server.url("/extract/clickable.html?again=1")})
    assert response.ok, response.error
    again = uid_of(extract(page), r'clickable "Eget"')
    assert again != first, "a new document, a new uid"
    click(page, again)
    assert title(page) == "clicked Eget"


def listed_cells(result: dict) -> set[str]:
    return {rest for rest in element_lines(result).values() if rest.startswith('cell "')}


def test_a_page_with_more_listened_elements_than_one_mapping_chunk_lists_all_it_shows(act, fixture_server):
    """295 listened name cells: more than the first chunk of nodes mapped (listeners.FIRST_CHUNK, 200). A selector
    read of the last section, then the whole page, each find every listened cell they show."""
    send = open_page(act, fixture_server, "mixed.html?n=1000&listen=1")
    last = extract(send, selector="section:last-of-type")
    assert listed_cells(last) == {f'cell "{name}"' for name in
                                  ("Jane Doe 291", "John Roe 292", "Ada Lovelace 293", "Alan Turing 294",
                                   "Grace Hopper 295")}
    whole = extract(send, max_chars=200_000)
    assert "note" not in whole, whole.get("note")
    assert len(listed_cells(whole)) == 295
    click(send, uid_of(whole, r'cell "Grace Hopper 295"'))


def test_a_re_rendered_script_control_is_stale_with_current_candidates_that_click(page):
    """The page makes its span links and inbox rows anew: the old uids answer element_stale, with the new
    element of the same role and name as candidate (found as extract finds it: by its listener)."""
    result = extract(page)
    old_link = uid_of(result, r'clickable "Eget"')
    old_row = uid_of(result, r'row "Ben Invoice March"')
    response = page({"type": "evaluate", "expression": "rerender(), true"})
    assert response.ok, response.error
    stale = page({"type": "click", "uid": old_link})
    assert not stale.ok and stale.error.code == "element_stale", stale
    assert [(c["role"], c["name"]) for c in stale.error.candidates] == [("clickable", "Eget")]
    link = stale.error.candidates[0]["uid"]
    assert link != old_link
    stale_row = page({"type": "hover", "uid": old_row})
    assert not stale_row.ok and stale_row.error.code == "element_stale", stale_row
    assert [(c["role"], c["name"]) for c in stale_row.error.candidates] == [("row", "Ben Invoice March")]
    row = stale_row.error.candidates[0]["uid"]
    click(page, link)
    assert title(page) == "clicked Eget"
    click(page, row)
    assert title(page).startswith("clicked Ben")
    again = extract(page)
    assert uid_of(again, r'clickable "Eget"') == link and uid_of(again, r'row "Ben Invoice March"') == row


def uids_in(result: dict) -> set[str]:
    return set(re.findall(r"\be\d+\b", f'{result["markdown"]}\n{result["elements"]}'))


def test_a_cut_extract_counts_the_script_controls_it_left_out(page):
    """Text put before the controls: the walk stops in it, and the note's "N more interactive elements" counts
    every control after that point, the script controls (decided as the walker would) with the semantic ones."""
    full = extract(page)
    script = [rest for rest in element_lines(full).values() if re.match(r"(clickable|row|item|draggable)\b", rest)]
    assert len(script) >= 25
    response = page({"type": "evaluate", "expression": "(() => { const intro = document.createElement('div');"
                     " intro.innerHTML = '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>'.repeat(80);"
                     " document.body.prepend(intro); return true; })()"})
    assert response.ok, response.error
    cut = extract(page, max_chars=1000)
    assert not uids_in(cut), "nothing of the controls is shown"
    counted = int(re.search(r"(\d+) more interactive elements", cut["note"]).group(1))
    assert counted == len(uids_in(full)), cut["note"]
