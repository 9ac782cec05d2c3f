"""extract on real pages (tests/fixtures/pages/extract/*), and uids resolving — or refusing to — afterwards.

Golden files: tests/fixtures/golden/extract/<page>.txt hold each fixture page's extract output with the
port replaced by PORT and uids renumbered in the order they appear; `UPDATE_GOLDEN=1` rewrites them
(review the diff by eye before committing).
"""

from __future__ import annotations

import itertools
import os
import re
from pathlib import Path

import pytest

from app.demo.scripted_model.elements import TOKEN, index_line
from app.demo.scripted_model.elements import elements as parse_elements
from tests.e2e.actions_helpers import described, description, uid_of

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "golden" / "extract"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
_task_ids = itertools.count(1)


def open_page(act, fixture_server, path: str, host: str = "127.0.0.1"):
    """Navigate a fresh task (so a fresh tab) to /extract/<path>; returns send(action) bound to the task."""
    task_id = f"t-extract-{next(_task_ids)}"
    response = act({"type": "navigate", "url": fixture_server.url(f"/extract/{path}", host=host)}, task_id=task_id)
    assert response.ok, response.error
    return lambda action, **kw: act(action, task_id=task_id, **kw)


def extract(send, **fields) -> dict:
    response = send({"type": "extract", **fields})
    assert response.ok, response.error
    return response.result


def total_chars(result: dict) -> int:
    return sum(len(result.get(k) or "") for k in ("markdown", "elements", "text", "note"))


def element_lines(result: dict) -> dict[str, str]:
    """uid → all the extract says of it, `role "name" states (context)` (actions_helpers.described): a region
    line's links as `link "Name" (in <region>)`; an element the markdown shows has no context (its line places it)."""
    return {e.uid: description(e) for e in parse_elements(result)}


def normalise(result: dict, port: int) -> str:
    """Port → PORT; uids renumbered e1, e2, … in the order they first appear."""
    renumber: dict[str, str] = {}

    def uid(match: re.Match) -> str:
        return renumber.setdefault(match.group(0), f"e{len(renumber) + 1}")

    parts = [f"url: {result['url']}", f"title: {result['title']}"]
    for field in ("markdown", "elements", "text", "note"):
        if result.get(field):
            parts += [f"--- {field}", result[field]]
    text = "\n".join(parts) + "\n"
    text = text.replace(f":{port}", ":PORT")
    return re.sub(r"\be\d+\b", uid, text)


def check_golden(name: str, result: dict, port: int) -> None:
    path = GOLDEN / f"{name}.txt"
    actual = normalise(result, port)
    if UPDATE or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual)
        if not UPDATE:
            pytest.fail(f"golden file {path.name} was missing and has been written; review it and rerun")
    assert actual == path.read_text(), f"extract output of {name} changed; rerun with UPDATE_GOLDEN=1 and review the diff"


GOLDEN_PAGES = {
    "candidates": "candidates.html",
    "forms": "forms.html",
    "modal": "modal.html",
    "shadow": "shadow.html",
    "frames": "frames.html",
    "hidden": "hidden.html",
    "spa": "spa.html",
    "large-300": "large.html?rows=300",
    "clickable": "clickable.html",
    "reading": "reading.html",
    "fields": "fields.html",
}


@pytest.mark.parametrize("name", sorted(GOLDEN_PAGES))
def test_golden(act, fixture_server, name):
    send = open_page(act, fixture_server, GOLDEN_PAGES[name])
    check_golden(name, extract(send), fixture_server.port)


