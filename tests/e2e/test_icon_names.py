"""Icon-only controls are named from their icon (issue 21): an SVG title, an icon font's ligature, a class or
sprite hint by one rule; such names are marked `icon-name`; a utility class names nothing; a title wins."""

from __future__ import annotations

from tests.e2e.actions_helpers import described, page  # noqa: F401 (fixture)


def named(elements: str) -> dict[str, str]:
    """role "name" states → the rest of the line, by name."""
    out = {}
    for line in elements.splitlines():
        uid, role, *rest = line.split(" ", 2)
        out[rest[0] if rest else f"{role} {uid}"] = line
    return out


def test_icon_only_buttons_and_menu_items_are_named_from_their_icons(page):
    send = page("icons.html", "t-icons")
    response = send({"type": "extract"})
    assert response.ok, response.error
    lines = described(response.result).splitlines()
    text = "\n".join(lines)
    for name in ("bold", "italic", "underline", "format quote", "link"):
        assert any(f'button "{name}" icon-name' in line for line in lines), (name, text)
    assert any(line.endswith('button "Strikethrough" icon-name') for line in lines), text
    assert any(line.endswith('button "Undo"') for line in lines), "a title is the page's own name: " + text
    assert any('menuitem "trash" icon-name' in line for line in lines), text
    assert any(line.endswith('menuitem "Rename"') for line in lines), text
    unnamed = [line for line in lines if line.split(" ")[1] == "button" and '"' not in line]
    assert len(unnamed) == 1, f"the utility-classed SVG button stays unnamed: {text}"
    assert "gray" not in text


def test_a_derived_name_is_one_a_click_can_find(page):
    send = page("icons.html", "t-icons-find")
    found = send({"type": "find", "role": "button", "name": "italic"})
    assert found.ok, found.error
    match = found.result["matches"][0]
    clicked = send({"type": "click", "uid": match["uid"]})
    assert clicked.ok, clicked.error
