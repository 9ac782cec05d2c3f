"""What the CLI, the UI and the demo may ask of the core: one method per verb, each change told once.

Every verb that changes something sends one `CoreEvent` to the core's listeners, whoever asked for it, so a
`bua blocklist add` shows in the tray's blocklist and a `bua stop` clears the tray's "needs you" as the
popup's own buttons do. Callers use these verbs and never reach into the pool or the store.
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from app.abort import AbortSignal
from app.agent.loop import LoopOutcome
from app.agent.model import ModelClient
from app.agent.settings import AgentSettings, Tier, tier_from_settings
from app.agent.task_board import TaskBoard
from app.bridge.pool import BrowserBridgePool
from app.core.chat import ChatService, ClientFactory
from app.core.control import Controls, StopReport, TaskHeld
from app.core.sessions import SessionsTable
from app.events import CoreEvent, CoreListener, EventSink, Listeners
from app.protocol.actions import ActionModel
from app.protocol.envelope import Response
from app.protocol.errors import ErrorCode
from app.safety.strict_mode import STRICT_SETTING, StrictMode, stored, strict_mode
from app.store.db import Store

EXPECTED_BROWSER_WAIT_S = 30.0
"""At most this long an action waits for a browser that is on its way (BrowserBridgePool.expected_for)."""


@dataclass
class BlocklistChange:
    patterns: list[str]
    """The whole stored list after the change."""
    browsers: list[dict[str, Any]] = field(default_factory=list)
    """Each connected browser's answer to the new list."""
    pattern: str = ""
    """The normalised entry that was added or removed."""


