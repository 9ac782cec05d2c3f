"""One connected browser profile: pending requests matched to responses by id.

`request()` settles exactly once: with the extension's response, with
`timeout` after the configured delay, at once with `stopped`
("aborted by caller") when the abort signal fires, or at once with
`extension_disconnected` for every pending request when the connection drops.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from dataclasses import dataclass, field
from typing import Any, Callable

from app.abort import AbortSignal
from app.bridge.stream import dumps
from app.bridge.tab_mirror import TabMirror
from app.protocol.actions import ActionModel
from app.protocol.actions.get_tabs import GetTabs
from app.protocol.envelope import Control, ControlOp, Event, Request, Response
from app.protocol.errors import ErrorCode, RequestErrorCode, error_body
from native_host import framing

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_S = 30.0
ACTION_MARGIN_S = 5.0
"""An action that waits (`timeout_ms`) gets its own wait plus this margin before the bridge gives up."""
EventListener = Callable[["BrowserBridge", Event], None]


@dataclass
class BridgeInfo:
    host_pid: int | None = None
    origin: str = ""
    extension_version: str | None = None
    browser: str | None = None
    profile_id: str | None = None
    host_errors: list[dict[str, Any]] = field(default_factory=list)


class BrowserBridge:
    _ids = itertools.count(1)

    def __init__(self, writer: asyncio.StreamWriter, info: BridgeInfo, on_event: EventListener,
                 on_tabs: Callable[[], None] = lambda: None) -> None:
        self._writer = writer
        self.info = info
        self._on_event = on_event
        self._pending: dict[str, asyncio.Future[Response]] = {}
        self._pending_task: dict[str, str | None] = {}
        self.ready = asyncio.Event()
        self.closed = False
        self.close_reason = ""
        self._unawaited: set[str] = set()
        """Controls sent without waiting (`cancel`): their answers are expected, and dropped quietly."""
        self._to_cancel: list[str] = []
        """Aborted actions whose work the extension is told to stop, in the next `cancel` frame."""
        self.tabs = TabMirror(on_tabs)
        """This connection's tab state, pushed by the extension: get_tabs is answered from it (tab_mirror.py)."""

    @property
    def pending_count(self) -> int:
        return len(self._pending)

    def pending_tasks(self) -> list[str | None]:
        """The task of each request in flight (None for the core's own controls: settings pushed at connect)."""
        return list(self._pending_task.values())

    async def request(
        self,
        action: ActionModel,
        task_id: str,
        abort: AbortSignal | None = None,
        timeout: float | None = DEFAULT_TIMEOUT_S,
        label: str | None = None,
        approval: str | None = None,
    ) -> Response:
        """Send a parsed action (app.protocol.actions.parse_action, at the edge that took it) and wait for its
        answer; it is serialised here, in its envelope, and nowhere before."""
        request_id = f"r{next(self._ids)}"
        if isinstance(action, GetTabs) and not self.closed and not (abort is not None and abort.aborted):
            mirrored = self.tabs.answer(task_id)
            if mirrored is not None:
                return Response(id=request_id, ok=True, result=mirrored)
        envelope = Request.of_action(request_id, task_id, action, task_label=label, approval=approval)
        return await self.send_and_wait(envelope.model_dump(mode="json", exclude_none=True), request_id, abort, timeout, task_id)

    async def control(self, op: ControlOp, args: dict[str, Any] | None = None, timeout: float | None = 5.0) -> Response:
        control_id = f"c{next(self._ids)}"
        message = Control(id=control_id, op=op, args=args or {}).model_dump(mode="json")
        return await self.send_and_wait(message, control_id, None, timeout)

    async def send_and_wait(
        self, message: dict[str, Any], message_id: str, abort: AbortSignal | None, timeout: float | None,
        task_id: str | None = None,
    ) -> Response:
        if self.closed:
            return self._disconnected(message_id)
        if abort is not None and abort.aborted:
            return Response.failure(message_id, ErrorCode.STOPPED, abort.reason or "aborted by caller")
        body = dumps(message)
        if len(body) > framing.MAX_TO_EXTENSION:
            return Response.failure(
                message_id,
                ErrorCode.PAYLOAD_TOO_LARGE,
                f"request is {len(body)} bytes; Chrome accepts at most {framing.MAX_TO_EXTENSION} bytes "
                "per message to the extension: send less text or split it",
            )
        future: asyncio.Future[Response] = asyncio.get_running_loop().create_future()
        self._pending[message_id] = future
        self._pending_task[message_id] = task_id
        remove_abort = abort.add_callback(
            lambda reason: self._aborted(message_id, reason, task_id is not None)
        ) if abort is not None else (lambda: None)
        timer = asyncio.get_running_loop().call_later(
            timeout, self._timed_out, message_id, task_id is not None, Response.failure(
                message_id, ErrorCode.TIMEOUT,
                f"no answer from the extension within {timeout:g} s; the page may be busy: extract to see its state",
            ),
        ) if timeout is not None else None
        try:
            self._writer.write(framing.encode_body(body))
            return await future
        finally:
            remove_abort()
            if timer is not None:
                timer.cancel()
            self._pending.pop(message_id, None)
            self._pending_task.pop(message_id, None)

    def _aborted(self, message_id: str, reason: str, is_action: bool) -> None:
        """An aborted request settles at once; an action's work in the extension is cancelled too, so a wait stops
        polling instead of running to its own timeout (Stop also ends the sessions; a single cancellation, such as
        an MCP client's, does only this). The cancellations of one moment go out as one `cancel` frame, sent
        after the abort callbacks ran (Stop all with 50 pending: one frame, not 50)."""
        was_pending = message_id in self._pending
        self._settle(message_id, Response.failure(message_id, ErrorCode.STOPPED, reason))
        if not (is_action and was_pending and not self.closed):
            return
        if not self._to_cancel:
            asyncio.get_running_loop().call_soon(self._send_cancels, reason)
        self._to_cancel.append(message_id)

    def _timed_out(self, message_id: str, is_action: bool, response: Response) -> None:
        """The app stops waiting for an action: its work in the extension is cancelled too (a request the page
        sent during it and that waits for the person is failed, extension/src/safety/network-hold.js)."""
        was_pending = message_id in self._pending
        self._settle(message_id, response)
        if is_action and was_pending and not self.closed:
            if not self._to_cancel:
                asyncio.get_running_loop().call_soon(self._send_cancels, "the action timed out")
            self._to_cancel.append(message_id)

    def _send_cancels(self, reason: str) -> None:
        ids, self._to_cancel = self._to_cancel, []
        if self.closed or not ids:
            return
        control_id = f"c{next(self._ids)}"
        self._unawaited.add(control_id)
        self._writer.write(framing.encode_body(dumps({"v": 1, "kind": "control", "id": control_id, "op": "cancel",
                                                      "args": {"request_ids": ids, "reason": reason}})))

    def abort_pending(self, reason: str, task_id: str | None = None) -> int:
        """Settle every pending request (of one task, or all) at once with `stopped`."""
        ids = [i for i, t in self._pending_task.items() if t is not None and (task_id is None or t == task_id)]
        for message_id in ids:
            self._settle(message_id, Response.failure(message_id, ErrorCode.STOPPED, reason))
        return len(ids)

    def _settle(self, message_id: str, response: Response) -> None:
        future = self._pending.pop(message_id, None)
        if future is not None and not future.done():
            future.set_result(response)

    def _disconnected(self, message_id: str) -> Response:
        return Response.failure(
            message_id, ErrorCode.EXTENSION_DISCONNECTED,
            f"the browser connection closed ({self.close_reason or 'host exited'}); "
            "it reconnects by itself: retry in a moment, or check that the extension is loaded",
        )

    def handle_message(self, message: dict[str, Any]) -> None:
        kind = message.get("kind")
        if kind == "response":
            try:
                response = Response.model_validate(message)
            except ValueError as err:
                log.warning("malformed response from extension: %s", err)
                message_id = message.get("id")
                if isinstance(message_id, str):
                    self._settle(message_id, Response.failure(
                        message_id, ErrorCode.INTERNAL_ERROR, f"malformed response from the extension: {err}"))
                return
            if response.id in self._unawaited:
                self._unawaited.discard(response.id)
                return
            if response.id not in self._pending:
                log.info("late or unknown response %s dropped", response.id)
            self._settle(response.id, response)
        elif kind == "event":
            if message.get("type") == "tab_state" and isinstance(message.get("data"), dict):
                self.tabs.apply(message["data"])  # the bridge's own: no listener needs it
                return
            try:
                event = Event.model_validate(message)
            except ValueError as err:
                log.warning("malformed or unknown event from the browser skipped: %s", err)
                self._note_host_error(error_body(RequestErrorCode.MALFORMED_EVENT,
                                                 f"skipped a malformed event: {err}"[:500]))
                return
            if event.type == "hello":
                data = event.data
                self.info.extension_version = data.get("extension_version")
                self.info.browser = data.get("browser")
                self.info.profile_id = data.get("profile_id")
                self.ready.set()
            elif event.type == "host_error":
                self._note_host_error(event.data)
                log.warning("native host reported: %s", event.data)
            self._on_event(self, event)
        else:
            log.warning("unknown frame kind %r from the browser ignored", kind)

    def _note_host_error(self, error: dict[str, Any]) -> None:
        """Kept (the last 20) for `bua status` and the logs; the connection goes on."""
        self.info.host_errors = (self.info.host_errors + [error])[-20:]

    def close(self, reason: str) -> None:
        if self.closed:
            return
        self.closed = True
        self.close_reason = reason
        self.tabs.distrust()
        for message_id in list(self._pending):
            self._settle(message_id, self._disconnected(message_id))
        self._unawaited.clear()
        self._writer.close()
