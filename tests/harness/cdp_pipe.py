"""A minimal CDP client over Chromium's --remote-debugging-pipe (fd 3 in, fd 4 out; NUL-separated JSON).

The baseline the pipe is compared with: the same command sent directly to the
browser, with no extension, host or socket in between.
"""

from __future__ import annotations

import json
import os
import threading
from concurrent.futures import Future
from typing import Any


class CdpPipe:
    def __init__(self, write_fd: int, read_fd: int) -> None:
        self._write = os.fdopen(write_fd, "wb", buffering=0)
        self._read = os.fdopen(read_fd, "rb", buffering=0)
        self._next = 0
        self._pending: dict[int, Future] = {}
        self._lock = threading.Lock()
        threading.Thread(target=self._reader, daemon=True).start()

    @staticmethod
    def child_fds() -> tuple[tuple[int, int], tuple[int, int], Any]:
        """Pipes for the browser, and a preexec function that puts them on fds 3 and 4."""
        to_browser = os.pipe()
        from_browser = os.pipe()

        def preexec() -> None:
            os.dup2(to_browser[0], 3)
            os.dup2(from_browser[1], 4)

        return to_browser, from_browser, preexec

    def _reader(self) -> None:
        buffer = b""
        while True:
            chunk = self._read.read(1 << 16)
            if not chunk:
                break
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                future = self._pending.pop(message.get("id", -1), None)
                if future is not None:
                    future.set_result(message)

    def send(self, method: str, params: dict | None = None, session_id: str | None = None,
             timeout: float = 30.0) -> dict:
        with self._lock:
            self._next += 1
            message_id = self._next
            future: Future = Future()
            self._pending[message_id] = future
        message: dict[str, Any] = {"id": message_id, "method": method, "params": params or {}}
        if session_id:
            message["sessionId"] = session_id
        self._write.write(json.dumps(message).encode() + b"\0")
        reply = future.result(timeout)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def extension_worker(self) -> str:
        """The target id of the extension's own service worker.

        Pages may register service workers too (the network-hold fixtures do), and they stay alive for the
        rest of the browser's run, so a bare `type == "service_worker"` would sometimes pick a page's.
        """
        workers = [t for t in self.send("Target.getTargets")["targetInfos"]
                   if t["type"] == "service_worker" and t["url"].startswith("chrome-extension://")]
        if not workers:
            raise RuntimeError("the extension's service worker is not running")
        return str(workers[0]["targetId"])
