"""The loop on the real anthropic SDK against the scripted Messages-API server (streaming), with a bridge double."""

from __future__ import annotations

import asyncio
import base64
import json

import pytest

from app.abort import AbortSignal
from app.agent.context import RuntimeContext, ToolServices
from app.agent.main_agent import MainAgent
from app.agent.model import MISSING_KEY, ModelClient
from app.agent.page_text.boundary import marker, token_for
from app.agent.page_text.region import read_view
from app.agent.runtime import AgentRuntime
from app.agent.settings import AgentSettings
from app.agent.task_board import TaskBoard
from app.agent.tools import browser as browser_tool
from app.demo.scripted_model.conversation import steps, text, tool_use
from app.demo.scripted_model.server import Fault, Reply, ScriptedModelServer
from app.protocol.actions import action_to_wire
from app.protocol.envelope import Response
from app.protocol.errors import ErrorCode
from tests.unit.agent.doubles import RecordingBridge

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"0" * 32).decode()
SUB_SCRIPT = [{"type": "navigate", "url": "http://127.0.0.1:1/"}, {"type": "screenshot"}, {"type": "extract"},
              {"type": "screenshot"}, {"type": "extract"}]


def scripted(body):
    """Main: one task call then a final answer. Subagent: SUB_SCRIPT then complete."""
    names = {t["name"] for t in body.get("tools") or []}
    done = steps(body)
    if "complete" in names:
        if len(done) < len(SUB_SCRIPT):
            return Reply([text(f"step {len(done)}"), tool_use("browser", SUB_SCRIPT[len(done)])], "tool_use")
        return Reply([tool_use("complete", {"status": "completed", "summary": "did it", "data": {"n": len(done)}})],
                     "tool_use")
    if not done:
        return Reply([tool_use("task", {"subagent_type": "browser", "description": "d", "prompt": "do it"})], "tool_use")
    return Reply([text("final: " + done[-1].result["summary"])])


@pytest.fixture
def server():
    server = ScriptedModelServer(scripted)
    yield server
    server.stop()


def bridge() -> RecordingBridge:
    return RecordingBridge({"screenshot": {"data": PNG, "format": "png", "width": 10, "height": 10},
                            "extract": {"markdown": "M" * 5000, "elements": "e1 button \"Go\"", "text": "T" * 3000}})


def agent(server, the_bridge, events=None, **settings) -> MainAgent:
    runtime = AgentRuntime(AgentSettings(base_url=server.base_url, api_retries=2, **settings),
                           client_factory=lambda s: ModelClient("test-key", s.base_url, s.api_retries),
                           on_event=(lambda k, p: events.append((k, p))) if events is not None else (lambda k, p: None))
    return MainAgent(runtime, ToolServices(browser_bridge=the_bridge, task_board=TaskBoard()),
                     RuntimeContext(task_id="t-1"))


async def test_task_delegation_end_to_end_over_the_sdk(server):
    events = []
    main = agent(server, bridge(), events)
    outcome = await main.run_turn("please do it")
    assert outcome.status == "end_turn"
    assert outcome.text == "final: did it"
    assert [c.role for c in server.calls] == ["main"] + ["subagent"] * 6 + ["main"]
    assert [a["type"] for a, _ in main.services.browser_bridge.requests] == [s["type"] for s in SUB_SCRIPT]
    assert {task_id for _, task_id in main.services.browser_bridge.requests} == {"t-1"}
    record = main.services.task_board.tasks["t-1"]
    assert [m.action for m in record.milestones] == [s["type"] for s in SUB_SCRIPT] + ["task"]
    assert record.milestones[1].screenshot.startswith("data:image/png;base64,")
    assert record.status == "completed" and record.usage.calls == 8, "main and subagent calls of the task"
    assert any(k == "text" for k, _ in events), "text is streamed"
    assert outcome.usage.calls == 2
    defaults = AgentSettings()
    assert {c.model for c in server.calls_by("main")} == {defaults.main_model}
    assert {c.model for c in server.calls_by("subagent")} == {defaults.subagent_model}, "the subagent's own model"
    shots = [p["output"].get("screenshot", "") for k, p in events if k == "subagent_tool_result"]
    assert sum(s.startswith("data:image/png;base64,") for s in shots) == 2, "the UI gets each screenshot"


