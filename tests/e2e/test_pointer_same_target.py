"""Hover and click report the same target at the same point (issue 21): a label's forwarded click does not
rename the click's receiver, and an element inside a script control is named with the control extract lists."""

from __future__ import annotations

from tests.e2e.actions_helpers import described, evaluate, page  # noqa: F401 (fixture)


def point_in(send, selector: str) -> dict:
    x, y = evaluate(send, f"(() => {{ const r = document.querySelector({selector!r}).getBoundingClientRect(); "
                          "return [r.left + r.width / 2, r.top + r.height / 2]; })()")
    return {"x": x, "y": y}


def both(send, target: dict) -> tuple[str, str]:
    hovered = send({"type": "hover", **target})
    clicked = send({"type": "click", **target})
    assert hovered.ok and clicked.ok, (hovered.error, clicked.error)
    return hovered.result["hovered"], clicked.result["clicked"]


def test_a_labels_text_is_the_target_of_hover_and_click_alike(page):
    send = page("same-target.html", "t-same-label")
    send({"type": "extract"})
    hovered, clicked = both(send, {"point": point_in(send, "#lab")})
    assert hovered == clicked and clicked.startswith("label#lab"), (hovered, clicked)
    assert evaluate(send, "document.querySelector('#agree').checked") is True, "the label still ticked its box"


def test_inside_a_script_control_both_name_the_control_extract_lists(page):
    send = page("same-target.html", "t-same-card")
    elements = described(send({"type": "extract"}).result)
    assert 'clickable "Open the card details"' in elements
    hovered, clicked = both(send, {"point": point_in(send, "#card em")})
    assert hovered == clicked == 'em "details" in div#card.card "Open the card details"', (hovered, clicked)
    assert evaluate(send, "document.querySelector('#out').textContent") == "card"


def test_by_uid_and_by_its_point_hover_and_click_agree(page):
    send = page("same-target.html", "t-same-uid")
    elements = described(send({"type": "extract"}).result)
    uid = next(line.split()[0] for line in elements.splitlines() if '"Save now"' in line)
    hovered, clicked = both(send, {"uid": uid})
    assert hovered == clicked == 'button#b1 "Save now"'
    hovered, clicked = both(send, {"point": point_in(send, "#b1 b")})
    assert hovered == clicked and clicked.endswith('in button#b1 "Save now"'), (hovered, clicked)
