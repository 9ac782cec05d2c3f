"""Sessions, the blocklist and Stop all with the real extension (docs/architecture.md, "Sessions")."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

from app.abort import AbortSignal
from tests.e2e.actions_helpers import blocklist, in_extension, stays, wait_until  # noqa: F401 (fixture)
from tests.harness.actions import pool_request


def events_of(core):
    seen: list = []
    remove = core.run(core.pool.subscribe, lambda bridge, event: seen.append(event))
    return seen, remove


def test_two_tasks_cannot_touch_each_others_tabs(core, act, fixture_server):
    with ThreadPoolExecutor(2) as both:  # the two tasks run at the same time
        opened = both.map(lambda job: act({"type": "navigate", "url": fixture_server.url(job[1])}, task_id=job[0]),
                          [("t-a", "/sessions.html"), ("t-b", "/second.html")])
        a, b = (response.result["tab_id"] for response in opened)
        assert a != b
        crossed = list(both.map(lambda job: act({"type": "extract", "tab_id": job[1]}, task_id=job[0]),
                                [("t-a", b), ("t-b", a)]))
    assert all(c.error.code == "session_not_found" for c in crossed), crossed
    cross = act({"type": "extract", "tab_id": b}, task_id="t-a")
    assert cross.error.code == "session_not_found" and "not in a session of this task" in cross.error.message
    assert act({"type": "close_tab", "tab_id": a}, task_id="t-b").error.code == "session_not_found"
    assert act({"type": "extract"}, task_id="t-a").result["title"] == "Sessions fixture"
    mine = [t["tab_id"] for t in act({"type": "get_tabs"}, task_id="t-b").result["tabs"] if t["in_task"]]
    assert mine == [b]
    rows = {r["tab_id"]: r for r in core.core.sessions.rows()}
    assert wait_until(lambda: rows.update({r["tab_id"]: r for r in core.core.sessions.rows()})
                      or rows[a]["last_action_type"] == "extract"), rows[a]
    assert rows[a]["task_id"] == "t-a" and rows[b]["task_id"] == "t-b"


def test_a_tab_the_person_opened_is_refused(act, browser, fixture_server):
    target = browser.cdp.send("Target.createTarget", {"url": fixture_server.url("/second.html")})["targetId"]
    try:
        # a tab just created is listed with url "" (its pendingUrl set) until it commits: waited for, then counted
        def person_tabs() -> list[dict]:
            return [t for t in in_extension(browser, "chrome.tabs.query({}).then(ts => ts.map(t => ({tab_id: t.id, url: t.url})))")
                    if t["url"] == fixture_server.url("/second.html")]
        assert wait_until(person_tabs), "the person's tab never loaded"
        person = person_tabs()
        listed = act({"type": "get_tabs"}, task_id="t-user").result
        assert listed["tabs"] == [] and listed["other_tabs"] >= 1, "the person's tab is only counted"
        for action in ({"type": "extract", "tab_id": person[0]["tab_id"]},
                       {"type": "navigate", "url": fixture_server.url("/"), "tab_id": person[0]["tab_id"]},
                       {"type": "close_tab", "tab_id": person[0]["tab_id"]}):
            assert act(action, task_id="t-user").error.code == "session_not_found", action
    finally:
        browser.cdp.send("Target.closeTarget", {"targetId": target})


def test_closing_a_session_tab_ends_the_session_with_an_event(core, act, browser, fixture_server):
    seen, remove = events_of(core)
    try:
        nav = act({"type": "navigate", "url": fixture_server.url("/sessions.html?close")}, task_id="t-close-me")
        tab_id = nav.result["tab_id"]
        assert wait_until(lambda: any(r["tab_id"] == tab_id for r in core.core.sessions.rows()))
        page = next(t for t in browser.cdp.send("Target.getTargets")["targetInfos"]
                    if t["type"] == "page" and t["url"].endswith("/sessions.html?close"))
        browser.cdp.send("Target.closeTarget", {"targetId": page["targetId"]})
        assert wait_until(lambda: any(e.type == "session_ended" and e.data["tab_id"] == tab_id for e in seen))
        ended = next(e for e in seen if e.type == "session_ended" and e.data["tab_id"] == tab_id)
        assert ended.data["reason"] == "tab_closed" and ended.data["task_id"] == "t-close-me"
        assert wait_until(lambda: any(e.type == "tab_closed" and e.data["tab_id"] == tab_id for e in seen))
        assert [e["reason"] for e in core.core.sessions.ended if e["tab_id"] == tab_id] == ["tab_closed"]
        assert not any(r["tab_id"] == tab_id for r in core.core.sessions.rows())
        after = act({"type": "extract"}, task_id="t-close-me")
        assert after.error.code == "session_not_found" and "tab_closed" in after.error.message
    finally:
        remove()


def test_blocklist_add_ends_a_live_session_and_refuses_navigate(core, act, fixture_server, blocklist):
    seen, remove = events_of(core)
    try:
        act({"type": "navigate", "url": fixture_server.url("/second.html", host="localhost")}, task_id="t-bl")
        answers = blocklist("localhost")
        assert answers and answers[0]["ok"] and answers[0]["result"]["ended"][0]["domain"] == "localhost"
        assert wait_until(lambda: any(e.type == "session_ended" and e.data["reason"] == "blocked" for e in seen), 2)
        refused = act({"type": "navigate", "url": fixture_server.url("/", host="localhost")}, task_id="t-bl-2")
        assert refused.error.code == "blocked" and "blocklist" in refused.error.message
        again = act({"type": "extract"}, task_id="t-bl")
        assert again.error.code == "stopped" and "blocked" in again.error.message
    finally:
        remove()


def test_open_tab_to_a_blocked_site_is_refused_up_front(core, act, fixture_server, blocklist):
    blocklist("localhost")
    before = len(core.core.sessions.rows())
    refused = act({"type": "open_tab", "url": fixture_server.url("/second.html", host="localhost")}, task_id="t-open-bl")
    assert refused.error.code == "blocked" and "blocklist" in refused.error.message
    assert len(core.core.sessions.rows()) == before, "no session, no tab for it"


def test_a_click_onto_a_blocked_site_answers_blocked_and_ends_the_session(act, fixture_server, blocklist):
    away = fixture_server.url("/second.html", host="localhost")
    act({"type": "navigate", "url": fixture_server.url(f"/sessions.html?away={away}")}, task_id="t-click-bl")
    blocklist("localhost")
    clicked = act({"type": "click", "selector": "#away"}, task_id="t-click-bl")
    assert clicked.error is not None and clicked.error.code == "blocked", str(clicked.result["effects"])
    assert "session ended" in clicked.error.message
    assert act({"type": "extract"}, task_id="t-click-bl").error.code == "stopped"


def test_a_script_that_sends_the_tab_to_a_blocked_site_answers_blocked(act, fixture_server, blocklist):
    away = fixture_server.url("/second.html", host="localhost")
    act({"type": "navigate", "url": fixture_server.url("/sessions.html?script")}, task_id="t-eval-bl")
    blocklist("localhost")
    assert act({"type": "evaluate", "expression": "document.title"}, task_id="t-eval-bl").ok, "a script that stays is fine"
    sent = act({"type": "evaluate", "expression": f"location.href = {away!r}"}, task_id="t-eval-bl")
    assert sent.error is not None and sent.error.code == "blocked", sent
    assert act({"type": "extract"}, task_id="t-eval-bl").error.code == "stopped"


def pending_wait_for(core, act, fixture_server, task_id: str, timeout_ms: int) -> tuple[threading.Thread, dict]:
    """A task's wait_for that never succeeds, under way in the extension: (its thread, where its response lands)."""
    act({"type": "navigate", "url": fixture_server.url(f"/sessions.html?{task_id}")}, task_id=task_id)
    result: dict = {}
    abort = AbortSignal()
    core.run(core.core.controls.register, task_id, abort)
    worker = threading.Thread(target=lambda: result.update(r=act(
        {"type": "wait_for", "selector": "#never-shown", "state": "visible", "timeout_ms": timeout_ms},
        task_id=task_id, abort=abort)))
    worker.start()
    assert wait_until(lambda: core.pool.select().pending_count > 0, 5)
    return worker, result


