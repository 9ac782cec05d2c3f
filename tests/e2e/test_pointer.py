"""Pointer anywhere, drag and select_text through the whole pipe on real pages (tests/fixtures/pages/actions):
points read from a screenshot, HTML5 and pointer-event drags, aiming into scroll boxes and at targets that
change on hover."""

from __future__ import annotations

import base64
import json

from tests.e2e.actions_helpers import described, evaluate, page  # noqa: F401 (fixture)


def text_of(send, selector: str) -> str:
    return evaluate(send, f"document.querySelector({json.dumps(selector)}).textContent")


def centre(send, selector: str) -> dict:
    """The centre of an element in viewport CSS pixels, as a model would read it off a viewport screenshot."""
    return evaluate(send, f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
                          " return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()")


def test_a_viewport_screenshot_says_how_its_pixels_map_to_points(page):
    send = page("point.html", "t-shot-map")
    shot = send({"type": "screenshot"})
    assert shot.ok, shot.error
    result = shot.result
    viewport = evaluate(send, "({width: innerWidth, height: innerHeight, dpr: devicePixelRatio})")
    assert result["origin"] == {"x": 0, "y": 0}
    assert result["viewport"]["device_pixel_ratio"] == viewport["dpr"]
    assert abs(result["viewport"]["width"] - viewport["width"]) <= 20
    assert result["scale"] == round(result["width"] / result["viewport"]["width"], 2)
    png = base64.b64decode(result["data_url"].split(",", 1)[1])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_full_page_and_element_screenshots_give_their_origin_in_the_viewport(page):
    send = page("drag.html", "t-shot-origin")
    evaluate(send, "document.body.style.height = '3000px'; scrollTo(0, 200); scrollY")
    full = send({"type": "screenshot", "full_page": True}).result
    assert full["origin"] == {"x": 0, "y": -200}, "the page's top is 200 px above the viewport"
    element = send({"type": "screenshot", "selector": "#notes"}).result
    box = evaluate(send, "(() => { const r = document.querySelector('#notes').getBoundingClientRect();"
                         " return {x: r.left, y: r.top}; })()")
    assert abs(element["origin"]["x"] - box["x"]) < 1 and abs(element["origin"]["y"] - box["y"]) < 1


def test_click_at_a_point_of_an_svg_chart_hits_the_shape_there(page):
    send = page("point.html", "t-svg")
    point = centre(send, "#q3")
    response = send({"type": "click", "point": point})
    assert response.ok, response.error
    assert text_of(send, "#picked") == "q3=25"
    assert response.result["clicked"].startswith("circle#q3")
    assert response.result["effects"]["dom_mutations"] >= 1
    hovered = send({"type": "hover", "point": centre(send, "#q4")})
    assert hovered.ok, hovered.error
    assert hovered.result["hovered"].startswith("circle#q4")
    assert evaluate(send, "pointLog").count("enter:q4") == 1


def test_click_at_a_point_of_a_canvas_lands_at_those_coordinates(page):
    send = page("point.html", "t-canvas")
    box = evaluate(send, "(() => { const r = document.querySelector('#board').getBoundingClientRect();"
                         " return {x: r.left, y: r.top}; })()")
    response = send({"type": "click", "point": {"x": box["x"] + 230, "y": box["y"] + 80}})
    assert response.ok, response.error
    x, y = text_of(send, "#spot").removesuffix(" red").split(",")
    assert abs(int(x) - 230) <= 1 and abs(int(y) - 80) <= 1, "the page got the click where the point says"
    assert text_of(send, "#spot").endswith(" red")
    assert response.result["clicked"].startswith("canvas#board")


def test_a_point_outside_the_viewport_is_refused_with_its_size(page):
    send = page("point.html", "t-outside")
    response = send({"type": "click", "point": {"x": 5000, "y": 10}})
    assert response.error.code == "invalid_action"
    assert "outside the viewport" in response.error.message and "CSS px" in response.error.message
    assert text_of(send, "#picked") == "none"


def test_drag_reorders_a_sortable_list_with_html5_drag_and_drop(page):
    send = page("drag.html", "t-sortable")
    assert text_of(send, "#order") == "Apples,Bread,Cheese,Dates"
    response = send({"type": "drag", "selector": "#item-a", "to_selector": "#item-c"})
    assert response.ok, response.error
    assert text_of(send, "#order") == "Bread,Cheese,Apples,Dates"
    result = response.result
    assert result["kind"] == "html5"
    assert result["dragged"] == 'li#item-a "Apples"'
    assert result["dropped_on"] == 'li#item-c "Cheese"'
    assert evaluate(send, "dndEvents") == ["dragstart", "drop:item-a>item-c", "dragend"]


