"""Labels read as a person reads them, and the form that is submitted is the form checked, in real Chromium with the
real extension and host on fixture pages of this suite (tests/fixtures/pages/safety/labels-*.html): each hostile
label, language, composer, drop target, payment form and closed shadow root is held before anything reaches the
page (the person denies, the page's Status is untouched); the ordinary controls beside them (Reply, Forward, "Pay
slips", "Transfer history", a Trash folder link, a shipping form, a one-time code) never ask."""

from __future__ import annotations

import pytest

from app.safety.confirmations import Decision
from tests.e2e.safety_helpers import Person, status_of
from tests.e2e.test_safety_confirm import held, open_page  # noqa: F401  (open_page: the fixture, taken by name)

CARD = "4242 4242 4242 4242"
REASON = {"pay": "pay or place an order", "delete": "delete, remove", "transfer": "transfer or withdraw", "send": "send or publish",
          "form": "card"}
"""What the reason the person reads says for each category (classify.js CATEGORY_REASON, card-fields.js)."""

HOSTILE = [
    ("zero-width space in 'Pay now'", {"type": "click", "selector": "#zwsp"}, "pay"),
    ("soft hyphen in 'Purchase'", {"type": "click", "selector": "#shy"}, "pay"),
    ("Cyrillic letters in 'Pay now'", {"type": "click", "selector": "#cyrillic"}, "pay"),
    ("visible 'Pay 500 EUR', aria-label 'Open details'", {"type": "click", "selector": "#aria"}, "pay"),
    ("label drawn by CSS ::before", {"type": "click", "selector": "#drawn"}, "pay"),
    ("a 12-word 'Confirm and pay …'", {"type": "click", "selector": "#long"}, "pay"),
    ("'Preview and pay': an exempt word joined by 'and' cancels nothing", {"type": "click", "selector": "#preview-pay"}, "pay"),
    ("'Pay now and search'", {"type": "click", "selector": "#pay-search"}, "pay"),
    ("Korean 'search and pay' (the conjunction attaches)", {"type": "click", "selector": "#search-buy-ko"}, "pay"),
    ("'Learn more and buy now': a topic word in one conjunct cancels nothing in another", {"type": "click", "selector": "#learn-buy"}, "pay"),
    ("German 'learn more and buy now' on a link", {"type": "click", "selector": "#learn-buy-link"}, "pay"),
    ("'See how it works and buy now': 'how' takes its own conjunct only", {"type": "click", "selector": "#how-buy"}, "pay"),
    ("inflected: 'Paying…'", {"type": "click", "selector": "#paying"}, "pay"),
    ("inflected: 'Pays now'", {"type": "click", "selector": "#pays-now"}, "pay"),
    ("inflected: Russian polite imperative", {"type": "click", "selector": "#ru-polite"}, "delete"),
    ("a button's sentence: '... you confirm and pay 500 EUR ...'", {"type": "click", "selector": "#sentence"}, "pay"),
    ("a link's sentence: '... agree to pay 500 EUR ...'", {"type": "click", "selector": "#sentence-link"}, "pay"),
    ("a button's sentence: '... will permanently delete all my photos ...'", {"type": "click", "selector": "#understand"}, "delete"),
    ("look-alike digits: 'P4y n0w'", {"type": "click", "selector": "#leet"}, "pay"),
    ("look-alike digit one: 'De1ete'", {"type": "click", "selector": "#leet-delete"}, "delete"),
    ("look-alike symbol: 'Purch@se'", {"type": "click", "selector": "#at-sign"}, "pay"),
    ("spaced letters: 'P a y'", {"type": "click", "selector": "#spaced"}, "pay"),
    ("Greek capital rho in 'Pay now'", {"type": "click", "selector": "#greek"}, "pay"),
    ("words run together: 'PayNow'", {"type": "click", "selector": "#joined"}, "pay"),
    ("letters under combining underlines", {"type": "click", "selector": "#underlined"}, "pay"),
    ("a right-to-left override showing 'Pay now'", {"type": "click", "selector": "#override"}, "pay"),
    ("a long link whose em dash starts a clause that pays", {"type": "click", "selector": "#dash-link"}, "pay"),
    ("Russian delete", {"type": "click", "selector": "#ru"}, "delete"),
    ("Korean transfer", {"type": "click", "selector": "#ko"}, "transfer"),
    ("Italian buy", {"type": "click", "selector": "#it"}, "pay"),
    ("Hindi send", {"type": "click", "selector": "#hi"}, "send"),
    ("Polish infinitive (a stripped imperative)", {"type": "click", "selector": "#pl-infinitive"}, "delete"),
    ("Czech plural imperative (a rewritten stem)", {"type": "click", "selector": "#cs-imperative"}, "delete"),
    ("Indonesian meN- form (a prefixed stem)", {"type": "click", "selector": "#id-prefixed"}, "pay"),
    ("Hungarian imperative (a rewritten stem)", {"type": "click", "selector": "#hu-imperative"}, "pay"),
    ("Move to trash", {"type": "click", "selector": "#trash-button"}, "delete"),
    ("drag onto a Trash drop zone", {"type": "drag", "selector": "#mail-1", "to_selector": "#trash-zone"}, "delete"),
    ("send icon with an svg title", {"type": "click", "selector": "#send-icon"}, "send"),
    ("send icon named by its class", {"type": "click", "selector": "#send-class"}, "send"),
    ("send icon named by its svg's desc (extract's icon name)", {"type": "click", "selector": "#send-desc"}, "send"),
    ("delete icon named by its svg's aria-label", {"type": "click", "selector": "#delete-svg-label"}, "delete"),
    ("a Reply button that submits the reply", {"type": "click", "selector": "#reply-submit"}, "send"),
    ("fill: search box first, order form last", {"type": "fill", "submit": True, "fields": [
        {"selector": "#q", "value": "teapot"}, {"selector": "#address", "value": "1 Main St"}]}, "pay"),
    ("'Credit card' field named pan, by 'Continue'", {"type": "click", "selector": "#card-continue"}, "form"),
    ("a card number typed with submit", {"type": "type", "selector": "#ref", "text": CARD, "submit": True}, "form"),
    ("fill a card number into a plain form", {"type": "fill", "submit": True, "fields": [
        {"selector": "#ref", "value": CARD}]}, "form"),
]


