"""Data held at the network whatever carries it (extension/src/safety/network-tab-hold.js, network-judge.js,
network-secrets.js; app/safety/network_holds.py, dataflow.py), in real Chromium with the real extension, host and
app, on tests/e2e/network_site.py's `exfil` page (127.0.0.1; localhost is the other site):
* a subresource GET of any type (image, script, stylesheet, font, prefetch), and each redirect hop, carrying data the first
  site showed to the other site;
* a sentence the first site showed, inside a POST body, whatever its case and separators; a homoglyph copy;
* a body padded past what used to be judged, and one past what bua reads;
* what the task typed into a password field, sent under any field name;
* what a frame of the other site showed (the `framed` page), remembered as that site's, not the page's: in
  extract's markdown, its element index (a field's name), a change list, and what a drag dragged (`framed-more`).
The buttons' labels are neutral, so the label check before the click has nothing to say: what asks is the request.
"""

from __future__ import annotations

import json
import re

import pytest

from app.safety.confirmations import Decision
from tests.e2e.actions_helpers import stays
from tests.e2e.network_site import (  # noqa: F401
    FRAME_DRAG_SECRET,
    FRAME_FIELD_SECRET,
    FRAME_LATER_SECRET,
    FRAME_PANEL_SECRET,
    FRAME_RENEW_SECRET,
    FRAME_SECRET,
    FRAME_SELECT_SECRET,
    FRAME_TIMEOUT_SECRET,
    FRAME_WAIT_SECRET,
    SECRET,
    open_page,
    site,
)
from tests.e2e.safety_helpers import Person
from tests.e2e.test_network_hold import eventually, refused


def seen_exfil(act, open_page, task: str) -> None:
    open_page("exfil", task)
    assert act({"type": "extract"}, task_id=task).ok  # the task has seen the code and the sentence


@pytest.mark.parametrize(("button", "path"), [("#img", "/px.gif"), ("#img-path", f"/i/{SECRET}.gif"),
                                              ("#script", "/s.js"), ("#style", "/st.css"), ("#font", "/f.woff"),
                                              ("#prefetch", "/pf"),
                                              ("#img-hop", f"/r/{SECRET}"), ("#img-homoglyph", "/px.gif")])
def test_a_subresource_or_redirect_hop_carrying_data_to_another_site_asks(core, act, site, open_page, button, path):
    task = f"t-data-sub-{button[1:]}"
    with Person(core, Decision.DENY) as person:
        seen_exfil(act, open_page, task)
        before = len(site.saw(path))
        refused(act({"type": "click", "selector": button}, task_id=task))
        assert len(person.asked) == 1 and person.asked[0]["kind"] == "data_flow", person.asked
        assert person.asked[0]["site"] == "localhost", person.asked
    assert stays(lambda: len(site.saw(path)) == before, 0.5), "the request carrying the code never arrived"


def test_ordinary_subresources_and_posts_to_another_site_are_not_asked(core, act, site, open_page):
    task = "t-data-plain"
    with Person(core, Decision.DENY) as person:
        seen_exfil(act, open_page, task)
        before = len(site.saw("/px.gif"))
        assert act({"type": "click", "selector": "#img-plain"}, task_id=task).ok
        assert eventually(lambda: len(site.saw("/px.gif")) == before + 1)
        notes = len(site.saw("/api/notes", "POST"))
        assert act({"type": "click", "selector": "#post-plain"}, task_id=task).ok
        assert eventually(lambda: len(site.saw("/api/notes", "POST")) == notes + 1)
        assert person.asked == [], person.asked


def test_a_sentence_the_first_site_showed_inside_a_post_body_asks(core, act, site, open_page):
    task = "t-data-sentence"
    with Person(core, Decision.DENY) as person:
        seen_exfil(act, open_page, task)
        before = len(site.saw("/api/notes", "POST"))
        details = refused(act({"type": "click", "selector": "#post-sentence"}, task_id=task))
        assert "vault moves to the north dock" in details["reason"], details
        assert len(person.asked) == 1 and person.asked[0]["kind"] == "data_flow", person.asked
    assert stays(lambda: len(site.saw("/api/notes", "POST")) == before, 0.5)


@pytest.mark.parametrize(("button", "why"), [("#post-padded", "payment-card"),
                                             ("#post-huge", "(longer than|could not be read)")])
def test_padding_does_not_hide_what_a_body_carries(core, act, site, open_page, button, why):
    task = f"t-data-pad-{button[1:]}"
    with Person(core, Decision.DENY) as person:
        seen_exfil(act, open_page, task)
        before = len(site.saw("/api/notes", "POST"))
        details = refused(act({"type": "click", "selector": button}, task_id=task))
        assert len(person.asked) == 1, person.asked
        assert re.search(why, details["reason"]), details
    assert stays(lambda: len(site.saw("/api/notes", "POST")) == before, 0.5)


@pytest.mark.parametrize("entry", [{"type": "type", "selector": "#pw", "text": "tr0ub4dor&3"},
                                   {"type": "fill", "fields": [{"selector": "#pw", "value": "tr0ub4dor&3"}]}])
