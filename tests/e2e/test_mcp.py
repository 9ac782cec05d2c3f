"""`bua mcp` with the mcp SDK's own stdio client, the real core, real Chromium and the real extension (issue 13).

Each MCP client is its own lane: its own task id and tab group, refused on other lanes' tabs; cancellation and
Stop settle its pending action at once; its death ends its sessions; `browser_task` runs bua's browser subagent
against the scripted Messages-API server and streams milestones as progress.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import signal
import subprocess
import sys
import textwrap

import anyio
import jsonschema
import mcp_types as types
import pytest

from app.agent.prompts.browser import BROWSER_TOOL_INSTRUCTIONS
from app.protocol.actions import ACTION_TYPES
from tests.e2e.actions_helpers import in_extension, uid_of
from tests.e2e.mcp_helpers import ROOT, act, call, eventually, lane_id, mcp_client, payload

pytestmark = pytest.mark.timeout(240)


def group_of(browser, tab_id: int):
    """The title of the tab's group as the person sees it, or None when the tab is in no group."""
    return in_extension(browser, f"chrome.tabs.get({tab_id}).then(async t => t.groupId === -1 ? null : "
                                 "(await chrome.tabGroups.get(t.groupId)).title)")


def pending(core) -> int:
    """Actions in flight (the core's own controls, such as a configure pushed at connect, are not counted)."""
    bridge = core.pool.select()
    return sum(task is not None for task in bridge.pending_tasks()) if bridge is not None else 0


def lane_sessions(core, task_id: str) -> list:
    return [r for r in core.core.sessions.rows() if r["task_id"] == task_id]


async def test_tools_are_listed_with_valid_schemas_and_honest_annotations(core, browser):
    async with mcp_client(core.home, "Schema Checker") as session:
        listed = (await session.list_tools()).tools
    by_name = {t.name: t for t in listed}
    assert set(by_name) == {"browser", "browser_task", "browser_status"}
    for tool in listed:
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        assert tool.input_schema["type"] == "object" and tool.description
    browser_tool = by_name["browser"]
    assert browser_tool.input_schema["properties"]["type"]["enum"] == list(ACTION_TYPES)
    assert BROWSER_TOOL_INSTRUCTIONS in browser_tool.description, "the subagent's own guidance, word for word"
    validator = jsonschema.Draft202012Validator(browser_tool.input_schema)
    assert validator.is_valid({"type": "click", "uid": "e4"})
    assert not validator.is_valid({"type": "fly"}), "the action enum is enforced by the schema"
    hints = browser_tool.annotations
    assert (hints.read_only_hint, hints.destructive_hint, hints.open_world_hint) == (False, True, True)
    status = by_name["browser_status"].annotations
    assert status.read_only_hint is True and status.destructive_hint is False


async def test_navigate_extract_click_screenshot_in_the_clients_own_group(core, browser, fixture_server):
    async with mcp_client(core.home, "Claude Code") as session:
        nav = await act(session, {"type": "navigate", "url": fixture_server.url("/actions/click.html?mcp")})
        tab_id = nav["tab_id"]
        extract = await act(session, {"type": "extract"})
        clicked = await act(session, {"type": "click", "uid": uid_of(extract, r'button "View"', on="Ann Poe")})
        assert clicked["effects"]["dom_mutations"] > 0 and "nothing_changed" not in clicked["effects"], \
            "effects that say nothing happened are left out of what a model reads"
        out = await act(session, {"type": "evaluate", "expression": "document.querySelector('#out').textContent"})
        assert "viewed Ann Poe" in out["value"]

        posted: list[str] = []
        unsubscribe = core.run(core.core.board.subscribe, lambda kind, m: kind == "task_milestone" and m.screenshot
                               and posted.append(m.screenshot[:len("data:image/png")]))
        shot = await call(session, "browser", {"type": "screenshot"})
        core.run(unsubscribe)
        assert not shot.is_error
        images = [c for c in shot.content if isinstance(c, types.ImageContent)]
        assert len(images) == 1 and images[0].mime_type == "image/png"
        assert base64.b64decode(images[0].data)[:8] == b"\x89PNG\r\n\x1a\n"
        assert "base64" not in payload(shot)["result"].get("image", ""), "no base64 inside the text"

        assert group_of(browser, tab_id) == "bua · Claude Code"
        task_id = await lane_id(session)
        record = core.core.board.tasks[task_id]
        assert record.status == "running" and "Claude Code" in record.description
        steps = [m.summary for m in record.milestones]
        assert steps[0].startswith("Opened") and any(s.startswith("Clicked") for s in steps), steps
        assert posted == ["data:image/png"], "the popup gets the screenshot as agent tasks do"
        assert await eventually(lambda: record.milestones[-1].screenshot.startswith("data:image/jpeg"), 5), \
            "a long-lived lane keeps a thumbnail, not the full image"

        failed = await call(session, "browser", {"type": "click", "uid": "e99999"})
        assert failed.is_error
        error = payload(failed)["error"]
        assert error["code"] in ("element_not_found", "element_stale") and error["next_step"]
    assert await eventually(lambda: not lane_sessions(core, task_id)), "the lane's session ended with the client"
    assert await eventually(lambda: group_of(browser, tab_id) is None, 5), "its tab stays open and leaves the group"
    assert core.core.board.tasks[task_id].status == "ended"