def test_stop_all_settles_a_pending_wait_for_and_leaves_no_session(core, act, fixture_server):
    worker, result = pending_wait_for(core, act, fixture_server, "t-stop", 5000)
    report = core.call(core.core.stop_all())
    worker.join(2)
    assert not worker.is_alive()
    assert result["r"].error.code == "stopped" and result["r"].error.message == "stopped by user"
    assert "t-stop" in report.cancelled_tasks
    assert all(b["ok"] for b in report.browsers)
    assert wait_until(lambda: not core.core.sessions.rows(), 2), core.core.sessions.rows()
    after = act({"type": "extract"}, task_id="t-stop")
    assert after.error.code == "stopped" and "stopped" in after.error.message


def test_stop_for_one_task_settles_only_its_requests_and_ends_only_its_sessions(core, act, fixture_server):
    mine, mine_result = pending_wait_for(core, act, fixture_server, "t-stop-me", 8000)
    other, other_result = pending_wait_for(core, act, fixture_server, "t-keep-me", 1500)
    report = core.call(core.core.stop_task("t-stop-me"))
    mine.join(2)
    assert mine_result["r"].error.message == "stopped by user" and report.cancelled_tasks == ["t-stop-me"]
    assert wait_until(lambda: {r["task_id"] for r in core.core.sessions.rows()} >= {"t-keep-me"}
                      and "t-stop-me" not in {r["task_id"] for r in core.core.sessions.rows()}, 3)
    other.join(10)
    assert other_result["r"].error.code == "timeout", "the other task's wait ran to its own end"
    assert act({"type": "extract"}, task_id="t-keep-me").ok


