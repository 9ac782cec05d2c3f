"""Model clients built off the event loop. Creating one loads the system CA bundle and the HTTP stack
(50-300 ms of CPU); done on the loop at the start of a turn, that froze the window. So each turn gets a client
built in a worker thread with the core's client factory, reused while the settings hold, and passes it to
`Core.chat`."""

from __future__ import annotations

import asyncio
import importlib
import logging
from typing import Any, Callable

from app.abort import AbortSignal
from app.agent.model import ModelClient, ModelError
from app.agent.settings import AgentSettings

log = logging.getLogger(__name__)
Factory = Callable[[AgentSettings], ModelClient]

# Modules the SDK imports lazily during its first request; importing them early in a thread keeps that
# first request from importing on the loop. Unknown names are skipped (they are an optimisation only).
FIRST_REQUEST_MODULES = ("anyio._backends._asyncio", "anyio.streams.memory", "anyio.streams.stapled",
                         "anyio._core._sockets", "opentelemetry.propagate", "app.agent.subagent_run")


def _one_streamed_reply() -> None:
    """The SDK builds (and caches, process-wide) a pydantic validator per content-block type the first time a
    stream carries one: 20-50 ms each. One streamed reply with a text and a tool_use block from the offline
    model, here in the worker thread (on a loop of its own), means no turn pays that on the app's loop."""
    from app.demo.scripted_model.conversation import text, tool_use
    from app.demo.scripted_model.server import Reply, ScriptedModelServer

    server = ScriptedModelServer(lambda _body: Reply([text("ok"), tool_use("prewarm", {"x": 1})], "tool_use"))
    try:
        asyncio.run(_stream_once(server.base_url))
    finally:
        server.stop()


async def _stream_once(base_url: str) -> None:
    client = ModelClient("prewarm-no-key", base_url, max_retries=0)
    try:
        await client.stream(model="prewarm", system=[], max_tokens=8, abort=AbortSignal(),
                            messages=[{"role": "user", "content": "hi"}],
                            tools=[{"name": "prewarm", "input_schema": {"type": "object"}}])
    finally:
        await client.client.close()


def prewarm() -> None:
    """Blocking: run in a thread once the window is up. Failures only cost the optimisation."""
    for name in FIRST_REQUEST_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    ModelClient("prewarm-no-key", None, 0)
    try:
        _one_streamed_reply()
    except Exception:  # an optimisation only; a real turn reports real errors
        log.debug("prewarming the model SDK failed", exc_info=True)


def _key(settings: AgentSettings) -> tuple[Any, ...]:
    return settings.base_url, settings.api_retries


class OffLoopClients:
    def __init__(self, factory: Factory) -> None:
        self.inner = factory
        self._cache: dict[tuple[Any, ...], ModelClient] = {}

    async def client(self, settings: AgentSettings) -> ModelClient | None:
        """The client for these settings, built in a thread the first time; None when it cannot be built (a
        missing key): the turn then asks the core's factory itself and says why."""
        if _key(settings) not in self._cache:
            try:
                self._cache[_key(settings)] = await asyncio.to_thread(self.inner, settings)
            except ModelError:
                return None
        return self._cache[_key(settings)]

    def invalidate(self) -> None:
        """The key or the endpoint may have changed (Settings saved)."""
        self._cache.clear()
