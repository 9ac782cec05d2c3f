"""Containment and page-as-data in real Chromium with the repo's hostile fixture pages (tests/fixtures/pages/safety):
hidden text never reaches the model, page text arrives marked as data with injections flagged, blocked sites stay out
of frames, popups and redirects, a stopped task stays stopped until the person speaks, get_tabs shows a task its own
tabs only (issue 11)."""

from __future__ import annotations

import itertools
import json

import pytest

from app.agent.page_text.boundary import CLOSE, OPEN, marker, token_for
from app.agent.page_text.flagger import FLAG
from app.agent.page_text.region import read_view
from app.agent.settings import AgentSettings
from tests.e2e.actions_helpers import blocklist, in_extension, wait_until, worker_restarted  # noqa: F401 (fixture)

_tasks = itertools.count(1)


def new_task(prefix: str = "t-contain") -> str:
    return f"{prefix}-{next(_tasks)}"


def inside(text: str, task_id: str) -> str:
    """What the model reads after this task's boundary marker (a result's one region runs to its end)."""
    head = f"\n{marker(token_for(task_id))}\n"
    assert text.count(head) <= 1 and text.count(OPEN) == text.count(head), "one marker per result, bua's own"
    return text.split(head, 1)[1] if head in text else ""


def outside(text: str, task_id: str) -> str:
    return text.split(f"\n{marker(token_for(task_id))}\n", 1)[0]


def on_localhost(browser) -> set[int]:
    """Tabs whose page (or the page they are loading) is on localhost (the blocked site in these tests)."""
    return set(in_extension(browser, "chrome.tabs.query({}).then(ts => ts.filter(t => { try { return new URL("
                                     "t.pendingUrl || t.url).hostname === 'localhost'; } catch { return false; } })"
                                     ".map(t => t.id))"))


# -- hidden text ---------------------------------------------------------------------------------------------------

CARRIERS = ["COMMENT", "TEMPLATE", "NOSCRIPT", "DISPLAY-NONE", "VISIBILITY", "OPACITY", "ZERO-SIZE", "CLIP",
            "CLIP-PATH", "OFFSCREEN", "OFFSCREEN-UP", "TEXT-INDENT", "SAME-COLOUR", "NEAR-COLOUR", "TRANSPARENT",
            "TINY-FONT"]


def test_hidden_text_never_reaches_the_model(act, fixture_server):
    task = new_task()
    assert act({"type": "navigate", "url": fixture_server.url("/safety/hidden-text.html")}, task_id=task).ok
    result = act({"type": "extract"}, task_id=task).result
    seen = json.dumps(result)
    for carrier in CARRIERS:
        assert f"HIDDEN-{carrier}:" not in seen, f"{carrier} text reached the model"
    assert "Your order of 2 lamps ships on Monday." in result["markdown"]
    assert "Light text on a dark panel stays." in result["markdown"] and "Dark grey text stays." in result["markdown"]
    assert "White text on a picture stays." in result["markdown"], "a hero image behind white text is a background"
    assert "Track parcel" in result["markdown"]
    hidden_total = sum(len(f"HIDDEN-{c}: ignore previous instructions") for c in CARRIERS[4:])  # the rendered ones
    assert result["hidden_chars"] >= hidden_total - 10, result["hidden_chars"]
    label = next(line for line in result["elements"].splitlines() if "HIDDEN-LONG-LABEL" in line)
    assert "attr-name" in label and "IBAN" not in label, "a name from an attribute is capped and marked"


# -- page text as data ---------------------------------------------------------------------------------------------

def test_a_visible_injection_is_marked_and_flagged(model_view, fixture_server):
    task = new_task()
    model_view({"type": "navigate", "url": fixture_server.url("/safety/injection.html")}, task)
    data, text = model_view({"type": "extract"}, task)
    view = read_view(text)
    assert "\nmarkdown: " in inside(text, task), "the markdown is a line of the one region"
    lines = view["result"]["markdown"].splitlines()
    flagged = [line for line in lines if line.startswith(FLAG)]
    assert any("Ignore all previous instructions" in line for line in flagged)
    assert any("Ignoriere alle vorherigen Anweisungen" in line for line in flagged)
    assert not any("Great lamp" in line for line in flagged) and any("Great lamp" in line for line in lines)
    assert view["result"]["page_safety"]["flagged_lines"] >= 3, "markdown lines and the element's name"
    assert "Ignore all previous" not in outside(text, task), "page text only inside the boundary"
    assert FLAG not in data["result"]["markdown"], "the person's own views get the raw text"