def test_repeated_names_stand_in_their_rows_and_chrome_is_stripped_but_listed(act, fixture_server):
    result = extract(open_page(act, fixture_server, "candidates.html"))
    lines = result["elements"].splitlines()
    views = [uid_of(result, r'button "View"', on=rf"\| {who} \|") for who in ("Jane Doe", "John Roe", "Ada Lovelace")]
    jane = views[0]
    assert f"| Jane Doe | jane@example.com | Interview | [View]({jane})" in result["markdown"]
    assert f"{' '.join(views)} button" in result["elements"], "the markdown names them: the index gives their role"
    assert '"View"' not in result["elements"] and "row:" not in result["elements"], "nor their name, nor their row"
    assert "| Interview \\| final |" in result["markdown"], "pipes in cells are escaped"
    for stripped in ("We use cookies", "Reports", "Privacy"):
        assert stripped not in result["markdown"]
    assert result["markdown"].endswith("\n[footer: © 2024 Hireline]"), "the page footer's text, compactly, in its place"
    for listed in ('button "Accept all"', 'button "Open chat"'):
        assert listed in result["elements"], "elements of stripped regions stay actionable"
    # Their plain links share one line per region, as markdown tokens; a link with a state keeps its own line.
    reports = uid_of(result, r'link "Reports" \(in navigation "Main"\)')
    privacy, help_ = uid_of(result, r'link "Privacy" \(in footer\)'), uid_of(result, r'link "Help" \(in footer\)')
    assert f'navigation "Main": [Reports]({reports})' in lines
    assert f"footer: [Privacy]({privacy}) [Help]({help_})" in lines
    assert uid_of(result, r'link "Candidates" current')
    assert uid_of(result, r'checkbox "Only mine" checked')
    assert uid_of(result, r'combobox "Stage" value="Interview" options="All\|Interview\|Offer"')
    assert result["text"] == "" and "note" not in result


@pytest.mark.parametrize("path", ["candidates.html", "forms.html", "clickable.html", "spa.html", "shadow.html"])
def test_the_index_says_only_what_the_markdown_does_not_and_nothing_is_lost(act, fixture_server, path):
    """Each fact once: no uid has two index lines, no index line repeats the name its token shows or places an
    element the markdown places; and what markdown and index say together of each uid is the role and name the
    page's own reading (find) gives it, so nothing a model needs went with the repeats."""
    send = open_page(act, fixture_server, path)
    result = extract(send)
    labels = {t.group(2) or t.group(3): t.group(1) or "" for t in TOKEN.finditer(result["markdown"])}
    listed = [e for line in result["elements"].splitlines() for e in index_line(line)]
    assert len({e.uid for e in listed}) == len(listed), f"a uid listed twice: {result['elements']}"
    for e in listed:
        if e.uid in labels:
            assert not e.name or e.name != re.sub(r"\\(.)", r"\1", labels[e.uid]), f"{e.uid}: the name again"
            assert not e.context, f"{e.uid}: the markdown places it, yet ({e.context})"
    said = {e.uid: (e.role, e.name) for e in parse_elements(result)}
    assert set(said) == set(labels) | {e.uid for e in listed}, "every uid the extract shows is an element it names"
    assert len(said) >= 3
    for role in {r for r, _ in said.values()}:
        found = send({"type": "find", "role": role, "limit": 100})
        assert found.ok, found.error
        read = {m["uid"]: (m["role"], m["name"]) for m in found.result["matches"]}
        for uid, described_as in said.items():
            if described_as[0] == role and uid in read:
                assert described_as == read[uid], (uid, described_as, read[uid])
        assert any(uid in read for uid, (r, _) in said.items() if r == role), f"find reads no {role} extract names"


def test_fields_do_not_repeat_each_other(act, fixture_server):
    result = extract(open_page(act, fixture_server, "candidates.html"))
    assert result["text"] == ""
    for sentence in ("3 candidates in the", "Previous employer"):
        assert sentence in result["markdown"] and sentence not in result["elements"]


def test_open_modal_dialog_comes_first_and_the_page_behind_is_inert(act, fixture_server):
    result = extract(open_page(act, fixture_server, "modal.html"))
    markdown = result["markdown"]
    assert markdown.startswith('[dialog "Delete Jane Doe?", modal')
    assert markdown.index("[end of dialog]") < markdown.index("# Jane Doe")
    assert "Delete candidate" in markdown, "text behind the dialog stays readable"
    names = [rest.split('"')[1] for rest in element_lines(result).values()]
    assert names == ["Tell the hiring team", "Cancel", "Delete"], "inert elements are not listed"


