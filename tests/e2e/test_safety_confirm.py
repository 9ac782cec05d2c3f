"""The person confirms sensitive actions, in real Chromium with the real extension and host, on the repo's own
hostile fixture pages (tests/fixtures/pages/safety/): a pay form, a delete-account button, a password-change form
and an executable download each ask before anything reaches the page; ordinary clicks never ask; Allow once
resumes the held action; Deny answers confirmation_required and the page is untouched; reading a secret on
127.0.0.1 and typing it on localhost asks."""

from __future__ import annotations

import pytest

from app.safety.confirmations import Decision
from tests.e2e.actions_helpers import described
from tests.e2e.safety_helpers import Person, status_of
from tests.harness.actions import pool_request


@pytest.fixture
def open_page(act, fixture_server):
    def go(path: str, task_id: str, host: str = "127.0.0.1") -> str:
        url = fixture_server.url(f"/safety/{path}", host=host)
        response = act({"type": "navigate", "url": url}, task_id=task_id)
        assert response.ok, response.error
        return url
    return go


def held(response) -> dict:
    assert not response.ok and response.error.code == "confirmation_required", response
    details = response.error.confirmation
    assert details and "token" not in details, "the approval token never reaches the model"
    return details


def test_ordinary_clicks_typing_keys_and_scripts_never_ask(core, act, open_page):
    task = "t-safe-ordinary"
    with Person(core) as person:
        open_page("ordinary.html", task)
        for selector in ("#view-1", "#f-red", "#clear", "#more", "#view-2"):
            response = act({"type": "click", "selector": selector}, task_id=task)
            assert response.ok, (selector, response.error)
        assert act({"type": "type", "selector": "#q", "text": "teapot", "submit": True}, task_id=task).ok
        assert status_of(act, task) == "searched teapot"
        assert act({"type": "press_key", "key": "Enter"}, task_id=task).ok
        assert act({"type": "evaluate", "expression": "document.title"}, task_id=task).ok
        assert act({"type": "click", "selector": "#next"}, task_id=task).ok
        assert person.asked == []


def test_a_script_the_engine_proves_only_reads_does_not_ask_on_a_pay_page_and_one_that_acts_does(core, act, open_page):
    """The label check asks about a script on a page holding a sensitive control only when V8's side-effect check
    (throwOnSideEffect) cannot prove the script pure (extension/src/safety/script-effects.js): reads answer at
    once; a write, a click, and a page getter that clicks Pay when read are asked about, and Deny runs none."""
    task = "t-safe-script-reads"
    with Person(core, Decision.DENY) as person:
        open_page("pay.html", task)
        reads = ["document.title", "[...document.querySelectorAll('button')].map((b) => b.textContent)",
                 "document.querySelector('#status').textContent", "location.pathname"]
        values = [act({"type": "evaluate", "expression": e}, task_id=task) for e in reads]
        assert all(v.ok for v in values), [v.error for v in values]
        assert values[0].result["value"] == "Checkout · Shop" and "Pay now" in values[1].result["value"]
        assert person.asked == [], person.asked
        for acting in ("document.getElementById('pay-now').click()", "orderTotal", "window.touched = 1"):
            held(act({"type": "evaluate", "expression": acting}, task_id=task))
        assert [a["what"] for a in person.asked] == ["evaluate"] * 3, person.asked
    assert status_of(act, task) == "unpaid", "the denied scripts never ran"


def test_a_pay_form_asks_and_deny_leaves_the_page_untouched(core, act, open_page):
    task = "t-safe-pay"
    with Person(core, Decision.DENY) as person:
        open_page("pay.html", task)
        refused = act({"type": "click", "selector": "#continue"}, task_id=task)
        details = held(refused)
        assert details["what"] == "click" and details["site"] == "127.0.0.1"
        assert "payment-card" in details["reason"] and "Continue" in details["element"]
        assert "denied" in refused.error.message
        assert "pay" in held(act({"type": "click", "selector": "#pay-now"}, task_id=task))["reason"]
        held(act({"type": "type", "selector": "#card", "text": "4111111111111111", "submit": True}, task_id=task))
        held(act({"type": "evaluate", "expression": "window.touched = 1"}, task_id=task))
        assert [a["what"] for a in person.asked] == ["click", "click", "type", "evaluate"]
        assert all(a["task_words"] is not None for a in person.asked)
    assert status_of(act, task) == "unpaid"
    fields = described(act({"type": "extract"}, task_id=task).result)
    assert "4111" not in fields, "nothing was typed into the card field"


def test_allow_once_resumes_the_held_action_and_asks_again_next_time(core, act, open_page):
    task = "t-safe-once"
    with Person(core, Decision.ALLOW_ONCE) as person:
        open_page("pay.html", task)
        response = act({"type": "click", "selector": "#pay-now"}, task_id=task)
        assert response.ok, response.error
        assert len(person.asked) == 1
    assert status_of(act, task) == "paid by button"
    with Person(core, Decision.DENY):
        held(act({"type": "click", "selector": "#pay-now"}, task_id=task))


