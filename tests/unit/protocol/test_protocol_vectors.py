"""The app and the extension agree on every message kind: the frames in extension/test/fixtures/protocol-vectors.json
are classified here by the app's models exactly as `node --test` classifies them in the extension."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from app.protocol.actions import parse_action
from app.protocol.envelope import (
    CONTROL_OPS,
    EXTENSION_EVENTS,
    HOST_EVENTS,
    PROTOCOL_VERSION,
    Control,
    Event,
    Request,
    Response,
)
from app.protocol.errors import ActionFailed, ErrorCode

VECTORS = json.loads((Path(__file__).parents[3] / "extension/test/fixtures/protocol-vectors.json").read_text())


def app_verdict(frame: dict[str, Any]) -> tuple[bool, str | None]:
    """Whether the app's models accept a frame bound for the extension, and else the error code it means."""
    if frame.get("v") != PROTOCOL_VERSION:
        return False, ErrorCode.INVALID_ACTION.value
    model = {"request": Request, "control": Control}.get(frame.get("kind"))  # type: ignore[arg-type]
    if model is None:
        return False, ErrorCode.INVALID_ACTION.value
    try:
        parsed = model.model_validate(frame)
    except ValidationError:
        return False, ErrorCode.INVALID_ACTION.value
    if isinstance(parsed, Request):
        try:
            parse_action(parsed.action)
        except ActionFailed as err:
            return False, err.code.value
    return True, None


@pytest.mark.parametrize("vector", VECTORS["to_extension"], ids=lambda v: v["name"])
def test_frames_to_the_extension(vector):
    accepted, code = app_verdict(vector["frame"])
    assert accepted == vector["accepted"]
    assert code == vector.get("code")


@pytest.mark.parametrize("vector", VECTORS["from_extension"], ids=lambda v: v["name"])
def test_frames_from_the_extension(vector):
    frame = vector["frame"]
    model = Response if frame["kind"] == "response" else Event
    parsed = model.model_validate(frame)
    assert parsed.model_dump(mode="json", exclude_none=True) == frame


def test_the_vectors_cover_every_control_op_and_event_type():
    ops = {v["frame"]["op"] for v in VECTORS["to_extension"] if v["accepted"] and v["frame"]["kind"] == "control"}
    assert ops == set(CONTROL_OPS)
    events = {v["frame"]["type"] for v in VECTORS["from_extension"] if v["frame"]["kind"] == "event"}
    assert events == set(EXTENSION_EVENTS) | set(HOST_EVENTS)