def test_form_labels_values_and_states(act, fixture_server):
    lines = set(described(extract(open_page(act, fixture_server, "forms.html"))).split("\n"))
    expected = [
        'tab "Details" selected', 'textbox "Job title" value="Senior Engineer" required',
        'textbox "Contact email" placeholder="you@company.com" type=email', 'textbox "Portal password" value="••••"',
        'combobox "Team" value="Growth" options="Platform|Growth|Data"', 'radio "Remote" checked', 'radio "Office"',
        'slider "Salary band" value="3" range=1..5', 'switch "Publish immediately"',
        'button "Advanced options" collapsed', 'textbox "Internal notes" value="Needs budget approval."',
        'option "Senior" selected', 'menuitem "Archive" disabled', 'button "Publish" disabled', 'button "Save draft"',
    ]
    rests = {line.split(" ", 1)[1] for line in lines}
    for want in expected:
        assert want in rests, (want, sorted(rests))
    assert "hunter2" not in "\n".join(lines), "password values never reach the model"


def test_open_and_closed_shadow_roots(act, fixture_server):
    result = extract(open_page(act, fixture_server, "shadow.html"))
    for text in ("Inside an open shadow root.", "Slotted footer text", "Inside a closed shadow root."):
        assert text in result["markdown"]
    for line in ('button "Save draft"', 'textbox "Coupon" value="SPRING"', 'button "Apply coupon"'):
        assert line in described(result)
    assert re.search(r"\[Deep link in a nested closed root\]\(e\d+\)", result["markdown"]), "a link is named inline"


def test_closed_roots_added_after_an_extract_are_found_by_the_next_one(act, fixture_server):
    """The page is scanned for closed-root hosts again only after an insertion, or once a custom element
    that was not defined yet at the last scan gets its definition (an upgrade inserts nothing)."""
    send = open_page(act, fixture_server, "shadow.html")

    def run(expression: str) -> None:
        response = send({"type": "evaluate", "expression": expression})
        assert response.ok, response.error

    def count(line: str) -> int:
        result = extract(send)
        return described(result).count(line) + result["markdown"].count(line)

    assert count('button "Apply coupon"') == 1
    assert count('button "Apply coupon"') == 1, "a page that did not change keeps its count"
    run("document.body.append(document.createElement('closed-card'))")
    assert count('button "Apply coupon"') == 2, "an inserted host with a closed root"
    run("document.querySelector('open-card').shadowRoot.append(document.createElement('inner-widget'))")
    assert count("[Deep link in a nested closed root](") == 3, "an insertion inside an open shadow root"
    run("document.body.append(document.createElement('late-card'))")
    assert count('button "Late button"') == 0, "not defined yet: no root"
    run("customElements.define('late-card', class extends HTMLElement { constructor() { super();"
        " this.attachShadow({ mode: 'closed' }).innerHTML = '<button>Late button</button>'; } })")
    assert count('button "Late button"') == 1, "defined after the last scan: its new closed root"
    run("document.body.append(...Array.from({ length: 2500 }, () => document.createElement('div')),"
        " document.createElement('closed-card'))")
    assert count('button "Apply coupon"') == 3, "too many insertions to follow one by one: the whole page again"


def test_roots_reached_late_are_scanned_too(act, fixture_server):
    """An open root that a late definition attaches, and a root whose host was out of the page while something
    was inserted into it, are scanned for the closed-root hosts inside them."""
    send = open_page(act, fixture_server, "shadow.html")

    def run(expression: str) -> None:
        response = send({"type": "evaluate", "expression": expression})
        assert response.ok, response.error

    def coupons() -> int:
        return described(extract(send)).count('button "Apply coupon"')

    assert coupons() == 1
    run("document.body.append(document.createElement('late-shell'))")
    assert coupons() == 1
    run("customElements.define('late-shell', class extends HTMLElement { constructor() { super();"
        " this.attachShadow({ mode: 'open' }).append(document.createElement('closed-card')); } })")
    assert coupons() == 2, "the closed card inside the open root the definition attached"
    run("window.host = document.querySelector('open-card'); host.remove();"
        " host.shadowRoot.append(document.createElement('closed-card'))")
    assert send({"type": "hover", "selector": "h1"}).ok, "an action reads the roots while the host is out"
    run("document.body.append(window.host)")
    assert coupons() == 3, "the card inserted while its host was out of the page"


