"""Dialogs, wait_for, evaluate and tabs (open_tab, close_tab, the bua window) through the whole pipe."""

from __future__ import annotations

from tests.e2e.actions_helpers import evaluate, in_extension, in_page, page, wait_until  # noqa: F401 (fixture)


def out(send) -> str:
    return evaluate(send, "document.querySelector('#out').textContent")


def test_alert_is_accepted_and_reported_by_the_click(page):
    send = page("dialogs.html", "t-alert")
    effects = send({"type": "click", "selector": "#alert"}).result["effects"]
    assert effects["dialog"] == {"type": "alert", "message": "Saved!", "handled": "accepted"}
    assert out(send) == "after alert"


def test_confirm_is_dismissed_unless_the_action_accepts_it(page):
    send = page("dialogs.html", "t-confirm")
    dismissed = send({"type": "click", "selector": "#confirm"}).result["effects"]["dialog"]
    assert dismissed == {"type": "confirm", "message": "Delete it?", "handled": "dismissed"}
    assert out(send) == "confirm false"
    accepted = send({"type": "click", "selector": "#confirm", "dialog": "accept"}).result["effects"]["dialog"]
    assert accepted["handled"] == "accepted" and out(send) == "confirm true"


def test_prompt_gets_the_given_text(page):
    send = page("dialogs.html", "t-prompt")
    assert send({"type": "click", "selector": "#prompt"}).result["effects"]["dialog"]["handled"] == "dismissed"
    assert out(send) == "prompt null"
    answered = send({"type": "click", "selector": "#prompt", "prompt_text": "Ada"}).result["effects"]["dialog"]
    assert answered == {"type": "prompt", "message": "Your name?", "handled": "accepted", "prompt_text": "Ada"}
    assert out(send) == 'prompt "Ada"'


def test_beforeunload_is_accepted_so_the_navigation_goes_ahead(page, fixture_server):
    send = page("dialogs.html", "t-unload")
    assert send({"type": "click", "selector": "#arm"}).ok
    effects = send({"type": "click", "selector": "#leave"}).result["effects"]
    assert effects["dialog"]["type"] == "beforeunload" and effects["dialog"]["handled"] == "accepted"
    assert effects["navigated"] is True and effects["url"] == fixture_server.url("/second.html")


def test_a_dialog_between_actions_never_blocks_and_is_reported_next(page, browser):
    send = page("dialogs.html", "t-idle-dialog")
    assert send({"type": "click", "selector": "#later"}).ok
    assert wait_until(lambda: in_page(browser, "/dialogs.html", "document.body.dataset.alerted") == "1"), \
        "the timer's alert was shown and answered while no action ran"
    response = send({"type": "evaluate", "expression": "document.title"}, timeout=5)
    assert response.ok, response.error
    assert response.result["value"] == "bua actions: dialogs"
    assert response.result["dialog"] == {"type": "alert", "message": "Timer alert", "handled": "accepted",
                                         "while_idle": True}


def test_evaluate_reports_a_dialog_it_opens(page):
    send = page("dialogs.html", "t-eval-dialog")
    response = send({"type": "evaluate", "expression": "confirm('sure?')", "dialog": "accept"})
    assert response.result["value"] is True
    assert response.result["dialog"]["handled"] == "accepted"


def test_wait_for_a_selector_state_and_for_text(page):
    send = page("delayed.html", "t-wait")
    assert send({"type": "click", "selector": "#open"}).ok
    shown = send({"type": "wait_for", "selector": "#panel[aria-hidden='false']", "timeout_ms": 5000})
    assert shown.ok, shown.error
    assert shown.result["state"] == "visible" and shown.result["elapsed_ms"] > 0
    assert send({"type": "wait_for", "text": "order CONFIRMED"}).ok, "case-insensitive"
    assert send({"type": "wait_for", "selector": "#doomed", "state": "detached"}).ok
    assert send({"type": "wait_for", "text": "Ghost text", "state": "hidden", "timeout_ms": 0}).ok
    assert send({"type": "wait_for", "text": "Ghost text", "state": "attached", "timeout_ms": 0}).ok


def test_wait_for_timeout_says_what_was_seen(page):
    send = page("delayed.html", "t-wait-timeout")
    hidden = send({"type": "wait_for", "selector": "#panel", "timeout_ms": 300})
    assert hidden.error.code == "timeout"
    assert "the selector matches 1 element but it is hidden (display:none)" in hidden.error.message
    assert "extract" in hidden.error.message
    missing = send({"type": "wait_for", "text": "Payment received", "timeout_ms": 200})
    assert missing.error.code == "timeout"
    assert 'the text is not in the page; title "bua actions: delayed panel"' in missing.error.message
    ghost = send({"type": "wait_for", "text": "Ghost", "timeout_ms": 100})
    assert "hidden (visibility:hidden)" in ghost.error.message
    bad = send({"type": "wait_for", "selector": "div[", "timeout_ms": 100})
    assert bad.error.code == "invalid_action" and "not valid CSS" in bad.error.message


