"""The app's half of the safety checks, around every browser request (the pool calls `request` for each one, so
the chat's agents, MCP lanes and `bua act` all pass here). The action arrives parsed (app.protocol.actions.
parse_action, at the edge that took it) and is passed on as the model; this module only puts the parts in order:

1. Data flow (app.safety.flow_check): before an action goes out, what its declaration says its fields carry is
   checked against where the tab is (app.safety.tab_urls); data another site showed the task asks the person,
   and a deny answers `confirmation_required` with nothing sent.
2. Held sensitive actions: the extension holds them with a one-time token; the person is asked (app.safety.
   held_actions), and on Allow the same action goes again with the token in the request envelope.
3. What the task saw: every page-derived string of the result or error joins the data-flow memory under the site
   that showed it.

No check here reads an action's name: an action added tomorrow with a declared carrier is checked with no edit.
"""

from __future__ import annotations

from typing import Awaitable, Callable

from app.abort import AbortSignal
from app.protocol.actions import ActionModel
from app.protocol.actions.carriers import carried_strings
from app.protocol.actions.spec import Carries
from app.protocol.envelope import Response
from app.safety.confirmations import ConfirmationBroker
from app.safety.dataflow import DataFlow
from app.safety.flow_check import FlowCheck
from app.safety.held_actions import HeldActions, TaskWords, held_details, without_token
from app.safety.tab_urls import TabUrl, TabUrls

Send = Callable[[ActionModel, "str | None"], Awaitable[Response]]
"""Sends the action (with an approval token or None) to the extension and waits for its response."""


class SafetyGuard:
    def __init__(self, broker: ConfirmationBroker, task_words: TaskWords, tab_url: TabUrl) -> None:
        self.flows = FlowCheck()
        self.held = HeldActions(broker, task_words)
        self.tabs = TabUrls(tab_url)

    # -- what the network hold (app.safety.network_holds) and the core use --------
    @property
    def broker(self) -> ConfirmationBroker:
        return self.held.broker

    @property
    def dataflow(self) -> DataFlow:
        return self.flows.memory

    def task_words(self, task_id: str) -> str:
        return self.held.task_words(task_id)

    def note_task_words(self, task_id: str, text: str) -> None:
        self.flows.note_task_words(task_id, text)

    def allowed_for_task(self, task_id: str, site: str) -> bool:
        return self.held.allowed_for_task(task_id, site)

    def flows_allowed(self, task_id: str, site: str) -> bool:
        return self.held.flows_allowed(task_id, site)

    def allow_task_site(self, task_id: str, site: str, *, sensitive: bool, data_flow: bool) -> None:
        """The person answered "Allow for this task on this site" elsewhere (a request held at the network): the
        same allowances as here."""
        self.held.allow_task_site(task_id, site, sensitive=sensitive, data_flow=data_flow)

    def forget(self, task_id: str) -> None:
        """A task that can never act again (an MCP lane whose client went away: its next connection is a new task
        id) leaves nothing behind: its data-flow memory, typed tails, clipboard, allowances and tab URLs."""
        self.flows.forget(task_id)
        self.held.forget(task_id)
        self.tabs.forget(task_id)

    # -- one request -----------------------------------------------------------
    async def request(self, send: Send, action: ActionModel, task_id: str, abort: AbortSignal | None) -> Response:
        tab_id = getattr(action, "tab_id", None)
        dests = self.tabs.urls_of(task_id, tab_id)
        flow = next((f for d in dests if (f := self.flows.flow(task_id, action, d)) is not None), None) if dests \
            else self.flows.flow(task_id, action, None)
        asked_before = flow is not None
        if flow is not None:
            opened = carried_strings(action, Carries.URL)
            dest_url = opened[0] if opened else self.tabs.url_of(task_id, tab_id)
            refused = await self.held.ask_flow(flow, action, task_id, dest_url or "", abort)
            if refused is not None:
                return refused
        response = await send(action, None)
        held = held_details(response)
        if held is not None:
            frame_url = held.get("frame_url")
            if isinstance(frame_url, str) and frame_url:
                # The field is in another site's frame: that site is where the text goes.
                dests = [frame_url]
                flow = self.flows.flow(task_id, action, frame_url)
                refused = await self.held.ask_flow(flow, action, task_id, frame_url, abort) if flow else None
                if refused is not None:
                    return refused
            refused = await self._paste_refused(held, action, task_id, dests, asked_before, abort)
            if refused is not None:
                return refused
            if held.get("check_only") is True:
                response = await send(action, str(held["token"]))
            else:
                approved = await self.held.ask_held(action, task_id, held, response, abort)
                if isinstance(approved, Response):
                    return approved
                response = await send(action, approved)
        self._saw(task_id, action, tab_id, dests, response)
        return without_token(response)

    async def _paste_refused(self, held: dict[str, object], action: ActionModel, task_id: str, dests: list[str],
                             asked_before: bool, abort: AbortSignal | None) -> Response | None:
        """A paste types what the clipboard holds at paste time (`pasted`, read by the extension), whoever copied it:
        bua's copy chord, the page's own Copy button, the person. It is judged as text typed where it lands; the
        text the person allowed just before the send (what bua's copy chord took) is not asked about again."""
        pasted = held.get("pasted")
        if not isinstance(pasted, str) or not pasted:
            return None
        seen_before = asked_before and pasted == self.flows.clipboard_of(task_id)
        flow = None if seen_before else next(
            (f for d in dests if (f := self.flows.pasted_flow(task_id, pasted, d)) is not None), None)
        return await self.held.ask_flow(flow, action, task_id, dests[0] if dests else "", abort) if flow else None

    def _saw(self, task_id: str, action: ActionModel, tab_id: int | None, dests: list[str],
             response: Response) -> None:
        if not response.ok:
            if response.error is not None:
                self.flows.saw_error(task_id, action, response.error, self.tabs.url_of(task_id, tab_id))
            return
        self.flows.typed(task_id, action, dests)
        if isinstance(response.result, dict):
            source = self.tabs.note_result(task_id, tab_id, response.result)
            if source:
                self.flows.saw_result(task_id, action, response.result, source)
