"""The extension's types and handler wrapping come from the declarations: the generated `.d.ts` is current, says
what each action's fields and result are, and the declarations that order and wrap actions are consistent."""

from __future__ import annotations

from collections import Counter
from typing import Literal

import pytest

from app.protocol.actions import ACTION_SPECS, ACTION_TYPES
from app.protocol.actions.fields import OnTab
from app.protocol.actions.shapes import OWN, PAGE
from app.protocol.actions.spec import ActionSpec
from app.protocol.codegen import HANDLERS_GENERATED_PATH, TYPES_GENERATED_PATH, render_handlers
from app.protocol.typegen import _ShapeWriter, _Writer, pascal, render_types


def test_the_generated_types_are_up_to_date():
    assert TYPES_GENERATED_PATH.read_text(encoding="utf-8") == render_types(), (
        "extension/src/generated/protocol-types.d.ts is stale: run `make schema`"
    )


def test_the_generated_handler_map_is_up_to_date():
    """A new action is its declaration and its module: the map that gathers the modules is generated."""
    assert HANDLERS_GENERATED_PATH.read_text(encoding="utf-8") == render_handlers(), (
        "extension/src/generated/handlers.js is stale: run `make schema`"
    )


def test_no_two_actions_share_a_rank():
    """`rank` orders the prompt's action table and the tool's enum: a clash would leave the order to the names."""
    clashes = {rank: [a for a, s in ACTION_SPECS.items() if s.rank == rank]
               for rank, n in Counter(s.rank for s in ACTION_SPECS.values()).items() if n > 1}
    assert clashes == {}, f"give each action its own rank (app/protocol/actions/<name>.py): {clashes}"


def test_the_enum_follows_the_ranks():
    assert [ACTION_SPECS[a].rank for a in ACTION_TYPES] == sorted(s.rank for s in ACTION_SPECS.values())


@pytest.mark.parametrize("action", [a for a, s in ACTION_SPECS.items() if s.change_list])
def test_an_action_with_a_change_list_declares_it_in_its_result(action):
    assert "changes" in ACTION_SPECS[action].result, f"{action}: add `changes: CHANGES` (or **INPUT) to its result"


def test_each_action_and_result_is_a_type_keyed_by_its_action():
    text = render_types()
    for action in ACTION_TYPES:
        assert f"export type {pascal(action)}Action = {{" in text and f"export type {pascal(action)}Result = {{" in text
        assert f"  {action}: {pascal(action)}Action;" in text and f"  {action}: {pascal(action)}Result;" in text
    assert "export type ActionType = " + " | ".join(f'"{a}"' for a in ACTION_TYPES) + ";" in text


class _Probe(OnTab):
    type: Literal["probe"]
    text: str
    count: int = 1
    mode: Literal["a", "b"] | None = None

    spec = ActionSpec(guide="a probe", done=lambda raw, result: "probed", failed="probe",
                      result={"said": PAGE, "n": OWN, "nested": {"x": OWN}})


def test_a_field_is_typed_as_the_frame_carries_it():
    """Required fields are required; a default makes a field optional; a None default is left out of the frame, so
    it is optional and never null."""
    schema = _Probe.model_json_schema(mode="validation")
    text = _Writer().declaration("ProbeAction", schema, {})
    assert '  type: "probe";' in text and "  text: string;" in text and "  count?: number;" in text
    assert '  mode?: "a" | "b";' in text and "null" not in text
    assert "  tab_id?: number;" in text and "[key: string]" not in text, "an action's fields are closed"


def test_a_result_is_typed_as_its_declared_shape():
    text = _ShapeWriter().declare("ProbeResult", _Probe.spec.result, "probe")
    assert "  said?: PageText;" in text and "  n?: Own;" in text and "  nested?: Nested<{" in text

