"""Labels and endpoints read in other languages than English, in real Chromium with the real extension, host and
app, on this suite's own pages (tests/fixtures/pages/safety/words-*.html): a Hungarian "Fizetés", a Turkish
"confirm payment", a Polish "sign", icon-only buttons named only by a Czech aria-label or a Chinese title, and a
Hungarian reply button that submits each ask before the click reaches the page; neutral buttons ("Tovább",
"Weiter", "下一步") whose page POSTs to a Hungarian, German compound, Turkish, pinyin or Polish endpoint are held
at the network. Beside them, topics ("Fizetési előzmények", "转账记录", "Busta paga"), composers and POSTs to
ordinary endpoints (a German payment history, a Turkish "calculate", a city) never ask."""

from __future__ import annotations

import pytest

from app.safety.confirmations import Decision
from tests.e2e.actions_helpers import wait_until
from tests.e2e.safety_helpers import Person, status_of
from tests.e2e.test_safety_confirm import held, open_page  # noqa: F401  (open_page: the fixture, taken by name)

LABELS = [
    ("#hu-pay", "pay or place an order"),
    ("#tr-confirm", "pay or place an order"),
    ("#pl-sign", "send or publish"),
    ("#de-confirm", "pay or place an order"),
    ("#cs-trash", "delete, remove"),
    ("#zh-send", "send or publish"),
    ("#hu-send-submit", "send or publish"),
]


@pytest.mark.parametrize(("selector", "reason"), LABELS, ids=[s for s, _ in LABELS])
def test_a_command_in_another_language_asks_before_the_click(core, act, open_page, selector, reason):
    task = f"t-words-label-{selector[1:]}"
    with Person(core, Decision.DENY) as person:
        open_page("words-hostile.html", task)
        details = held(act({"type": "click", "selector": selector}, task_id=task))
        assert reason in details["reason"], details
        assert len(person.asked) == 1
    assert status_of(act, task) == "nothing done"


ENDPOINTS = [
    ("#ep-hu", "/hu/fizetes", "a payment"),
    ("#ep-de", "/api/zahlungsabwicklung", "a payment"),
    ("#ep-tr", "/tr/siparisler", "an order"),
    ("#ep-zh", "/api/zhifu", "a payment"),
    ("#ep-pl", "/pl/przelewy", "a transfer"),
    ("#ep-fr-cart", "/panier/valider", "an order"),
]


@pytest.mark.parametrize(("selector", "path", "kind"), ENDPOINTS, ids=[p for _, p, _ in ENDPOINTS])
def test_a_post_to_an_endpoint_named_in_another_language_is_held(core, act, open_page, selector, path, kind):
    task = f"t-words-endpoint-{selector[1:]}"
    with Person(core, Decision.DENY) as person:
        open_page("words-hostile.html", task)
        response = act({"type": "click", "selector": selector}, task_id=task)
        assert not response.ok and response.error.code == "confirmation_required", response
        details = response.error.confirmation
        assert details and details.get("kind") == "network", details
        assert f"an endpoint for {kind}" in details["reason"], details
        assert len(person.asked) == 1
    assert wait_until(lambda: status_of(act, task) == f"failed {path}", 15), "denied: the request failed in the page"


ORDINARY = ["#hu-history", "#pl-history", "#zh-history", "#it-payslip", "#tr-history", "#hu-reply", "#pl-reply",
            "#zh-forward", "#tr-reply", "#hu-cart", "#de-save"]
ORDINARY_POSTS = [("#ep-de-history", "/api/zahlungsverlauf"), ("#ep-hu-search", "/hu/kereses"),
                  ("#ep-tr-calc", "/api/hesapla"), ("#ep-de-city", "/kassel/wetter"),
                  ("#ep-fr-cart-add", "/panier/ajouter"), ("#ep-validate", "/search/validate-query")]


def test_topics_composers_and_ordinary_endpoints_in_other_languages_never_ask(core, act, open_page):
    task = "t-words-ordinary"
    with Person(core, Decision.DENY) as person:
        open_page("words-ordinary.html", task)
        for selector in ORDINARY:
            response = act({"type": "click", "selector": selector}, task_id=task)
            assert response.ok, (selector, response.error)
        for selector, path in ORDINARY_POSTS:
            response = act({"type": "click", "selector": selector}, task_id=task)
            assert response.ok, (selector, response.error)
            sent = f"sent {path}"
            assert wait_until(lambda sent=sent: status_of(act, task) == sent, 15), (selector, status_of(act, task))
        assert person.asked == []
