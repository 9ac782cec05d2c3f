"""What the page sends between the task's actions is held too (extension/src/safety/network-hold.js: Fetch is on in
a session tab from the session's start to its end), in real Chromium with the real extension, host and app, on
tests/e2e/network_site.py's pages. Each page sends LATER_MS (4.5 s) after the click answered, past the 3 s in
which an action's hold used to linger, or hands the request to its service worker, or opens a tab; the person is
asked through the broker with no action waiting, and Deny fails the request. Ordinary requests sent later
(an autosave of ordinary text, an analytics beacon, a GET) do not ask."""

from __future__ import annotations

import pytest

from app.safety.confirmations import Decision
from tests.e2e.actions_helpers import stays, wait_until
from tests.e2e.network_site import CASE_SECRET, LATER_MS, SECRET, open_page, service_worker_ready, site  # noqa: F401
from tests.e2e.safety_helpers import Person, status_of

LATE = LATER_MS / 1000 + 30
"""How long a test waits for what the page does LATER_MS after the click, on a loaded machine."""


def clicked(act, selector: str, task: str) -> None:
    response = act({"type": "click", "selector": selector}, task_id=task)
    assert response.ok, response.error
    assert "held_requests" not in response.result.get("effects", {}), "the page sends only after the click answered"


@pytest.mark.parametrize(("button", "path", "why"), [("#late-pay", "/api/pay", "payment"),
                                                     ("#late-card", "/api/notes", "payment-card data")])
def test_a_post_the_page_delays_past_the_action_is_held_and_deny_fails_it(core, act, site, open_page, button, path, why):
    task = f"t-between-{button[1:]}"
    with Person(core, Decision.DENY) as person:
        open_page("later", task)
        before = len(site.saw(path))
        clicked(act, button, task)
        assert wait_until(lambda: person.asked, LATE), "held between actions and asked"
        question = person.asked[0]
        assert why in question["reason"], question
        assert "between the task's actions" in question["element"], question
        assert wait_until(lambda: status_of(act, task).startswith("failed"), LATE), "denied: the page's fetch failed"
    assert site.saw(path)[before:] == [], "it never left the browser"


def test_allow_lets_a_request_sent_between_actions_through(core, act, site, open_page):
    task = "t-between-allow"
    with Person(core, Decision.ALLOW_ONCE) as person:
        open_page("later", task)
        before = len(site.saw("/api/pay", "POST"))
        clicked(act, "#late-pay", task)
        assert wait_until(lambda: len(site.saw("/api/pay", "POST")) > before, LATE)
        assert len(person.asked) == 1
    assert wait_until(lambda: status_of(act, task) == "sent 200", LATE)


def test_a_post_the_pages_service_worker_sends_between_actions_is_held(core, act, site, open_page):
    task = "t-between-sw"
    with Person(core, Decision.DENY) as person:
        open_page("sw", task)
        service_worker_ready(act, task)
        before = len(site.saw("/api/transfer"))
        clicked(act, "#sw-later", task)
        assert wait_until(lambda: person.asked, LATE), [(r.method, r.path) for r in site.received[-3:]]
        assert "transfer" in person.asked[0]["reason"], person.asked
        assert stays(lambda: len(site.saw("/api/transfer")) == before, 1.0), "denied: it never left"


def test_a_tab_the_page_opened_posts_card_data_into_it_between_actions_and_is_held(core, act, site, open_page):
    """The click opens a blank tab (with the click's activation); 4.5 s later the page submits a form carrying a
    card number into it: the tab joined the task when it opened, so its own hold pauses the POST."""
    task = "t-between-popup"
    with Person(core, Decision.DENY) as person:
        open_page("later", task)
        before = len(site.saw("/api/next", "POST"))
        clicked(act, "#late-open", task)
        assert wait_until(lambda: person.asked, LATE), "the popup's POST is held"
        assert "payment-card data" in person.asked[0]["reason"], person.asked
        assert stays(lambda: site.saw("/api/next", "POST")[before:] == [], 1.0), "denied: it never left"


@pytest.mark.parametrize("button", ["#find-later", "#go-later"])
def test_a_get_carrying_data_another_site_showed_is_held_between_actions(core, act, site, open_page, button):
    """A GET form submitted to another site, and a navigation there, 4.5 s after the click, each carrying the code
    the first site showed the task: the data-flow check asks where the request goes."""
    task = f"t-between-get-{button[1:]}"
    path = "/search" if button == "#find-later" else "/land"
    with Person(core, Decision.DENY) as person:
        open_page("secret", task)
        assert act({"type": "extract"}, task_id=task).ok  # the task has seen the code
        before = len(site.saw(path))
        clicked(act, button, task)
        assert wait_until(lambda: person.asked, LATE), "held between actions and asked"
        assert person.asked[0]["kind"] == "data_flow" and person.asked[0]["site"] == "localhost", person.asked
        assert SECRET[2:10] in person.asked[0]["reason"], person.asked
        assert stays(lambda: len(site.saw(path)) == before, 1.0), "denied: it never arrived"