def test_drag_by_uid_onto_a_uid(page):
    send = page("drag.html", "t-sortable-uid")
    elements = described(send({"type": "extract"}).result)
    uids = {name: line.split()[0] for line in elements.splitlines() for name in ("Dates", "Bread") if f'"{name}"' in line}
    assert set(uids) == {"Dates", "Bread"}, elements
    response = send({"type": "drag", "uid": uids["Dates"], "to_uid": uids["Bread"]})
    assert response.ok, response.error
    assert text_of(send, "#order") == "Apples,Dates,Bread,Cheese"


def test_drag_a_slider_handle_by_an_offset_changes_its_value(page):
    send = page("drag.html", "t-slider")
    response = send({"type": "drag", "selector": "#handle", "by": {"dx": 150, "dy": 0}})
    assert response.ok, response.error
    assert response.result["kind"] == "pointer"
    assert int(text_of(send, "#value")) == 50
    assert evaluate(send, "sliderMoves") >= 5, "the handle got a series of pointer moves, not one jump"
    assert response.result["effects"]["dom_mutations"] >= 1


def test_drag_a_textarea_grip_resizes_it(page):
    send = page("drag.html", "t-resize")
    before = evaluate(send, "(() => { const r = document.querySelector('#notes').getBoundingClientRect();"
                            " return {w: r.width, h: r.height, right: r.right, bottom: r.bottom}; })()")
    grip = {"x": before["right"] - 4, "y": before["bottom"] - 4}
    response = send({"type": "drag", "point": grip, "by": {"dx": 120, "dy": 50}})
    assert response.ok, response.error
    after = evaluate(send, "(() => { const r = document.querySelector('#notes').getBoundingClientRect();"
                           " return {w: r.width, h: r.height}; })()")
    assert abs(after["w"] - before["w"] - 120) <= 2 and abs(after["h"] - before["h"] - 50) <= 2
    assert response.result["dragged"].startswith("textarea#notes")


def test_drag_a_box_to_a_point_with_mouse_events(page):
    send = page("drag.html", "t-box")
    start = centre(send, "#block")
    response = send({"type": "drag", "selector": "#block", "to_point": {"x": start["x"] + 200, "y": start["y"] + 40}})
    assert response.ok, response.error
    assert evaluate(send, "[block.offsetLeft, block.offsetTop]") == [210, 50]


def test_drag_needs_one_destination_and_a_visible_drop_target(page):
    send = page("drag.html", "t-drag-bad")
    missing = send({"type": "drag", "selector": "#item-a"})
    assert missing.error.code == "invalid_action" and "to_uid" in missing.error.message
    evaluate(send, "document.body.style.height = '5000px'; document.body.insertAdjacentHTML('beforeend',"
                   " '<div id=\"far\" style=\"position:absolute; top:4000px\">far</div>'); 1")
    far = send({"type": "drag", "selector": "#item-a", "to_selector": "#far"})
    assert far.error.code == "not_interactable" and "outside the visible area" in far.error.message
    assert text_of(send, "#order") == "Apples,Bread,Cheese,Dates"


def test_a_button_below_the_visible_part_of_a_scroll_box_is_scrolled_to_and_clicked(page):
    send = page("aim.html", "t-scroll-box")
    elements = described(send({"type": "extract"}).result)
    uid = next(line.split()[0] for line in elements.splitlines() if '"Deep button"' in line)
    response = send({"type": "click", "uid": uid})
    assert response.ok, response.error
    assert text_of(send, "#out") == "deep clicked"
    assert evaluate(send, "document.querySelector('#scroller').scrollTop") > 100
    sideways = send({"type": "click", "selector": "#right-end"})
    assert sideways.ok, sideways.error
    assert text_of(send, "#out") == "right clicked"


def test_a_button_cut_off_by_an_overflow_hidden_box_is_named_as_cut_off_not_covered(page):
    send = page("aim.html", "t-clipped")
    evaluate(send, "document.body.insertAdjacentHTML('afterbegin', '<div id=\"clipped\" style=\"width:300px;"
                   "height:40px;overflow:hidden;position:relative\"><button id=\"cut\" style=\"position:relative;"
                   "top:80px\">Cut</button></div>'); document.querySelector('#clipped').scrollTop = 0; 1")
    evaluate(send, "document.querySelector('#clipped').style.overflow = 'clip'; 1")
    response = send({"type": "click", "selector": "#cut"})
    assert response.error.code == "not_interactable"
    message = response.error.message
    assert "covered" not in message and "html" not in message
    assert "div#clipped" in message


def test_an_icon_replaced_on_hover_is_clicked_and_the_result_names_what_got_the_click(page):
    send = page("aim.html", "t-hover-swap")
    response = send({"type": "click", "selector": "#js-icon"})
    assert response.ok, response.error
    assert text_of(send, "#out") == "js fav clicked"
    result = response.result
    assert result["clicked"] == 'span.icon.lit "★" in button#js-fav.fav "★"'
    assert "span#js-icon.icon" in result["note"] and "replaced" in result["note"]


