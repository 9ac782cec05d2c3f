"""Edges of the actions and extract that the main e2e files leave out: states and uids under change, the
candidate cap, stale uids after a click navigated, the screenshot size cap, waiting for real changes, hover on a
covered element, dialogs raised by keys, and what keys and sideways scrolls really do."""

from __future__ import annotations

import re

from tests.e2e.actions_helpers import described, evaluate, page, uid_of  # noqa: F401 (fixture)


def lines_of(send) -> list[str]:
    response = send({"type": "extract"})
    assert response.ok, response.error
    return described(response.result).splitlines()


def uid_where(lines: list[str], pattern: str) -> str:
    found = [line.split()[0] for line in lines if re.search(pattern, line)]
    assert len(found) == 1, (pattern, lines)
    return found[0]


def test_expanded_state_and_uids_stay_put_when_the_page_changes_around_them(page):
    send = page("click.html", "t-edge-states")
    before = lines_of(send)
    counter = uid_where(before, r'button "Counter"')
    evaluate(send, """(() => {
      const toggle = document.createElement('button');
      toggle.textContent = 'Filters';
      toggle.setAttribute('aria-expanded', 'true');
      const details = document.createElement('details');
      details.open = true;
      details.innerHTML = '<summary>More</summary><p>Shown</p>';
      document.body.prepend(toggle, details);
      return true;
    })()""")
    after = lines_of(send)
    assert any(re.search(r'button "Filters" expanded$', line) for line in after), after
    assert any(re.search(r'"More" expanded$', line) for line in after), after
    assert uid_where(after, r'button "Counter"') == counter, "inserting before it does not renumber it"
    new_uids = {line.split()[0] for line in after} - {line.split()[0] for line in before}
    assert uid_where(after, r'button "Filters"') in new_uids


def test_a_stale_uid_offers_at_most_five_candidates_each_with_its_context(page, fixture_server):
    send = page("click.html", "t-edge-cap")
    evaluate(send, """(() => {
      const list = document.createElement('ul');
      list.id = 'many';
      list.innerHTML = [...Array(8).keys()].map((i) => `<li>Item ${i} <button>Open</button></li>`).join('');
      document.body.prepend(list);
      return true;
    })()""")
    old = uid_of(send({"type": "extract"}).result, r'button "Open"', on="Item 3")
    evaluate(send, "(() => { const l = document.getElementById('many'); l.innerHTML = l.innerHTML; return true; })()")
    response = send({"type": "hover", "uid": old})
    assert response.error.code == "element_stale", response
    candidates = response.error.candidates
    assert len(candidates) == 5, candidates
    assert all(c["role"] == "button" and c["name"] == "Open" and c["context"].startswith("item: Item ") for c in candidates)
    assert old not in {c["uid"] for c in candidates}


def test_a_uid_from_before_a_click_navigated_is_stale(page):
    send = page("click.html", "t-edge-nav")
    response = send({"type": "extract"})
    assert response.ok, response.error
    link = re.search(r"\[Go to second\]\((e\d+)\)", response.result["markdown"]).group(1)
    counter = uid_where(described(response.result).splitlines(), r'button "Counter"')
    clicked = send({"type": "click", "uid": link})
    assert clicked.ok and clicked.result["effects"]["navigated"] is True, clicked
    response = send({"type": "click", "uid": counter})
    assert response.error.code == "element_stale", response
    assert "navigated" in response.error.message and "extract" in response.error.message


def test_a_screenshot_over_the_size_cap_is_scaled_down_and_says_so(page):
    send = page("noise.html", "t-edge-shot")
    shot = send({"type": "screenshot", "full_page": True})
    assert shot.ok, shot.error
    assert shot.result["bytes"] <= 4.75 * 1024 * 1024, shot.result["bytes"]
    assert re.search(r"scaled to \d+% to stay under 4\.75 MB", shot.result["note"]), shot.result["note"]
    assert shot.result["width"] < 1200, "the image really is smaller"
    low = send({"type": "screenshot", "format": "jpeg", "quality": 20}).result["bytes"]
    high = send({"type": "screenshot", "format": "jpeg", "quality": 95}).result["bytes"]
    assert low < high / 2, (low, high)


def test_wait_for_sees_an_element_go_hidden_and_detached_while_it_waits(page):
    send = page("delayed.html", "t-edge-wait")
    button = uid_where(lines_of(send), r'button "Open panel"')
    evaluate(send, "setTimeout(() => { document.getElementById('open').style.display = 'none'; }, 1000), true")
    hidden = send({"type": "wait_for", "uid": button, "state": "hidden", "timeout_ms": 5000})
    assert hidden.ok, hidden.error
    assert hidden.result["elapsed_ms"] >= 100, ("it waited for the change", hidden.result)
    evaluate(send, "setTimeout(() => document.getElementById('doomed').remove(), 1000), true")
    gone = send({"type": "wait_for", "selector": "#doomed", "state": "detached", "timeout_ms": 5000})
    assert gone.ok, gone.error
    assert gone.result["elapsed_ms"] >= 100, ("it waited for the change", gone.result)
    assert evaluate(send, "document.getElementById('doomed')") is None


