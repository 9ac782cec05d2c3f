"""Pointer actions, scroll and screenshot through the whole pipe on real pages (tests/fixtures/pages/actions)."""

from __future__ import annotations

import base64
import re

from tests.e2e.actions_helpers import described, evaluate, in_extension, page, uid_of  # noqa: F401 (fixture)


def test_click_tells_repeated_buttons_apart_and_reports_the_dom_change(page):
    send = page("click.html", "t-click")
    response = send({"type": "click", "selector": "tr:nth-child(2) button.view"})
    assert response.ok, response.error
    assert response.result["clicked"] == 'button.view "View"'
    effects = response.result["effects"]
    assert effects["dom_mutations"] >= 1 and effects["nothing_changed"] is False
    assert effects["navigated"] is False and effects["new_tabs"] == []
    assert evaluate(send, "document.querySelector('#out').textContent") == "viewed John Roe"


def test_click_by_uid_from_extract(page):
    send = page("click.html", "t-click-uid")
    extract = send({"type": "extract"})
    assert extract.ok, extract.error
    uid = uid_of(extract.result, r'button "View"', on="Ann Poe")
    response = send({"type": "click", "uid": uid})
    assert response.ok, response.error
    assert evaluate(send, "document.querySelector('#out').textContent") == "viewed Ann Poe"


def test_a_click_that_changes_nothing_says_so(page):
    send = page("click.html", "t-noop")
    effects = send({"type": "click", "selector": "#noop"}).result["effects"]
    assert effects["nothing_changed"] is True and effects["dom_mutations"] == 0
    assert "extract" in effects["note"]


def test_a_covered_button_is_not_clicked_and_the_cover_is_named(page):
    send = page("click.html", "t-covered")
    response = send({"type": "click", "selector": "#covered"})
    assert response.error.code == "not_interactable"
    assert 'button#covered "Under overlay" is covered by div#overlay.backdrop.modal "Cookie consent overlay"' \
        in response.error.message
    assert "dismiss" in response.error.message
    assert evaluate(send, "document.querySelector('#out').textContent") == "nothing yet"


def test_disabled_and_hidden_elements_are_not_interactable(page):
    send = page("click.html", "t-disabled")
    disabled = send({"type": "click", "selector": "#disabled"})
    assert disabled.error.code == "not_interactable" and "it is disabled" in disabled.error.message
    fieldset = send({"type": "click", "selector": "#in-fieldset"})
    assert fieldset.error.code == "not_interactable" and "disabled fieldset" in fieldset.error.message
    hidden = send({"type": "hover", "selector": "#invisible"})
    assert hidden.error.code == "not_interactable"
    assert "hidden (display:none on span#hidden-button)" in hidden.error.message
    assert evaluate(send, "document.querySelector('#out').textContent") == "nothing yet"


def test_a_button_far_below_the_fold_is_scrolled_to_and_clicked(page):
    send = page("click.html", "t-far")
    response = send({"type": "click", "selector": "#far-button"})
    assert response.ok, response.error
    assert 0 < response.result["y"] < 800
    assert evaluate(send, "document.querySelector('#out').textContent") == "far clicked"
    assert evaluate(send, "scrollY") > 2000
    assert "scrolled" not in response.result["effects"], response.result  # bua's own scroll to the target is no effect


def test_missing_element_and_missing_tab(page, act):
    send = page("click.html", "t-missing")
    missing = send({"type": "click", "selector": "#no-such-thing"})
    assert missing.error.code == "element_not_found"
    no_tab = act({"type": "click", "selector": "button"}, task_id="t-never-navigated")
    assert no_tab.error.code == "session_not_found"
    assert "navigate (without tab_id) or open_tab first" in no_tab.error.message


def test_click_that_navigates_waits_for_the_new_page(page, fixture_server):
    send = page("click.html", "t-nav-click")
    effects = send({"type": "click", "selector": "#nav-link"}).result["effects"]
    assert effects["navigated"] is True and effects["url"] == fixture_server.url("/second.html")
    assert "still_loading" not in effects
    assert evaluate(send, "document.title") == "Second page"
    old = send({"type": "click", "selector": "#noop"})
    assert old.error.code == "element_not_found"


def test_same_document_navigation(page):
    send = page("click.html", "t-hash")
    effects = send({"type": "click", "selector": "#hash-link"}).result["effects"]
    assert effects["navigated"] is True and effects["same_document"] is True
    assert effects["url"].endswith("/actions/click.html#section")


def test_target_blank_opens_a_tab_the_task_owns(page, fixture_server):
    send = page("click.html", "t-blank")
    effects = send({"type": "click", "selector": "#blank-link"}).result["effects"]
    assert len(effects["new_tabs"]) == 1, effects
    new_tab = effects["new_tabs"][0]
    assert new_tab["url"] == fixture_server.url("/second.html")
    tabs = send({"type": "get_tabs"}).result["tabs"]
    listed = next(t for t in tabs if t["tab_id"] == new_tab["tab_id"])
    assert listed["in_task"] is True and listed["current"] is False
    closed = send({"type": "close_tab", "tab_id": new_tab["tab_id"]})
    assert closed.ok, closed.error