def test_stop_all_settles_a_request_with_no_task_loop_behind_it(core, act, fixture_server):
    act({"type": "navigate", "url": fixture_server.url("/sessions.html?bare")}, task_id="t-bare")
    pending = asyncio.run_coroutine_threadsafe(pool_request(core.pool,
        {"type": "wait_for", "selector": "#never-shown", "timeout_ms": 8000}, "t-bare"), core.loop)
    assert wait_until(lambda: core.pool.select().pending_count > 0, 5)
    core.call(core.core.stop_all())
    response = pending.result(2)
    assert response.error.code == "stopped" and response.error.message == "stopped by user", \
        "settled by the app at once, not by the extension's later answer"


def test_stop_all_stops_the_work_in_the_extension_too(core, act, browser, fixture_server):
    worker, result = pending_wait_for(core, act, fixture_server, "t-poll", 20000)
    count_commands = ("globalThis.__buaCommands = 0; const send = chrome.debugger.sendCommand.bind(chrome.debugger);"
                      "chrome.debugger.sendCommand = (...a) => { globalThis.__buaCommands++; return send(...a); }; 0")
    in_extension(browser, count_commands)
    assert wait_until(lambda: in_extension(browser, "globalThis.__buaCommands") > 0, 5), "wait_for is polling"
    core.call(core.core.stop_all())
    worker.join(5)
    assert result["r"].error.message == "stopped by user"
    in_extension(browser, "globalThis.__buaCommands = 0")
    assert stays(lambda: in_extension(browser, "globalThis.__buaCommands") == 0, 0.5), \
        "the extension stopped polling with the Stop"


def test_sessions_survive_a_service_worker_restart(core, act, browser, fixture_server):
    tab_id = act({"type": "navigate", "url": fixture_server.url("/sessions.html?sw")}, task_id="t-sw").result["tab_id"]
    old = core.pool.select()
    person = browser.cdp.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    hands = browser.cdp.send("Target.attachToTarget", {"targetId": person, "flatten": True})["sessionId"]
    browser.cdp.send("ServiceWorker.enable", {}, hands)
    browser.cdp.send("ServiceWorker.stopAllWorkers", {}, hands)
    assert wait_until(lambda: old.closed, 5), "stopping the worker closes its native port"
    # Any event the worker listens to wakes it: the person opening a page in their tab.
    browser.cdp.send("Page.navigate", {"url": fixture_server.url("/second.html")}, hands)
    new = core.call(core.pool.wait_for_bridge(30, exclude=old), timeout=35)
    assert new is not old
    assert wait_until(lambda: any(r["tab_id"] == tab_id for r in core.core.sessions.rows()), 5)
    assert act({"type": "extract"}, task_id="t-sw").result["title"] == "Sessions fixture"
    browser.cdp.send("Target.closeTarget", {"targetId": person})


