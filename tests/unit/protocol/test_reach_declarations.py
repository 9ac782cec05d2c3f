"""The declarations of find, fill, upload, downloads, read_download and page_log: validation, flags, and the
flat tool schema that carries their nested fields."""

from __future__ import annotations

import json

import pytest

from app.agent.tools.browser_schema import flat_browser_schema
from app.protocol.actions import ACTION_SPECS, parse_action
from app.protocol.errors import ActionFailed


def test_the_flat_schema_inlines_nested_models_so_no_reference_dangles():
    schema = flat_browser_schema()
    assert "$ref" not in json.dumps(schema)
    item = schema["properties"]["fields"]["items"]
    assert set(item["properties"]) == {"uid", "selector", "value"} and item["required"] == ["value"]
    assert item["properties"]["uid"]["type"] == "string", "nested Optional wrappers are simplified too"


@pytest.mark.parametrize("raw, message", [
    ({"type": "find"}, "give 'text', or 'role' and/or 'name'"),
    ({"type": "find", "role": "Button!"}, "role"),
    ({"type": "find", "text": "x", "limit": 0}, "limit"),
    ({"type": "fill", "fields": []}, "fields"),
    ({"type": "fill", "fields": [{"value": "x"}]}, "exactly one of 'uid' or 'selector'"),
    ({"type": "fill", "fields": [{"uid": "e1", "selector": "#a", "value": "x"}]}, "exactly one"),
    ({"type": "fill", "fields": [{"uid": "e1"}]}, "value"),
])
def test_bad_input_names_the_field(raw, message):
    with pytest.raises(ActionFailed) as err:
        parse_action(raw)
    assert err.value.code == "invalid_action" and message in err.value.message


def test_fill_takes_text_and_booleans():
    fill = parse_action({"type": "fill", "fields": [{"uid": "e1", "value": "Ada"}, {"selector": "#t", "value": True}],
                         "submit": True})
    assert [f.value for f in fill.fields] == ["Ada", True]


def test_flags_say_what_each_action_may_do():
    assert ACTION_SPECS["find"].read_only and not ACTION_SPECS["find"].may_be_sensitive
    fill = ACTION_SPECS["fill"]
    assert fill.may_be_sensitive and fill.needs_input_focus and fill.may_navigate and not fill.read_only


def test_milestones_name_what_was_done():
    find = ACTION_SPECS["find"].done({"type": "find", "role": "button", "name": "Email"}, {"total": 3})
    assert find == "Found 3 matches for button Email"
    fill = ACTION_SPECS["fill"].done({"type": "fill"}, {"as_asked": 2, "fields": [{"field": "e3", "value": "AB"},
                                                                   {"field": "e4", "error": {"code": "x"}}]})
    assert fill == "Filled 3 fields (1 could not be filled)", "as asked and listed alike, but for the failed"
    done = ACTION_SPECS["fill"].done({"type": "fill"}, {"as_asked": 1, "submitted": "form"})
    assert done == "Filled 1 field and submitted the form"


def test_page_log_takes_a_kind_and_an_optional_since():
    assert parse_action({"type": "page_log", "kind": "network", "since": 12}).since == 12
    with pytest.raises(ActionFailed) as err:
        parse_action({"type": "page_log", "kind": "everything"})
    assert "console" in err.value.message and "network" in err.value.message
    spec = ACTION_SPECS["page_log"]
    assert spec.read_only and not spec.may_be_sensitive and not spec.needs_input_focus
    assert spec.done({"type": "page_log", "kind": "errors"}, {"entries": [{}, {}]}) == \
        "Read the page's uncaught errors (2)"


def test_upload_takes_one_to_ten_paths_and_names_the_files_in_its_milestone():
    upload = parse_action({"type": "upload", "uid": "e3", "paths": ["/home/a/cv.pdf", "/home/a/photo.png"]})
    assert upload.paths == ["/home/a/cv.pdf", "/home/a/photo.png"]
    for bad in ({"type": "upload", "uid": "e3", "paths": []}, {"type": "upload", "uid": "e3", "paths": ["/a"] * 11},
                {"type": "upload", "paths": ["/a"]}):
        with pytest.raises(ActionFailed):
            parse_action(bad)
    spec = ACTION_SPECS["upload"]
    assert spec.may_be_sensitive and spec.needs_input_focus and not spec.read_only
    done = spec.done({"type": "upload", "uid": "e3", "paths": ["/home/a/cv.pdf", "C:\\Users\\a\\photo.png"]},
                     {"to": 'input#cv "Resume"', "how": "file input"})
    assert done == "Uploaded cv.pdf, photo.png to “Resume”"
    assert spec.failed_subject({"paths": ["/x/y.txt"]}) == "y.txt"


def test_downloads_and_read_download_work_on_the_task_not_a_tab():
    assert parse_action({"type": "read_download", "id": 3}).max_chars is None
    for bad in ({"type": "read_download"}, {"type": "read_download", "id": -1},
                {"type": "read_download", "id": 1, "max_chars": 10}, {"type": "downloads", "id": 1}):
        with pytest.raises(ActionFailed):
            parse_action(bad)
    for name in ("downloads", "read_download"):
        spec = ACTION_SPECS[name]
        assert spec.read_only and not spec.needs_tab and not spec.may_be_sensitive
    assert ACTION_SPECS["downloads"].done({}, {"downloads": [{}]}) == "Listed 1 download"
    assert ACTION_SPECS["read_download"].done({"id": 2}, {"filename": "people.csv"}) == "Read people.csv"