def test_double_click_right_click_and_focus(page):
    send = page("click.html", "t-buttons")
    assert send({"type": "click", "selector": "#counter", "click_count": 2}).ok
    assert evaluate(send, "[clicks, dbl]") == [2, 1]
    assert send({"type": "click", "selector": "#counter", "button": "right"}).ok
    assert evaluate(send, "document.querySelector('#out').textContent") == "context menu"
    focus = send({"type": "click", "selector": "#focus-next"}).result["effects"]
    assert focus["focus_moved_to"] == 'input#email "you@example.com"'


def test_hover_shows_the_tooltip(page):
    send = page("click.html", "t-hover")
    response = send({"type": "hover", "selector": "#hover-me"})
    assert response.ok, response.error
    assert response.result["hovered"] == 'span#hover-me "Hover me"'
    assert response.result["effects"]["dom_mutations"] >= 1
    assert evaluate(send, "getComputedStyle(document.querySelector('#tip')).display") == "inline"


def test_scroll_by_direction_reports_position_and_the_end(page):
    send = page("click.html", "t-scroll")
    down = send({"type": "scroll", "direction": "down"}).result
    assert down["container"] == "page" and down["moved"] is True and down["y"] == down["moved_by"] > 500
    up = send({"type": "scroll", "direction": "up", "amount": 100}).result
    assert up["moved_by"] == -100
    top = send({"type": "scroll", "direction": "up", "amount": 100_000}).result
    assert top["y"] == 0 and top["at_start"] is True
    again = send({"type": "scroll", "direction": "up"}).result
    assert again["moved"] is False and "already at the top" in again["note"]
    bottom = send({"type": "scroll", "direction": "down", "amount": 100_000}).result
    assert bottom["at_end"] is True and bottom["y"] == bottom["max_y"]
    assert "reached the bottom" in bottom["note"]


def test_scroll_an_element_into_view(page):
    send = page("click.html", "t-scroll-el")
    result = send({"type": "scroll", "selector": "#far-button"}).result
    assert result["in_view"] is True and result["y"] > 2000
    assert result["target"] == 'button#far-button "Far below"'


