"""Asking the person about an action that is held, and remembering their "for this task on this site" answers.

An action is held in one of two places: by the extension, when it can pay, send, delete or change an account
(extension/src/safety/confirmations.js answers `confirmation_required` with details and a one-time token), or by
the app, when it would carry data another site showed the task (app.safety.flow_check). Either way the person
is asked through the confirmation broker (app.safety.confirmations) and answers Allow, "Allow for this task on
this site" or Deny. Allowing a held sensitive action sends it again with the token in the request envelope
(`approval`), which only the app writes: no action field can approve anything, and the token never reaches the
model. The two "for this task on this site" allowances are kept apart: allowing a click on a site never lets data
flow there.
"""

from __future__ import annotations

from typing import Any, Callable

from app.abort import AbortSignal
from app.protocol.actions import ActionModel
from app.protocol.envelope import ErrorBody, Response
from app.protocol.errors import ErrorCode
from app.protocol.page_data import frames_as_said
from app.safety.confirmations import ConfirmationBroker, ConfirmationRequest, Decision
from app.safety.dataflow import Flow
from app.safety.sites import site_of

TaskWords = Callable[[str], str]
"""The person's own words for a task (shown on the question)."""


class HeldActions:
    def __init__(self, broker: ConfirmationBroker, task_words: TaskWords) -> None:
        self.broker = broker
        self.task_words = task_words
        self._allowed_sites: set[tuple[str, str]] = set()
        self._allowed_flows: set[tuple[str, str]] = set()

    # -- the person's standing answers ----------------------------------------
    def allowed_for_task(self, task_id: str, site: str) -> bool:
        """Held sensitive actions of this task on this site are allowed ("Allow for this task on this site")."""
        return (task_id, site) in self._allowed_sites

    def flows_allowed(self, task_id: str, site: str) -> bool:
        """Data from other sites may reach this site for this task: given only on a data-flow question."""
        return (task_id, site) in self._allowed_flows

    def allow_task_site(self, task_id: str, site: str, *, sensitive: bool, data_flow: bool) -> None:
        if sensitive:
            self._allowed_sites.add((task_id, site))
        if data_flow:
            self._allowed_flows.add((task_id, site))

    def forget(self, task_id: str) -> None:
        self._allowed_sites = {k for k in self._allowed_sites if k[0] != task_id}
        self._allowed_flows = {k for k in self._allowed_flows if k[0] != task_id}

    # -- asking ------------------------------------------------------------------
    async def ask_flow(self, flow: Flow, action: ActionModel, task_id: str, dest_url: str,
                       abort: AbortSignal | None) -> Response | None:
        """Ask before data goes to another site; None: it may go (allowed now or earlier), else the refusal."""
        if self.flows_allowed(task_id, flow.dest_site):
            return None
        request = ConfirmationRequest(
            id=self.broker.new_id(), task_id=task_id, what=action.type_name, site=flow.dest_site, url=dest_url,
            element=f"text “{flow.sample()}”", quoted=flow.sample(),
            reason=flow.why or f"it carries data that {flow.source_site} showed to {flow.dest_site}",
            task_words=self.task_words(task_id), kind="data_flow")
        decision, why = await self.broker.ask(request, abort)
        if decision == Decision.DENY:
            return refusal(request, why, abort=abort)
        if decision == Decision.ALLOW_TASK_SITE:
            self._allowed_flows.add((task_id, flow.dest_site))
        return None

    async def ask_held(self, action: ActionModel, task_id: str, held: dict[str, Any], response: Response,
                       abort: AbortSignal | None) -> str | Response:
        """A sensitive action the extension held: the token to send it again with, or the refusal."""
        site = site_of(str(held.get("url") or held.get("site") or ""))
        request = ConfirmationRequest(
            id=self.broker.new_id(), task_id=task_id, what=str(held.get("what") or action.type_name),
            site=site, url=str(held.get("url") or ""), element=str(held.get("element") or ""),
            reason=str(held.get("reason") or ""), task_words=self.task_words(task_id))
        if not self.allowed_for_task(task_id, site):
            decision, why = await self.broker.ask(request, abort)
            if decision == Decision.DENY:
                return refusal(request, why, response.id, abort, response.error.frames if response.error else None)
            if decision == Decision.ALLOW_TASK_SITE:
                self._allowed_sites.add((task_id, site))
        return str(held.get("token") or "")


def held_details(response: Response) -> dict[str, Any] | None:
    """The extension's confirmation details when it held a sensitive action for the person."""
    error = response.error
    if response.ok or error is None or error.code != ErrorCode.CONFIRMATION_REQUIRED:
        return None
    details = error.confirmation
    return details if isinstance(details, dict) and details.get("token") else None


def refusal(request: ConfirmationRequest, why: str, response_id: str = "r0",
            abort: AbortSignal | None = None, frames: list[dict[str, Any]] | None = None) -> Response:
    """The answer when the person did not approve; Stop while the question was open is `stopped`, as for any
    action Stop reaches. `frames`: the held error's (a control in a frame of another origin is quoted as that
    frame's, extension/src/safety/confirmations.js), kept with the quotes the refusal repeats."""
    if abort is not None and abort.aborted:
        return Response.failure(response_id, ErrorCode.STOPPED, abort.reason or "stopped")
    message = (f"the person did not approve this {request.what} on {request.site or 'this page'} "
               f"({request.element}: {request.reason}): {why}; nothing was sent to the page")
    details = {k: v for k, v in request.as_dict().items() if k in ("what", "site", "element", "reason", "kind")}
    quoted = [q for q in (request.quoted or request.element, request.reason) if q]
    body = ErrorBody(code=ErrorCode.CONFIRMATION_REQUIRED, message=message, confirmation=details,
                     page_text=quoted or None)
    said = frames_as_said(frames or [], {"error": body.model_dump(mode="json", exclude_none=True)})
    return Response(id=response_id, ok=False, error=body.model_copy(update={"frames": said or None}))


def without_token(response: Response) -> Response:
    """A held action's token is for the app alone: the model never sees it, nor what the clipboard held (`pasted`). The element and reason its message
    quotes (the control's label) are listed as the page text they are."""
    error = response.error
    if error is None or not isinstance(error.confirmation, dict) or "token" not in error.confirmation:
        return response
    confirmation = {k: v for k, v in error.confirmation.items() if k not in ("token", "pasted")}
    quoted = [str(confirmation[k]) for k in ("element", "reason") if confirmation.get(k)]
    page_text = list(dict.fromkeys([*(error.page_text or []), *quoted])) or None
    return response.model_copy(update={"error": error.model_copy(update={"confirmation": confirmation,
                                                                         "page_text": page_text})})