def test_the_extension_enforces_the_blocklist_while_the_app_is_away(tmp_path, fixture_server):
    from app.core.background import CoreThread
    from tests.harness.browser import start_connected_browser

    home = tmp_path / "home"
    core = CoreThread(home)
    browser, _bridge = start_connected_browser(core, tmp_path / "profile")
    try:
        away = fixture_server.url("/second.html", host="localhost")
        page_url = fixture_server.url(f"/sessions.html?away={away}")
        nav = core.call(pool_request(core.pool, {"type": "navigate", "url": page_url}, "t-away"))
        tab_id = nav.result["tab_id"]
        core.core.store.block("localhost")
        core.call(core.core.set_blocklist_changed())
        core.stop()

        target = next(t for t in browser.cdp.send("Target.getTargets")["targetInfos"] if t["url"] == page_url)
        page = browser.cdp.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})
        browser.cdp.send("Runtime.evaluate", {"expression": f"location.href = {away!r}"}, page["sessionId"])
        assert wait_until(lambda: any(t["url"] == away for t in browser.cdp.send("Target.getTargets")["targetInfos"]))
        # The returning app no longer blocks the site: only the extension's own copy can have ended the session.
        from app.store.db import Store
        store = Store(home)
        store.unblock("localhost")
        store.close()

        core = CoreThread(home)
        core.call(core.pool.wait_for_bridge(30), timeout=35)
        assert wait_until(lambda: core.core.sessions.rows() == [] and core.pool.select() is not None, 5)
        later = core.call(pool_request(core.pool, {"type": "extract", "tab_id": tab_id}, "t-away"))
        assert later.error.code == "stopped" and "blocked" in later.error.message
    finally:
        browser.stop()
        core.stop()


def test_session_tabs_sit_in_a_labelled_group_and_leave_it_when_the_session_ends(core, act, browser, fixture_server):
    action = {"type": "navigate", "url": fixture_server.url("/sessions.html?group")}
    tab_id = core.call(pool_request(core.pool, action, "t-group", label="Collect invoices")).result["tab_id"]
    read = (f"chrome.tabs.get({tab_id}).then(async t => t.groupId === -1 ? null : "
            "({group: (await chrome.tabGroups.get(t.groupId)).title, badge: await chrome.action.getBadgeText({tabId: t.id})}))")
    assert wait_until(lambda: in_extension(browser, read) is not None, 5)
    assert in_extension(browser, read) == {"group": "bua · Collect invoices", "badge": "bua"}
    other = {"type": "navigate", "url": fixture_server.url("/sessions.html?group-2")}
    opened = core.call(pool_request(core.pool, other, "t-group-2", label="Book travel"))
    assert opened.ok, opened.error.message
    other_tab = opened.result["tab_id"]
    groups = f"Promise.all([{tab_id}, {other_tab}].map(id => chrome.tabs.get(id).then(t => t.groupId)))"
    assert wait_until(lambda: -1 not in in_extension(browser, groups), 5)
    first, second = in_extension(browser, groups)
    assert first != second, "two tasks never share a group"
    core.call(core.core.end_session("t-group"))
    assert wait_until(lambda: in_extension(browser, read) is None, 5), "the tab leaves the group"
    assert in_extension(browser, f"chrome.tabs.get({tab_id}).then(t => t.id)") == tab_id, "and stays open"
    assert in_extension(browser, groups)[1] == second, "the other task's tab keeps its group"


def test_show_tab_brings_a_session_tab_to_the_front_for_the_person(core, act, browser, fixture_server):
    tab_id = act({"type": "navigate", "url": fixture_server.url("/sessions.html?show")}, task_id="t-show").result["tab_id"]
    act({"type": "open_tab", "url": fixture_server.url("/second.html?show")}, task_id="t-show")  # now in front
    answers = core.call(core.core.show_tab(tab_id))
    assert [a["ok"] for a in answers] == [True], answers
    shown = in_extension(browser, f"chrome.tabs.get({tab_id}).then(async t => "
                                  "({active: t.active, state: (await chrome.windows.get(t.windowId)).state}))")
    assert shown == {"active": True, "state": "normal"}, shown
    refused = core.call(core.core.show_tab(999_999))
    assert refused[0]["error"]["code"] == "session_not_found"
