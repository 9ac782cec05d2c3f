"""Registry, tiers, the rollback flag and the isolation invariant of `task`."""

from __future__ import annotations

import dataclasses

from app.agent.context import Deps, RuntimeContext, ToolServices
from app.agent.prompts.browser import BROWSER_TOOL_INSTRUCTIONS
from app.agent.runtime import AgentRuntime
from app.agent.settings import DEFAULT_TIERS, AgentSettings, Tier
from app.agent.subagent_run import run_subagent
from app.agent.task_board import TaskBoard
from app.agent.tools.registry import DECLARATIONS, INTERNAL_ONLY_TOOLS, main_loadout, subagent_loadout
from app.protocol.actions import ACTION_TYPES
from tests.unit.agent.doubles import RecordingBridge


def make_deps(bridge=None, **settings) -> Deps:
    runtime = AgentRuntime(AgentSettings(**settings))
    return Deps(context=RuntimeContext(task_id="t1", user_id="u1", sandbox="sb", workspace="/w", timezone="Europe/Paris"),
                services=ToolServices(browser_bridge=bridge, task_board=TaskBoard()), runtime=runtime,
                messages=[{"role": "user", "content": "secret parent message"}], todos=["x"], reminders=["r"],
                writer=object(), run_subagent=run_subagent)


def test_registry_is_generated_from_declarations():
    assert [c.name for c in DECLARATIONS] == ["task", "browser", "complete"]
    assert INTERNAL_ONLY_TOOLS == {"browser"}


def test_browser_tool_needs_a_bridge():
    without = subagent_loadout(("browser", "complete"), make_deps(bridge=None))
    assert without.names == ["complete"] and without.instructions == []
    with_bridge = subagent_loadout(("browser", "complete"), make_deps(bridge=RecordingBridge()))
    assert with_bridge.names == ["browser", "complete"]
    assert with_bridge.instructions == [BROWSER_TOOL_INSTRUCTIONS]


def test_main_agent_delegates_browser_through_task():
    loadout = main_loadout(make_deps(bridge=RecordingBridge()))
    assert loadout.names == ["task"]
    task = loadout.tools[0]
    assert task.input_schema["properties"]["subagent_type"]["enum"] == ["browser"]


def test_task_is_offered_only_with_a_subagent_runner():
    deps = make_deps(bridge=RecordingBridge())
    deps.run_subagent = None
    assert main_loadout(deps).names == []


def test_tier_without_browser_sees_neither_subagent_nor_tool():
    deps = make_deps(bridge=RecordingBridge(), tier=Tier("no_browser", ("task",)))
    assert main_loadout(deps).names == []
    all_default = make_deps(bridge=RecordingBridge(), tier=DEFAULT_TIERS["chat_only"])
    assert "browser" not in main_loadout(all_default).names, "browser is never implied by an all-tools tier"
    assert main_loadout(all_default).names == []


def test_rollback_flag_gives_main_agent_browser_directly(monkeypatch):
    monkeypatch.setenv("ENABLE_BUILTIN_BROWSER_SUBAGENT", "false")
    deps = make_deps(bridge=RecordingBridge())
    assert main_loadout(deps).names == ["browser"]
    monkeypatch.setenv("ENABLE_BUILTIN_BROWSER_SUBAGENT", "true")
    assert main_loadout(make_deps(bridge=RecordingBridge())).names == ["task"]


def test_subagent_deps_are_isolated():
    parent = make_deps(bridge=RecordingBridge())
    child = parent.for_subagent()
    assert dataclasses.asdict(child.context) == {"task_id": "t1", "user_id": "u1", "sandbox": "sb",
                                                 "workspace": "/w", "timezone": "Europe/Paris"}
    assert [f.name for f in dataclasses.fields(RuntimeContext)] == ["task_id", "user_id", "sandbox", "workspace",
                                                                    "timezone"]
    assert child.services.browser_bridge is parent.services.browser_bridge
    assert child.services.task_board is parent.services.task_board
    assert child.messages == [] and child.todos == [] and child.reminders == [] and child.writer is None
    assert child.abort is not parent.abort
    assert child.run_subagent is parent.run_subagent
    parent.abort.abort("stop all")
    assert child.abort.aborted and child.abort.reason == "stop all"


def test_browser_schema_is_a_flat_object_with_all_actions():
    tool = subagent_loadout(("browser",), make_deps(bridge=RecordingBridge())).tools[0]
    schema = tool.input_schema
    assert schema["type"] == "object" and schema["required"] == ["type"]
    assert set(schema["properties"]["type"]["enum"]) == set(ACTION_TYPES)
    assert "oneOf" not in str(schema)