def test_a_new_tabs_first_get_carrying_data_another_site_showed_is_held(core, act, site, open_page):
    """window.open to another site with the code in its query: no session of the opener sees the new tab's first
    request, so a session rule blocks it until the new tab's own hold is on, and it is loaded again through it."""
    task = "t-between-tab-get"
    with Person(core, Decision.DENY) as person:
        open_page("secret", task)
        assert act({"type": "extract"}, task_id=task).ok
        before = len(site.saw("/land"))
        response = act({"type": "click", "selector": "#open-leak"}, task_id=task)
        assert response.ok or response.error.code == "confirmation_required", response
        assert wait_until(lambda: person.asked, LATE), "the new tab's GET is held"
        assert person.asked[0]["kind"] == "data_flow" and person.asked[0]["site"] == "localhost", person.asked
        assert stays(lambda: len(site.saw("/land")) == before, 1.0), "denied: it never arrived"


@pytest.mark.parametrize(("button", "path"), [("#open-path-leak", f"/u/{SECRET}"), ("#open-case-leak", f"/go/{CASE_SECRET}"),
                                              ("#open-early-img", "/early/px.gif"), ("#open-early-fetch", "/early/collect"),
                                              ("#open-early-hash", "/early/badge.gif")])
def test_a_new_tabs_first_requests_carrying_data_in_their_url_are_held(core, act, site, open_page, button, path):
    """What a new tab sends first, before its own hold is on, carrying a code the first site showed to another site:
    * window.open with it in the path (`/u/<code>`), not the query — also one of letters only whose information is
      its letter case (`/go/qWmZbXkRt`, matched case-sensitively): the session rule blocks a top-level GET whose
      path can carry data until the new tab's hold is on;
    * a popup whose page reads another site at once with it in the URL: an <img> in its HTML, a fetch in its first
      script, an image whose URL its script builds from the popup's fragment (which no request carries): a session
      rule blocks another site's read whose URL can carry data, and once the hold is on the tab is loaded again
      through it (network-new-tabs.js).
    Either way the app's data-flow check asks where it goes; Deny: the code never arrives."""
    task = f"t-between-tab-path-{button[1:]}"
    with Person(core, Decision.DENY) as person:
        open_page("secret", task)
        assert act({"type": "extract"}, task_id=task).ok
        response = act({"type": "click", "selector": button}, task_id=task)
        assert response.ok or response.error.code == "confirmation_required", response
        assert wait_until(lambda: person.asked, LATE), f"the new tab's request is held; arrived: {site.saw(path)}"
        assert person.asked[0]["kind"] == "data_flow" and person.asked[0]["site"] == "localhost", person.asked
        assert stays(lambda: site.saw(path) == [], 1.0), "denied: it never arrived"


@pytest.mark.parametrize(("button", "path"), [("#open-path-digits", "/guides/2024/delivery"),
                                              ("#open-path-words", "/help/delivery-times")])
def test_a_new_tabs_ordinary_path_get_is_not_asked(core, act, site, open_page, button, path):
    """An ordinary page opened in a new tab (a path with a year in it, a path of plain words) loads once, unasked,
    though the task has seen the first site's code."""
    task = f"t-between-tab-{button[1:]}"
    with Person(core, Decision.DENY) as person:
        open_page("secret", task)
        assert act({"type": "extract"}, task_id=task).ok
        assert act({"type": "click", "selector": button}, task_id=task).ok
        assert wait_until(lambda: len(site.saw(path)) == 1, LATE), site.received[-3:]
        assert stays(lambda: person.asked == [] and len(site.saw(path)) == 1, 1.0), person.asked


def test_ordinary_requests_sent_between_actions_do_not_ask(core, act, site, open_page):
    """An autosave of ordinary text, an analytics beacon and a GET, 4.5 s after the click: held and let go at once."""
    task = "t-between-ordinary"
    with Person(core, Decision.DENY) as person:
        open_page("later", task)
        before = {path: len(site.saw(path)) for path in ("/api/drafts/autosave", "/stats", "/api/items")}
        clicked(act, "#late-ordinary", task)
        assert wait_until(lambda: all(len(site.saw(p)) > n for p, n in before.items()), LATE), site.received[-4:]
        assert stays(lambda: person.asked == [], 0.5), person.asked
        assert status_of(act, task) == "sent 200"


def test_stop_all_ends_a_hold_waiting_between_actions_at_once(core, act, site, open_page):
    """A request the page sent between actions waits for the person; Stop all fails it, withdraws the question and
    ends the session (so nothing of that tab is held afterwards)."""
    task = "t-between-stop"
    open_page("later", task)
    with Person(core, answer=None) as person:
        before = len(site.saw("/api/pay"))
        clicked(act, "#late-pay", task)
        assert wait_until(lambda: person.asked, LATE), "held between actions, waiting for the person"
        core.call(core.core.stop_all())
        assert wait_until(lambda: core.run(lambda: core.core.confirmations.pending()) == []), "the question went"
    assert stays(lambda: len(site.saw("/api/pay")) == before, 1.0), "failed, never sent"
