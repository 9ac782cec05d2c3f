"""Generic commit labels ("Subscribe", "Sign up for plan", "Place booking", "Book now", "Renew", "Upgrade") say
nothing the label check can rely on: the same words subscribe to a free newsletter, renew a library loan or book a
free slot. The label check leaves them to what they send (README "Safety model"), and the network hold asks for
what commits: a request to an order, subscription or booking endpoint, or one carrying card data; the same labels
sending ordinary requests never ask. In real Chromium with the real extension, host and app
(tests/e2e/network_site.py `commit`)."""

from __future__ import annotations

import pytest

from app.safety.confirmations import Decision
from tests.e2e.network_site import open_page, site  # noqa: F401  (fixtures, taken by name)
from tests.e2e.safety_helpers import Person
from tests.e2e.test_network_hold import click_each_unheld, eventually, refused

HELD = [
    ("#subscribe", "/api/subscriptions", "order"),
    ("#signup-plan", "/api/v2/subscribe", "order"),
    ("#place-booking", "/bookings/new", "order"),
    ("#book-now", "/api/reservations/confirm", "order"),
    ("#renew", "/api/renewals", "payment-card"),
    ("#upgrade", "/api/plan", "payment-card"),
]


@pytest.mark.parametrize(("selector", "path", "why"), HELD, ids=[h[0] for h in HELD])
def test_a_commit_label_is_held_at_the_network_for_what_it_sends(core, act, site, open_page, selector, path, why):
    task = f"t-commit-{selector[1:]}"
    with Person(core, Decision.DENY) as person:
        open_page("commit", task)
        details = refused(act({"type": "click", "selector": selector}, task_id=task))
        assert path in details["url"] and why in details["reason"], details
        assert len(person.asked) == 1
    assert site.saw(path) == [], "a denied request never left the browser"


def test_the_same_labels_sending_ordinary_requests_never_ask(core, act, site, open_page):
    task = "t-commit-ordinary"
    with Person(core, Decision.DENY) as person:
        open_page("commit", task)
        click_each_unheld(act, task, ("#upgrade-theme", "#renew-loan", "#book-slots"))
        assert person.asked == []
    assert eventually(lambda: bool(site.saw("/api/preferences") and site.saw("/api/loans/7/extend")
                                   and site.saw("/api/slots")))


def test_a_commit_label_on_a_card_form_is_warned_about_before_the_click(core, act, site, open_page):
    """The early warning: the label says little, but the form it submits holds a payment-card field."""
    task = "t-commit-card-form"
    with Person(core, Decision.DENY) as person:
        open_page("commit", task)
        assert act({"type": "type", "selector": "[name=card_no]", "text": "4111 1111 1111 1111"}, task_id=task).ok
        response = act({"type": "click", "selector": "#subscribe-card"}, task_id=task)
        assert not response.ok and response.error.code == "confirmation_required", response
        details = response.error.confirmation
        assert details.get("kind") != "network" and "card" in details["reason"], details
        assert "held_requests" not in details, "asked before the click, nothing reached the network"
        assert len(person.asked) == 1
    assert site.saw("/api/members") == []
