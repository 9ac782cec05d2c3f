"""`bua demo`: the seed scenario end to end without an API key.

It starts the core, the scripted Messages-API server (app.demo.scripted_model),
the recruiting back office on 127.0.0.1 and a browser with the extension
(headful when a display exists), asks the main agent for the contact details
of the first candidates, and prints each milestone and the final answer.
The pieces are reusable: the e2e tests and the bench call `run_scenario` with
their own core and browser.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.abort import AbortSignal
from app.agent.loop import LoopOutcome
from app.agent.model import ModelClient
from app.agent.settings import AgentSettings
from app.demo.scripted_model.policy import route
from app.demo.scripted_model.server import CallRecord, ScriptedModelServer
from app.demo.site_server import StaticServer
from app.events import AgentEvent, EventSink

if TYPE_CHECKING:
    from app.core.verbs import CoreVerbs


def scenario_prompt(site_url: str, count: int) -> str:
    return (f"On our recruiting back office at {site_url} get the contact details (email and phone) of the "
            f"first {count} candidates in the list.")


def site_url(site: StaticServer, delay_ms: int, count: int | None = None) -> str:
    query = f"?delay={delay_ms}" + (f"&count={count}" if count else "")
    return site.url("/index.html" + query)


@dataclass(frozen=True)
class ScriptedTurn:
    """What a turn on the scripted server runs with: pass both to `Core.chat` (the core's own stay as they are)."""

    settings: AgentSettings
    client: ModelClient


def scripted_turn(settings: AgentSettings, server: ScriptedModelServer, direct: bool = False,
                  **overrides: Any) -> ScriptedTurn:
    """The core's settings with the scripted server's client; `direct` is the ENABLE_BUILTIN_BROWSER_SUBAGENT=false
    mode. Building the client loads the HTTP stack: the UI calls this in a thread."""
    return ScriptedTurn(dataclasses.replace(settings, builtin_browser_subagent=not direct, **overrides),
                        ModelClient("offline-demo-key", server.base_url, 0))


@dataclass
class ScenarioResult:
    outcome: LoopOutcome
    calls: list[CallRecord]


async def run_scenario(core: "CoreVerbs", server: ScriptedModelServer, url: str, count: int, conversation_id: str,
                       on_event: EventSink = lambda _k, _p: None, abort: AbortSignal | None = None,
                       direct: bool = False, **overrides: Any) -> ScenarioResult:
    turn = scripted_turn(await core.read_agent_settings(), server, direct, **overrides)
    first = len(server.calls)
    outcome = await core.chat(conversation_id, scenario_prompt(url, count), on_event, abort, turn.settings,
                              turn.client)
    return ScenarioResult(outcome, server.calls[first:])


def _printer(kind: AgentEvent, data: dict[str, Any]) -> None:
    if kind in ("milestone", "subagent_milestone"):
        print(f"  [{data.get('step'):>2}] {data.get('summary')}", flush=True)
    elif kind == "tool_call" and data.get("name") == "task":
        print(f"main agent → task: {data['input'].get('description')}", flush=True)


async def _demo(headless: bool, count: int, delay_ms: int) -> int:
    from app.browser.launch import launch_browser
    from app.core.service import Core

    with tempfile.TemporaryDirectory(prefix="bua-demo-") as tmp:
        home = Path(tmp)
        core = Core(home)
        await core.start()
        server = ScriptedModelServer(route)
        site = StaticServer()
        browser = launch_browser(home, headless=headless)
        try:
            print(f"browser started ({'headless' if headless else 'window'}); waiting for the extension …", flush=True)
            await core.wait_for_browser(45)
            url = site_url(site, delay_ms)
            print(f"site: {url}\nasking: {scenario_prompt(url, count)}\n", flush=True)
            result = await run_scenario(core, server, url, count, "demo", _printer)
            print(f"\n{result.outcome.text}\n")
            main = [c for c in result.calls if c.role == "main"]
            sub = [c for c in result.calls if c.role == "subagent"]
            print(f"model calls: main {len(main)}, browser subagent {len(sub)}; "
                  f"main-thread input tokens {sum(c.prompt_chars for c in main) // 4}", flush=True)
            return 0 if result.outcome.status == "end_turn" else 1
        except TimeoutError:
            print("the extension did not connect; see the browser log at " + str(browser.log_path), file=sys.stderr)
            return 1
        finally:
            browser.stop()
            site.stop()
            server.stop()
            await core.close()


def has_display() -> bool:
    """Whether a browser window can be shown: always on macOS and Windows, with X11 or Wayland elsewhere."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def main(headless: bool | None = None, count: int = 3, delay_ms: int = 300) -> int:
    if headless is None:
        headless = not has_display()
    return asyncio.run(_demo(headless, count, delay_ms))