def test_evaluate_returns_json_and_describes_the_rest(page):
    send = page("click.html", "t-eval")
    assert evaluate(send, "1 + 1") == 2
    assert evaluate(send, "({a: [1, 'x', null], b: {c: true}})") == {"a": [1, "x", None], "b": {"c": True}}
    assert evaluate(send, "new Promise(r => setTimeout(() => r('later'), 50))") == "later"
    assert evaluate(send, "const r = await Promise.resolve(41); r + 1") == 42
    # A node is named by its tag, id and classes: the script runs in the page's world, where bua's judgement of
    # what a person sees is not (extract/page-seen.js); the script reads any text it wants itself.
    assert evaluate(send, "document.querySelector('#noop')") == "<button#noop>"
    assert evaluate(send, "[...document.querySelectorAll('button.view')].length") == 3
    assert evaluate(send, "document.querySelectorAll('button.view')") == ["<button.view>"] * 3
    undefined = send({"type": "evaluate", "expression": "undefined"}).result
    assert undefined == {"value": None, "type": "undefined"}
    assert evaluate(send, "NaN") == "NaN"
    assert evaluate(send, "(() => { const o = {n: 1}; o.self = o; return o; })()") == {"n": 1, "self": "[circular]"}
    assert evaluate(send, "({f() {}, big: 10n, s: new Set([1]), m: new Map([['k', 2]])})") == {
        "f": "[function f]", "big": "10n", "s": {"[Set]": [1]}, "m": {"[Map]": [["k", 2]]}}
    big = send({"type": "evaluate", "expression": "'x'.repeat(300000)"}).result
    assert big["truncated"] is True and big["total_chars"] == 300002 and len(big["value"]) == 100_000
    assert "Return less" in big["note"]


def test_evaluate_failures(page):
    send = page("click.html", "t-eval-fail")
    thrown = send({"type": "evaluate", "expression": "missingVariable.foo"})
    assert thrown.error.code == "evaluate_failed"
    assert "ReferenceError: missingVariable is not defined" in thrown.error.message
    rejected = send({"type": "evaluate", "expression": "Promise.reject(new Error('nope'))"})
    assert rejected.error.code == "evaluate_failed" and "Error: nope" in rejected.error.message
    syntax = send({"type": "evaluate", "expression": "1 +"})
    assert syntax.error.code == "evaluate_failed" and "SyntaxError" in syntax.error.message


def test_open_tab_uses_the_minimised_bua_window_and_focus_uses_the_persons(act, browser, fixture_server):
    url = fixture_server.url("/actions/click.html")
    first = act({"type": "open_tab", "url": url}, task_id="t-open")
    assert first.ok, first.error
    assert first.result["url"] == url and first.result["title"] == "bua actions: click"
    second = act({"type": "open_tab", "url": fixture_server.url("/second.html")}, task_id="t-open")
    assert second.result["window_id"] == first.result["window_id"], "one bua window for all background tabs"
    tabs = act({"type": "get_tabs"}, task_id="t-open").result["tabs"]
    mine = {t["tab_id"]: t for t in tabs if t["in_task"]}
    assert set(mine) == {first.result["tab_id"], second.result["tab_id"]}
    assert mine[second.result["tab_id"]]["current"] is True
    assert all(t["in_task"] for t in tabs), "get_tabs shows a task its own tabs only"
    person = [t for t in in_extension(browser, "chrome.tabs.query({}).then(ts => ts.map(t => ({window_id: t.windowId})))")
              if t["window_id"] != first.result["window_id"]]
    assert person, "the person's window (the launch tab) is elsewhere"
    focused = act({"type": "open_tab", "url": url, "focus": True}, task_id="t-open-focus")
    assert focused.result["window_id"] == person[0]["window_id"]
    fresh = act({"type": "navigate", "url": url}, task_id="t-open-navigate")
    in_bua = {t["tab_id"]: t["window_id"] for t in act({"type": "get_tabs"}, task_id="t-open-navigate").result["tabs"]}
    assert in_bua[fresh.result["tab_id"]] == first.result["window_id"], "navigate without a tab uses the bua window"
    for task_id, tab_id in (("t-open", first.result["tab_id"]), ("t-open", second.result["tab_id"]),
                            ("t-open-focus", focused.result["tab_id"]), ("t-open-navigate", fresh.result["tab_id"])):
        assert act({"type": "close_tab", "tab_id": tab_id}, task_id=task_id).ok


def test_close_tab_refuses_other_tabs_and_reports_the_current_one(act, fixture_server):
    url = fixture_server.url("/second.html")
    a = act({"type": "open_tab", "url": url}, task_id="t-close").result["tab_id"]
    b = act({"type": "open_tab", "url": url}, task_id="t-close").result["tab_id"]
    foreign = act({"type": "close_tab", "tab_id": a}, task_id="t-close-other")
    assert foreign.error.code == "session_not_found" and "not in a session of this task" in foreign.error.message
    closed = act({"type": "close_tab", "tab_id": b}, task_id="t-close")
    assert closed.result == {"closed": b, "current_tab_id": a}
    gone = act({"type": "close_tab", "tab_id": b}, task_id="t-close")
    assert gone.error.code == "tab_not_found" and "does not exist" in gone.error.message
    assert act({"type": "close_tab", "tab_id": a}, task_id="t-close").result == {"closed": a, "current_tab_id": None}


def test_open_tab_refuses_forbidden_urls_in_the_extension_too(core, browser):
    bridge = core.pool.select()
    raw = {"v": 1, "kind": "request", "id": "raw-open", "task_id": "t", "action": {"type": "open_tab", "url": "file:///etc/passwd"}}
    response = core.call(bridge.send_and_wait(raw, "raw-open", None, 10))
    assert response.error.code == "forbidden_url"