async def test_two_clients_at_once_each_in_its_own_group_refused_on_the_others_tab(core, browser, fixture_server):
    async with mcp_client(core.home, "Client A") as a, mcp_client(core.home, "Client B") as b:
        tab_a, tab_b = [r["tab_id"] for r in await asyncio.gather(
            act(a, {"type": "navigate", "url": fixture_server.url("/sessions.html?lane-a")}),
            act(b, {"type": "navigate", "url": fixture_server.url("/second.html?lane-b")}))]
        assert group_of(browser, tab_a) == "bua · Client A" and group_of(browser, tab_b) == "bua · Client B"
        for session, other in ((a, tab_b), (b, tab_a)):
            for action in ({"type": "extract", "tab_id": other}, {"type": "close_tab", "tab_id": other}):
                refused = await call(session, "browser", action)
                assert refused.is_error and payload(refused)["error"]["code"] == "session_not_found", action
        listed_a = await act(a, {"type": "get_tabs"})
        assert [t["tab_id"] for t in listed_a["tabs"]] == [tab_a] and listed_a["other_tabs"] >= 1, \
            "the other client's tab is only counted, never shown"
        status_a = (await call(a, "browser_status")).structured_content
        assert [s["tab_id"] for s in status_a["sessions"]] == [tab_a], "a lane sees only its own tabs"
        assert status_a["other_sessions"] >= 1
        assert "Sessions fixture" in (await act(a, {"type": "extract"}))["title"], "A was never kicked by B"
        assert group_of(browser, tab_b) == "bua · Client B"


async def test_two_clients_of_the_same_name_get_labels_a_person_can_tell_apart(core, browser, fixture_server):
    async with mcp_client(core.home, "Same Client") as a, mcp_client(core.home, "Same Client") as b:
        tab_a = (await act(a, {"type": "navigate", "url": fixture_server.url("/sessions.html?same-a")}))["tab_id"]
        tab_b = (await act(b, {"type": "navigate", "url": fixture_server.url("/second.html?same-b")}))["tab_id"]
        groups = {group_of(browser, tab_a), group_of(browser, tab_b)}
        assert groups == {"bua · Same Client", "bua · Same Client 2"}, groups


COUNT_COMMANDS = ("globalThis.__buaCommands = 0; if (!globalThis.__buaCounting) { globalThis.__buaCounting = true; "
                  "const send = chrome.debugger.sendCommand.bind(chrome.debugger); chrome.debugger.sendCommand = "
                  "(...a) => { globalThis.__buaCommands++; return send(...a); }; } 0")


async def test_cancellation_settles_a_pending_wait_for_at_once_and_stops_it_in_the_browser(core, browser,
                                                                                           fixture_server):
    async with mcp_client(core.home, "Canceller") as session:
        await act(session, {"type": "navigate", "url": fixture_server.url("/sessions.html?cancel")})
        waiting = asyncio.ensure_future(session.call_tool(
            "browser", {"type": "wait_for", "selector": "#never-shown", "timeout_ms": 5000}))
        assert await eventually(lambda: pending(core) > 0, 5)
        in_extension(browser, COUNT_COMMANDS)
        assert await eventually(lambda: in_extension(browser, "globalThis.__buaCommands") > 0, 5), "it polls"
        waiting.cancel()
        assert await eventually(lambda: pending(core) == 0, 2), "the 5 s wait was settled by the cancellation"
        await anyio.sleep(0.3)
        in_extension(browser, "globalThis.__buaCommands = 0")
        await anyio.sleep(0.5)
        assert in_extension(browser, "globalThis.__buaCommands") == 0, "the extension stopped polling too"
        record = core.core.board.tasks[await lane_id(session)]
        assert record.milestones[-1].ok is False and "wait" in record.milestones[-1].action
        assert "Sessions fixture" in (await act(session, {"type": "extract"}))["title"], "the lane goes on"