async def test_subagent_sees_nothing_of_the_parent_conversation(server, monkeypatch):
    seen: list = []
    real_execute = browser_tool.execute

    async def recording(raw, deps):
        seen.append(deps)
        return await real_execute(raw, deps)
    monkeypatch.setattr(browser_tool, "execute", recording)
    main = agent(server, bridge())
    await main.run_turn("first turn SECRET-PARENT-TEXT")
    for call in server.calls_by("subagent"):
        assert "SECRET-PARENT-TEXT" not in json.dumps(call.body["messages"])
    assert seen, "the browser tool ran in the subagent"
    for deps in seen:
        assert deps.messages == [] and deps.todos == [] and deps.writer is None, "no parent state crosses over"
        assert deps.context.task_id == "t-1", "the task id is kept for milestones"
        assert deps.context is not main.context and deps.services is not main.services, "fresh copies, not shared"


async def test_screenshots_are_image_blocks_and_older_outputs_are_compacted(server):
    main = agent(server, bridge())
    await main.run_turn("go")
    last_sub = server.calls_by("subagent")[-1].body
    results = [b for m in last_sub["messages"] if isinstance(m["content"], list)
               for b in m["content"] if b.get("type") == "tool_result"]
    images = [c for r in results for c in r["content"] if c["type"] == "image"]
    assert len(images) == 1, "only the newest screenshot keeps its image"
    texts = [read_view(r["content"][0]["text"]) for r in results]
    assert "older screenshot omitted" in texts[1]["result"]["image"]
    assert texts[3]["result"]["image"] == "attached below"
    assert "base64" not in json.dumps(texts)
    assert "older extract cut" in texts[2]["result"]["markdown"]
    last = texts[4]["result"]["markdown"]
    assert last == "M" * 5000, "the last extract stays whole"
    assert f'{marker(token_for("t-1"))}\nmarkdown: "{"M" * 5000}"' in results[4]["content"][0]["text"], \
        "marked as page data"