def test_a_held_action_waits_for_the_person(core, act, open_page):
    """Nothing reaches the page while the person has not answered; the answer resumes it."""
    import threading
    task = "t-safe-wait"
    open_page("account.html", task)
    with Person(core, answer=None) as person:
        result: list = []
        worker = threading.Thread(target=lambda: result.append(act({"type": "click", "selector": "#delete"}, task_id=task)))
        worker.start()
        for _ in range(200):
            if person.asked:
                break
            threading.Event().wait(0.05)
        assert person.asked and person.asked[0]["element"].startswith("button “Delete account”")
        assert status_of(act, "t-safe-wait") == "nothing done", "held: not clicked while waiting"
        assert person.answer_now(Decision.ALLOW_ONCE)
        worker.join(30)
    assert result and result[0].ok, result
    assert status_of(act, task) == "account deleted"


def test_allow_for_this_task_on_this_site_covers_later_actions_of_that_task_only(core, act, open_page):
    task = "t-safe-site"
    with Person(core, Decision.ALLOW_TASK_SITE) as person:
        open_page("account.html", task)
        assert act({"type": "click", "selector": "#löschen"}, task_id=task).ok
        person.answer = Decision.DENY
        assert act({"type": "click", "selector": "#sakujo"}, task_id=task).ok, "remembered for this task and site"
        assert len(person.asked) == 1
        open_page("account.html", "t-safe-site-other")
        held(act({"type": "click", "selector": "#sakujo"}, task_id="t-safe-site-other"))
    assert status_of(act, task) == "deleted (ja)"


def test_delete_password_change_and_executable_download_ask(core, act, open_page):
    task = "t-safe-account"
    with Person(core, Decision.DENY) as person:
        open_page("account.html", task)
        assert "delete" in held(act({"type": "click", "selector": "#delete"}, task_id=task))["reason"]
        assert "password" in held(act({"type": "click", "selector": "#save"}, task_id=task))["reason"]
        assert act({"type": "type", "selector": "#new", "text": "hunter22"}, task_id=task).ok, "typing alone is fine"
        assert "password" in held(act({"type": "press_key", "key": "Enter"}, task_id=task))["reason"]
        assert "setup.exe" in held(act({"type": "click", "selector": "#installer"}, task_id=task))["reason"]
        assert act({"type": "click", "selector": "#manual"}, task_id=task).ok
        assert len(person.asked) == 4
    open_page("account.html", task)
    assert status_of(act, task) == "nothing done"


def test_no_app_window_answers_confirmation_required_at_once(core, act, open_page):
    task = "t-safe-headless"
    open_page("account.html", task)
    core.person.__exit__()
    try:
        refused = act({"type": "click", "selector": "#delete"}, task_id=task)
    finally:
        core.person.__enter__()
    held(refused)
    assert "no bua window" in refused.error.message
    assert status_of(act, task) == "nothing done"


def test_the_model_cannot_approve_and_a_token_approves_nothing_else(core, act, open_page):
    task = "t-safe-forge"
    open_page("account.html", task)
    forged = act({"type": "click", "selector": "#delete", "approval": "0" * 32}, task_id=task)
    assert forged.error.code == "invalid_action", "no action field can approve"
    bridge = core.pool.bridges[0]
    direct = core.call(pool_request(bridge, {"type": "click", "selector": "#delete"}, task, None, 30, None,
                                      approval="0" * 32))
    assert direct.error.code == "confirmation_required", "an unknown token approves nothing"
    token = direct.error.confirmation["token"]
    other = core.call(pool_request(bridge, {"type": "click", "selector": "#löschen"}, task, None, 30, None, approval=token))
    assert other.error.code == "confirmation_required", "a token approves only the action it was issued for"
    replay = core.call(pool_request(bridge, {"type": "click", "selector": "#delete"}, task, None, 30, None, approval=token))
    assert replay.error.code == "confirmation_required", "and only once (the other action spent it)"
    assert status_of(act, task) == "nothing done"


def test_a_secret_read_on_one_site_and_typed_on_another_asks(core, act, open_page, fixture_server):
    task = "t-safe-flow"
    with Person(core, Decision.DENY) as person:
        open_page("secret.html", task)
        assert act({"type": "extract"}, task_id=task).ok
        open_page("drop.html", task, host="localhost")
        refused = act({"type": "type", "selector": "#text", "text": "key: sk-live-4f9a8b7c6d5e", "submit": True},
                      task_id=task)
        details = held(refused)
        assert details["kind"] == "data_flow" and details["site"] == "localhost"
        assert "127.0.0.1" in details["reason"] and "sk-live-4f9a8b7c6d5e" in details["element"]
        digits = act({"type": "type", "selector": "#text", "text": "773019428851"}, task_id=task)
        assert held(digits)["kind"] == "data_flow", "an account number, spaces or not"
        url = fixture_server.url("/safety/drop.html?note=sk-live-4f9a8b7c6d5e", host="localhost")
        assert held(act({"type": "navigate", "url": url}, task_id=task))["what"] == "navigate"
        assert act({"type": "type", "selector": "#text", "text": "Inbox notes 1234", "submit": True}, task_id=task).ok, \
            "common words and short numbers are not data"
        assert len(person.asked) == 3
    assert status_of(act, task) == "noted Inbox notes 1234"