async def test_bua_stop_from_the_cli_ends_an_mcp_clients_pending_action(core, browser, fixture_server):
    async with mcp_client(core.home, "Stoppable") as session:
        await act(session, {"type": "navigate", "url": fixture_server.url("/sessions.html?stop")})
        waiting = asyncio.ensure_future(call(session, "browser", {"type": "wait_for", "selector": "#never-shown",
                                                                  "timeout_ms": 8000}))
        assert await eventually(lambda: pending(core) > 0, 5)
        stop = await anyio.to_thread.run_sync(lambda: subprocess.run(
            [sys.executable, "-m", "app", "stop"], cwd=ROOT, env=dict(os.environ, BUA_HOME=str(core.home)),
            capture_output=True, text=True, timeout=30))
        assert stop.returncode == 0, stop.stderr
        with anyio.fail_after(3):
            result = await waiting
        assert result.is_error
        error = payload(result)["error"]
        assert error["code"] == "stopped" and error["message"] == "stopped by user" and error["next_step"]
        assert not lane_sessions(core, await lane_id(session))
        again = await call(session, "browser", {"type": "navigate", "url": fixture_server.url("/sessions.html?again")})
        assert again.is_error and payload(again)["error"]["code"] == "stopped", "Stop means stop, for this lane"
        handed = await call(session, "browser_task", {"prompt": "carry on in the browser"})
        assert handed.is_error and payload(handed)["code"] == "stopped", "no model call for a stopped lane"
    async with mcp_client(core.home, "Stoppable") as fresh:
        assert not (await call(fresh, "browser", {"type": "navigate",
                                                  "url": fixture_server.url("/sessions.html?fresh")})).is_error, \
            "a new connection is a new lane"


DYING_CLIENT = textwrap.dedent("""
    import asyncio, json, sys
    import mcp_types as types
    from mcp.client.session import ClientSession
    from mcp.client.stdio import stdio_client
    from tests.e2e.mcp_helpers import server_params
    from pathlib import Path

    async def main():
        async with stdio_client(server_params(Path(sys.argv[1]))) as (r, w):
            async with ClientSession(r, w, client_info=types.Implementation(name="Doomed", version="1")) as s:
                await s.initialize()
                nav = await s.call_tool("browser", {"type": "navigate", "url": sys.argv[2]})
                status = await s.call_tool("browser_status", {})
                print(json.dumps({"tab": json.loads(nav.content[0].text.splitlines()[0])["result"]["tab_id"],
                                  "lane": status.structured_content["task_id"]}), flush=True)
                await s.call_tool("browser", {"type": "wait_for", "selector": "#never-shown", "timeout_ms": 20000})

    asyncio.run(main())
""")


async def test_a_client_that_dies_mid_request_leaves_no_session_behind(core, browser, fixture_server):
    client = subprocess.Popen([sys.executable, "-c", DYING_CLIENT, str(core.home),
                               fixture_server.url("/sessions.html?doomed")], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True, start_new_session=True)
    try:
        line = await anyio.to_thread.run_sync(client.stdout.readline)
        started = json.loads(line)
        assert await eventually(lambda: pending(core) > 0, 10)
        assert lane_sessions(core, started["lane"])
    finally:
        os.kill(client.pid, signal.SIGKILL)
        client.wait(10)
    assert await eventually(lambda: pending(core) == 0, 10), "its pending wait was settled"
    assert await eventually(lambda: not lane_sessions(core, started["lane"]), 10), "no session left behind"
    assert await eventually(lambda: group_of(browser, started["tab"]) is None, 5), "the tab stays, out of the group"
    # The lane marks its task ended once end_session is answered, which comes after the sessions' own events
    # (and, since the tab feed, after the feed settled): later than the rows and the group went.
    assert await eventually(lambda: core.core.board.tasks[started["lane"]].status == "ended", 10)


@pytest.fixture
def scripted_model(core, monkeypatch):
    """The person's configured model is the scripted Messages-API server (base URL in settings, key in env)."""
    from app.demo.scripted_model.policy import route
    from app.demo.scripted_model.server import ScriptedModelServer

    server = ScriptedModelServer(route)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-offline")
    before = core.run(core.core.store.get_setting, "base_url", None)
    core.run(core.core.store.set_setting, "base_url", server.base_url)
    yield server
    core.run(core.core.store.set_setting, "base_url", before)
    server.stop()


