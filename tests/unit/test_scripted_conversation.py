"""The scripted model reads element lines as a model would: a line's context is what stands in its parentheses,
never a change list's `(was: …)`, and a region's link reads the same from the index's region line and from a
change list (app/demo/scripted_model/conversation.py)."""

from __future__ import annotations

from app.demo.scripted_model.conversation import Element, elements, new_lines


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