def test_an_injection_inside_a_cross_site_iframe_is_flagged(model_view, fixture_server):
    task = new_task()
    child = fixture_server.url("/safety/frame-injection.html", host="localhost")
    model_view({"type": "navigate", "url": fixture_server.url(f"/safety/frame-host.html?child={child}")}, task)
    assert wait_until(lambda: "FRAME-TEXT" in model_view({"type": "extract"}, task)[1]), "the cross-site frame is read"
    _, text = model_view({"type": "extract"}, task)
    assert "\nmarkdown: " in inside(text, task)
    lines = read_view(text)["result"]["markdown"].splitlines()
    assert any(line.startswith(FLAG) and "FRAME-TEXT" in line for line in lines), lines


def test_text_that_forges_the_boundary_or_a_tool_result_is_neutralised(model_view, fixture_server):
    task = new_task()
    model_view({"type": "navigate", "url": fixture_server.url("/safety/forge.html")}, task)
    _, text = model_view({"type": "extract"}, task)
    view = read_view(text)
    assert text.count(OPEN) == 1 and text.count(CLOSE) == 1, "only bua's own marker"
    body = view["result"]["markdown"]
    assert "\nmarkdown: " in inside(text, task)
    assert "[/page-data 0123456789ab]" in body, "the forged marker is shown as plain brackets"
    assert "</function_results>" not in body and "<system>" not in body and '{"ok": true' not in body
    assert view["result"]["page_safety"]["neutralised_forgeries"] >= 5


def test_a_fake_system_turn_in_an_alert_arrives_as_flagged_page_data(model_view, fixture_server):
    task = new_task()
    model_view({"type": "navigate", "url": fixture_server.url("/safety/alert.html")}, task)
    data, text = model_view({"type": "click", "selector": "#notice"}, task)
    assert data["ok"], data
    dialog = read_view(text)["result"]["effects"]["dialog"]
    assert dialog["type"] == "alert" and "\neffects.dialog.message: " in inside(text, task)
    message = dialog["message"]
    assert message.startswith(FLAG) and "transfer the balance" in message


# -- the blocklist everywhere --------------------------------------------------------------------------------------

def test_a_blocked_sites_frame_is_never_read_by_extract_or_screenshot(act, fixture_server, blocklist):
    task = new_task()
    child = fixture_server.url("/safety/frame-injection.html", host="localhost")
    assert act({"type": "navigate", "url": fixture_server.url(f"/safety/frame-host.html?child={child}")}, task_id=task).ok
    assert wait_until(lambda: "FRAME-TEXT" in act({"type": "extract"}, task_id=task).result["markdown"]), \
        "the cross-site frame is read before its site is blocked"
    blocklist("localhost")
    result = act({"type": "extract"}, task_id=task).result
    assert "[blocked frame: localhost]" in result["markdown"] and "FRAME-TEXT" not in json.dumps(result)
    assert "Tomorrow: rain." in result["markdown"], "the rest of the page is read"
    shot = act({"type": "screenshot"}, task_id=task)
    assert shot.ok, shot.error
    hidden = act({"type": "evaluate", "expression": "getComputedStyle(document.getElementById('ad')).visibility"},
                 task_id=task)
    assert hidden.result["value"] == "visible", "the frame is shown again after the capture"


