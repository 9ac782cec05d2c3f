"""The app's half of the safety checks, around every browser request (the pool calls `request` for each one, so
the chat's agents, MCP lanes and `bua act` all pass here).

1. Data flow (app.safety.dataflow, app.safety.flows): before an action goes out, what its declaration says its
   fields carry (app.protocol.actions.spec.Carries: typed text, keys, a URL, a script) is checked: text another
   site showed this task (or a script that can send the page's data to another site) asks the person; a deny
   answers `confirmation_required` and nothing is sent. A paste chord types what the task last copied (a copy's
   declared clipboard result), so copying on one site and pasting on another is a flow. "Allow for this task on this
   site" on such a question lets data flow to that site; it is kept apart from the same answer to a held action.
2. Sensitive actions: the extension holds them and answers `confirmation_required` with details and a one-time
   token (extension/src/safety/confirmations.js). The guard asks the person through the broker, and on Allow
   sends the same action again with the token in the request ENVELOPE (`approval`), which only the app writes:
   no action field can approve anything. "Allow for this task on this site" remembers (task, site), and later
   held actions of that task on that site are approved without asking. The token never reaches the model.
3. Every page-derived string of every result and error, as the action's declaration says
   (app.protocol.page_data), is shown to the data-flow memory under the site that produced it.

No check here reads an action's name: an action added tomorrow with a declared carrier is checked with no edit.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from app.abort import AbortSignal
from app.protocol.actions.carriers import carried_strings
from app.protocol.actions.spec import Carries
from app.protocol.envelope import ErrorBody, Response
from app.protocol.errors import ErrorCode
from app.protocol.page_data import page_data
from app.safety.confirmations import ConfirmationBroker, ConfirmationRequest, Decision
from app.safety.dataflow import DataFlow, Flow
from app.safety.flows import KeyChord, TypedTails, key_chord, key_text, script_flow, typing_flow
from app.safety.sites import site_of

Send = Callable[[Any, "str | None"], Awaitable[Response]]
"""Sends the action (with an approval token or None) to the extension and waits for its response."""
TaskWords = Callable[[str], str]
TabUrl = Callable[[str, int], "str | None"]


class SafetyGuard:
    def __init__(self, broker: ConfirmationBroker, task_words: TaskWords, tab_url: TabUrl) -> None:
        self.broker = broker
        self.dataflow = DataFlow()
        self._task_words = task_words
        self._tab_url = tab_url
        self._allowed_sites: set[tuple[str, str]] = set()
        self._allowed_flows: set[tuple[str, str]] = set()
        self._tails = TypedTails()
        self._current_tab: dict[str, int] = {}
        self._last_url: dict[tuple[str, int], str] = {}
        self._clipboard: dict[str, str] = {}
        """Per task: what its last copy put on the clipboard (a paste types it)."""

    def note_task_words(self, task_id: str, text: str) -> None:
        self.dataflow.note_task_words(task_id, text)

    def allowed_for_task(self, task_id: str, site: str) -> bool:
        """Held sensitive actions of this task on this site are allowed ("Allow for this task on this site")."""
        return (task_id, site) in self._allowed_sites

    def task_words(self, task_id: str) -> str:
        return self._task_words(task_id)

    def allow_task_site(self, task_id: str, site: str, *, sensitive: bool, data_flow: bool) -> None:
        """The person answered "Allow for this task on this site" elsewhere (a request held at the network,
        app.safety.network_holds): the same allowances as here."""
        if sensitive:
            self._allowed_sites.add((task_id, site))
        if data_flow:
            self._allowed_flows.add((task_id, site))

    def forget(self, task_id: str) -> None:
        """A task that can never act again (an MCP lane whose client went away: its next connection is a new task
        id) leaves nothing behind: its data-flow memory, typed tails, allowances, clipboard and tab URLs."""
        self.dataflow.forget(task_id)
        self._tails.forget(task_id)
        self._allowed_sites = {k for k in self._allowed_sites if k[0] != task_id}
        self._allowed_flows = {k for k in self._allowed_flows if k[0] != task_id}
        self._current_tab.pop(task_id, None)
        self._clipboard.pop(task_id, None)
        for key in [k for k in self._last_url if k[0] == task_id]:
            del self._last_url[key]

    def flows_allowed(self, task_id: str, site: str) -> bool:
        """Data from other sites may reach this site for this task: a separate allowance, given only on a data-flow
        question (allowing a click on a site never lets data flow there)."""
        return (task_id, site) in self._allowed_flows

    async def request(self, send: Send, action: Any, task_id: str, abort: AbortSignal | None) -> Response:
        if not isinstance(action, dict):
            return await send(action, None)
        # Where the tab is: the sessions table's URL and the last URL an action of this task reported for it. Either
        # can lag behind the other (chrome.tabs lags a navigation; a page can move on its own), so the data-flow
        # check asks when either would carry data to another site.
        dests = self._urls_of(task_id, action.get("tab_id"))
        flow = next((f for d in dests if (f := self._flow(task_id, action, d)) is not None), None) if dests \
            else self._flow(task_id, action, None)
        if flow is not None:
            refused = await self._confirm_flow(flow, action, task_id, abort)
            if refused is not None:
                return refused
        response = await send(action, None)
        held = _held(response)
        if held is not None:
            frame_url = held.get("frame_url")
            if isinstance(frame_url, str) and frame_url:
                # The field is in another site's frame: that site is where the text goes.
                dests = [frame_url]
                flow = self._flow(task_id, action, frame_url)
                refused = await self._confirm_flow(flow, action, task_id, abort, frame_url) if flow else None
                if refused is not None:
                    return refused
            if held.get("category") == "frame_destination":
                response = await send(action, str(held["token"]))
            else:
                response = await self._confirm_held(send, action, task_id, abort, response, held)
        self._typed(task_id, action, dests, response)
        self._observe(task_id, action, response)
        return _without_token(response)

    # -- data flow ---------------------------------------------------------
    def _flow(self, task_id: str, action: dict[str, Any], dest: str | None) -> Flow | None:
        """The data this action's declared carriers would take to another site (app.safety.flows); `dest`: where
        typing lands."""
        typed = self._typed_texts(task_id, action)
        if typed and dest and (flow := typing_flow(self.dataflow, self._tails, task_id, typed, dest)) is not None:
            return flow
        for url in carried_strings(action, Carries.URL):
            if (flow := self.dataflow.check_url(task_id, url)) is not None:
                return flow
        for script in carried_strings(action, Carries.SCRIPT):
            if (flow := script_flow(self.dataflow, task_id, script, dest or "")) is not None:
                return flow
        return None

    def _typed_texts(self, task_id: str, action: dict[str, Any]) -> list[str]:
        """What the action types into the page: its typed-text fields, the characters its keys type, and for a
        paste chord what the task last copied."""
        texts = carried_strings(action, Carries.TYPED_TEXT)
        for key in carried_strings(action, Carries.KEYS):
            pasted = self._clipboard.get(task_id, "") if key_chord(key) == KeyChord.PASTE else ""
            texts += [t for t in (key_text(key), pasted) if t]
        return texts

    def _typed(self, task_id: str, action: dict[str, Any], dests: list[str], response: Response) -> None:
        """What was typed joins the tail of each site the tab may be showing (a later piece is checked joined to it).
        Every candidate, not the first: when the sessions table still shows the previous page, a tail kept only
        under that site let a secret typed in pieces on the new one pass (seen once in a full CI run)."""
        if not response.ok:
            return
        typed = "".join(carried_strings(action, Carries.TYPED_TEXT))
        keys = carried_strings(action, Carries.KEYS)
        for site in dict.fromkeys(site_of(d) for d in dests):
            if typed:
                self._tails.add(task_id, site, typed)
            for key in keys:
                if key_chord(key) == KeyChord.PASTE:
                    self._tails.add(task_id, site, self._clipboard.get(task_id, ""))
                else:
                    self._tails.key(task_id, site, key)

    async def _confirm_flow(self, flow: Flow, action: dict[str, Any], task_id: str,
                            abort: AbortSignal | None, dest_url: str | None = None) -> Response | None:
        if self.flows_allowed(task_id, flow.dest_site):
            return None
        if dest_url is None:
            opened = carried_strings(action, Carries.URL)
            dest_url = opened[0] if opened else self._url_of(task_id, action.get("tab_id"))
        request = ConfirmationRequest(
            id=self.broker.new_id(), task_id=task_id, what=str(action.get("type")), site=flow.dest_site,
            url=str(dest_url or ""), element=f"text “{flow.sample()}”", quoted=flow.sample(),
            reason=flow.why or f"it carries data that {flow.source_site} showed to {flow.dest_site}",
            task_words=self._task_words(task_id), kind="data_flow")
        decision, why = await self.broker.ask(request, abort)
        if decision == Decision.DENY:
            return _refusal(request, why, abort=abort)
        if decision == Decision.ALLOW_TASK_SITE:
            self._allowed_flows.add((task_id, flow.dest_site))
        return None

    # -- held sensitive actions -------------------------------------------------
    async def _confirm_held(self, send: Send, action: dict[str, Any], task_id: str, abort: AbortSignal | None,
                            response: Response, held: dict[str, Any]) -> Response:
        site = site_of(str(held.get("url") or held.get("site") or ""))
        token = str(held.get("token") or "")
        request = ConfirmationRequest(
            id=self.broker.new_id(), task_id=task_id, what=str(held.get("what") or action.get("type")),
            site=site, url=str(held.get("url") or ""), element=str(held.get("element") or ""),
            reason=str(held.get("reason") or ""), task_words=self._task_words(task_id))
        if self.allowed_for_task(task_id, site):
            decision = Decision.ALLOW_ONCE
        else:
            decision, why = await self.broker.ask(request, abort)
            if decision == Decision.DENY:
                return _refusal(request, why, response.id, abort)
        if decision == Decision.ALLOW_TASK_SITE:
            self._allowed_sites.add((task_id, site))
        return await send(action, token)

    # -- what the task saw -------------------------------------------------------
    def _url_of(self, task_id: str, tab_id: Any) -> str | None:
        urls = self._urls_of(task_id, tab_id)
        return urls[0] if urls else None

    def _urls_of(self, task_id: str, tab_id: Any) -> list[str]:
        """What the app knows of the tab's URL: the sessions table's, then the last one an action reported."""
        tab = tab_id if isinstance(tab_id, int) else self._current_tab.get(task_id)
        if tab is None:
            return []
        known = [self._tab_url(task_id, tab), self._last_url.get((task_id, tab))]
        return list(dict.fromkeys(u for u in known if u))

    def _observe(self, task_id: str, action: dict[str, Any], response: Response) -> None:
        if not response.ok and response.error is not None:
            # An error can quote the page too (an element's text, candidates' names, a thrown exception).
            quoted = page_data({"action": action.get("type"),
                                "error": response.error.model_dump(mode="json", exclude_none=True)}).texts
            source = self._url_of(task_id, action.get("tab_id"))
            if quoted and source:
                self.dataflow.observe(task_id, source, "\n".join(quoted))
            return
        if not isinstance(response.result, dict):
            return
        result = response.result
        tab = result.get("tab_id") if isinstance(result.get("tab_id"), int) else result.get("current_tab_id")
        if isinstance(tab, int):
            self._current_tab[task_id] = tab
        elif isinstance(action.get("tab_id"), int):
            tab = action["tab_id"]
        else:
            tab = self._current_tab.get(task_id)
        url = result.get("url") if isinstance(result.get("url"), str) else None
        if url and isinstance(tab, int):
            self._last_url[(task_id, tab)] = url
        source = url or self._url_of(task_id, tab)
        if not source:
            return
        seen = page_data({"action": action.get("type"), "result": result})
        if seen.texts:
            self.dataflow.observe(task_id, source, "\n".join(seen.texts))
        if seen.copied:
            self._clipboard[task_id] = seen.copied[-1]


def _held(response: Response) -> dict[str, Any] | None:
    """The extension's confirmation details when it held a sensitive action for the person."""
    error = response.error
    if response.ok or error is None or error.code != ErrorCode.CONFIRMATION_REQUIRED:
        return None
    details = error.confirmation
    return details if isinstance(details, dict) and details.get("token") else None


