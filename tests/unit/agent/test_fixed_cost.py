"""The fixed cost every call carries (issue 21): the browser subagent's system prompt plus its tool definitions, and
`bua mcp`'s tool list, measured as characters of what is sent."""

from __future__ import annotations

import json

from app.agent.context import Deps, RuntimeContext, ToolServices
from app.agent.runtime import AgentRuntime
from app.agent.settings import AgentSettings
from app.agent.subagents import BROWSER_SUBAGENT
from app.agent.tools.registry import subagent_loadout
from app.mcp.tools import mcp_tools
from tests.unit.agent.doubles import RecordingBridge

SUBAGENT_FIXED_CHARS = 10_000
"""The subagent's system prompt plus its tools (`browser`, `complete`) as JSON: ~2.5k tokens."""
PLAYWRIGHT_MCP_TOOLS_CHARS = 24_257
"""@playwright/mcp 0.0.83 (`npm install @playwright/mcp@0.0.83`), started as
`npx @playwright/mcp --browser chromium --executable-path /usr/bin/chromium --headless` and listed by the official
`mcp` Python SDK's stdio client (mcp 2.3.0): `len(json.dumps([tool.model_dump() for tool in tools]))`, 25 tools."""
MCP_TOOLS_CEILING = PLAYWRIGHT_MCP_TOOLS_CHARS // 2


def subagent_request_prefix() -> tuple[str, list[dict]]:
    deps = Deps(RuntimeContext(task_id="t-fixed"), ToolServices(browser_bridge=RecordingBridge({})),
                runtime=AgentRuntime(AgentSettings(), lambda _settings: None))  # type: ignore[arg-type,return-value]
    loadout = subagent_loadout(BROWSER_SUBAGENT.tool_keys, deps)
    system = "\n\n".join([BROWSER_SUBAGENT.instructions, *loadout.instructions])  # as app.agent.subagent_run joins it
    return system, [tool.api_schema() for tool in loadout.tools]


def test_the_subagent_prompt_and_tools_stay_within_10000_chars():
    system, tools = subagent_request_prefix()
    assert {t["name"] for t in tools} == {"browser", "complete"}
    total = len(system) + len(json.dumps(tools))
    assert total <= SUBAGENT_FIXED_CHARS, f"{total} chars: move rarely needed detail into the error that needs it"


def test_the_mcp_tool_list_stays_under_half_of_playwright_mcps():
    import mcp.types as client_types

    sent = [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in mcp_tools()]
    received = [client_types.Tool.model_validate(tool) for tool in sent]  # what the client measured, the same way
    size = len(json.dumps([tool.model_dump() for tool in received]))
    assert size <= MCP_TOOLS_CEILING, f"{size} chars > {MCP_TOOLS_CEILING} (half of Playwright MCP's)"


def test_the_schema_says_each_action_s_values_and_no_noise():
    _system, tools = subagent_request_prefix()
    browser = next(t for t in tools if t["name"] == "browser")
    text = json.dumps(browser)
    for noise in ('"title"', '"default"', '"maxLength"', '"pattern"', '"additionalProperties"', "Used by"):
        assert noise not in text, noise
    direction = browser["input_schema"]["properties"]["direction"]["enum"]
    assert {"back", "forward", "reload", "up", "down", "left", "right"} <= set(direction), \
        "a field two actions declare differently takes the values of both (history's and scroll's direction)"
