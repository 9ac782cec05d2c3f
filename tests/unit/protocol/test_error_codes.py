"""Every error bua writes carries a next step (docs/architecture.md, "Errors"): browser actions' codes
(ErrorCode) and the codes of requests to bua itself (RequestErrorCode) alike, all made by `error_body`."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from app.protocol.errors import GUIDANCE, REQUEST_GUIDANCE, ErrorCode, RequestErrorCode, error_body, next_step_for

APP = Path(__file__).resolve().parents[3] / "app"


@pytest.mark.parametrize("code", [*ErrorCode, *RequestErrorCode])
def test_every_code_has_a_next_step(code: ErrorCode | RequestErrorCode) -> None:
    step = next_step_for(code.value)
    assert step and step == (GUIDANCE.get(code) if isinstance(code, ErrorCode) else REQUEST_GUIDANCE.get(code))
    assert error_body(code, "m") == {"code": code.value, "message": "m", "next_step": step}


def test_the_two_kinds_of_code_never_share_a_name() -> None:
    assert not {c.value for c in ErrorCode} & {c.value for c in RequestErrorCode}


def test_an_unknown_code_has_no_next_step() -> None:
    assert next_step_for("no_such_code") is None


def _declares_a_code(node: ast.Dict) -> bool:
    """A dict literal whose "code" is written in place (a string, or `SomeCode.X.value`), not passed through."""
    for key, value in zip(node.keys, node.values, strict=True):
        if isinstance(key, ast.Constant) and key.value == "code":
            return (isinstance(value, ast.Constant) and isinstance(value.value, str)) or \
                (isinstance(value, ast.Attribute) and value.attr == "value")
    return False


def test_no_error_is_written_by_hand() -> None:
    """A hand-written `{"code": "…", "message": …}` would go out without a next step, or with a code nobody
    declared: every error is `error_body(code, message)`."""
    found = [f"{path.relative_to(APP.parent)}:{node.lineno}"
             for path in sorted(APP.rglob("*.py")) if path.name != "errors.py"
             for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Dict) and _declares_a_code(node)]
    assert not found, "write these with app.protocol.errors.error_body:\n" + "\n".join(found)
