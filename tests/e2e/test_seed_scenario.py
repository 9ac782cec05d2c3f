"""The seed scenario with every real part: the anthropic SDK against the scripted Messages-API server (replies
computed from the real extract), the main agent delegating to the browser subagent, the real bridge, host,
extension and headless Chromium on the recruiting back office."""

from __future__ import annotations

import json
import threading
import time

import pytest

from app.demo.run import run_scenario, site_url
from app.demo.scripted_model.policy import route
from app.demo.scripted_model.server import ScriptedModelServer
from app.demo.site_server import SITE, StaticServer
from tests.e2e.actions_helpers import described, wait_until

CANDIDATES = json.loads((SITE / "candidates.json").read_text())


@pytest.fixture(scope="module")
def site():
    server = StaticServer()
    yield server
    server.stop()


@pytest.fixture
def model():
    server = ScriptedModelServer(route)
    yield server
    server.stop()


def run(core, model, url, count, conversation, events=None, abort=None, direct=False):
    sink = (lambda kind, data: events.append((kind, data))) if events is not None else (lambda k, d: None)
    return core.call(run_scenario(core.core, model, url, count, conversation, sink, abort, direct=direct),
                     timeout=120 + 8 * count)


def browser_calls(events):
    return [d["input"] for k, d in events if k == "subagent_tool_call" and d["name"] == "browser"]


def expected(count):
    return [{"name": c["name"], "email": c["email"], "phone": c["phone"]} for c in CANDIDATES[:count]]


def test_three_contacts_through_one_task_call(core, browser, site, model):
    events: list = []
    result = run(core, model, site_url(site, 300), 3, "seed-ok", events)
    assert result.outcome.status == "end_turn", result.outcome.error
    main_calls = [c for c in result.calls if c.role == "main"]
    assert len(main_calls) == 2, "one task call, then the answer"
    tasks = [d for k, d in events if k == "tool_result" and d["name"] == "task"]
    assert len(tasks) == 1 and tasks[0]["output"]["status"] == "completed"
    assert tasks[0]["output"]["artifacts"]["data"] == expected(3)
    calls = browser_calls(events)
    assert len(calls) == 11, "navigate, extract, then View, wait (its change list shows the panel), Close each"
    assert [c["type"] for c in calls[:5]] == ["navigate", "extract", "click", "wait_for", "click"]
    assert calls[1] == {"type": "extract"}
    for c in expected(3):
        assert c["email"] in result.outcome.text
    milestones = core.core.board.tasks["seed-ok"].milestones
    assert len(milestones) == len(calls) + 1
    results = [d["output"] for k, d in events if k == "subagent_tool_result" and d["name"] == "browser"]
    assert "Loading" in results[2]["result"]["changes"]["markdown"], "the View click's own change list"
    panel = results[3]["result"]["changes"]
    assert CANDIDATES[0]["email"] in panel["markdown"], "the panel read from the wait's change list"
    closed = results[4]["result"]["changes"]
    assert f'- dialog "{CANDIDATES[0]["name"]}" closed (' in closed["markdown"], "the Close click's own change list: one line"
    view_uids = [c["uid"] for c in calls if c["type"] == "click"][::2]
    assert all(f'{uid} button "View"' in described(results[1]["result"]) for uid in view_uids), \
        "every View uid clicked is the one the first extract listed (uids stay stable)"


@pytest.mark.parametrize("direct", [False, True], ids=["subagent", "rollback"])
@pytest.mark.parametrize("count", [3, 10, 30])
def test_default_settings_finish_at_3_10_and_30_candidates(core, browser, site, model, count, direct):
    """Default settings (no raised limits): the browser budget, not a step count, decides, and older results are
    shrunk so the prompt stays small; with ENABLE_BUILTIN_BROWSER_SUBAGENT=false the main agent gets that budget."""
    events: list = []
    result = run(core, model, site_url(site, 50, count), count, f"seed-{count}-{direct}", events, direct=direct)
    assert result.outcome.status == "end_turn", (result.outcome.status, result.outcome.error)
    for c in expected(count):
        assert c["email"] in result.outcome.text and c["phone"] in result.outcome.text
    kind = "tool_call" if direct else "subagent_tool_call"
    calls = [d["input"] for k, d in events if k == kind and d["name"] == "browser"]
    assert len(calls) >= 2 + 2 * count, "at least a View and a Close click per candidate"
    role = "main" if direct else "subagent"
    biggest = max(c.prompt_chars for c in result.calls if c.role == role)
    assert biggest < 120_000, f"the largest prompt ({biggest} chars) stays bounded: older results are shrunk"
    if not direct:
        assert [d for k, d in events if k == "tool_result" and d["name"] == "task"][0]["output"]["status"] == "completed"


