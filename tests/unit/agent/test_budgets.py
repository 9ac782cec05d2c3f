"""Budgets, not step counts: the token budget, the step backstop, older results shrunk to one line (with a cache
breakpoint where they end), the browser budget for the main agent without the subagent, and change lists turned
off. The real anthropic SDK against the scripted Messages-API server, with a bridge double."""

from __future__ import annotations

import json

import pytest

from app.abort import AbortSignal
from app.agent.context import RuntimeContext, ToolServices
from app.agent.loop import KEEP_WHOLE, STRIDE, whole_from
from app.agent.main_agent import MainAgent
from app.agent.model import ModelClient
from app.agent.page_text.boundary import marker, token_for
from app.agent.page_text.region import read_view
from app.agent.runtime import AgentRuntime
from app.agent.settings import AgentSettings
from app.agent.task_board import TaskBoard
from app.agent.tools.browser import create_tools
from app.demo.scripted_model.conversation import notes, steps, text, tool_use
from app.demo.scripted_model.server import Reply, ScriptedModelServer
from tests.unit.agent.doubles import RecordingBridge

CLICKS = 20
CLICK_RESULT = {"clicked": "button \"Next\"", "effects": {"dom_mutations": 3, "navigated": False},
                "changes": {"summary": "text lines: 1 added", "markdown": "@ at the top\n+ Page " + "x" * 800}}


def clicking(body):
    """Main: hand the job over (or click itself without the subagent). Either: CLICKS clicks, a note each."""
    names = {t["name"] for t in body.get("tools") or []}
    done = [s for s in steps(body) if s.name == "browser"]
    if "task" in names and not steps(body):
        return Reply([tool_use("task", {"subagent_type": "browser", "description": "d", "prompt": "click"})],
                     "tool_use")
    if "browser" not in names:
        return Reply([text("final: " + steps(body)[-1].result["summary"])])
    if len(done) < CLICKS:
        return Reply([text(f"note {len(done)}"), tool_use("browser", {"type": "click", "uid": f"e{len(done) + 1}"})],
                     "tool_use")
    if "complete" in names:
        return Reply([tool_use("complete", {"status": "completed", "summary": f"clicked {len(done)}"})], "tool_use")
    return Reply([text(f"final: clicked {len(done)}")])


@pytest.fixture
def server():
    server = ScriptedModelServer(clicking)
    yield server
    server.stop()


def agent(server, **settings) -> MainAgent:
    runtime = AgentRuntime(AgentSettings(base_url=server.base_url, **settings),
                           client_factory=lambda s: ModelClient("test-key", s.base_url, 0))
    return MainAgent(runtime, ToolServices(browser_bridge=RecordingBridge({"click": CLICK_RESULT}),
                                           task_board=TaskBoard()), RuntimeContext(task_id="t-1"))


def results(body) -> list[dict]:
    found = []
    for message in body["messages"]:
        if isinstance(message["content"], list):
            found += [b for b in message["content"] if b.get("type") == "tool_result"]
    return found


def test_the_window_moves_in_strides():
    assert [whole_from(n) for n in (0, KEEP_WHOLE, KEEP_WHOLE + STRIDE - 1, KEEP_WHOLE + STRIDE)] == [0, 0, 0, STRIDE]
    for total in range(60):
        assert KEEP_WHOLE <= total - whole_from(total) < KEEP_WHOLE + STRIDE or total < KEEP_WHOLE


async def test_older_results_shrink_to_one_line_the_notes_stay_and_the_prefix_stays_cached(server):
    main = agent(server)
    outcome = await main.run_turn("go")
    assert outcome.text == f"final: clicked {CLICKS}"
    sub = server.calls_by("subagent")
    last = sub[-1].body
    blocks = results(last)
    boundary = whole_from(len(blocks))
    assert boundary > 0
    token = token_for("t-1")
    for block in blocks[:boundary]:
        text = block["content"][0]["text"]
        data = read_view(text)
        assert data["summary_only"] and data["ok"] and data["action"] == "click"
        assert "changes" not in json.dumps(data) and len(text) < 300
        assert f'{marker(token)}\ntext: "{data["result"]["text"]}"' in text, \
            "the one line (it names page elements) stays inside the boundary"
    for block in blocks[boundary:]:
        assert "x" * 800 in block["content"][0]["text"], "the latest results are whole"
    assert notes(last)[:CLICKS] == [f"note {i}" for i in range(CLICKS)], "the model's own notes are never shrunk"
    marked = [b for b in blocks if "cache_control" in b]
    assert marked == [blocks[boundary - 1], blocks[-1]], "a breakpoint where the shrunk results end, and the rolling one"
    # When the window moved again, the request still read the prefix up to the previous boundary from the cache.
    moves = [c for i, c in enumerate(sub) if i and whole_from(len(results(c.body))) > whole_from(len(results(sub[i - 1].body)))]
    assert len(moves) >= 2
    moved = moves[-1]
    system_and_tools = sub[0].usage["cache_creation_input_tokens"]
    assert moved.usage["cache_read_input_tokens"] > system_and_tools


async def test_the_token_budget_stops_the_subagent_with_its_partial_results(server):
    main = agent(server, subagent_token_budget=9_000)
    outcome = await main.run_turn("go")
    record = main.services.task_board.tasks["t-1"]
    assert record.status == "token_budget"
    assert "token budget" in outcome.text and "of its 9,000-token budget" in outcome.text
    assert "note 0" in outcome.text, "partial results: the notes so far"
    spent = sum(c.usage["input_tokens"] + 1.25 * c.usage["cache_creation_input_tokens"]
                + 0.1 * c.usage["cache_read_input_tokens"] + c.usage["output_tokens"] for c in server.calls_by("subagent"))
    last = server.calls_by("subagent")[-1].usage
    assert spent >= 9_000 > spent - (last["input_tokens"] + 1.25 * last["cache_creation_input_tokens"]
                                     + 0.1 * last["cache_read_input_tokens"] + last["output_tokens"]) - 1, \
        "it stops at the first call past the budget"


async def test_the_step_ceiling_is_a_backstop(server):
    main = agent(server, subagent_max_steps=5)
    await main.run_turn("go")
    assert main.services.task_board.tasks["t-1"].status == "max_steps"


async def test_without_the_subagent_the_main_agent_gets_the_browser_budget(server, monkeypatch):
    monkeypatch.setenv("ENABLE_BUILTIN_BROWSER_SUBAGENT", "false")
    main = agent(server)
    assert AgentSettings().main_max_steps < CLICKS
    outcome = await main.run_turn("go")
    assert outcome.status == "end_turn" and outcome.text == f"final: clicked {CLICKS}"
    stopped = agent(server, subagent_token_budget=5_000)
    assert (await stopped.run_turn("go")).status == "token_budget"


async def test_change_lists_off_offers_none(server):
    main = agent(server, change_lists=False)
    await main.run_turn("go")
    body = server.calls_by("subagent")[-1].body
    browser = next(t for t in body["tools"] if t["name"] == "browser")
    assert "changes" not in browser["input_schema"]["properties"]
    assert all("x" * 800 not in b["content"][0]["text"] for b in results(body))
    offered = create_tools(agent(server).deps(AbortSignal()))[0].input_schema["properties"]
    assert "changes" in offered, "on by default"