def test_a_form_associated_custom_element_is_named_by_its_label(act, fixture_server):
    send = open_page(act, fixture_server, "forms.html")
    send({"type": "evaluate", "expression": """(() => {
      customElements.define('nick-field', class extends HTMLElement {
        static formAssociated = true;
        constructor() { super(); this.attachInternals(); this.tabIndex = 0; this.setAttribute('role', 'textbox'); }
      });
      document.body.insertAdjacentHTML('beforeend', '<label>Nickname <nick-field></nick-field></label>');
      return true;
    })()"""})
    assert 'textbox "Nickname"' in described(extract(send))


def test_a_closed_root_in_a_frame_that_loaded_another_document_is_found(act, fixture_server):
    send = open_page(act, fixture_server, "frames.html")
    assert 'button "Apply coupon"' not in described(extract(send))
    loaded = send({"type": "evaluate", "expression": """new Promise((resolve) => {
      const frame = document.getElementById('same');
      frame.onload = () => resolve(frame.contentDocument.title);
      frame.src = 'shadow.html';
    })"""})
    assert loaded.ok and loaded.result["value"] == "Shadow roots", loaded
    assert 'button "Apply coupon"' in described(extract(send)), "no insertion, but the frame has a new document"


def test_same_origin_and_cross_site_iframes_inline_in_order(act, fixture_server):
    send = open_page(act, fixture_server, "frames.html")
    result = extract(send)
    markdown = result["markdown"]
    order = ["Before the frames.", "Shipping address", "Between the frames.", "Card payment (cross-site frame)",
             "After the frames."]
    assert [markdown.index(s) for s in order] == sorted(markdown.index(s) for s in order)
    pay = uid_of(result, r'button "Pay now"')
    street = uid_of(result, r'textbox "Street"')
    for uid in (pay, street):
        assert send({"type": "hover", "uid": uid}).ok, f"{uid} resolves inside its frame"


def test_hidden_inert_and_aria_hidden_content_is_left_out(act, fixture_server):
    result = extract(open_page(act, fixture_server, "hidden.html"))
    everything = result["markdown"] + result["elements"]
    for gone in ("Display none", "Visibility hidden", "Hidden attribute", "Aria-hidden", "Inert button\"",
                 "Inside closed details", "Template button", "secret"):
        assert gone not in everything, gone
    assert "Inert text stays readable" in result["markdown"]
    for kept in ('button "Visible button"', 'button "Visible again inside hidden"', 'button invisible',
                 'button "Closed details" collapsed'):
        assert kept in described(result)
    assert "Transparent but clickable" not in everything, "a control nobody sees stays listed, without its text"
    assert "Inert button" not in result["elements"]


def test_uids_are_stable_across_extracts(act, fixture_server):
    send = open_page(act, fixture_server, "candidates.html")
    first, second = extract(send), extract(send)
    assert first["elements"] == second["elements"] and first["markdown"] == second["markdown"]
    scoped = extract(send, selector="table")
    jane = uid_of(first, r'button "View"', on=r"\| Jane Doe \|")
    assert f"[View]({jane})" in scoped["markdown"], "a scoped extract reuses the uids"