def _refusal(request: ConfirmationRequest, why: str, response_id: str = "r0",
             abort: AbortSignal | None = None) -> Response:
    """The answer when the person did not approve; Stop while the question was open is `stopped`, as for any
    action Stop reaches."""
    if abort is not None and abort.aborted:
        return Response.failure(response_id, ErrorCode.STOPPED, abort.reason or "stopped")
    message = (f"the person did not approve this {request.what} on {request.site or 'this page'} "
               f"({request.element}: {request.reason}): {why}; nothing was sent to the page")
    details = {k: v for k, v in request.as_dict().items() if k in ("what", "site", "element", "reason", "kind")}
    quoted = [q for q in (request.quoted or request.element, request.reason) if q]
    return Response(id=response_id, ok=False, error=ErrorBody(
        code=ErrorCode.CONFIRMATION_REQUIRED, message=message, confirmation=details, page_text=quoted or None))


def _without_token(response: Response) -> Response:
    """A held action's token is for the app alone: the model never sees it. The element and reason its message
    quotes (the control's label) are listed as the page text they are."""
    error = response.error
    if error is None or not isinstance(error.confirmation, dict) or "token" not in error.confirmation:
        return response
    confirmation = {k: v for k, v in error.confirmation.items() if k != "token"}
    quoted = [str(confirmation[k]) for k in ("element", "reason") if confirmation.get(k)]
    page_text = list(dict.fromkeys([*(error.page_text or []), *quoted])) or None
    return response.model_copy(update={"error": error.model_copy(update={"confirmation": confirmation,
                                                                         "page_text": page_text})})
