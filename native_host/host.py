"""The host's main loop: relay frames between Chrome's stdio and the app's socket.

It never interprets an action. It checks only that each frame is within the
size limits and starts as a JSON object (the app parses each frame and
reports one that is not JSON; frames from the app are parsed here), and
reports malformed frames to the app as `event host_error` instead of dying
or hanging. EOF on either side ends the
process: Chrome gives no other signal when the port closes.
"""

from __future__ import annotations

import collections
import json
import os
import sys
import threading
from pathlib import Path
from typing import BinaryIO

from native_host import framing
from native_host.app_link import AppLink, AuthRefused, connect_with_retry
from native_host.paths import bua_home

PENDING_BYTES = 64 * 1024 * 1024
"""Bytes of frames from the extension kept while the app is not (yet) connected; past it the oldest go."""
LOST_NAMED = 100
"""How many dropped frames the notice names one by one (the rest are counted)."""


def _event(type_: str, **data: object) -> dict[str, object]:
    return {"v": 1, "kind": "event", "type": type_, "data": data}


def describe(message: dict[str, object]) -> str:
    """What a frame is, for a notice that it was lost: `response r12`, `event session_started`."""
    kind = str(message.get("kind", "frame"))[:40]
    label = message.get("id") if kind != "event" else message.get("type")
    return f"{kind} {str(label)[:80]}" if label is not None else kind


def _what(body: bytes) -> str:
    try:
        return describe(framing.decode_body(body))
    except framing.FrameError:
        return "a frame"


def _why_not_an_object(body: bytes) -> str:
    """The reason a frame that does not start as an object is refused, as decode_body words it."""
    try:
        framing.decode_body(body)
    except framing.FrameError as err:
        return str(err)
    return "frame body is not a JSON object"


class Relay:
    def __init__(self, stdin: BinaryIO, stdout: BinaryIO, origin: str) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.origin = origin
        self.stop = threading.Event()
        self._out_lock = threading.Lock()
        self._link_lock = threading.Lock()
        self._link: AppLink | None = None
        self._pending: collections.deque[tuple[bytes, str]] = collections.deque()
        self._pending_bytes = 0
        self.pending_limit = PENDING_BYTES
        self._lost = 0
        self._lost_names: list[str] = []

    # -- extension side -------------------------------------------------
    def to_extension(self, body: bytes) -> None:
        with self._out_lock:
            self.stdout.write(framing.encode_body(body))
            self.stdout.flush()

    def to_app(self, body: bytes, what: str | None = None) -> None:
        """`what` names the frame in a notice that it was lost (None: read from the frame, only if it is kept)."""
        with self._link_lock:
            link = self._link
            if link is None:
                self._keep(body, what if what is not None else _what(body))
                return
        try:
            link.send_body(body)
        except OSError:
            self.shutdown(0)

    def _keep(self, body: bytes, what: str) -> None:
        """Hold a frame for the app (lock held); past the byte limit the oldest held frames go, and are noted."""
        self._pending.append((body, what))
        self._pending_bytes += len(body)
        while self._pending_bytes > self.pending_limit and len(self._pending) > 1:
            old, old_what = self._pending.popleft()
            self._pending_bytes -= len(old)
            self._lost += 1
            if len(self._lost_names) < LOST_NAMED:
                self._lost_names.append(f"{old_what} ({len(old)} bytes)")

    def _lost_notice(self) -> bytes | None:
        """One host_error naming what was dropped while the app was away (lock held), or None."""
        if not self._lost:
            return None
        more = f" and {self._lost - len(self._lost_names)} more" if self._lost > len(self._lost_names) else ""
        notice = _event("host_error", code="frames_dropped", side="extension", fatal=False,
                        dropped=self._lost_names, dropped_count=self._lost,
                        message=f"while the app was away, {self._lost} waiting frame(s) went over the "
                                f"{self.pending_limit}-byte limit and were dropped, oldest first: "
                                f"{', '.join(self._lost_names)}{more}")
        self._lost, self._lost_names = 0, []
        return json.dumps(notice).encode()

    def report(self, message: str, *, fatal: bool, side: str) -> None:
        body = json.dumps(_event("host_error", code="malformed_frame", side=side, message=message, fatal=fatal)).encode()
        self.to_app(body, "a host_error")

    def pump_stdin(self) -> None:
        """Main thread: Chrome → app."""
        while True:
            try:
                body = framing.read_frame_body(self.stdin, framing.MAX_INBOUND)
            except framing.FrameError as err:
                self.report(str(err), fatal=True, side="extension")
                return
            if body is None:
                return
            if not framing.starts_as_object(body):
                self.report(_why_not_an_object(body), fatal=False, side="extension")
                continue
            # Not parsed here: the app parses every frame and reports one that is not JSON (a screenshot's frame
            # took ~25 ms to parse on a loaded machine, and the app parsed it again).
            self.to_app(body)

    # -- app side -------------------------------------------------------
    def pump_socket(self, home: Path) -> None:
        """Worker thread: connect to the app, then app → Chrome until EOF."""
        try:
            link = connect_with_retry(home, self.origin, self.stop)
        except AuthRefused as err:
            self.to_extension(json.dumps(_event("host_error", code="auth_failed", message=str(err))).encode())
            self.shutdown(1)
            return
        if link is None:
            return
        with self._link_lock:
            self._link = link
            notice = self._lost_notice()
            backlog = ([notice] if notice else []) + [body for body, _what in self._pending]
            self._pending.clear()
            self._pending_bytes = 0
        try:
            for waiting in backlog:
                link.send_body(waiting)
        except OSError:  # the app went away again while the backlog was sent: Chrome restarts the host
            self.shutdown(0)
            return
        self.to_extension(json.dumps(_event("host_ready", pid=os.getpid())).encode())
        while not self.stop.is_set():
            try:
                body = link.read_body()
            except (OSError, framing.FrameError) as err:
                if not self.stop.is_set():
                    self.report(str(err), fatal=True, side="app")
                break
            if body is None:
                break
            self._forward_to_extension(link, body)
        self.shutdown(0)

    def _forward_to_extension(self, link: AppLink, body: bytes) -> None:
        try:
            message = framing.decode_body(body)
        except framing.FrameError as err:
            self.report(str(err), fatal=False, side="app")
            return
        if len(body) > framing.MAX_TO_EXTENSION:
            if "id" in message:
                error = {"code": "payload_too_large",
                         "message": f"message of {len(body)} bytes exceeds Chrome's 1 MiB limit to the extension"}
                link.send({"v": 1, "kind": "response", "id": message["id"], "ok": False, "error": error})
            else:
                self.report(f"dropped a {len(body)}-byte frame over Chrome's 1 MiB limit", fatal=False, side="app")
            return
        self.to_extension(body)

    def shutdown(self, code: int) -> None:
        self.stop.set()
        with self._link_lock:
            link, self._link = self._link, None
        if link is not None:
            link.close()
        try:
            self.stdout.flush()
        finally:
            os._exit(code)


def main(argv: list[str]) -> int:
    if "--version" in argv:
        print("bua-native-host 1")
        return 0
    origin = argv[1] if len(argv) > 1 else ""
    relay = Relay(sys.stdin.buffer, sys.stdout.buffer, origin)
    worker = threading.Thread(target=relay.pump_socket, args=(bua_home(),), daemon=True)
    worker.start()
    relay.pump_stdin()
    relay.shutdown(0)
    return 0
