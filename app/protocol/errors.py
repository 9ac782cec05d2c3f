"""Error codes of DESIGN §2. Each one means a different next step for the model."""

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
    INTERNAL_ERROR = "internal_error"


class ActionFailed(Exception):
    """Raised inside the app when an action fails before or without the extension."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message
