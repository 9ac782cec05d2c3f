"""Error codes of the wire protocol, each with the next step the model should take (docs/architecture.md,
"Errors"). The extension gets the codes from `extension/src/generated/protocol.js`; the prompt gets the guidance."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    INVALID_ACTION = "invalid_action"
    ELEMENT_NOT_FOUND = "element_not_found"
    ELEMENT_STALE = "element_stale"
    NOT_INTERACTABLE = "not_interactable"
    TIMEOUT = "timeout"
    NAVIGATION_FAILED = "navigation_failed"
    SESSION_NOT_FOUND = "session_not_found"
    BLOCKED = "blocked"
    FORBIDDEN_URL = "forbidden_url"
    TAB_NOT_FOUND = "tab_not_found"
    EVALUATE_FAILED = "evaluate_failed"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    EXTENSION_DISCONNECTED = "extension_disconnected"
    STOPPED = "stopped"
    CONFIRMATION_REQUIRED = "confirmation_required"
    FILE_NOT_ALLOWED = "file_not_allowed"
    INTERNAL_ERROR = "internal_error"


GUIDANCE: dict[ErrorCode, str] = {
    ErrorCode.INVALID_ACTION: "the input was wrong; the message names the field and the valid values; fix it, don't "
                              "repeat it.",
    ErrorCode.ELEMENT_NOT_FOUND: "no such uid or the selector matched nothing; use a candidate from the error or "
                                 "extract again.",
    ErrorCode.ELEMENT_STALE: "the uid is from an older extract (the page changed); extract again and use the new uid.",
    ErrorCode.NOT_INTERACTABLE: "something covers the element or it is disabled; read what covers it, close that "
                                "(dialog, banner) or scroll, then retry.",
    ErrorCode.TIMEOUT: "the page did not reach the state in time; extract and investigate what is on screen instead "
                       "of repeating the same wait.",
    ErrorCode.NAVIGATION_FAILED: "the URL did not load (DNS, refused, HTTP error); check the URL or report it.",
    ErrorCode.SESSION_NOT_FOUND: "this task does not hold that tab (closed, or never its own); navigate or open_tab "
                                 "for a tab of your own, or report your partial results.",
    ErrorCode.BLOCKED: "the person blocked this site for the agent; do not try to reach it another way; report it.",
    ErrorCode.FORBIDDEN_URL: "only http(s) pages can be opened; no javascript:, file:, data: or browser pages.",
    ErrorCode.TAB_NOT_FOUND: "the tab is gone; call get_tabs or navigate to open a new one.",
    ErrorCode.EVALUATE_FAILED: "the script threw; read the message and fix the expression, or use extract instead.",
    ErrorCode.PAYLOAD_TOO_LARGE: "the request or result was too big; scope it (selector, max_chars, smaller "
                                 "screenshot).",
    ErrorCode.EXTENSION_DISCONNECTED: "the browser connection dropped; wait a moment and retry once, then report.",
    ErrorCode.STOPPED: "the person stopped this task (Stop, Stop all, End, idle or a blocked site); do nothing more in "
                       "the browser: report what you did and found so far.",
    ErrorCode.CONFIRMATION_REQUIRED: "the person did not approve this action (it can pay, send, delete or change an "
                                     "account, or carry one site's data to another); don't retry it another way: "
                                     "hand off with status needs_user and say what to approve.",
    ErrorCode.FILE_NOT_ALLOWED: "the file is outside the folders the person allowed for the agent (Settings → "
                                "Files); don't look for another way to it: hand off with status needs_user and ask "
                                "the person to allow the folder the message names.",
    ErrorCode.INTERNAL_ERROR: "something broke in bua; retry once, then report the message.",
}

STOPPED_DOWNLOAD_STEP = ("bua stopped this executable download (the person did not approve it) and no file was kept; "
                         "don't fetch it another way: hand off with status needs_user and ask the person to "
                         "download it themselves.")
"""The next step of a click whose download bua stopped (its effects' `download.stopped`): not an error, as the
click itself worked."""


class RequestErrorCode(StrEnum):
    """Errors of a request to bua itself, not of a browser action: a CLI or MCP-lane frame, a blocklist edit, an
    event the extension sent that bua cannot read. Every code has its next step, as ErrorCode's do."""

    INVALID_REQUEST = "invalid_request"
    INVALID_ENTRY = "invalid_entry"
    NOT_FOUND = "not_found"
    MALFORMED_EVENT = "malformed_event"
    MALFORMED_FRAME = "malformed_frame"


REQUEST_GUIDANCE: dict[RequestErrorCode, str] = {
    RequestErrorCode.INVALID_REQUEST: "the request to bua was malformed (the message names the op or field and the "
                                      "valid values); fix it and send it again.",
    RequestErrorCode.INVALID_ENTRY: "a blocklist entry is a domain (bank.example) or a wildcard over one "
                                    "(*.bank.example), without a scheme or path; correct it and add it again.",
    RequestErrorCode.NOT_FOUND: "nothing of that name is there; list what there is (`bua blocklist list`) and use "
                                "one of those.",
    RequestErrorCode.MALFORMED_EVENT: "the extension sent an event bua could not read and it was skipped; if this "
                                      "repeats, reinstall the extension of this bua version (`bua install`).",
    RequestErrorCode.MALFORMED_FRAME: "a frame between the browser and bua was not JSON and was skipped, with "
                                      "nothing else lost; if this repeats, reinstall this bua version's extension "
                                      "and native host (`bua install`).",
}


def next_step_for(code: str) -> str | None:
    """The next step bua knows for an error code of either kind, or None for a code it does not know."""
    for table in (GUIDANCE, REQUEST_GUIDANCE):
        for known, step in table.items():
            if known.value == code:
                return step
    return None


def error_body(code: ErrorCode | RequestErrorCode, message: str) -> dict[str, str]:
    """A reply's `error` member: the code, the message and the code's next step. Every error bua itself writes
    is made here, so none goes out without a next step (tests/unit/protocol/test_error_codes.py)."""
    return {"code": code.value, "message": message, "next_step": next_step_for(code.value) or ""}


class ActionFailed(Exception):
    """Raised inside the app when an action fails before or without the extension."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message
