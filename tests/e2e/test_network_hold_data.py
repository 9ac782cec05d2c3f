"""Data held at the network whatever carries it (extension/src/safety/network-tab-hold.js, network-judge.js,
network-secrets.js; app/safety/network_holds.py, dataflow.py), in real Chromium with the real extension, host and
app, on tests/e2e/network_site.py's `exfil` page (127.0.0.1; localhost is the other site):
* a subresource GET of any type (image, script, stylesheet, font, prefetch), and each redirect hop, carrying data the first
  site showed to the other site;
* a sentence the first site showed, inside a POST body, whatever its case and separators; a homoglyph copy;
* a body padded past what used to be judged, and one past what bua reads;
* what the task typed into a password field, sent under any field name;
* what a frame of the other site showed (the `framed` page), remembered as that site's, not the page's.
The buttons' labels are neutral, so the label check before the click has nothing to say: what asks is the request.
"""

from __future__ import annotations

import re

import pytest

from app.safety.confirmations import Decision
from tests.e2e.actions_helpers import stays
from tests.e2e.network_site import FRAME_SECRET, SECRET, open_page, site  # noqa: F401
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