def test_slow_panel_wait_for_times_out_and_the_subagent_reextracts(core, browser, site, model):
    events: list = []
    result = run(core, model, site_url(site, 6000), 1, "seed-slow", events)
    calls = browser_calls(events)
    results = [d["output"] for k, d in events if k == "subagent_tool_result" and d["name"] == "browser"]
    timeouts = [i for i, r in enumerate(results) if not r["ok"] and r["error"]["code"] == "timeout"]
    assert timeouts, "the 5 s wait must time out on a 6 s panel"
    after = calls[timeouts[0] + 1]
    assert after["type"] == "extract", "re-extract, don't retry the same wait"
    assert calls[timeouts[0] + 2] != calls[timeouts[0]], "the next wait differs from the one that timed out"
    assert result.outcome.status == "end_turn"
    assert CANDIDATES[0]["email"] in result.outcome.text


def test_stop_all_mid_task_returns_partial_results(core, browser, site, model):
    from app.abort import AbortSignal

    events: list = []
    abort = AbortSignal()
    holder: dict = {}

    def background():
        holder["result"] = run(core, model, site_url(site, 300), 3, "seed-stop", events, abort)

    worker = threading.Thread(target=background)
    worker.start()
    deadline = time.monotonic() + 60
    def streamed() -> str:
        return "".join(d.get("text", "") for k, d in list(events) if k == "subagent_text")

    # Stop as soon as the person has seen the first candidate's e-mail stream in (the turn may still be running).
    while time.monotonic() < deadline and CANDIDATES[0]["email"] not in streamed():
        time.sleep(0.02)
    report = core.call(core.core.stop_all())
    worker.join(30)
    assert "seed-stop" in report.cancelled_tasks
    outcome = holder["result"].outcome
    assert outcome.status == "cancelled"
    task = [d for k, d in events if k == "tool_result" and d["name"] == "task"][-1]["output"]
    assert task["status"] == "cancelled"
    assert CANDIDATES[0]["email"] in task["summary"], "partial results survive the stop"
    assert core.core.board.tasks["seed-stop"].status == "cancelled"


def test_login_wall_hands_off_to_the_person_and_a_follow_up_resumes_in_the_same_tab(core, browser, site, model):
    url = site.url("/index.html?delay=50&login=1")
    events: list = []
    first = run(core, model, url, 1, "seed-handoff", events)
    task = [d for k, d in events if k == "tool_result" and d["name"] == "task"][-1]["output"]
    assert task["status"] == "needs_user", task
    tab_id = task["artifacts"]["tab_id"]
    assert "Sign in" in task["artifacts"]["needs"] and str(tab_id) in task["artifacts"]["needs"]
    assert "needs_user" in first.outcome.text
    assert any(r["tab_id"] == tab_id and r["task_id"] == "seed-handoff" for r in core.core.sessions.rows()), \
        "the session stays alive for the person"

    # The person signs in, in that very tab.
    target = next(t for t in browser.cdp.send("Target.getTargets")["targetInfos"] if t["url"] == url)
    hands = browser.cdp.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})["sessionId"]
    browser.cdp.send("Runtime.evaluate", {"expression": "document.querySelector('#sign-in button').click()"}, hands)
    signed_in = "document.readyState === 'complete' && !document.getElementById('pipeline').hidden"

    def reloaded_signed_in() -> bool:
        try:
            return bool(browser.cdp.send("Runtime.evaluate", {"expression": signed_in, "returnByValue": True},
                                         hands)["result"].get("value"))
        except RuntimeError:  # the old document went away mid-evaluate
            return False
    assert wait_until(reloaded_signed_in), "the page reloaded signed in"

    events.clear()
    second = run(core, model, url, 1, "seed-handoff", events)
    calls = browser_calls(events)
    results = [d["output"] for k, d in events if k == "subagent_tool_result" and d["name"] == "browser"]
    assert calls[0]["type"] == "navigate" and results[0]["result"]["tab_id"] == tab_id, "resumed in the same tab"
    assert second.outcome.status == "end_turn"
    assert CANDIDATES[0]["email"] in second.outcome.text
