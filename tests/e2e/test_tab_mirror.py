"""get_tabs answered from the app's mirror of the extension's tab state (app/bridge/tab_mirror.py, fed by
extension/src/tabs/tab-feed.js), in real Chromium: the mirror's answer is the extension's own answer across the
task's actions, the page's and the person's changes, session ends, the blocklist and a service-worker restart,
and an action's answer never overtakes the tab changes it caused."""

from __future__ import annotations

from typing import Any

from tests.e2e import mcp_helpers as mcp
from tests.e2e.actions_helpers import blocklist, in_page, wait_until, worker_restarted  # noqa: F401 (fixture)
from tests.harness.actions import ask_extension

PAGE = "/sessions.html"


def extension_answer(core, task_id: str) -> Any:
    """get_tabs asked of the extension itself, past the mirror: its result, or its error code."""
    response = core.call(ask_extension(core.pool.select(), {"type": "get_tabs"}, task_id))
    return response.result if response.ok else response.error.code


def mirror_answer(core, task_id: str) -> Any:
    """What the mirror answers now (None: it would ask the extension)."""
    return core.run(lambda: core.pool.select().tabs.answer(task_id))


def same(core, task_id: str) -> bool:
    return mirror_answer(core, task_id) == extension_answer(core, task_id)


def listed(core, task_id: str) -> dict[int, dict[str, Any]]:
    answer = mirror_answer(core, task_id)
    assert answer is not None, "the mirror is trusted"
    return {tab["tab_id"]: tab for tab in answer["tabs"]}


def test_the_mirror_answers_what_the_extension_answers(core, act, browser, fixture_server):
    task = "t-mirror"
    first = act({"type": "navigate", "url": fixture_server.url(f"{PAGE}?mirror=1")}, task_id=task)
    assert first.ok, first.error
    tab_a = first.result["tab_id"]
    # The session start is in the mirror when navigate answers, with the url it reached and as current.
    assert listed(core, task)[tab_a]["url"] == first.result["url"] and listed(core, task)[tab_a]["current"]
    assert wait_until(lambda: same(core, task), 10)

    bridge = core.pool.select()
    before = core.run(lambda: bridge.tabs.answered)
    through_pool = act({"type": "get_tabs"}, task_id=task)
    assert through_pool.ok and through_pool.result == extension_answer(core, task)
    assert core.run(lambda: bridge.tabs.answered) == before + 1, "the pool's get_tabs was answered by the mirror"

    opened = act({"type": "open_tab", "url": fixture_server.url(f"{PAGE}?mirror=2")}, task_id=task)
    assert opened.ok, opened.error
    tab_b = opened.result["tab_id"]
    now = listed(core, task)  # at once: the answer did not overtake the new tab
    assert tab_b in now and now[tab_b]["current"] and not now[tab_a]["current"]
    assert wait_until(lambda: same(core, task), 10)

    moved = act({"type": "navigate", "url": fixture_server.url("/second.html?mirror=3"), "tab_id": tab_b}, task_id=task)
    assert moved.ok, moved.error
    assert listed(core, task)[tab_b]["url"] == moved.result["url"]
    assert wait_until(lambda: same(core, task), 10)

    in_page(browser, "mirror=3", "document.title = 'Renamed by the page'")  # the page changes its title itself
    assert wait_until(lambda: listed(core, task)[tab_b]["title"] == "Renamed by the page", 10)
    assert wait_until(lambda: same(core, task), 10)

    others = mirror_answer(core, task)["other_tabs"]
    person = browser.cdp.send("Target.createTarget", {"url": fixture_server.url("/second.html?person")})["targetId"]
    try:
        assert wait_until(lambda: mirror_answer(core, task)["other_tabs"] == others + 1, 10), \
            "the person's own tab is counted, never listed"
        assert wait_until(lambda: same(core, task), 10)
        assert all("person" not in tab["url"] for tab in mirror_answer(core, task)["tabs"])
    finally:
        browser.cdp.send("Target.closeTarget", {"targetId": person})
    assert wait_until(lambda: mirror_answer(core, task)["other_tabs"] == others, 10)

    closed = act({"type": "close_tab", "tab_id": tab_b}, task_id=task)
    assert closed.ok, closed.error
    assert tab_b not in listed(core, task), "the session's end is in the mirror when close_tab answers"
    assert wait_until(lambda: same(core, task), 10)
    act({"type": "close_tab", "tab_id": tab_a}, task_id=task)
    assert listed(core, task) == {}
    assert same(core, task)


