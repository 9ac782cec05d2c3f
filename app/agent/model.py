"""The model client: AsyncAnthropic streaming, cancellable through an AbortSignal, with clear errors.

`anthropic` is imported on first use, not at import time: it costs 1.3-2 s
of CPU and ~67 MB, which the tray app must not pay before its window shows.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    import anthropic

from app.abort import AbortSignal
from app.agent.keys import get_api_key
from app.agent.settings import AgentSettings


class ModelError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Aborted(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


MISSING_KEY = ("no Anthropic API key: add it in Settings (stored in the system keyring) or set ANTHROPIC_API_KEY; "
               "`bua demo` runs without one")


def _explain(err: Exception) -> ModelError:
    import anthropic

    if isinstance(err, anthropic.AuthenticationError):
        return ModelError("auth", "the API key was rejected (401): check it in Settings or ANTHROPIC_API_KEY")
    if isinstance(err, anthropic.PermissionDeniedError):
        return ModelError("permission", f"the API refused this request (403): {err.message}")
    if isinstance(err, anthropic.NotFoundError):
        return ModelError("not_found", f"model or endpoint not found (404): {err.message}; check the model name")
    if isinstance(err, anthropic.RateLimitError):
        retry = err.response.headers.get("retry-after")
        hint = f" (retry after {retry} s)" if retry else ""
        return ModelError("rate_limited", f"rate limited by the API (429) after retries{hint}; try again later")
    if isinstance(err, anthropic.APIStatusError):
        if err.status_code == 529 or "overloaded" in str(err.message).lower():
            return ModelError("overloaded", "the API is overloaded (529) after retries; try again in a minute")
        return ModelError("server", f"the API failed ({err.status_code}) after retries: {err.message}")
    if isinstance(err, anthropic.APITimeoutError):
        return ModelError("timeout", "the API did not answer in time after retries")
    if isinstance(err, anthropic.APIConnectionError):
        return ModelError("connection", f"cannot reach the API: {err}; check the network or the base URL")
    return ModelError("unknown", f"{type(err).__name__}: {err}")


class ModelClient:
    def __init__(self, api_key: str, base_url: str | None = None, max_retries: int = 2,
                 timeout: float = 120.0) -> None:
        import anthropic

        self.client = anthropic.AsyncAnthropic(api_key=api_key, base_url=base_url, max_retries=max_retries,
                                               timeout=timeout)

    @classmethod
    def from_settings(cls, settings: AgentSettings) -> "ModelClient":
        key = get_api_key()
        if not key:
            raise ModelError("missing_key", MISSING_KEY)
        return cls(key, settings.base_url, settings.api_retries)

    async def stream(
        self,
        *,
        model: str,
        system: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        messages: list[dict[str, Any]],
        max_tokens: int,
        abort: AbortSignal,
        on_text: Callable[[str], None] = lambda _t: None,
    ) -> "anthropic.types.Message":
        import anthropic

        async def run() -> "anthropic.types.Message":
            kwargs: dict[str, Any] = {"model": model, "system": system, "messages": messages,
                                      "max_tokens": max_tokens}
            if tools:
                kwargs["tools"] = tools
            async with self.client.messages.stream(**kwargs) as stream:
                async for event in stream:
                    if event.type == "text":
                        on_text(event.text)
                return await stream.get_final_message()

        if abort.aborted:
            raise Aborted(abort.reason or "aborted")
        task = asyncio.ensure_future(run())
        remove = abort.add_callback(lambda _reason: task.cancel())
        try:
            return await task
        except asyncio.CancelledError:
            if abort.aborted:
                raise Aborted(abort.reason or "aborted") from None
            raise
        except anthropic.APIError as err:
            raise _explain(err) from None
        finally:
            remove()
