"""Wire protocol shared by the app, the native host and the extension.

The declarations here are the single source of truth: the extension's
`extension/src/generated/protocol.js` is generated from them (`make schema`).
"""

from app.protocol.actions import ACTION_TYPES, Action, parse_action
from app.protocol.envelope import (
    PROTOCOL_VERSION,
    Control,
    ErrorBody,
    Event,
    Request,
    Response,
)
from app.protocol.errors import ActionFailed, ErrorCode

__all__ = [
    "ACTION_TYPES",
    "Action",
    "ActionFailed",
    "Control",
    "ErrorBody",
    "ErrorCode",
    "Event",
    "PROTOCOL_VERSION",
    "Request",
    "Response",
    "parse_action",
]
