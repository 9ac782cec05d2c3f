"""What the page sends is held at the network while an action acts (extension/src/safety/network-hold.js,
app/safety/network_holds.py), in real Chromium with the real extension, host and app, on this module's own
site (tests/e2e/network_site.py: 127.0.0.1, and localhost as a second site). The buttons' labels are neutral
("Next", "Keep", "Find"), so the label check before the click has nothing to say: what asks is the request."""

from __future__ import annotations

import threading
import time

import pytest

from app.safety.confirmations import Decision
from tests.e2e.actions_helpers import in_extension, stays, wait_until
from tests.e2e.network_site import CASE_SECRET, SECRET, open_page, service_worker_ready, site  # noqa: F401
from tests.e2e.safety_helpers import Person, status_of


def eventually(check, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


def click_each_unheld(act, task: str, selectors) -> None:
    """Each click goes through, and its page's requests were not held."""
    for selector in selectors:
        response = act({"type": "click", "selector": selector}, task_id=task)
        assert response.ok, (selector, response.error)
        assert "held_requests" not in response.result.get("effects", {}), response.result


def refused(response) -> dict:
    assert not response.ok and response.error.code == "confirmation_required", response
    details = response.error.confirmation
    assert details and details.get("kind") == "network", details
    return details


def test_a_post_to_an_order_endpoint_asks_and_deny_fails_it(core, act, site, open_page):
    task = "t-net-deny"
    with Person(core, Decision.DENY) as person:
        open_page("post", task)
        response = act({"type": "click", "selector": "#go"}, task_id=task)
        details = refused(response)
        assert "/api/v1/checkout" in details["url"] and "payment" in details["reason"]
        assert details["held_requests"][0]["decision"] == "deny"
        assert len(person.asked) == 1 and person.asked[0]["element"].startswith("the page's POST request")
    assert site.saw("/api/v1/checkout") == [], "a denied request never left the browser"
    assert eventually(lambda: status_of(act, task).startswith("failed"))


def test_allow_lets_the_held_request_through_and_the_result_says_so(core, act, site, open_page):
    task = "t-net-allow"
    with Person(core, Decision.ALLOW_ONCE) as person:
        open_page("post", task)
        response = act({"type": "click", "selector": "#xhr"}, task_id=task)
        assert response.ok, response.error
        held = response.result["effects"]["held_requests"]
        assert held == [{"method": "DELETE", "url": site.url("/api/items/3"), "why": ["it is a DELETE request"],
                         "decision": "allow"}], held
        assert len(person.asked) == 1
    assert eventually(lambda: len(site.saw("/api/items/3", "DELETE")) == 1)


def test_ordinary_requests_are_not_asked(core, act, site, open_page):
    task = "t-net-ordinary"
    with Person(core, Decision.DENY) as person:
        open_page("post", task)
        click_each_unheld(act, task, ("#look", "#note", "#beacon-plain"))
        assert person.asked == []
    assert eventually(lambda: site.saw("/api/notes", "POST") and site.saw("/collect") and site.saw("/stats"))


def test_card_data_to_a_neutral_endpoint_asks(core, act, site, open_page):
    task = "t-net-card"
    with Person(core, Decision.DENY) as person:
        open_page("post", task)
        before = len(site.saw("/api/notes"))
        details = refused(act({"type": "click", "selector": "#card"}, task_id=task))
        assert "payment-card" in details["reason"]
        assert len(person.asked) == 1
    assert len(site.saw("/api/notes")) == before


def test_a_beacon_to_a_send_endpoint_asks(core, act, site, open_page):
    task = "t-net-beacon"
    with Person(core, Decision.DENY) as person:
        open_page("post", task)
        details = refused(act({"type": "click", "selector": "#beacon"}, task_id=task))
        assert "sending" in details["reason"]
        assert person.asked
    assert site.saw("/api/messages/send") == []


def test_a_form_post_asks(core, act, site, open_page):
    task = "t-net-form"
    with Person(core, Decision.DENY) as person:
        open_page("form", task)
        refused(act({"type": "click", "selector": "#next"}, task_id=task))
        assert person.asked and "order" in person.asked[0]["reason"]
    assert site.saw("/orders/new") == []


@pytest.mark.parametrize("button", ["#same-go", "#cross-go", "#worker-go"])
def test_requests_of_frames_out_of_process_frames_and_workers_are_held(core, act, site, open_page, button):
    task = f"t-net-{button[1:]}"
    with Person(core, Decision.DENY) as person:
        open_page("frames", task)
        before = len(site.saw("/api/transfer"))
        clicked = act({"type": "click", "selector": button}, task_id=task)
        if clicked.ok:  # a loaded machine: the frame's request left after the click answered, in the 3 s linger
            assert wait_until(lambda: person.asked), "held in the linger and asked all the same"
        else:
            assert "transfer" in refused(clicked)["reason"], clicked
        assert person.asked and "transfer" in str(person.asked[0]), person.asked
        assert stays(lambda: len(site.saw("/api/transfer")) == before, 0.5), "denied: it never left"


def test_a_get_form_to_another_site_with_data_this_site_showed_asks(core, act, site, open_page):
    task = "t-net-getform"
    with Person(core, Decision.DENY) as person:
        open_page("secret", task)
        assert act({"type": "extract"}, task_id=task).ok  # the task has seen the code
        details = refused(act({"type": "click", "selector": "#find"}, task_id=task))
        assert SECRET[2:10] in details["reason"] and "localhost" in details["reason"], details
        assert person.asked and person.asked[0]["kind"] == "data_flow" and person.asked[0]["site"] == "localhost"
    assert site.saw("/search") == []


def test_an_open_redirect_hop_to_another_site_is_checked_where_it_goes(core, act, site, open_page):
    task = "t-net-redirect"
    with Person(core, Decision.DENY) as person:
        open_page("secret", task)
        assert act({"type": "extract"}, task_id=task).ok
        refused(act({"type": "click", "selector": "#out"}, task_id=task))
        assert len(person.asked) == 1 and person.asked[0]["site"] == "localhost", person.asked
    assert site.saw("/redirect"), "the first hop stays on the site that showed the code: not asked"
    assert site.saw("/land") == [], "the hop that carried it to another site never arrived"
    with Person(core, Decision.DENY) as person:
        open_page("secret", task)
        assert act({"type": "click", "selector": "#plain"}, task_id=task).ok
        assert person.asked == [], "a redirect that carries nothing the task saw is not asked"
    assert eventually(lambda: len(site.saw("/land")) == 1)


def test_stop_fails_a_request_waiting_for_the_person(core, act, site, open_page):
    task = "t-net-stop"
    open_page("post", task)
    with Person(core, answer=None) as person:
        result: list = []
        worker = threading.Thread(target=lambda: result.append(act({"type": "click", "selector": "#go"}, task_id=task)))
        worker.start()
        assert eventually(lambda: bool(person.asked))
        core.call(core.core.controls.stop(task))
        worker.join(60)
    assert result and not result[0].ok and result[0].error.code in ("stopped", "confirmation_required"), result
    assert stays(lambda: site.saw("/api/v1/checkout") == [], 0.5)
    assert core.run(lambda: core.core.confirmations.pending()) == [], "the question went with the request"


def test_strict_mode_asks_before_any_request_that_can_change_something(core, act, site, open_page):
    task = "t-net-strict"
    try:
        core.call(core.core.set_strict_mode(True, []))
        with Person(core, Decision.DENY) as person:
            open_page("post", task)
            before = len(site.saw("/api/notes"))
            details = refused(act({"type": "click", "selector": "#note"}, task_id=task))
            assert "strict mode" in details["reason"]
            assert act({"type": "click", "selector": "#look"}, task_id=task).ok, "reads are never asked"
            assert len(person.asked) == 1
        assert len(site.saw("/api/notes")) == before
        core.call(core.core.set_strict_mode(False, ["localhost"]))
        with Person(core, Decision.DENY) as person:
            assert act({"type": "click", "selector": "#note"}, task_id=task).ok, "strict on another site only"
            open_page("post", task, host="localhost")
            refused(act({"type": "click", "selector": "#note"}, task_id=task))
            assert len(person.asked) == 1
    finally:
        core.call(core.core.set_strict_mode(False, []))


def waiting_click(core, act, task: str, **kw) -> tuple[threading.Thread, list, Person]:
    person = Person(core, answer=None).__enter__()
    result: list = []
    worker = threading.Thread(target=lambda: result.append(act({"type": "click", "selector": "#go"}, task_id=task, **kw)))
    worker.start()
    assert eventually(lambda: bool(person.asked)), "the request is held for the person"
    return worker, result, person


def test_the_actions_timeout_fails_a_request_waiting_for_the_person(core, act, site, open_page):
    task = "t-net-timeout"
    open_page("post", task)
    worker, result, person = waiting_click(core, act, task, timeout=4)
    try:
        worker.join(60)
        assert result and result[0].error.code == "timeout", result
        assert eventually(lambda: core.run(lambda: core.core.confirmations.pending()) == []), "the question went"
    finally:
        person.__exit__()
    assert eventually(lambda: status_of(act, task).startswith("failed"))
    assert site.saw("/api/v1/checkout") == []


def test_a_closed_tab_fails_a_request_waiting_for_the_person(core, act, browser, site, open_page):
    """The person closes the tab while its request waits for them (chrome.tabs.remove closes it through the tab
    strip, as the close button and Ctrl+W do): the request is failed before the debugger detaches, so it never
    reaches the site, and the question goes."""
    task = "t-net-closed"
    open_page("post", task)
    worker, result, person = waiting_click(core, act, task)
    try:
        closed = in_extension(browser, """chrome.tabs.query({}).then((tabs) => {
          const tab = tabs.find((t) => (t.url || '').endsWith('/p/post'));
          return chrome.tabs.remove(tab.id).then(() => true);
        })""")
        assert closed is True
        worker.join(60)
        assert result and not result[0].ok, result
        assert eventually(lambda: core.run(lambda: core.core.confirmations.pending()) == []), "the question went"
    finally:
        person.__exit__()
    assert site.saw("/api/v1/checkout") == []


def test_a_vanished_app_fails_a_request_waiting_for_the_person(core, act, site, open_page):
    """The host is killed (as when the app dies: the host exits with its socket): the extension's port closes and
    the held request fails; the browser reconnects and the page shows the failure."""
    import os
    import signal
    task = "t-net-vanished"
    open_page("post", task)
    bridge = core.core.pool.select()
    worker, result, person = waiting_click(core, act, task)
    try:
        os.kill(bridge.info.host_pid, signal.SIGKILL)
        worker.join(60)
        assert result and result[0].error.code == "extension_disconnected", result
        assert eventually(lambda: core.run(lambda: core.core.confirmations.pending()) == []), "the question went"
    finally:
        person.__exit__()
    core.call(core.core.pool.wait_for_bridge(45, exclude=bridge), timeout=50)
    assert eventually(lambda: status_of(act, task).startswith("failed"), timeout=30)
    assert site.saw("/api/v1/checkout") == []


def test_a_form_sent_by_typing_with_submit_or_by_enter_is_held(core, act, site, open_page):
    """Whichever action submits the form, the request it sends is what is judged."""
    task = "t-net-submit"
    with Person(core, Decision.DENY) as person:
        open_page("form", task)
        refused(act({"type": "type", "selector": "input[name=item]", "text": " pot", "submit": True}, task_id=task))
        assert status_of(act, task) == "idle", "a refused navigation leaves the page as it was"
        assert act({"type": "click", "selector": "input[name=item]"}, task_id=task).ok
        refused(act({"type": "press_key", "key": "Enter"}, task_id=task))
        assert len(person.asked) == 2 and all("order" in a["reason"] for a in person.asked)
    assert site.saw("/orders/new") == []


def test_a_control_the_person_approved_by_its_label_is_not_asked_again_for_its_own_request(core, act, site, open_page):
    task = "t-net-label"
    with Person(core, Decision.ALLOW_ONCE) as person:
        open_page("post", task)
        response = act({"type": "click", "selector": "#pay"}, task_id=task)
        assert response.ok, response.error
        assert len(person.asked) == 1 and "Pay now" in person.asked[0]["element"], person.asked
    assert eventually(lambda: len(site.saw("/api/pay", "POST")) == 1)


def test_a_read_to_another_site_is_checked_for_data_that_site_did_not_show(core, act, site, open_page):
    task = "t-net-read"
    with Person(core, Decision.DENY) as person:
        open_page("secret", task)
        assert act({"type": "extract"}, task_id=task).ok
        before = len(site.saw("/collect"))
        assert act({"type": "click", "selector": "#count-cross"}, task_id=task).ok, "an analytics GET carries nothing seen"
        assert eventually(lambda: len(site.saw("/collect")) == before + 1)
        refused(act({"type": "click", "selector": "#leak"}, task_id=task))
        assert len(person.asked) == 1 and person.asked[0]["kind"] == "data_flow"
    assert stays(lambda: len(site.saw("/collect")) == before + 1, 0.5), "the GET carrying the code never arrived"


def test_a_read_to_another_site_carrying_data_in_its_path_by_letter_case_is_checked(core, act, site, open_page):
    """A fetch GET to another site with no query, the code the first site showed in its path, data by its letter
    case alone: the path can carry data (network-url-data.js), so the app's data-flow check sees it and asks."""
    task = "t-net-read-path"
    with Person(core, Decision.DENY) as person:
        open_page("secret", task)
        assert act({"type": "extract"}, task_id=task).ok
        refused(act({"type": "click", "selector": "#leak-case-path"}, task_id=task))
        assert len(person.asked) == 1 and person.asked[0]["kind"] == "data_flow", person.asked
    assert stays(lambda: site.saw(f"/c/{CASE_SECRET}") == [], 0.5), "the GET carrying the code never arrived"


@pytest.mark.parametrize("button", ["#spawn-frame", "#spawn-worker"])
def test_a_frame_or_worker_the_action_creates_is_held_from_its_first_request(core, act, site, open_page, button):
    """The child sends on its first line: Chrome pauses it at its start (waitForDebuggerOnStart) until Fetch is on
    in it, so even that request is held; and the child runs on afterwards (it is never left paused)."""
    task = f"t-net-{button[1:]}"
    with Person(core, Decision.DENY) as person:
        open_page("spawn", task)
        before = len(site.saw("/api/transfer"))
        response = act({"type": "click", "selector": button}, task_id=task)
        assert response.ok or refused(response), response  # a frame that loads after the click's window: lingering
        assert eventually(lambda: len(person.asked) == 1)
        assert "transfer" in person.asked[0]["reason"], person.asked
        assert stays(lambda: len(site.saw("/api/transfer")) == before, 0.5), "denied: it never left"


@pytest.mark.parametrize(("button", "path", "kind"), [("#de", "/de/bezahlen", "payment"), ("#ru", "/ru/oplata", "payment"),
                                                      ("#fr", "/api/items/3/supprimer", "deleting"),
                                                      ("#es", "/api/guardar", "payment")])
def test_endpoint_words_of_other_languages_ask(core, act, site, open_page, button, path, kind):
    task = f"t-net-words-{button[1:]}"
    with Person(core, Decision.DENY) as person:
        open_page("words", task)
        details = refused(act({"type": "click", "selector": button}, task_id=task))
        assert kind in details["reason"], details
        assert person.asked
    assert site.saw(path) == []


def test_an_ordinary_post_in_another_language_is_not_asked(core, act, site, open_page):
    task = "t-net-words-plain"
    with Person(core, Decision.DENY) as person:
        open_page("words", task)
        response = act({"type": "click", "selector": "#plain"}, task_id=task)
        assert response.ok, response.error
        assert person.asked == []
    assert eventually(lambda: len(site.saw("/de/notizen", "POST")) == 1)


def test_a_request_sent_a_moment_after_the_action_is_held(core, act, site, open_page):
    """The page POSTs 1.5 s after the click answered: the hold lingers after the action (LINGER_MS), so the
    person is asked and Deny fails it; the click itself answered at once."""
    task = "t-net-later"
    with Person(core, Decision.DENY) as person:
        open_page("post", task)
        before = len(site.saw("/api/pay"))
        response = act({"type": "click", "selector": "#later"}, task_id=task)
        assert response.ok, response.error
        assert eventually(lambda: len(person.asked) == 1)
        assert "payment" in person.asked[0]["reason"]
        assert eventually(lambda: status_of(act, task).startswith("failed"))
    assert len(site.saw("/api/pay")) == before


def test_a_request_the_pages_service_worker_sends_during_the_action_is_held(core, act, site, open_page):
    task = "t-net-sw"
    with Person(core, Decision.DENY) as person:
        open_page("sw", task)
        service_worker_ready(act, task)
        before = len(site.saw("/api/transfer"))
        response = act({"type": "click", "selector": "#sw-go"}, task_id=task)
        assert response.ok or refused(response), response
        assert eventually(lambda: len(person.asked) == 1), [(r.method, r.path) for r in site.received[-3:]]
        assert "transfer" in person.asked[0]["reason"]
        assert stays(lambda: len(site.saw("/api/transfer")) == before, 0.5), "denied: it never left"


@pytest.mark.parametrize("button", ["#blank-post", "#open-submit"])
@pytest.mark.parametrize("decision", [Decision.DENY, Decision.ALLOW_ONCE])
def test_a_tab_the_action_opens_is_held_from_its_first_request(core, act, site, open_page, button, decision):
    """A target=_blank form POST and window.open + submit into it send from a new tab, which no session of the held
    tab sees: a session rule blocks the POST until the hold has Fetch on in the new tab, and it is sent again
    (network-new-tabs.js), so the person is asked about the card number it carries; Deny fails it, Allow lets it
    through once, whole."""
    task = f"t-net-tab-{button[1:]}-{decision.value}"
    with Person(core, decision) as person:
        open_page("popup", task)
        before = len(site.saw("/api/next", "POST"))
        response = act({"type": "click", "selector": button}, task_id=task)
        assert response.ok or refused(response), response  # asked after the click's window: the hold lingers
        assert eventually(lambda: len(person.asked) == 1), person.asked
        assert "payment-card data" in person.asked[0]["reason"], person.asked
        if decision is Decision.DENY:
            assert stays(lambda: site.saw("/api/next", "POST")[before:] == [], 1.0), \
                "a denied request from a new tab never left the browser"
        else:
            assert eventually(lambda: len(site.saw("/api/next", "POST")) > before), "the allowed request was sent"
            assert stays(lambda: len(site.saw("/api/next", "POST")) == before + 1, 0.5), "and sent once"
    sent = site.saw("/api/next", "POST")[before:]
    if decision is not Decision.DENY:
        assert len(sent) == 1 and sent[0].body.startswith("n=") and sent[0].body[-4:] in ("1111", "4444"), sent


@pytest.mark.parametrize(("button", "path"), [("#blank-get", "/land"), ("#blank-plain", "/api/notes")])
def test_an_ordinary_tab_the_action_opens_goes_through_unasked(core, act, site, open_page, button, path):
    """A target=_blank link (a GET, which the rule never blocks) and an ordinary target=_blank POST (blocked, then
    sent again through the hold, where nothing asks) open without a question."""
    task = f"t-net-tab-ordinary-{button[1:]}"
    with Person(core, Decision.DENY) as person:
        open_page("popup", task)
        before = len(site.saw(path))
        response = act({"type": "click", "selector": button}, task_id=task)
        assert response.ok, response.error
        assert eventually(lambda: len(site.saw(path)) == before + 1), site.saw(path)
        assert stays(lambda: person.asked == [], 0.5), person.asked


def test_a_new_tabs_post_before_its_hold_is_on_is_sent_through_the_hold_and_reported_if_it_failed(core, act, browser, site,
                                                                                                   open_page):
    """The click opens a tab whose page POSTs from its first script line. Either its hold was on in time (the POST
    went through it) or the session rule failed it before: then the tab is loaded again once its hold is on, the
    POST goes through the hold, and the task's next action says the first one failed (`effects.unsent_requests`),
    never a silent failure. Either way it arrives once."""
    task = "t-net-early"
    with Person(core, Decision.DENY):
        open_page("popup", task)
        first = act({"type": "click", "selector": "#open-early"}, task_id=task)
        assert first.ok, first.error

        def titles() -> list[str]:
            return [t["title"] for t in browser.cdp.send("Target.getTargets")["targetInfos"]
                    if t["type"] == "page" and t["title"].startswith("early ")]
        assert eventually(lambda: titles() == ["early sent 200"], 30), titles()
        reported = list(first.result.get("effects", {}).get("unsent_requests", []))
        later = act({"type": "click", "selector": "h1"}, task_id=task)
        assert later.ok, later.error
        reported.extend(later.result.get("effects", {}).get("unsent_requests", []))
    assert len(site.saw("/api/drafts/early", "POST")) == 1, site.saw("/api/drafts/early")
    assert [(u["method"], u["url"]) for u in reported] in ([], [("POST", site.url("/api/drafts/early"))]), reported
    assert all("loaded again" in u["why"] and isinstance(u["tab_id"], int) for u in reported), reported


@pytest.mark.parametrize(("button", "why"), [("#ws-card", "payment-card data"), ("#ws-pass", "password")])
def test_a_websocket_message_with_sensitive_data_is_reported_not_held(core, act, site, open_page, button, why):
    """Fetch sees no WebSocket message and nothing an extension has can pause one: a message carrying card data or
    a credential is sent, and the action's result says so (websocket_sent), with no question the person could not
    make count. An ordinary message is not reported."""
    task = f"t-net-ws-{button[1:]}"
    with Person(core, Decision.DENY) as person:
        open_page("socket", task)
        assert eventually(lambda: act({"type": "evaluate", "expression": "document.title"}, task_id=task).result
                          .get("value") == "Chat open")
        before = len(site.saw("/ws", "WS"))
        response = act({"type": "click", "selector": button}, task_id=task)
        assert response.ok, response.error
        sent = response.result["effects"].get("websocket_sent")
        assert sent and why in " ".join(sent[0]["why"]), sent
        plain = act({"type": "click", "selector": "#ws-plain"}, task_id=task)
        assert plain.ok and "websocket_sent" not in plain.result["effects"], plain
        assert person.asked == []
    assert eventually(lambda: len(site.saw("/ws", "WS")) == before + 2), "the messages left: they are not held"