def test_hover_on_a_covered_element_names_the_cover_and_does_not_reach_it(page):
    send = page("click.html", "t-edge-hover")
    evaluate(send, "document.getElementById('covered').onmouseenter = () => { window.reached = true; }, true")
    response = send({"type": "hover", "selector": "#covered"})
    assert response.error.code == "not_interactable", response
    assert "div#overlay" in response.error.message
    assert evaluate(send, "window.reached === true") is False


def test_a_dialog_raised_by_a_key_is_answered_as_asked_and_reported(page):
    send = page("keys.html", "t-edge-key-dialog")
    evaluate(send, """(() => {
      document.getElementById('first').addEventListener('keydown', (e) => {
        if (e.key === 'Enter') window.answer = confirm('Send it?');
      });
      return true;
    })()""")
    pressed = send({"type": "press_key", "key": "Enter", "dialog": "accept"})
    assert pressed.ok, pressed.error
    dialog = pressed.result["effects"]["dialog"]
    assert dialog["type"] == "confirm" and dialog["message"] == "Send it?", dialog
    assert evaluate(send, "window.answer") is True
    dismissed = send({"type": "press_key", "key": "Enter"})
    assert dismissed.result["effects"]["dialog"]["type"] == "confirm"
    assert evaluate(send, "window.answer") is False, "confirm is dismissed unless the action asks otherwise"


def test_page_down_scrolls_the_page_and_a_sideways_scroll_moves_the_pane_that_can(page):
    send = page("click.html", "t-edge-keys-scroll")
    evaluate(send, "document.activeElement.blur(), window.scrollTo(0, 0), true")
    pressed = send({"type": "press_key", "key": "PageDown"})
    assert pressed.ok, pressed.error
    scrolled = evaluate(send, "window.scrollY")
    assert scrolled > 200, "PageDown really scrolled, in the minimised bua window too"
    effects = pressed.result["effects"]
    assert effects["nothing_changed"] is False and effects["scrolled"]["what"] == "page", effects
    assert 200 < effects["scrolled"]["y"] <= scrolled, effects
    evaluate(send, """(() => {
      const pane = document.createElement('div');
      pane.id = 'pane';
      pane.style.cssText = 'width: 300px; height: 120px; overflow: auto';
      pane.innerHTML = '<div style="width: 3000px; height: 100px">A wide pane</div>';
      document.body.prepend(pane);
      window.scrollTo(0, 0);
      return true;
    })()""")
    assert evaluate(send, "document.scrollingElement.scrollWidth <= innerWidth"), "the page itself cannot go right"
    sideways = send({"type": "scroll", "direction": "right", "amount": 500})
    assert sideways.ok, sideways.error
    assert evaluate(send, "document.getElementById('pane').scrollLeft") == 500


def test_a_scroll_inside_a_shadow_root_is_an_effect_and_typing_below_the_fold_is_not_a_scroll(page):
    send = page("shadow.html", "t-edge-shadow-scroll")
    assert send({"type": "extract"}).ok
    evaluate(send, """(() => {
      const root = document.querySelector('shadow-counter').shadowRoot;
      root.innerHTML += '<div id="inner-pane" style="height: 50px; overflow: auto"><div style="height: 500px">tall</div></div>';
      const button = document.createElement('button');
      button.id = 'scroll-inner';
      button.textContent = 'Scroll the inner pane';
      button.onclick = () => { root.getElementById('inner-pane').scrollTop = 120; };
      document.body.prepend(button);
      return true;
    })()""")
    clicked = send({"type": "click", "selector": "#scroll-inner"})
    assert clicked.ok, clicked.error
    # "tall" is scrolled out of the 50 px pane, which a person can scroll back: it counts as seen, as a scroll box's
    # later text and a page's text below the fold do (tests/e2e/test_extract_rendering.py), in a shadow root too.
    assert clicked.result["effects"].get("scrolled") == {"what": 'div#inner-pane "tall"', "x": 0, "y": 120}, \
        clicked.result["effects"]
    typing = page("click.html", "t-edge-type-far")
    evaluate(typing, "document.getElementById('far').append(Object.assign(document.createElement('input'),"
                     " { id: 'far-input' })), window.scrollTo(0, 0), true")
    typed = typing({"type": "type", "selector": "#far-input", "text": "x"})
    assert typed.ok, typed.error
    assert typed.result["value"] == "x" and evaluate(typing, "window.scrollY") > 1000
    assert "scrolled" not in typed.result["effects"], "bua's own scroll to the field is not an effect"


def test_a_key_pressed_in_an_editor_inside_a_same_origin_frame_has_its_effects_seen(page):
    send = page("frames.html", "t-edge-frame-key")
    evaluate(send, """(() => {
      const frame = document.getElementById('same');
      const doc = frame.contentDocument;
      doc.body.contentEditable = 'true';
      frame.contentWindow.focus();
      doc.body.focus();
      return doc.hasFocus();
    })()""")
    typed = send({"type": "press_key", "key": "x"})
    assert typed.ok, typed.error
    effects = typed.result["effects"]
    assert effects["dom_mutations"] >= 1 and effects["nothing_changed"] is False, effects
    assert evaluate(send, "document.getElementById('same').contentDocument.body.innerText").lstrip().startswith("x"), \
        "the key went into the frame's editor, at its caret"