async def test_prompt_caching_marks_system_tools_and_rolling_prefix(server):
    main = agent(server, bridge())
    await main.run_turn("go")
    calls = server.calls_by("subagent")
    body = calls[-1].body
    assert body["system"][-1]["cache_control"] == {"type": "ephemeral"}
    assert body["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert body["messages"][-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}
    first_prompt = calls[0].usage["cache_creation_input_tokens"]
    reads = [c.usage["cache_read_input_tokens"] for c in calls[1:]]
    assert reads[0] == first_prompt, "the second call reads all of the first prompt"
    assert max(reads) > first_prompt, f"later steps read earlier turns of the conversation from the cache: {reads}"


async def test_missing_api_key_is_a_clear_message(server, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setattr("app.agent.model.get_api_key", lambda: None)
    runtime = AgentRuntime(AgentSettings(base_url=server.base_url))
    main = MainAgent(runtime, ToolServices(browser_bridge=bridge(), task_board=TaskBoard()), RuntimeContext("t"))
    outcome = await main.run_turn("hi")
    assert outcome.status == "failed" and outcome.error == MISSING_KEY
    assert server.calls == []


@pytest.mark.parametrize("fault, code_text", [
    (Fault(401, "authentication_error", "invalid x-api-key"), "rejected (401)"),
    (Fault(404, "not_found_error", "model: nope"), "not found (404)"),
])
async def test_fatal_api_errors_are_reported_clearly(server, fault, code_text):
    server.faults.append(fault)
    outcome = await agent(server, bridge()).run_turn("hi")
    assert outcome.status == "failed" and code_text in outcome.error


async def test_a_subagent_that_fails_returns_failed_with_what_it_had(server):
    class FailSubagentAfterTwoSteps(list):
        def append(self, event):
            super().append(event)
            if event[0] == "subagent_tool_result" and sum(k == "subagent_tool_result" for k, _ in self) == 2:
                server.faults.append(Fault(404, "not_found_error", "model: gone"))

    events = FailSubagentAfterTwoSteps()
    outcome = await agent(server, bridge(), events).run_turn("go")
    task = [p for k, p in events if k == "tool_result" and p["name"] == "task"][-1]["output"]
    assert task["status"] == "failed" and "not found (404)" in task["summary"], task
    assert "Partial results:\nstep 0\nstep 1" in task["summary"], "what it had found so far"
    assert outcome.status == "end_turn", "the main agent goes on and reports"


@pytest.mark.parametrize("fault", [
    Fault(429, "rate_limit_error", headers={"retry-after": "0"}),
    Fault(529, "overloaded_error"),
    Fault(500, "api_error"),
])
async def test_transient_api_errors_are_retried(server, fault):
    server.faults.append(fault)
    outcome = await agent(server, bridge()).run_turn("hi")
    assert outcome.status == "end_turn" and outcome.text.startswith("final:")


async def test_retries_exhausted_says_so(server):
    for _ in range(3):
        server.faults.append(Fault(529, "overloaded_error", headers={"retry-after": "0"}))
    outcome = await agent(server, bridge()).run_turn("hi")
    assert outcome.status == "failed" and "overloaded (529)" in outcome.error


async def test_abort_during_a_model_call_cancels_at_once(server):
    server.reply_delay_s = 5
    abort = AbortSignal()
    main = agent(server, bridge())
    asyncio.get_running_loop().call_later(0.2, abort.abort, "stopped by user")
    outcome = await asyncio.wait_for(main.run_turn("hi", abort), 2)
    assert outcome.status == "cancelled" and outcome.error == "stopped by user"


async def test_abort_during_a_browser_call_cancels_the_subagent_with_partial_results(server):
    slow = RecordingBridge({"extract": {"markdown": "m"}}, delay_s=5)
    abort = AbortSignal()
    main = agent(server, slow)

    async def stop_once_the_browser_is_asked() -> None:  # mid-call, however loaded the machine is
        while not slow.requests:
            await asyncio.sleep(0.01)
        abort.abort("stopped by user")
    stopper = asyncio.ensure_future(stop_once_the_browser_is_asked())
    outcome = await asyncio.wait_for(main.run_turn("hi", abort), 10)
    await stopper
    assert outcome.status == "cancelled"
    board = main.services.task_board.tasks["t-1"]
    assert board.status == "cancelled"
    assert [m.action for m in board.milestones] == ["navigate", "task"]
    assert "stopped by user" in board.milestones[0].summary
    assert board.milestones[1].summary == "task d → cancelled"


async def test_text_streamed_before_a_stop_survives_in_the_partial_results(server):
    server.stall_after_text_s = 5
    abort = AbortSignal()

    class StopOnText(list):
        def append(self, event):
            super().append(event)
            if event[0] == "subagent_text" and "step 0" in event[1].get("text", ""):
                abort.abort("stopped by user")

    events = StopOnText()
    main = agent(server, bridge(), events)
    outcome = await asyncio.wait_for(main.run_turn("hi", abort), 4)
    assert outcome.status == "cancelled"
    task = [p for k, p in events if k == "tool_result" and p["name"] == "task"][-1]["output"]
    assert task["status"] == "cancelled"
    assert "Partial results:\nstep 0" in task["summary"], task["summary"]


@pytest.mark.parametrize("builtin, says, never", [("true", "delegate with the `task` tool", "use the `browser` tool"),
                                                  ("false", "use the `browser` tool yourself", "`task`")])
async def test_the_main_prompt_speaks_of_the_tools_the_main_agent_really_has(server, monkeypatch, builtin, says, never):
    monkeypatch.setenv("ENABLE_BUILTIN_BROWSER_SUBAGENT", builtin)
    await agent(server, bridge()).run_turn("hi")
    system = server.calls_by("main")[0].body["system"][0]["text"]
    assert says in system and never not in system


async def test_step_limit(server):
    main = agent(server, bridge(), subagent_max_steps=2)
    outcome = await main.run_turn("go")
    assert main.services.task_board.tasks["t-1"].status == "max_steps"
    assert outcome.text.startswith("final: Hit the step limit after 2 steps")


class StoppingBridge(RecordingBridge):
    """The extension's answer once the person ended the task: `stopped` from the third action on."""

    async def request(self, action, task_id, abort=None, timeout=None, browser=None, label=None):
        if len(self.requests) >= 2:
            self.requests.append((action_to_wire(action), task_id))
            return Response.failure("r", ErrorCode.STOPPED, "this task's session ended (ended_by_user)")
        return await super().request(action, task_id, abort, timeout, browser, label)


async def test_a_stopped_answer_ends_the_subagent_with_its_partial_results(server):
    main = agent(server, StoppingBridge({"extract": {"markdown": "Found: Jane"}}))
    outcome = await main.run_turn("please do it")
    assert [a["type"] for a, _ in main.services.browser_bridge.requests] == ["navigate", "screenshot", "extract"], \
        "no browser call after the first `stopped`"
    assert [c.role for c in server.calls] == ["main"] + ["subagent"] * 3 + ["main"]
    summary = server.calls[-1].body["messages"][-1]["content"][0]["content"]
    assert "Stopped by the user after 3 browser steps" in json.dumps(summary) and "step 1" in json.dumps(summary)
    assert outcome.status == "end_turn"
