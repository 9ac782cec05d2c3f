"""Every action is one declaration, and everything else is derived from the declarations: the prompt's action
table, the tool's description and enum, the milestones and the extension's generated vocabulary."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.agent.prompts.browser import BROWSER_TOOL_INSTRUCTIONS
from app.agent.tools.base import ToolOutput
from app.agent.tools.browser import tool_description
from app.agent.tools.browser_milestone import milestone_line
from app.agent.tools.browser_schema import flat_browser_schema
from app.protocol.actions import ACTION_MODELS, ACTION_SPECS, ACTION_TYPES
from app.protocol.actions.registry import action_type, signature, wire_actions
from app.protocol.codegen import GENERATED_PATH, render
from app.protocol.envelope import CONTROL_OPS, EXTENSION_EVENTS, HOST_EVENTS
from app.protocol.errors import GUIDANCE, ErrorCode


def prompt_line(action: str) -> str:
    """The action's own line in the prompt's action table (not any other mention of its name)."""
    lines = [line for line in BROWSER_TOOL_INSTRUCTIONS.splitlines() if line.startswith(f"- `{action}` ")]
    assert len(lines) == 1, f"{action} has {len(lines)} lines in the action table"
    return lines[0]


@pytest.mark.parametrize("action", ACTION_TYPES)
def test_each_action_has_its_own_prompt_line_with_its_signature_and_guide(action):
    model = next(m for m in ACTION_MODELS if action_type(m) == action)
    line = prompt_line(action)
    assert f"`{signature(model)}`" in line and model.spec.guide in line


def test_a_signature_is_derived_from_the_fields_when_not_given():
    history = next(m for m in ACTION_MODELS if action_type(m) == "history")
    assert history.spec.signature is None and signature(history) == "{direction, timeout_ms?}"


def test_the_tool_names_every_action_in_its_enum_once():
    """The `type` enum names every action; the one-line description does not list them again (issue 21: each fact
    once in the fixed cost)."""
    assert flat_browser_schema()["properties"]["type"]["enum"] == list(ACTION_TYPES)
    assert "`type`" in tool_description() and not set(re.findall(r"[a-z_]+", tool_description())) >= set(ACTION_TYPES)


@pytest.mark.parametrize("action", ACTION_TYPES)
def test_each_action_has_its_own_milestone_wording(action):
    done = milestone_line({"type": action}, ToolOutput({"ok": True, "result": {}}))
    failed = milestone_line({"type": action}, ToolOutput({"ok": False, "error": {"message": "boom; more"}}, is_error=True))
    assert done and done != action, "a success milestone reads as a sentence, not the bare action name"
    assert failed.startswith(f"Could not {ACTION_SPECS[action].failed}") and failed.endswith(": boom")


def test_every_error_code_has_guidance():
    """The guidance reaches the model with the error itself (tests/unit/agent/test_model_view.py)."""
    assert set(GUIDANCE) == set(ErrorCode)
    assert all(GUIDANCE[code].strip() for code in ErrorCode)


def test_a_stop_is_not_a_crash():
    assert ErrorCode.STOPPED in GUIDANCE and "report what you did" in GUIDANCE[ErrorCode.STOPPED]
    assert "needs_user" in GUIDANCE[ErrorCode.CONFIRMATION_REQUIRED]


def test_the_extension_gets_the_flags_and_required_fields():
    wire = wire_actions()
    assert set(wire) == set(ACTION_TYPES)
    assert wire["navigate"]["required"] == ["url"] and wire["navigate"]["opens_session"]
    assert wire["history"] == {"required": ["direction"], "may_navigate": True, "needs_input_focus": False,
                               "presses": False, "opens_session": False, "needs_tab": True, "read_only": False,
                               "reads_page": False, "closes_tab": False, "says_navigated": False,
                               "may_be_sensitive": False, "sensitive_by": None, "change_list": None,
                               "defaults": {"timeout_ms": 30_000}, "carries": {}}
    assert wire["find"]["defaults"] == {"limit": 20}, "declared defaults reach the extension"
    assert "since" not in wire["page_log"]["defaults"], "a None default is left out of the frame"
    assert {a for a, w in wire.items() if not w["needs_tab"]} == {"get_tabs", "open_tab", "downloads", "read_download"}
    assert {a for a, w in wire.items() if w["closes_tab"]} == {"close_tab"}
    assert {a for a, w in wire.items() if w["says_navigated"]} == {"evaluate"}
    assert {a for a, w in wire.items() if w["reads_page"]} == {"evaluate", *(a for a, w in wire.items() if w["read_only"])}


def test_how_each_sensitive_action_is_read_is_declared():
    """The safety checks dispatch on `sensitive_by` (extension/src/safety/confirmations.js), never on a type name:
    a new action that can pay or delete declares how it reaches the page, and is checked with no other edit."""
    wire = wire_actions()
    declared = {a: w["sensitive_by"] for a, w in wire.items() if w["sensitive_by"]}
    assert declared == {"click": "pointer", "drag": "pointer", "upload": "pointer", "type": "typing",
                        "fill": "fields", "press_key": "key", "evaluate": "script"}
    assert all(w["may_be_sensitive"] == bool(w["sensitive_by"]) for w in wire.values())
    source = (Path(__file__).parents[3] / "extension/src/safety/confirmations.js").read_text(encoding="utf-8")
    for action in ACTION_TYPES:
        assert f'type === "{action}"' not in source and f"type !== \"{action}\"" not in source, action


def test_the_generated_extension_protocol_is_up_to_date():
    assert GENERATED_PATH.read_text(encoding="utf-8") == render(), (
        "extension/src/generated/protocol.js is stale: run `make schema`"
    )
    text = render()
    for name in (*ACTION_TYPES, *CONTROL_OPS, *EXTENSION_EVENTS, *HOST_EVENTS, *(c.value for c in ErrorCode)):
        assert f'"{name}"' in text, name


def test_every_action_that_may_wait_for_the_person_names_itself_for_the_card():
    for action, spec in ACTION_SPECS.items():
        assert spec.asking() and spec.asking()[0].isupper(), action
    assert ACTION_SPECS["type"].asking() == "Type and submit"


def test_a_declared_answer_budget_names_a_field_of_its_action():
    """The file hooks read the budget field the declaration names: a typo there would silently use the default."""
    budgets = {action_type(model): model.spec.answer_budget for model in ACTION_MODELS if model.spec.answer_budget}
    assert budgets, "read_download declares its budget"
    for name, field in budgets.items():
        model = next(m for m in ACTION_MODELS if action_type(m) == name)
        assert field in model.model_fields, f"{name}.spec.answer_budget names {field!r}, which {name} has no field of"
