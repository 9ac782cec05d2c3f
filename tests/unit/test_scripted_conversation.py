"""The scripted model reads element lines as a model would: a line's context is what stands in its parentheses,
never a change list's `(was: …)`, a region's link reads the same from the index's region line and from a
change list, and an element the markdown names takes its name from its token and its role and states from its
facts line (app/demo/scripted_model/elements.py)."""

from __future__ import annotations

from app.demo.scripted_model.conversation import new_lines
from app.demo.scripted_model.elements import Element, elements
from tests.e2e.actions_helpers import description


def test_a_changed_line_without_context_has_none_and_with_one_keeps_only_it():
    changes = {"elements": "\n".join([
        '~ e10 button "Renamed" (was: button "Rename me")',
        '~ e11 checkbox "Done" checked (row: Item 1) (was: checkbox "Done")',
        '~ e12 textbox "Notes" value="a (b)" (was: textbox "Notes" value="")',
        '- e13 button "Delete" (item: Item 3)',
    ])}
    assert elements({"elements": "\n".join(new_lines(changes, "elements"))}) == [
        Element("e10", "button", "Renamed", ""),
        Element("e11", "checkbox", "Done", "row: Item 1"),
        Element("e12", "textbox", "Notes", ""),
    ]


def test_contexts_after_quoted_values_and_with_parentheses_of_their_own():
    parsed = elements({"elements": "\n".join([
        'e4 button "View" (row: Jane Doe)',
        'e5 textbox "Notes" value="a (b)" required (row: Jane (Lead))',
        'e6 link "Help"',
    ])})
    assert [e.context for e in parsed] == ["row: Jane Doe", "row: Jane (Lead)", ""]


def test_a_region_link_reads_the_same_from_the_index_and_from_a_change_list():
    from_index = elements({"elements": 'navigation "Main": [Jobs](e1) [Archive](e7)'})[1]
    changed = elements({"elements": "\n".join(new_lines(
        {"elements": '+ e7 link "Archive" (in navigation "Main")'}, "elements"))})[0]
    assert from_index == changed == Element("e7", "link", "Archive", 'in navigation "Main"')
    renamed = elements({"elements": "\n".join(new_lines(
        {"elements": '~ e1 link "Jobs" current (in navigation "Main") (was: link "Jobs")'}, "elements"))})
    assert renamed == [Element("e1", "link", "Jobs", 'in navigation "Main"')]


def test_an_element_the_markdown_names_reads_its_name_from_the_token_and_the_rest_from_its_line():
    parsed = elements({
        "markdown": "Search [e1] [Filter](e2) [Docs](e3)\n| Jane | [View](e4) |\n| John | [View](e5) |\n"
                    "[Publish](e6) [Pay \\[now\\]](e7)",
        "elements": "\n".join([
            'e1 searchbox "Search" placeholder="Name or email"',
            "e2 button",
            "e4 e5 button",
            "e6 button disabled",
            'e7 button value="a (b)" type=color',
            'navigation "Main": [Jobs](e8)',
        ]),
    })
    assert [description(e) for e in parsed] == [
        'searchbox "Search" placeholder="Name or email"',
        'button "Filter"',
        'button "View"',
        'button "View"',
        'button "Publish" disabled',
        'button "Pay [now]" value="a (b)" type=color',
        'link "Jobs" (in navigation "Main")',
        'link "Docs"',
    ]
    assert [e.uid for e in parsed] == ["e1", "e2", "e4", "e5", "e6", "e7", "e8", "e3"]
    assert [e.line for e in parsed if e.uid in ("e4", "e5")] == ["| Jane | [View](e4) |", "| John | [View](e5) |"]
    assert next(e for e in parsed if e.uid == "e8").line == "", "a left-out region's link stands on no markdown line"


def test_a_name_is_read_as_the_index_writes_it():
    parsed = elements({"elements": r'e1 textbox "Say \"hi\"\\n" value="x"'})
    assert parsed == [Element("e1", "textbox", 'Say "hi"\\n', "")] and parsed[0].states == 'value="x"'