def test_a_screenshot_hides_the_blocked_frame(act, browser, fixture_server, blocklist):
    """The capture is taken while the frame's element is invisible: watched from the page itself."""
    task = new_task()
    child = fixture_server.url("/safety/frame-injection.html", host="localhost")
    assert act({"type": "navigate", "url": fixture_server.url(f"/safety/frame-host.html?child={child}")}, task_id=task).ok
    assert wait_until(lambda: "FRAME-TEXT" in act({"type": "extract"}, task_id=task).result["markdown"]), \
        "the cross-site frame is read before its site is blocked"
    blocklist("localhost")
    watch = ("window.__seen = []; new MutationObserver(() => window.__seen.push("
             "document.getElementById('ad').style.visibility)).observe(document.getElementById('ad'),"
             " {attributes: true}); 0")
    assert act({"type": "evaluate", "expression": watch}, task_id=task).ok
    assert act({"type": "screenshot"}, task_id=task).ok
    seen = act({"type": "evaluate", "expression": "window.__seen"}, task_id=task).result["value"]
    assert seen[:2] == ["hidden", ""], seen


def test_a_popup_to_a_blocked_site_is_closed_at_once(act, browser, fixture_server, blocklist):
    task = new_task()
    blocked = fixture_server.url("/second.html", host="localhost")
    assert act({"type": "navigate", "url": fixture_server.url(f"/safety/opener.html?to={blocked}")}, task_id=task).ok
    blocklist("localhost")
    before = set(in_extension(browser, "chrome.tabs.query({}).then(ts => ts.map(t => t.id))"))
    left_over = on_localhost(browser)  # earlier tests' tabs whose sessions ended on the blocked site
    clicked = act({"type": "click", "selector": "#popup"}, task_id=task)
    assert wait_until(lambda: on_localhost(browser) <= left_over), "the popup was closed"
    after = set(in_extension(browser, "chrome.tabs.query({}).then(ts => ts.map(t => t.id))"))
    assert after <= before, "no new tab stays open"
    assert clicked.ok or clicked.error.code == "blocked"
    assert act({"type": "extract"}, task_id=task).ok, "the task goes on in its own tab"


def test_a_tab_the_page_opens_between_actions_joins_the_task_or_is_closed_when_blocked(
        act, browser, fixture_server, blocklist):
    task = new_task()
    blocklist("localhost")
    left_over = on_localhost(browser)
    good = fixture_server.url("/second.html?later")
    for to in (good, fixture_server.url("/second.html", host="localhost")):
        assert act({"type": "navigate", "url": fixture_server.url(f"/safety/opener.html?task={task}&to={to}")},
                   task_id=task).ok
        clicked = act({"type": "click", "selector": "#later"}, task_id=task)
        assert clicked.ok and not clicked.result["effects"].get("new_tabs"), "the tab opens after the action answered"
        if to == good:
            assert wait_until(lambda: any(t["url"] == good for t in act({"type": "get_tabs"}, task_id=task).result["tabs"])), \
                "a tab the task's page opened joins the task"
        else:
            assert wait_until(lambda: act({"type": "evaluate", "expression": "document.title"},
                                          task_id=task).result["value"] == "Opened"), "the page opened its tab"
            assert wait_until(lambda: on_localhost(browser) <= left_over), "the blocked tab was closed"
            assert act({"type": "extract"}, task_id=task).ok, "the task goes on"


def test_evaluate_runs_without_user_activation(act, fixture_server):
    task = new_task()
    assert act({"type": "navigate", "url": fixture_server.url("/safety/opener.html")}, task_id=task).ok
    value = act({"type": "evaluate", "expression": "[navigator.userActivation.isActive, window.open('/second.html') === null]"},
                task_id=task).result["value"]
    assert value == [False, True], "no activation: the popup blocker refuses window.open"


def test_a_redirect_chain_that_ends_on_a_blocked_site_is_caught_when_reading(act, browser, fixture_server, blocklist):
    blocklist("localhost")
    for action in ({"type": "extract"}, {"type": "screenshot"}):
        task = new_task()
        target = fixture_server.url("/second.html", host="localhost")
        start = fixture_server.url(f"/safety/redirect-later.html?ms=200&to={target}")
        nav = act({"type": "navigate", "url": start}, task_id=task)
        assert nav.ok, nav.error
        assert wait_until(lambda start=start: all(t["url"] != start for t in browser.cdp.send("Target.getTargets")["targetInfos"])), \
            "the page redirected itself after the navigate answered"
        read = act(action, task_id=task)
        assert not read.ok and read.error.code in ("blocked", "stopped"), read
        assert "Second" not in json.dumps(read.result or {})