def test_the_persons_own_words_and_allowed_flows_pass(core, act, open_page):
    task = "t-safe-own"
    core.run(lambda: core.pool.note_task_words(task, "Put the key sk-live-4f9a8b7c6d5e into my notes"))
    with Person(core, Decision.ALLOW_ONCE) as person:
        open_page("secret.html", task)
        assert act({"type": "extract"}, task_id=task).ok
        open_page("drop.html", task, host="localhost")
        assert act({"type": "type", "selector": "#text", "text": "sk-live-4f9a8b7c6d5e", "submit": True}, task_id=task).ok
        assert person.asked == [], "text from the person's own task prompt is exempt"
        assert act({"type": "type", "selector": "#text", "text": "7730 1942 8851", "clear": True, "submit": True},
                   task_id=task).ok
        assert len(person.asked) == 1 and person.asked[0]["kind"] == "data_flow"
    assert status_of(act, task) == "noted 7730 1942 8851"


def test_bua_act_refuses_a_sensitive_action_unless_the_person_passes_confirm(core, act, open_page):
    """`bua act` asks no window (the suite's stand-in person is there, and is not asked): --confirm approves."""
    from app.cli.client import CoreClient

    task = "t-safe-cli"
    open_page("account.html", task)
    with Person(core, Decision.ALLOW_ONCE) as person, CoreClient(core.home) as client:
        refused = client.call("act", action={"type": "click", "selector": "#delete"}, task_id=task)
        assert not refused["ok"] and refused["response"]["error"]["code"] == "confirmation_required"
        assert "--confirm" in refused["response"]["error"]["message"]
        assert "token" not in refused["response"]["error"]["confirmation"]
        assert status_of(act, task) == "nothing done"
        confirmed = client.call("act", action={"type": "click", "selector": "#delete"}, task_id=task, confirm=True)
        assert confirmed["ok"], confirmed
        assert status_of(act, task) == "account deleted"
        plain = client.call("act", action={"type": "click", "selector": "#manual"}, task_id=task)
        assert plain["ok"], "an ordinary click needs no --confirm"
        assert person.asked == []


def test_fill_with_submit_is_held_and_its_values_are_checked_for_data_from_another_site(core, act, open_page):
    task = "t-safe-fill"
    with Person(core, Decision.DENY) as person:
        open_page("pay.html", task)
        fields = [{"selector": "#name", "value": "Ada Lovelace"}, {"selector": "#card", "value": "4111111111111111"}]
        assert act({"type": "fill", "fields": fields}, task_id=task).ok, "filling alone is fine"
        assert "payment-card" in held(act({"type": "fill", "fields": fields, "submit": True}, task_id=task))["reason"]
        assert status_of(act, task) == "unpaid"
        open_page("secret.html", task)
        assert act({"type": "extract"}, task_id=task).ok
        open_page("drop.html", task, host="localhost")
        flow = held(act({"type": "fill", "fields": [{"selector": "#text", "value": "sk-live-4f9a8b7c6d5e"}]},
                        task_id=task))
        assert flow["kind"] == "data_flow" and "127.0.0.1" in flow["reason"]
        assert [a["what"] for a in person.asked] == ["fill", "fill"]
    assert status_of(act, task) == "empty"


def test_a_pay_button_inside_a_cross_site_frame_asks_too(core, act, fixture_server):
    """The classifier runs in the frame that holds the target (its own CDP session for a cross-site frame). What
    the refusal quotes of the cross-site frame's button is that frame's (its `frames`), of the same-site one's
    the page's."""
    task = "t-safe-frames"
    assert act({"type": "navigate", "url": fixture_server.url("/actions/frames.html")}, task_id=task).ok
    for _ in range(20):
        elements = described(act({"type": "extract"}, task_id=task).result)
        if "Pay now (cross)" in elements:
            break
    uids = {line.split(" ", 1)[1].strip(): line.split()[0] for line in elements.splitlines()}
    with Person(core, Decision.DENY) as person:
        frames = {}
        for who in ("same", "cross"):
            refused = act({"type": "click", "uid": uids[f'button "Pay now ({who})"']}, task_id=task)
            details = held(refused)
            assert "Pay now" in details["element"] and details["what"] == "click"
            frames[who] = refused.error.frames or []
        assert frames["same"] == [], frames
        assert [f["url"] for f in frames["cross"]] == [fixture_server.url("/").replace("127.0.0.1", "localhost").rstrip("/")], frames
        assert all(line in refused.error.message for line in frames["cross"][0]["text"].splitlines()), frames
        cross = person.asked[1]
        assert cross["site"] == "localhost", "the site is the frame's, where the button is"
    after = described(act({"type": "extract"}, task_id=task).result)
    assert "Paid in" not in after, "neither button was clicked"