async def test_browser_task_returns_the_subagents_summary_with_progress(core, browser, scripted_model):
    from app.demo.run import site_url
    from app.demo.site_server import SITE, StaticServer

    site = StaticServer()
    progress: list[tuple[float, str | None]] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, message))

    try:
        async with mcp_client(core.home, "Delegator") as session:
            prompt = f"On {site_url(site, 50)} get the contact details of the first 2 candidates in the list."
            with anyio.fail_after(120):
                result = await session.call_tool("browser_task", {"prompt": prompt, "description": "Two contacts"},
                                                 progress_callback=on_progress)
            task_id = await lane_id(session)
    finally:
        site.stop()
    assert not result.is_error, result.content
    outcome = result.structured_content
    assert outcome["status"] == "completed", outcome
    candidates = json.loads((SITE / "candidates.json").read_text())
    assert [c["email"] for c in outcome["artifacts"]["data"]] == [c["email"] for c in candidates[:2]]
    assert isinstance(result.content[0], types.TextContent) and result.content[0].text == outcome["summary"]
    assert len(progress) >= 5 and progress[0][1].startswith("Opened")
    assert [v for v, _ in progress] == sorted(v for v, _ in progress), "progress only goes up"
    assert any(m and m.startswith("Clicked") for _, m in progress)
    assert len(core.core.board.tasks[task_id].milestones) >= len(progress), "the popup got the milestones too"


async def test_without_a_core_bua_mcp_starts_one_and_works(tmp_path, fixture_server):
    from app.browser.launch import launch_browser

    home = tmp_path / "no-core-home"
    errlog = tmp_path / "mcp.stderr"
    browser = None
    try:
        async with mcp_client(home, "Lonely", errlog) as session:
            assert "started bua's core itself" in session.instructions
            assert "started bua's core itself" in errlog.read_text()
            browser = await anyio.to_thread.run_sync(
                lambda: launch_browser(home, headless=True, user_data_dir=tmp_path / "profile"))

            async def connected() -> bool:
                return bool((await call(session, "browser_status")).structured_content["browsers"])

            with anyio.fail_after(60):
                while not await connected():
                    await anyio.sleep(0.2)
            nav = await act(session, {"type": "navigate", "url": fixture_server.url("/sessions.html?lonely")})
            assert isinstance(nav["tab_id"], int)
            tabs = (await act(session, {"type": "get_tabs"}))["tabs"]
            assert [t["tab_id"] for t in tabs if t["in_task"]] == [nav["tab_id"]]
    finally:
        if browser is not None:
            browser.stop()


async def test_when_the_core_goes_away_the_next_call_opens_a_new_lane_on_a_core_of_its_own(tmp_path):
    home, errlog = tmp_path / "home", tmp_path / "mcp.stderr"
    serve = subprocess.Popen([sys.executable, "-m", "app", "serve"], cwd=ROOT, env=dict(os.environ, BUA_HOME=str(home)),
                             stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert "listening" in await anyio.to_thread.run_sync(serve.stdout.readline)
        async with mcp_client(home, "Survivor", errlog) as session:
            assert "started bua's core itself" not in session.instructions, "a running core is used"
            first = await lane_id(session)
            os.killpg(serve.pid, signal.SIGTERM)
            await anyio.to_thread.run_sync(serve.wait, 10)
            result = await call(session, "browser_status")
            if result.is_error:  # the call that found the core gone says so; the next one reopens
                assert payload(result)["code"] == "extension_disconnected" and payload(result)["next_step"]
                result = await call(session, "browser_status")
            assert not result.is_error and result.structured_content["task_id"] != first
            assert "started bua's core itself" in errlog.read_text()
    finally:
        if serve.poll() is None:
            os.killpg(serve.pid, signal.SIGKILL)
            serve.wait(10)


async def test_a_sensitive_click_from_a_lane_asks_the_person_and_without_a_window_is_refused(core, browser,
                                                                                             fixture_server):
    from app.safety.confirmations import Decision
    from tests.e2e.safety_helpers import Person

    async with mcp_client(core.home, "Careful Agent") as session:
        await act(session, {"type": "navigate", "url": fixture_server.url("/safety/account.html?mcp")})
        person = Person(core, Decision.DENY).__enter__()
        try:
            denied = await call(session, "browser", {"type": "click", "selector": "#delete"})
        finally:
            person.__exit__()
        [asked] = person.asked
        assert asked["task_id"] == await lane_id(session) and asked["task_words"] == "Careful Agent (MCP)", \
            "the person sees which client asks"
        assert denied.is_error and payload(denied)["error"]["code"] == "confirmation_required"
        assert payload(denied)["error"]["next_step"]
        core.person.__exit__()  # no app window at all
        try:
            refused = await call(session, "browser", {"type": "click", "selector": "#delete"})
        finally:
            core.person.__enter__()
        assert refused.is_error and payload(refused)["error"]["code"] == "confirmation_required"
        assert "nothing done" in (await act(session, {"type": "evaluate",
                                                      "expression": "document.querySelector('#status').textContent"}))["value"]
