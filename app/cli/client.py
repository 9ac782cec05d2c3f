"""A blocking client for the core's local socket (used by `bua act`, `bua status`, …)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any, Callable

from native_host import framing
from native_host.app_link import open_transport
from native_host.paths import socket_address, token_path


class CoreUnavailable(Exception):
    """No core is running for this BUA_HOME, or it refused us."""


def _why(err: OSError) -> str:
    """What went wrong, in words: nothing to add when there is simply no core (no token file, no socket)."""
    if isinstance(err, (FileNotFoundError, ConnectionRefusedError)):
        return ""
    return f" ({err.strerror or type(err).__name__})"


class CoreClient:
    def __init__(self, home: Path) -> None:
        self.home = home
        self._ids = itertools.count(1)
        try:
            token = token_path(home).read_text(encoding="utf-8").strip()
            self._sock = open_transport(socket_address(home))
        except OSError as err:
            raise CoreUnavailable(f"no bua core is running for {home}{_why(err)}; start it with `bua serve` (or "
                                  "`bua` for the app)") from None
        self._send({"v": 1, "kind": "auth", "role": "cli", "token": token})
        reply = self._receive()
        if reply.get("kind") != "auth_ok":
            raise CoreUnavailable(f"the core refused the connection: {reply.get('message', 'no reason')}")

    def _send(self, message: dict[str, Any]) -> None:
        self._sock.sendall(framing.encode(message))

    def _receive(self) -> dict[str, Any]:
        body = framing.read_frame_body(self._sock.recv)
        if body is None:
            raise CoreUnavailable("the core closed the connection")
        return framing.decode_body(body)

    def call(self, op: str, on_event: Callable[[str, dict[str, Any]], None] | None = None,
             **args: Any) -> dict[str, Any]:
        """Send one op; streamed `cli_event` frames go to `on_event` until the `cli_result` arrives."""
        self._send({"v": 1, "kind": "cli", "id": str(next(self._ids)), "op": op, "args": args})
        while True:
            message = self._receive()
            if message.get("kind") != "cli_event":
                return message
            if on_event is not None:
                on_event(str(message.get("type")), message.get("data") or {})

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> "CoreClient":
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def dumps(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)