def test_what_the_task_typed_into_a_password_field_is_a_credential_under_any_field_name(core, act, site, open_page,
                                                                                        entry):
    task = f"t-data-password-{entry['type']}"
    with Person(core, Decision.DENY) as person:
        open_page("exfil", task)
        assert act(entry, task_id=task).ok
        before = len(site.saw("/api/notes", "POST"))
        details = refused(act({"type": "click", "selector": "#post-pw"}, task_id=task))
        assert "password field" in details["reason"], details
        assert len(person.asked) == 1, person.asked
    assert stays(lambda: len(site.saw("/api/notes", "POST")) == before, 0.5)


def test_what_another_sites_frame_showed_is_that_sites_data_not_the_pages(core, act, site, open_page):
    """The page on 127.0.0.1 holds a frame of localhost that shows an order code: extract remembers the code under
    localhost, where the frame came from. So the page sending it back to localhost carries localhost's own data
    (no question), while the page posting it to its own site takes localhost's data to 127.0.0.1 (asked; Deny:
    it never arrives). Remembered under the page's site, it was the other way round."""
    task = "t-data-frame"
    with Person(core, Decision.DENY) as person:
        open_page("framed", task)
        extracted = act({"type": "extract"}, task_id=task)
        assert extracted.ok and FRAME_SECRET in extracted.result["markdown"], extracted
        assert act({"type": "click", "selector": "#code-to-frame-site"}, task_id=task).ok
        assert eventually(lambda: len(site.saw("/track")) == 1), "sent back to the frame's own site, unasked"
        assert person.asked == [], person.asked
        before = len(site.saw("/api/notes", "POST"))
        details = refused(act({"type": "click", "selector": "#code-to-page-site"}, task_id=task))
        assert "localhost" in details["reason"], details
        assert len(person.asked) == 1 and person.asked[0]["kind"] == "data_flow", person.asked
        assert person.asked[0]["site"] == "127.0.0.1", person.asked
    assert stays(lambda: len(site.saw("/api/notes", "POST")) == before, 0.5), "denied: it never arrived"


def _sent_back_unasked_and_held_to_the_page(act, site, person, task: str, code: str, button: str) -> None:
    """`code`, which the frame of localhost showed, goes back to localhost unasked; to the page's own site it is
    asked about (Deny: it never arrives)."""
    tracked, asked = len(site.saw("/track")), len(person.asked)
    assert act({"type": "click", "selector": f"#{button}-to-frame-site"}, task_id=task).ok
    assert eventually(lambda: len(site.saw("/track")) == tracked + 1), f"{code} sent back to the frame's own site"
    assert len(person.asked) == asked, person.asked
    before = len(site.saw("/api/notes", "POST"))
    details = refused(act({"type": "click", "selector": f"#{button}-to-page-site"}, task_id=task))
    assert "localhost" in details["reason"], details
    assert len(person.asked) == asked + 1 and person.asked[-1]["kind"] == "data_flow", person.asked
    assert person.asked[-1]["site"] == "127.0.0.1", person.asked
    assert stays(lambda: len(site.saw("/api/notes", "POST")) == before, 0.5), "denied: it never arrived"


def test_what_another_sites_frame_showed_in_the_index_and_a_change_list_is_that_sites(core, act, site, open_page):
    """The frame of localhost names a field by a gift card code (only the element index says it) and shows a parcel
    code once its button is pressed (only a change list says it): each is localhost's data, as the frame's
    markdown is. Remembered under the page's site, sending either back to localhost was asked about and posting
    it to 127.0.0.1 was not."""
    task = "t-data-frame-more"
    with Person(core, Decision.DENY) as person:
        open_page("framed-more", task)
        extracted = act({"type": "extract"}, task_id=task)
        assert extracted.ok, extracted
        assert FRAME_FIELD_SECRET in extracted.result["elements"], extracted
        assert FRAME_FIELD_SECRET not in extracted.result["markdown"], "the index alone says it"
        shown = re.search(r"\[Show parcel\]\((e\d+)\)", extracted.result["markdown"])
        assert shown, extracted
        pressed = act({"type": "click", "uid": shown.group(1)}, task_id=task)
        assert pressed.ok, pressed
        changes = act({"type": "extract", "changes": True}, task_id=task)
        listed = json.dumps([pressed.result.get("changes"), changes.result.get("changes")])
        assert FRAME_LATER_SECRET in listed and FRAME_LATER_SECRET not in json.dumps(changes.result.get("markdown")), \
            (pressed, changes)
        assert person.asked == [], person.asked
        _sent_back_unasked_and_held_to_the_page(act, site, person, task, FRAME_FIELD_SECRET, "gift")
        _sent_back_unasked_and_held_to_the_page(act, site, person, task, FRAME_LATER_SECRET, "later")


