"""The "Try the demo" button: the offline model and the demo site drive this app's own core (and a browser
the app starts when none is connected), so the person sees milestones, sessions and Stop work without a key."""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Awaitable, Callable

from app.abort import AbortSignal
from app.agent.loop import LoopOutcome
from app.core.service import Core
from app.demo.run import scenario_prompt, scripted_turn, site_url
from app.demo.scripted_model.policy import route
from app.demo.scripted_model.server import ScriptedModelServer
from app.demo.site_server import StaticServer
from app.events import EventSink

CONNECT_TIMEOUT_S = 45.0


def has_display() -> bool:
    return sys.platform in ("darwin", "win32") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class DemoRunner:
    def __init__(self, core: Core, start_browser: Callable[[], Awaitable[None]], count: int = 3,
                 delay_ms: int = 300) -> None:
        self.core = core
        self.start_browser = start_browser
        self.count = count
        self.delay_ms = delay_ms
        self.server: ScriptedModelServer | None = None
        self.site: StaticServer | None = None
        self.url = ""

    @property
    def prompt(self) -> str:
        return scenario_prompt(self.url, self.count)

    async def prepare(self, on_status: Callable[[str], None]) -> None:
        """Start the offline model and the site; make sure a browser with the extension is connected."""
        if self.server is None:
            self.server = await asyncio.to_thread(ScriptedModelServer, route)
            self.site = await asyncio.to_thread(StaticServer)
            self.url = site_url(self.site, self.delay_ms)
        if self.core.browser_count:
            return
        on_status("Starting a browser with the bua extension …")
        await self.start_browser()
        on_status("Waiting for the extension to connect …")
        await self.core.wait_for_browser(CONNECT_TIMEOUT_S)

    async def run(self, conversation_id: str, on_event: EventSink, abort: AbortSignal) -> LoopOutcome:
        """One scenario turn on the offline model, its client built off the loop; the core's own model settings
        and client factory are left as they are."""
        assert self.server is not None, "prepare() first"
        turn = await asyncio.to_thread(scripted_turn, await self.core.read_agent_settings(), self.server)
        return await self.core.chat(conversation_id, self.prompt, on_event, abort, turn.settings, turn.client)

    def close(self) -> None:
        for part in (self.site, self.server):
            if part is not None:
                part.stop()
        self.site = self.server = None