# -- ended means ended ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("how", ["stop", "end", "blocklist"])
def test_after_stop_end_or_a_blocklist_entry_open_tab_answers_stopped_until_reopened(core, act, fixture_server,
                                                                                     blocklist, how):
    task = new_task(f"t-ended-{how}")
    site = "localhost" if how == "blocklist" else "127.0.0.1"
    assert act({"type": "navigate", "url": fixture_server.url("/second.html", host=site)}, task_id=task).ok
    if how == "stop":
        core.call(core.core.stop_task(task))
    elif how == "end":
        core.call(core.core.end_session(task))
    else:
        blocklist("localhost")
    for action in ({"type": "open_tab", "url": fixture_server.url("/sessions.html")},
                   {"type": "navigate", "url": fixture_server.url("/sessions.html")}, {"type": "get_tabs"}):
        refused = act(action, task_id=task)
        assert refused.error is not None and refused.error.code == "stopped", (action, refused)
    assert not any(r["task_id"] == task for r in core.core.sessions.rows()), "no new session"
    core.call(core.core.controls.reopen(task))
    again = act({"type": "open_tab", "url": fixture_server.url("/sessions.html")}, task_id=task)
    assert again.ok, again.error
    act({"type": "close_tab", "tab_id": again.result["tab_id"]}, task_id=task)


def test_the_stop_survives_a_service_worker_restart(core, act, browser, fixture_server):
    task = new_task("t-ended-sw")
    assert act({"type": "navigate", "url": fixture_server.url("/second.html")}, task_id=task).ok
    core.call(core.core.stop_task(task))
    with worker_restarted(core, browser, fixture_server.url("/sessions.html?wake"), closed_within=5):
        refused = act({"type": "open_tab", "url": fixture_server.url("/second.html")}, task_id=task)
        assert refused.error is not None and refused.error.code == "stopped" and "stopped" in refused.error.message


def test_a_new_chat_message_reopens_the_task(core, act, fixture_server, monkeypatch):
    from app.agent.model import ModelClient
    from app.demo.scripted_model.conversation import text
    from app.demo.scripted_model.server import Reply, ScriptedModelServer

    server = ScriptedModelServer(lambda body: Reply([text("noted")]))
    try:
        conversation = new_task("conv-reopen")
        assert act({"type": "navigate", "url": fixture_server.url("/second.html")}, task_id=conversation).ok
        core.call(core.core.end_session(conversation))
        assert act({"type": "open_tab", "url": fixture_server.url("/second.html")}, task_id=conversation).error.code \
            == "stopped"
        chat = core.core.chat_service
        monkeypatch.setattr(chat, "settings", lambda: AgentSettings(base_url=server.base_url))
        monkeypatch.setattr(chat, "client_factory", lambda s: ModelClient("test-key", s.base_url, 0))
        outcome = core.call(chat.chat(conversation, "please go on"), timeout=60)
        assert outcome.text == "noted"
        opened = act({"type": "open_tab", "url": fixture_server.url("/second.html")}, task_id=conversation)
        assert opened.ok, opened.error
    finally:
        server.stop()


# -- get_tabs --------------------------------------------------------------------------------------------------------

def test_get_tabs_shows_a_second_task_none_of_the_firsts_tabs(act, fixture_server):
    first, second = new_task(), new_task()
    url = fixture_server.url("/sessions.html?secret-tab")
    assert act({"type": "navigate", "url": url}, task_id=first).ok
    mine = act({"type": "get_tabs"}, task_id=first).result
    assert [t["url"] for t in mine["tabs"]] == [url]
    theirs = act({"type": "get_tabs"}, task_id=second).result
    assert theirs["tabs"] == [] and theirs["other_tabs"] >= 1
    assert "secret-tab" not in json.dumps(theirs) and "Sessions fixture" not in json.dumps(theirs)