def test_an_icon_hidden_on_hover_is_clicked_through_its_button(page):
    send = page("aim.html", "t-hover-css")
    response = send({"type": "click", "selector": "#css-off"})
    assert response.ok, response.error
    assert text_of(send, "#out") == "css fav clicked"
    assert "in button#css-fav" in response.result["clicked"]
    assert "hidden" in response.result["note"]


def test_a_card_that_covers_the_target_on_hover_stops_the_click(page):
    send = page("aim.html", "t-hover-cover")
    elements = described(send({"type": "extract"}).result)
    uid = next(line.split()[0] for line in elements.splitlines() if '"Has a hover card"' in line)
    response = send({"type": "click", "uid": uid})
    assert response.error.code == "not_interactable"
    assert "div#tip-cover" in response.error.message and "hover" in response.error.message
    assert text_of(send, "#out") == "nothing yet"


def test_a_plain_click_still_names_its_target(page):
    send = page("click.html", "t-plain-name")
    response = send({"type": "click", "selector": "tr:nth-child(1) button.view"})
    assert response.ok, response.error
    assert response.result["clicked"] == 'button.view "View"' and "note" not in response.result


def test_select_text_selects_a_whole_element_and_a_substring(page):
    send = page("select.html", "t-select-text")
    whole = send({"type": "select_text", "selector": "#quote"})
    assert whole.ok, whole.error
    assert whole.result["selected"] == "To be, or not to be: that is the question."
    assert evaluate(send, "getSelection().toString()") == "To be, or not to be: that is the question."
    part = send({"type": "select_text", "selector": "#para", "text": "brown fox jumps"})
    assert part.ok, part.error
    selected = evaluate(send, "getSelection().toString()")
    assert " ".join(selected.split()) == "brown fox jumps"
    assert evaluate(send, "getSelection().anchorNode.parentElement.tagName") == "B"
    field = send({"type": "select_text", "selector": "#draft", "text": "Friday"})
    assert field.ok, field.error
    assert field.result["in_field"] is True
    assert evaluate(send, "(() => { const t = document.querySelector('#draft');"
                          " return t.value.slice(t.selectionStart, t.selectionEnd); })()") == "Friday"


def test_select_text_explains_text_that_is_not_there(page):
    send = page("select.html", "t-select-missing")
    missing = send({"type": "select_text", "selector": "#quote", "text": "whether tis nobler"})
    assert missing.error.code == "invalid_action"
    assert '"To be, or not to be' in missing.error.message
    empty = send({"type": "select_text", "selector": "#empty"})
    assert empty.error.code == "not_interactable"


def test_a_point_or_a_drop_on_a_sensitive_control_asks_the_person_first(core, act, fixture_server):
    from app.safety.confirmations import Decision
    from tests.e2e.safety_helpers import Person

    task = "t-point-safety"
    assert act({"type": "navigate", "url": fixture_server.url("/safety/account.html")}, task_id=task).ok
    spot = act({"type": "evaluate", "expression": "(() => { const r = document.querySelector('#delete')"
                                                  ".getBoundingClientRect(); return {x: r.left + r.width / 2,"
                                                  " y: r.top + r.height / 2}; })()"}, task_id=task).result["value"]
    with Person(core, Decision.DENY) as person:
        clicked = act({"type": "click", "point": spot}, task_id=task)
        assert clicked.error.code == "confirmation_required", clicked
        dropped = act({"type": "drag", "selector": "h1", "to_point": spot}, task_id=task)
        assert dropped.error.code == "confirmation_required", dropped
        onto = act({"type": "drag", "selector": "h1", "to_selector": "#delete"}, task_id=task)
        assert onto.error.code == "confirmation_required", onto
        assert act({"type": "hover", "point": spot}, task_id=task).ok, "pointing at it changes nothing"
        assert [a["what"] for a in person.asked] == ["click", "drag", "drag"]
        assert all("Delete account" in a["element"] for a in person.asked)
    status = act({"type": "evaluate", "expression": "document.getElementById('status').textContent"}, task_id=task)
    assert status.result["value"] == "nothing done"


def test_a_drag_past_the_edge_of_the_viewport_still_ends_there(page):
    send = page("drag.html", "t-slider-far")
    response = send({"type": "drag", "selector": "#handle", "by": {"dx": 5000, "dy": 0}})
    assert response.ok, response.error
    assert text_of(send, "#value") == "100"


def test_an_html5_drop_nobody_takes_is_reported_and_the_mouse_is_free_after(page):
    send = page("drag.html", "t-no-drop")
    response = send({"type": "drag", "selector": "#item-b", "by": {"dx": 400, "dy": 0}})
    assert response.ok, response.error
    result = response.result
    assert result["kind"] == "html5" and "dropped_on" not in result
    assert "nothing took the drop" in result["note"]
    assert text_of(send, "#order") == "Apples,Bread,Cheese,Dates"
    again = send({"type": "drag", "selector": "#item-d", "to_selector": "#item-a"})
    assert again.ok and again.result["dropped_on"] == 'li#item-a "Apples"', again
    assert text_of(send, "#order") == "Dates,Apples,Bread,Cheese"