def test_what_a_wait_and_a_selection_quote_of_another_sites_frame_is_that_sites(core, act, site, open_page):
    """Three buttons of the frame of localhost have codes for ids, which no extract says: a wait_for on one quotes
    its description, a select_text of another the element it selected, and a wait_for on the third that times
    out quotes it in its error. Each is localhost's data."""
    task = "t-data-frame-quoted"
    with Person(core, Decision.DENY) as person:
        open_page("framed-more", task)
        extracted = act({"type": "extract"}, task_id=task)
        assert extracted.ok and FRAME_WAIT_SECRET not in json.dumps(extracted.result), extracted
        uids = {name: re.search(rf"\[{name}\]\((e\d+)\)", extracted.result["markdown"]) for name in ("Voucher", "Slip", "Receipt")}
        assert all(uids.values()), extracted
        waited = act({"type": "wait_for", "uid": uids["Voucher"].group(1), "state": "visible"}, task_id=task)
        assert waited.ok and FRAME_WAIT_SECRET in waited.result["seen"], waited
        selected = act({"type": "select_text", "uid": uids["Slip"].group(1)}, task_id=task)
        assert selected.ok and FRAME_SELECT_SECRET in selected.result["element"], selected
        timed_out = act({"type": "wait_for", "uid": uids["Receipt"].group(1), "state": "hidden", "timeout_ms": 200},
                        task_id=task)
        assert not timed_out.ok and FRAME_TIMEOUT_SECRET in timed_out.error.message, timed_out
        _sent_back_unasked_and_held_to_the_page(act, site, person, task, FRAME_WAIT_SECRET, "wait")
        _sent_back_unasked_and_held_to_the_page(act, site, person, task, FRAME_SELECT_SECRET, "select")
        _sent_back_unasked_and_held_to_the_page(act, site, person, task, FRAME_TIMEOUT_SECRET, "timeout")


def test_a_stale_uids_error_quoting_another_sites_frame_leaves_its_text_that_sites(core, act, site, open_page):
    """A button of the frame of localhost, named by a code, renders itself again when pressed: pressing its old
    uid again is stale, and the error names it and its new copy (the candidates). That quote is localhost's, as
    the extract that showed it said: remembered under the page's site too, sending it back to localhost asked."""
    task = "t-data-frame-stale"
    with Person(core, Decision.DENY) as person:
        open_page("framed-more", task)
        extracted = act({"type": "extract"}, task_id=task)
        renew = re.search(rf"\[Renew {FRAME_RENEW_SECRET}\]\((e\d+)\)", extracted.result["markdown"])
        assert extracted.ok and renew, extracted
        assert act({"type": "click", "uid": renew.group(1)}, task_id=task).ok
        stale = act({"type": "click", "uid": renew.group(1)}, task_id=task)
        assert not stale.ok and stale.error.code == "element_stale" and stale.error.candidates, stale
        _sent_back_unasked_and_held_to_the_page(act, site, person, task, FRAME_RENEW_SECRET, "renew")


def test_what_a_drag_says_it_dragged_in_another_sites_frame_is_that_sites(core, act, site, open_page):
    """A grip of the frame of localhost has a code for its id, which no extract says: a drag of it names what it
    dragged (its description), and that is localhost's data. Remembered under the page's site, sending it back to
    localhost was asked about and posting it to 127.0.0.1 was not."""
    task = "t-data-frame-drag"
    with Person(core, Decision.DENY) as person:
        open_page("framed-more", task)
        extracted = act({"type": "extract"}, task_id=task)
        grip = re.search(r"\[Grip\]\((e\d+)\)", extracted.result["markdown"])
        assert extracted.ok and grip and FRAME_DRAG_SECRET not in json.dumps(extracted.result), extracted
        dragged = act({"type": "drag", "uid": grip.group(1), "by": {"dx": 12, "dy": 0}}, task_id=task)
        assert dragged.ok and FRAME_DRAG_SECRET in dragged.result["dragged"], dragged
        assert person.asked == [], person.asked
        _sent_back_unasked_and_held_to_the_page(act, site, person, task, FRAME_DRAG_SECRET, "drag")


def test_the_heading_a_change_list_names_a_frames_closed_panel_by_is_that_sites(core, act, site, open_page):
    """The frame of localhost shows a long panel headed by a code; its button closes it, and the click's change
    list names the panel by its heading (one line for the whole section). That line quotes localhost's text:
    remembered under the page's site too, the code was the page's own data as well, and posting it to 127.0.0.1
    was not asked about."""
    task = "t-data-frame-panel"
    with Person(core, Decision.DENY) as person:
        open_page("framed-more", task)
        extracted = act({"type": "extract"}, task_id=task)
        close = re.search(r"\[Close panel\]\((e\d+)\)", extracted.result["markdown"])
        assert extracted.ok and close and FRAME_PANEL_SECRET in extracted.result["markdown"], extracted
        pressed = act({"type": "click", "uid": close.group(1)}, task_id=task)
        listed = (pressed.result.get("changes") or {}).get("markdown", "") if pressed.ok else ""
        assert re.search(rf'^- section "Parcel {FRAME_PANEL_SECRET}" removed', listed, re.M), pressed
        assert person.asked == [], person.asked
        _sent_back_unasked_and_held_to_the_page(act, site, person, task, FRAME_PANEL_SECRET, "panel")