def test_another_task_sees_the_tabs_only_counted(core, act, fixture_server):
    mine = act({"type": "navigate", "url": fixture_server.url(f"{PAGE}?mirror=own")}, task_id="t-mirror-own")
    assert mine.ok, mine.error
    try:
        other = mirror_answer(core, "t-mirror-other")
        assert other is not None and other["tabs"] == [] and other["other_tabs"] >= 1
        assert same(core, "t-mirror-other") and same(core, "t-mirror-own")
    finally:
        act({"type": "close_tab", "tab_id": mine.result["tab_id"]}, task_id="t-mirror-own")


def test_a_blocked_site_ends_the_session_and_stops_the_task_in_the_mirror_too(core, act, fixture_server, blocklist):
    task = "t-mirror-blocked"
    nav = act({"type": "navigate", "url": fixture_server.url(f"{PAGE}?mirror=blocked", host="localhost")},
              task_id=task)
    assert nav.ok, nav.error
    assert nav.result["tab_id"] in listed(core, task)
    blocklist("localhost")
    # The task is stopped: the mirror leaves its answer to the extension, which answers `stopped`.
    assert wait_until(lambda: mirror_answer(core, task) is None, 10)
    assert extension_answer(core, task) == "stopped"
    assert act({"type": "get_tabs"}, task_id=task).error.code == "stopped"
    assert same(core, "t-mirror-bystander")


def test_the_mirror_is_rebuilt_after_a_service_worker_restart(core, act, browser, fixture_server):
    task = "t-mirror-sw"
    nav = act({"type": "navigate", "url": fixture_server.url(f"{PAGE}?mirror=sw")}, task_id=task)
    assert nav.ok, nav.error
    old = core.pool.select()

    def mirror_gone(old: Any) -> None:
        assert core.run(lambda: old.tabs.answer(task)) is None, "a closed connection's mirror answers nothing"

    with worker_restarted(core, browser, fixture_server.url("/second.html?mirror=wake"), closed_within=10,
                          while_stopped=mirror_gone) as new:
        assert new is not old
        assert wait_until(lambda: core.run(lambda: new.tabs.trusted), 10), "the new worker sends a full frame"
        assert nav.result["tab_id"] in listed(core, task)
        assert wait_until(lambda: same(core, task), 10)
    act({"type": "close_tab", "tab_id": nav.result["tab_id"]}, task_id=task)


async def test_bua_mcp_answers_get_tabs_from_the_push_as_the_core_would(core, browser, fixture_server):
    """The core pushes each lane its get_tabs output (app/core/lane_tabs.py); bua mcp answers a bare get_tabs
    from it: the same answer, never behind the lane's own actions, the core's when the lane is stopped."""
    async with mcp.mcp_client(core.home, "Mirror Client") as session:
        task = await mcp.lane_id(session)
        lane = core.core.lanes.lanes[task]
        nav = await mcp.act(session, {"type": "navigate", "url": fixture_server.url(f"{PAGE}?mirror=mcp")})
        ahead = lane.answered_ahead
        listed_here = await mcp.act(session, {"type": "get_tabs"})
        assert await mcp.eventually(lambda: lane.answered_ahead == ahead + 1), "bua mcp answered it from the push"
        assert [t["tab_id"] for t in listed_here["tabs"]] == [nav["tab_id"]]
        assert listed_here == extension_answer(core, task), "the extension's own answer"
        steps = core.core.board.tasks[task].milestones
        assert await mcp.eventually(lambda: [m.action for m in steps] == ["navigate", "get_tabs"]), \
            "an answer given ahead still posts its step"

        opened = await mcp.act(session, {"type": "open_tab", "url": fixture_server.url(f"{PAGE}?mirror=mcp2")})
        now = await mcp.act(session, {"type": "get_tabs"})  # at once: the push is ahead of open_tab's answer
        assert {t["tab_id"]: t["current"] for t in now["tabs"]} == {nav["tab_id"]: False, opened["tab_id"]: True}
        assert await mcp.eventually(lambda: lane.answered_ahead == ahead + 2)

        await mcp.act(session, {"type": "close_tab", "tab_id": opened["tab_id"]})
        assert [t["tab_id"] for t in (await mcp.act(session, {"type": "get_tabs"}))["tabs"]] == [nav["tab_id"]]

        core.run(lambda: lane.stop_signal.abort("stopped by the person"))
        stopped = await mcp.call(session, "browser", {"type": "get_tabs"})
        assert stopped.is_error and "stopped" in stopped.content[0].text
        assert await mcp.eventually(lambda: lane.answered_ahead == ahead + 3)
        assert not await mcp.eventually(lambda: lane.answered_ahead > ahead + 3, 1.0), \
            "a stopped lane's get_tabs is the core's"