@pytest.mark.parametrize(("name", "action", "category"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_each_hostile_label_or_form_is_held_and_the_page_is_untouched(core, act, open_page, name, action, category):
    task = "t-labels-hostile"
    with Person(core, Decision.DENY) as person:
        open_page("labels-hostile.html", task)
        details = held(act(action, task_id=task))
        assert REASON[category] in details["reason"], (name, details)
        assert len(person.asked) == 1, name
    assert status_of(act, task) == "nothing done", name


def test_a_hidden_reading_makes_a_control_ask_but_is_never_quoted(core, act, open_page):
    """Hidden text that says "pay" still makes the control ask (the more sensitive reading wins), but what the
    confirmation quotes is what a person sees ("Continue"): the hidden words never reach the model or the card."""
    task = "t-labels-hidden-reading"
    with Person(core, Decision.DENY) as person:
        open_page("labels-hostile.html", task)
        response = act({"type": "click", "selector": "#hidden-pay"}, task_id=task)
        details = held(response)
        assert REASON["pay"] in details["reason"] and "“Continue”" in details["element"], details
        assert "QZHIDDENPAY" not in str(response) and "QZHIDDENPAY" not in str(person.asked), details
    assert status_of(act, task) == "nothing done"


def test_evaluate_sees_a_buy_button_in_a_closed_shadow_root(core, act, open_page):
    """A page whose only sensitive control is inside a closed shadow root: a script that clicks it is held."""
    task = "t-labels-shadow"
    with Person(core, Decision.DENY):
        open_page("labels-shadow.html", task)
        details = held(act({"type": "evaluate", "expression": "document.querySelector('shop-buy').click()"}, task_id=task))
        assert "Buy now" in details["reason"], details
    assert status_of(act, task) == "nothing done"


def test_evaluate_submitting_a_card_form_named_by_nothing_but_what_a_person_sees_is_held(core, act, open_page):
    """The page's only form: a "Credit card" caption above a field named `pan`, an "MM / YY" placeholder."""
    task = "t-labels-card"
    with Person(core, Decision.DENY):
        open_page("labels-card.html", task)
        script = "document.getElementById('card-form').requestSubmit()"
        details = held(act({"type": "evaluate", "expression": script}, task_id=task))
        assert "payment-card" in details["reason"], details
        assert "payment-card" in held(act({"type": "click", "selector": "#card-continue"}, task_id=task))["reason"]
    assert status_of(act, task) == "nothing done"


ORDINARY = [{"type": "click", "selector": s} for s in (
    "#inbox", "#trash-folder", "#pay-slips", "#buy-back", "#checkout-guide", "#how-to-pay", "#teaser", "#reply", "#forward",
    "#compose", "#new-message", "#reply-ru", "#reply-ko", "#transfer-history", "#post-code", "#purchase-history", "#filters-sort",
    "#slips-search", "#export", "#posts", "#buying-guide", "#suppliers", "#learn-delete", "#mp3", "#web3", "#ab-testing",
    "#transfers-history", "#pay-or-transfer", "#histories-de", "#yahoo", "#check-out-time", "#paypal", "#como-pagar",
    "#save-pay-less", "#pl-deleted", "#nl-deleted", "#tu-compra",
    "#menu")] + [
    {"type": "type", "selector": "#q", "text": "teapot", "submit": True},
    {"type": "fill", "submit": True, "fields": [{"selector": "#street", "value": "1 Main St"},
                                                {"selector": "#phone", "value": "+44 20 7946 0958"}]},
    {"type": "fill", "submit": True, "fields": [{"selector": "#code", "value": "492817"}]},
    {"type": "fill", "submit": True, "fields": [{"selector": "#tracking-number", "value": "9400111899223100012345"}]},
    {"type": "evaluate", "expression": "document.title"},
]


def test_ordinary_controls_beside_them_never_ask(core, act, open_page):
    task = "t-labels-ordinary"
    with Person(core, Decision.DENY) as person:
        open_page("labels-ordinary.html", task)
        for action in ORDINARY:
            response = act(action, task_id=task)
            assert response.ok, (action, response.error)
        assert person.asked == []
    assert status_of(act, task) == "tracked", "the last ordinary action ran"


def test_enter_after_typing_a_card_number_into_a_plain_form_is_held(core, act, open_page):
    """Typing alone writes text; the Enter that submits the form then carries the card number the page now holds."""
    task = "t-labels-enter"
    with Person(core, Decision.DENY) as person:
        open_page("labels-hostile.html", task)
        assert act({"type": "type", "selector": "#ref", "text": CARD}, task_id=task).ok, "typing alone is fine"
        assert "payment-card" in held(act({"type": "press_key", "key": "Enter"}, task_id=task))["reason"]
        assert len(person.asked) == 1
    assert status_of(act, task) == "nothing done"
