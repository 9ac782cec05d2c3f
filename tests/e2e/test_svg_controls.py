"""SVG text and shapes with handlers get uids and their text (issue 21): a pie chart's slices, named by their
<title> or the <text> drawn beside them, and a <text> with a listener; a shape with no handler is not listed."""

from __future__ import annotations

from tests.e2e.actions_helpers import described, evaluate, page  # noqa: F401 (fixture)


def test_a_pie_charts_slices_and_a_text_button_are_listed_and_clickable(page):
    send = page("svg-chart.html", "t-svg")
    response = send({"type": "extract"})
    assert response.ok, response.error
    lines = described(response.result).splitlines()
    by_name = {line.split(" ", 2)[2]: line.split(" ")[0] for line in lines if line.count(" ") >= 2}
    assert set(by_name) == {'"Apples 25%"', '"Pears 75%"', '"Sort"'}, lines
    assert all(line.split(" ")[1] == "clickable" for line in lines), lines
    sort = by_name['"Sort"']
    assert f"[Sort]({sort})" in response.result["markdown"]
    for name, picked in (('"Pears 75%"', "picked pears"), ('"Apples 25%"', "picked apples"), ('"Sort"', "picked sort")):
        clicked = send({"type": "click", "uid": by_name[name]})
        assert clicked.ok, clicked.error
        assert evaluate(send, "document.querySelector('#out').textContent") == picked


def test_find_finds_a_drawn_control_by_its_label_as_extract_lists_it(page):
    send = page("svg-chart.html", "t-svg-find")
    lines = described(send({"type": "extract"}).result).splitlines()
    pears = next(line.split(" ")[0] for line in lines if '"Pears 75%"' in line)
    found = send({"type": "find", "name": "Pears"})
    assert found.ok, found.error
    assert [(m["uid"], m["role"]) for m in found.result["matches"]] == [(pears, "clickable")]
