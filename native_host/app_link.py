"""The host's connection to the app: connect with retry, authenticate with the token."""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

from native_host import framing
from native_host.paths import socket_address, token_path

RETRY_SECONDS = 0.25


class AuthRefused(Exception):
    """The app answered the handshake with auth_error."""


class AppLink:
    """A framed, authenticated stream socket to the app; thread-safe sends."""

    def __init__(self, sock: Any) -> None:
        self._sock = sock
        self._send_lock = threading.Lock()

    def send_body(self, body: bytes) -> None:
        with self._send_lock:
            self._sock.sendall(framing.encode_body(body))

    def send(self, message: dict[str, object]) -> None:
        self.send_body(json.dumps(message, separators=(",", ":")).encode("utf-8"))

    def read_body(self) -> bytes | None:
        return framing.read_frame_body(self._sock.recv, framing.MAX_INBOUND)

    def close(self) -> None:
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()


def open_transport(address: str) -> Any:
    if sys.platform == "win32":  # pragma: no cover - named pipes exist only on Windows
        from native_host.win_pipe import open_pipe

        return open_pipe(address)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(address)
    except OSError:
        sock.close()
        raise
    return sock


def try_connect(home: Path, origin: str) -> AppLink | None:
    """One attempt: None when the app is not running; AuthRefused when it rejects the token."""
    try:
        token = token_path(home).read_text(encoding="utf-8").strip()
        sock = open_transport(socket_address(home))
    except OSError:
        return None
    link = AppLink(sock)
    try:
        link.send({"v": 1, "kind": "auth", "role": "host", "token": token, "pid": os.getpid(), "origin": origin})
        body = link.read_body()
    except (OSError, framing.FrameError):
        link.close()
        return None
    reply = framing.decode_body(body) if body else {}
    if reply.get("kind") != "auth_ok":
        link.close()
        raise AuthRefused(str(reply.get("message", "no reply to the handshake")))
    return link


def connect_with_retry(home: Path, origin: str, stop: threading.Event) -> AppLink | None:
    """Wait for the app to come up; returns None only when `stop` is set (stdin closed)."""
    while not stop.is_set():
        link = try_connect(home, origin)
        if link is not None:
            return link
        stop.wait(RETRY_SECONDS)
        time.sleep(0)
    return None