def test_rerendered_list_makes_old_uids_stale_with_candidates(act, fixture_server):
    send = open_page(act, fixture_server, "spa.html")
    before = extract(send)
    offer = uid_of(before, r'button "Open"', on="Offer letter")
    assert send({"type": "navigate", "url": fixture_server.url("/extract/spa.html#reverse")}).ok
    response = send({"type": "hover", "uid": offer})
    assert not response.ok and response.error.code == "element_stale", response
    assert "re-rendered" in response.error.message and "extract" in response.error.message
    candidates = response.error.candidates
    assert [c["context"] for c in candidates] == ["item: Reference check", "item: Interview feedback",
                                                 "item: Offer letter"]
    assert offer not in {c["uid"] for c in candidates}, "never the element that took its place"
    new_offer = next(c["uid"] for c in candidates if c["context"] == "item: Offer letter")
    assert send({"type": "hover", "uid": new_offer}).ok, "a candidate uid works without a re-extract"
    after = extract(send)
    assert uid_of(after, r'button "Open"', on="Offer letter") == new_offer


def test_uid_from_before_a_navigation_is_stale(act, fixture_server):
    send = open_page(act, fixture_server, "candidates.html")
    old = uid_of(extract(send), r'button "Filter"')
    assert send({"type": "navigate", "url": fixture_server.url("/extract/forms.html")}).ok
    response = send({"type": "hover", "uid": old})
    assert response.error.code == "element_stale"
    assert "navigated" in response.error.message and "call extract again" in response.error.message
    assert old not in described(extract(send)).split()


def test_unknown_uid_and_unmatched_selector_are_not_found(act, fixture_server):
    send = open_page(act, fixture_server, "candidates.html")
    extract(send)
    unknown = send({"type": "hover", "uid": "e999999"})
    assert unknown.error.code == "element_not_found" and "call extract" in unknown.error.message
    assert unknown.error.candidates == []
    missing = send({"type": "hover", "selector": "#no-such-thing"})
    assert missing.error.code == "element_not_found"
    scoped = send({"type": "extract", "selector": ".no-such-class"})
    assert scoped.error.code == "element_not_found" and "without a selector" in scoped.error.message


def test_selector_scopes_the_extract(act, fixture_server):
    send = open_page(act, fixture_server, "candidates.html")
    result = extract(send, selector="table")
    assert result["markdown"].startswith("| Name | Email | Stage | Actions |")
    assert "Notes" not in result["markdown"] and "Filter" not in result["elements"]
    assert re.fullmatch(r"e\d+ e\d+ e\d+ button", result["elements"]), "the View buttons; the Edit links are named inline"
    assert result["markdown"].count("[Edit](") == 3


def test_max_chars_truncates_honestly_and_the_hint_reads_on(act, fixture_server):
    send = open_page(act, fixture_server, "large.html?rows=2000")
    first = extract(send, max_chars=5000)
    assert total_chars(first) <= 5000
    note = first["note"]
    assert re.search(r"[\d,]+ more table rows, [\d,]+ more interactive elements", note), note
    hint = re.search(r'selector="([^"]+)"', note).group(1)
    last_row = int(re.findall(r"\| \w+ \w+ (\d+) \|", first["markdown"])[-1])
    assert hint == f"#candidates > tbody > tr:nth-child(n+{last_row + 1})"
    omitted = int(re.search(r"([\d,]+) more table rows", note).group(1).replace(",", ""))
    assert omitted == 2000 - last_row
    page2 = extract(send, selector=hint, max_chars=5000)
    assert page2["markdown"].startswith("| Name | Email | Role | Stage | Actions |")
    assert f" {last_row + 1} |" in page2["markdown"].splitlines()[2]


def test_a_10000_row_page_stays_bounded(act, fixture_server):
    send = open_page(act, fixture_server, "large.html?rows=10000")
    result = extract(send)
    assert total_chars(result) <= 24000
    assert "more table rows" in result["note"] and "selector=" in result["note"]


def test_invalid_max_chars_is_refused(act, fixture_server):
    send = open_page(act, fixture_server, "spa.html")
    response = send({"type": "extract", "max_chars": 10})
    assert not response.ok and response.error.code == "invalid_action"


def test_text_fallback_only_when_markdown_caught_little(act, fixture_server):
    result = extract(open_page(act, fixture_server, "fallback.html"))
    assert result["markdown"] == "Tiny visible intro."
    assert "Median time to hire: 31 days" in result["text"]
    assert "Median" not in result["markdown"]
