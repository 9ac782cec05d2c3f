"""AgentRuntime: what every loop of one app shares — settings, the model client, the event sink."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from app.agent.model import ModelClient
from app.agent.settings import AgentSettings
from app.events import EventSink


@dataclass
class AgentRuntime:
    settings: AgentSettings
    client_factory: Callable[[AgentSettings], ModelClient] = ModelClient.from_settings
    on_event: EventSink = field(default=lambda _kind, _payload: None)
    _client: ModelClient | None = None

    def client(self) -> ModelClient:
        """Created on first use, so a missing key is reported when work starts, not at import."""
        if self._client is None:
            self._client = self.client_factory(self.settings)
        return self._client