class CoreVerbs:
    """Mixed into `Core`, which builds the parts; kept apart so the CLI service can depend on the verbs without
    importing the core that builds it."""

    pool: BrowserBridgePool
    store: Store
    board: TaskBoard
    sessions: SessionsTable
    controls: Controls
    chat_service: ChatService

    def __init__(self) -> None:
        self.started = time.time()
        self._listeners: Listeners[CoreEvent, dict[str, Any]] = Listeners()

    # -- notifications ----------------------------------------------------
    def subscribe(self, listener: CoreListener) -> Callable[[], None]:
        return self._listeners.subscribe(listener)

    def notify(self, kind: CoreEvent, payload: dict[str, Any]) -> None:
        self._listeners.notify(kind, payload)

    # -- blocklist --------------------------------------------------------
    async def blocklist(self) -> list[str]:
        return await asyncio.to_thread(self.store.blocklist)

    async def block(self, entry: str) -> BlocklistChange:
        """Store the entry (raises app.store.blocklist.InvalidEntry with the reason) and send the list out."""
        pattern = await asyncio.to_thread(self.store.block, entry)
        change = await self.set_blocklist_changed()
        change.pattern = pattern
        return change

    async def unblock(self, entry: str) -> BlocklistChange | None:
        """None when the entry was not on the list (nothing changed, nothing sent)."""
        if not await asyncio.to_thread(self.store.unblock, entry):
            return None
        change = await self.set_blocklist_changed()
        change.pattern = entry
        return change

    async def set_blocklist_changed(self) -> BlocklistChange:
        """The one path after any change of the stored list: every browser gets it (each ends its sessions on
        newly blocked sites), then the listeners hear `blocklist_changed`."""
        browsers = await self.controls.push_blocklist()
        change = BlocklistChange(await self.blocklist(), browsers)
        self.notify("blocklist_changed", {"patterns": change.patterns, "browsers": browsers})
        return change

    # -- browsers ---------------------------------------------------------
    @property
    def browser_count(self) -> int:
        return len(self.pool.bridges)

    async def wait_for_browser(self, timeout: float) -> None:
        """Raises TimeoutError when no browser connects in time."""
        await self.pool.wait_for_bridge(timeout)

    def expect_browser(self, seconds: float) -> None:
        """A browser is starting (`bua browser`): actions wait for it to connect instead of failing at once."""
        self.pool.expect(seconds)

    async def act(self, action: ActionModel, task_id: str = "cli", abort: AbortSignal | None = None,
                  timeout: float | None = None, browser: str | None = None, wait_s: float | None = None,
                  person: bool = False) -> Response:
        """One browser action outside any agent (`bua act`); Stop reaches it like any task's.

        `wait_s`: how long to wait for a browser to connect; None waits only while one is expected (starting, or
        reconnecting: BrowserBridgePool.expected_for), so a machine with no browser answers at once with the
        setup step. `person`: the action is the person's own instruction at the command line (`bua act` without
        `--task`): like a new chat message it lifts an earlier stop of the task (docs/architecture.md, Sessions)."""
        if wait_s is None:
            await self.pool.wait_if_expected(EXPECTED_BROWSER_WAIT_S)
        else:
            await self.pool.wait_up_to(wait_s)
        abort = abort or AbortSignal()
        try:
            self.controls.register(task_id, abort, owner="action")
        except TaskHeld as held:
            return Response.failure("r0", ErrorCode.INVALID_ACTION, str(held))
        try:
            if person and self.pool.bridges:
                await self.controls.reopen(task_id)
            response = await self.pool.request(action, task_id, abort, timeout, browser)
        finally:
            self.controls.unregister(task_id, abort)
        self.notify("acted", {"task_id": task_id, "action": action.type_name, "ok": response.ok})
        return response

    async def status(self) -> dict[str, Any]:
        """A snapshot for `bua status`: browsers, live sessions, tasks and the blocklist (a read: no event)."""
        tasks = [{"task_id": t.task_id, "description": t.description, "status": t.status,
                  "steps": len(t.milestones), "last": t.milestones[-1].summary if t.milestones else "",
                  "usage": t.usage.as_dict()} for t in self.board.tasks.values()]
        return {"pid": os.getpid(), "uptime_s": round(time.time() - self.started, 1),
                "browsers": self.browsers(), "sessions": self.sessions.rows(), "tasks": tasks,
                "blocklist": await self.blocklist(), "store_recovered": await self.store_recovered()}

    def browsers(self) -> list[dict[str, Any]]:
        """The connected browsers: profile_id, browser, extension_version, host_pid, pending."""
        return self.pool.status()

    async def store_recovered(self) -> str | None:
        """What the person must know about a damaged store that was replaced (until dismissed), else None."""
        recovery = await asyncio.to_thread(self.store.last_recovery)
        return recovery.message() if recovery is not None else None

    async def dismiss_store_recovered(self) -> None:
        await asyncio.to_thread(self.store.dismiss_recovery)

    # -- the person's controls --------------------------------------------
    async def stop(self, task_id: str | None = None) -> StopReport:
        """Stop one task, or everything with None; listeners hear `stopped` once it is done everywhere."""
        report = await self.controls.stop(task_id)
        self.notify("stopped", {"task_id": task_id, "cancelled_tasks": report.cancelled_tasks,
                                "settled_requests": report.settled_requests})
        return report

    async def stop_all(self) -> StopReport:
        return await self.stop(None)

    async def stop_task(self, task_id: str) -> StopReport:
        return await self.stop(task_id)

    async def end_session(self, task_id: str, tab_id: int | None = None) -> list[dict[str, Any]]:
        return await self.controls.end_session(task_id, tab_id)

    async def show_tab(self, tab_id: int) -> list[dict[str, Any]]:
        """Bring a session tab to the front (hand-off); answered by the browser that holds it."""
        return await self.controls.broadcast("show_tab", {"tab_id": tab_id})

    async def strict_mode(self) -> StrictMode:
        return stored(await asyncio.to_thread(self.store.get_setting, STRICT_SETTING, None))

    async def set_strict_mode(self, all_sites: bool, sites: list[str]) -> list[dict[str, Any]]:
        """Store strict mode (raises app.store.blocklist.InvalidEntry for a site that is not a domain) and send it
        to every connected browser (app.safety.strict_mode)."""
        mode = strict_mode(all_sites, sites)
        await asyncio.to_thread(self.store.set_setting, STRICT_SETTING, mode.as_args())
        return await self.controls.broadcast("set_strict_mode", mode.as_args())

    async def set_idle_threshold(self, seconds: int) -> list[dict[str, Any]]:
        await asyncio.to_thread(self.store.set_setting, "idle_threshold_s", seconds)
        return await self.controls.broadcast("configure", {"idle_threshold_s": seconds})

    # -- chat -------------------------------------------------------------
    @property
    def client_factory(self) -> ClientFactory:
        """The factory the core was built with (read only: a turn that needs another client passes it)."""
        return self.chat_service.client_factory

    async def chat(self, conversation_id: str, text: str, on_event: EventSink = lambda _k, _p: None,
                   abort: AbortSignal | None = None, settings: AgentSettings | None = None,
                   client: ModelClient | None = None) -> LoopOutcome:
        """One main-agent turn. `settings` and `client` replace, for this turn only, the stored settings and a
        client from the core's factory (the demo's offline model; the UI's client built off the loop)."""
        return await self.chat_service.chat(conversation_id, text, on_event, abort, settings, client)

    # -- settings and history ---------------------------------------------
    def agent_settings(self) -> AgentSettings:
        """The agent's settings as stored (blocking: a store read); `read_agent_settings` off the loop."""
        get = self.store.get_setting
        defaults = AgentSettings()
        tier: Tier = tier_from_settings(get("tier", "standard"), bool(get("tier_browser", True)))
        return AgentSettings(
            main_model=get("main_model", defaults.main_model),
            subagent_model=get("subagent_model", defaults.subagent_model),
            base_url=get("base_url", None) or None,
            tier=tier,
            subagent_token_budget=int(get("subagent_token_budget", defaults.subagent_token_budget)),
        )

    async def read_agent_settings(self) -> AgentSettings:
        return await asyncio.to_thread(self.agent_settings)

    async def setting(self, key: str, default: Any = None) -> Any:
        return await asyncio.to_thread(self.store.get_setting, key, default)

    async def set_settings(self, values: dict[str, Any]) -> None:
        def write() -> None:
            for key, value in values.items():
                self.store.set_setting(key, value)
        await asyncio.to_thread(write)

    async def conversations(self) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self.store.conversations)

    async def messages(self, conversation_id: str) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self.store.messages, conversation_id)

    async def append_message(self, conversation_id: str, role: str, payload: dict[str, Any]) -> None:
        await asyncio.to_thread(self.store.append_message, conversation_id, role, payload)