def _png_size(data_url: str) -> tuple[int, int]:
    raw = base64.b64decode(data_url.split(",", 1)[1])
    assert raw[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(raw[16:20], "big"), int.from_bytes(raw[20:24], "big")


def test_screenshots_viewport_element_full_page_and_jpeg(page):
    send = page("click.html", "t-shot")
    viewport = send({"type": "screenshot"}).result
    assert viewport["format"] == "png" and viewport["data_url"].startswith("data:image/png;base64,")
    assert (viewport["width"], viewport["height"]) == _png_size(viewport["data_url"])
    assert viewport["bytes"] == len(base64.b64decode(viewport["data_url"].split(",", 1)[1]))
    # the headless window's viewport is 1280 px wide less the scrollbar; its height varies with Chrome's chrome
    assert 1200 <= viewport["width"] <= 1280 and 500 <= viewport["height"] <= 800

    element = send({"type": "screenshot", "selector": "#counter"}).result
    box = evaluate(send, "(r => [r.width, r.height])(document.querySelector('#counter').getBoundingClientRect())")
    assert abs(element["width"] - box[0]) <= 1 and abs(element["height"] - box[1]) <= 1
    assert (element["width"], element["height"]) == _png_size(element["data_url"])

    full = send({"type": "screenshot", "full_page": True}).result
    assert full["height"] == evaluate(send, "document.documentElement.scrollHeight") > 3000
    assert "note" not in full

    jpeg = send({"type": "screenshot", "format": "jpeg", "quality": 30}).result
    assert jpeg["data_url"].startswith("data:image/jpeg;base64,") and jpeg["bytes"] < viewport["bytes"]
    assert 1200 <= jpeg["width"] <= 1280 and 500 <= jpeg["height"] <= 800


def test_screenshot_of_a_very_tall_page_is_cut_with_a_note(page):
    send = page("click.html", "t-tall")
    assert evaluate(send, "document.querySelector('#far').style.marginTop = '20000px'; 1") == 1
    full = send({"type": "screenshot", "full_page": True, "format": "jpeg"}).result
    assert full["height"] == 8_000
    assert re.search(r"the page is \d+ px tall; only the top 8000 px", full["note"])


def test_click_and_type_inside_same_origin_and_cross_site_frames(page):
    send = page("frames.html", "t-frames")
    for _ in range(20):
        elements = described(send({"type": "extract"}).result)
        if "Pay now (cross)" in elements:
            break
    uids = {line.split(" ", 1)[1].strip(): line.split()[0] for line in elements.splitlines()}
    cards = [line.split()[0] for line in elements.splitlines() if 'textbox "Card"' in line]
    for who in ("same", "cross"):
        response = send({"type": "click", "uid": uids[f'button "Pay now ({who})"']})
        assert response.ok, response.error
        assert response.result["effects"]["dom_mutations"] == 1, (who, response.result)
    for uid in cards:
        assert send({"type": "type", "uid": uid, "text": "4242"}).result["value"] == "4242"
    after = described(send({"type": "extract"}).result)
    assert 'button "Paid in same"' in after and 'button "Paid in cross"' in after


def test_a_selector_reaches_into_a_cross_site_frame(page):
    send = page("frames.html", "t-frame-selector")
    for _ in range(20):
        if "Pay now (cross)" in described(send({"type": "extract"}).result):
            break
    response = send({"type": "click", "selector": "body[data-who='cross'] #pay"})
    assert response.ok, response.error
    assert 'button "Paid in cross"' in described(send({"type": "extract"}).result)
    missing = send({"type": "click", "selector": "body[data-who='nowhere'] #pay"})
    assert missing.error.code == "element_not_found" and "cross-site frames" in missing.error.message


def test_changes_inside_open_and_closed_shadow_roots_count_as_effects(page):
    send = page("shadow.html", "t-shadow-effects")
    clicked = send({"type": "click", "selector": "#inc"})
    assert clicked.ok, clicked.error
    before_extract = clicked.result["effects"]
    assert before_extract["dom_mutations"] >= 1, ("open root, found by walking the page", before_extract)
    elements = described(send({"type": "extract"}).result)
    for name in ("Add one", "Add one (closed)"):
        uid = next(line.split()[0] for line in elements.splitlines() if f'button "{name}"' in line)
        clicked = send({"type": "click", "uid": uid})
        assert clicked.ok, (name, clicked.error)
        effects = clicked.result["effects"]
        assert effects["dom_mutations"] >= 1 and effects["nothing_changed"] is False, (name, effects)


def test_changes_inside_a_shadow_root_created_after_the_last_extract_count_as_effects(page):
    send = page("shadow.html", "t-shadow-late")
    assert send({"type": "extract"}).ok
    evaluate(send, """(() => {
      const late = document.createElement('shadow-counter');
      document.body.append(late);
      const bump = document.createElement('button');
      bump.id = 'bump-late';
      bump.textContent = 'Bump the new counter';
      bump.onclick = () => { const n = late.shadowRoot.getElementById('n'); n.textContent = String(+n.textContent + 1); };
      document.body.prepend(bump);
      return true;
    })()""")
    clicked = send({"type": "click", "selector": "#bump-late"})
    assert clicked.ok, clicked.error
    effects = clicked.result["effects"]
    assert effects["dom_mutations"] >= 1 and effects["nothing_changed"] is False, effects


def test_an_overlay_of_the_page_over_a_frame_is_named_not_clicked_through(page):
    send = page("frame-covered.html", "t-frame-covered")
    for _ in range(20):
        elements = described(send({"type": "extract"}).result)
        if "Pay now (cross)" in elements:
            break
    for who in ("same", "cross"):
        uid = next(line.split()[0] for line in elements.splitlines() if f'"Pay now ({who})"' in line)
        refused = send({"type": "click", "uid": uid})
        assert refused.error.code == "not_interactable", (who, refused)
        assert "div#wall" in refused.error.message and "of the page" in refused.error.message
    assert "Paid in" not in described(send({"type": "extract"}).result), "nothing was clicked through the wall"


RECORD_DECLARATIONS = """(() => {
  globalThis.__buaSizes = [];
  const send = globalThis.__buaPlainSend = chrome.debugger.sendCommand;
  chrome.debugger.sendCommand = function (target, method, params) {
    if (method === "Runtime.callFunctionOn") globalThis.__buaSizes.push(params.functionDeclaration.length);
    return send.apply(this, arguments);
  };
  return 0;
})()"""


def test_page_functions_are_sent_once_per_document_and_kept_only_in_buas_world(page, browser):
    send = page("click.html", "t-kept")

    def click_counter() -> list[int]:
        """Click "Counter" by uid; the sizes of the page calls' function declarations it sent."""
        uid = next(line.split()[0] for line in described(send({"type": "extract"}).result).splitlines()
                   if '"Counter"' in line)
        in_extension(browser, "globalThis.__buaSizes = []")
        response = send({"type": "click", "uid": uid})
        assert response.ok, response.error
        assert response.result["effects"]["dom_mutations"] >= 1
        return in_extension(browser, "globalThis.__buaSizes")

    in_extension(browser, RECORD_DECLARATIONS)
    try:
        first = click_counter()
        again = click_counter()
        assert max(first) > 2000, f"a new document gets the sources: {first}"
        assert again and max(again) < 1000, f"then only references to them: {again}"
        assert send({"type": "navigate", "url": evaluate(send, "location.href")}).ok
        reloaded = click_counter()
        assert max(reloaded) > 2000, f"the new document has no copies, so it gets the sources again: {reloaded}"
        assert evaluate(send, "typeof globalThis.__buaKept") == "undefined", "the page's own world never sees them"
        assert evaluate(send, "document.querySelector('#out').textContent") == "clicks 1", "the reloaded page's click"
    finally:
        in_extension(browser, "chrome.debugger.sendCommand = globalThis.__buaPlainSend; 0")
