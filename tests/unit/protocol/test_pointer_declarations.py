"""The pointer declarations: click/hover/drag take exactly one of uid, selector or point; drag exactly one
destination; select_text an optional text; their flags and milestones; points reach the flat tool schema inline."""

from __future__ import annotations

import json

import pytest

from app.agent.tools.browser_schema import flat_browser_schema
from app.protocol.actions import ACTION_SPECS, action_to_wire, parse_action
from app.protocol.errors import ActionFailed


@pytest.mark.parametrize("kind", ["click", "hover", "drag"])
def test_a_point_is_a_third_way_to_aim_and_exactly_one_is_given(kind):
    extra = {"by": {"dx": 10, "dy": 0}} if kind == "drag" else {}
    action = parse_action({"type": kind, "point": {"x": 12.5, "y": 40}, **extra})
    assert action_to_wire(action)["point"] == {"x": 12.5, "y": 40}
    for bad in ({}, {"uid": "e1", "point": {"x": 1, "y": 1}}, {"selector": "#a", "point": {"x": 1, "y": 1}}):
        with pytest.raises(ActionFailed) as err:
            parse_action({"type": kind, **bad, **extra})
        assert err.value.code == "invalid_action"
        assert "'uid'" in err.value.message and "'selector'" in err.value.message and "'point'" in err.value.message


@pytest.mark.parametrize("point, field", [({"x": -1, "y": 0}, "point.x"), ({"x": 1}, "point.y"),
                                          ({"x": 1, "y": 2, "z": 3}, "point.z"), ({"x": 1e9, "y": 0}, "point.x")])
def test_a_bad_point_names_its_field(point, field):
    with pytest.raises(ActionFailed) as err:
        parse_action({"type": "click", "point": point})
    assert field in err.value.message


def test_type_still_takes_only_uid_or_selector():
    with pytest.raises(ActionFailed) as err:
        parse_action({"type": "type", "point": {"x": 1, "y": 1}, "text": "x"})
    assert "unknown field 'point'" in err.value.message


@pytest.mark.parametrize("destination", [{"to_uid": "e2"}, {"to_selector": "#b"}, {"to_point": {"x": 5, "y": 6}},
                                         {"by": {"dx": -20, "dy": 3.5}}])
def test_drag_takes_exactly_one_destination(destination):
    assert parse_action({"type": "drag", "uid": "e1", **destination}).steps == 10
    with pytest.raises(ActionFailed) as err:
        parse_action({"type": "drag", "uid": "e1", **destination, **({"to_uid": "e9"} if "to_uid" not in destination
                                                                     else {"by": {"dx": 1, "dy": 1}})})
    assert "exactly one destination" in err.value.message and "'by'" in err.value.message
    with pytest.raises(ActionFailed):
        parse_action({"type": "drag", "uid": "e1"})
    with pytest.raises(ActionFailed) as steps:
        parse_action({"type": "drag", "uid": "e1", "steps": 0, **destination})
    assert "steps" in steps.value.message


def test_select_text_takes_an_element_and_optional_text():
    assert parse_action({"type": "select_text", "uid": "e3"}).text is None
    assert parse_action({"type": "select_text", "selector": "p", "text": "fox"}).text == "fox"
    with pytest.raises(ActionFailed):
        parse_action({"type": "select_text", "uid": "e3", "text": ""})
    with pytest.raises(ActionFailed):
        parse_action({"type": "select_text", "point": {"x": 1, "y": 1}})


def test_flags_drag_is_input_that_can_navigate_and_be_sensitive():
    drag = ACTION_SPECS["drag"]
    assert drag.needs_input_focus and drag.may_navigate and drag.may_be_sensitive and not drag.read_only
    select = ACTION_SPECS["select_text"]
    assert not select.may_navigate and not select.needs_input_focus and not select.may_be_sensitive


def test_milestones_name_what_was_dragged_selected_and_clicked():
    drag = ACTION_SPECS["drag"].done
    assert drag({"uid": "e1", "to_uid": "e2"}, {"dragged": 'li#a "Apples"', "dropped_on": 'li#c "Cheese"',
                                                "effects": {}}) == "Dragged “Apples” onto “Cheese”"
    assert drag({"selector": "#handle", "by": {"dx": 150, "dy": 0}}, {"dragged": 'span "Volume"', "effects": {}}) \
        == "Dragged “Volume” by (150, 0) px"
    assert ACTION_SPECS["drag"].failed_subject({"point": {"x": 10.4, "y": 20.6}}) == "the point (10, 21)"
    select = ACTION_SPECS["select_text"].done({"selector": "#quote"}, {"selected": "To be"})
    assert select == "Selected “To be” in the quote"
    clicked = ACTION_SPECS["click"].done({"point": {"x": 5, "y": 6}}, {"clicked": "circle#q3", "effects": {}})
    assert clicked == "Clicked the point (5, 6)"
    named = ACTION_SPECS["hover"].done({"point": {"x": 5, "y": 6}}, {"hovered": 'circle "Q3: 25"', "effects": {}})
    assert named == "Pointed at “Q3: 25”"


def test_points_and_offsets_are_inline_objects_in_the_flat_schema():
    schema = flat_browser_schema()
    assert "$ref" not in json.dumps(schema)
    props = schema["properties"]
    for name, keys in (("point", ["x", "y"]), ("to_point", ["x", "y"]), ("by", ["dx", "dy"])):
        assert props[name]["type"] == "object" and props[name]["required"] == keys
    assert "screenshot" in props["point"]["description"], "how to read a point off a screenshot"
    assert {"drag", "select_text"} <= set(props["type"]["enum"])
