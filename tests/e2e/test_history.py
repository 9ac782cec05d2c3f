"""The `history` action (back, forward, reload) through the whole pipe: it returns to the previous URL, the old
page's uids are gone, and a step onto a blocked site is refused like any navigation."""

from __future__ import annotations

import re

from tests.e2e.actions_helpers import blocklist  # noqa: F401 (fixture)


def first_uid(response) -> str:
    """The first uid the extract names (inline in the markdown, or in the element index)."""
    assert response.ok, response.error
    found = re.search(r"\be\d+\b", response.result["markdown"] + " " + response.result.get("elements", ""))
    assert found, response.result
    return found.group(0)


def test_back_forward_and_reload(act, fixture_server):
    first, second = fixture_server.url("/index.html"), fixture_server.url("/second.html")
    assert act({"type": "navigate", "url": first}, task_id="t-hist").ok
    assert act({"type": "navigate", "url": second}, task_id="t-hist").ok
    old_uid = first_uid(act({"type": "extract"}, task_id="t-hist"))

    back = act({"type": "history", "direction": "back"}, task_id="t-hist")
    assert back.ok, back.error
    assert back.result["url"] == first and back.result["direction"] == "back"
    assert act({"type": "evaluate", "expression": "location.href"}, task_id="t-hist").result["value"] == first
    stale = act({"type": "click", "uid": old_uid}, task_id="t-hist")
    assert stale.error.code == "element_stale", "the uid map of the page we left is cleared"

    forward = act({"type": "history", "direction": "forward"}, task_id="t-hist")
    assert forward.ok and forward.result["url"] == second
    marked = act({"type": "evaluate", "expression": "window.marker = 1; window.marker"}, task_id="t-hist")
    assert marked.result["value"] == 1
    reloaded = act({"type": "history", "direction": "reload"}, task_id="t-hist")
    assert reloaded.ok and reloaded.result["url"] == second
    gone = act({"type": "evaluate", "expression": "typeof window.marker"}, task_id="t-hist")
    assert gone.result["value"] == "undefined", "a reload makes a new document"


def test_there_is_nothing_before_the_first_page(act, fixture_server):
    assert act({"type": "open_tab", "url": fixture_server.url("/second.html")}, task_id="t-hist-start").ok
    refused = act({"type": "history", "direction": "back"}, task_id="t-hist-start")
    assert refused.error.code == "navigation_failed" and "navigate to a URL instead" in refused.error.message


def test_a_step_back_onto_a_blocked_site_is_refused_before_it_is_taken(act, fixture_server, blocklist):
    away = fixture_server.url("/index.html?hist", host="localhost")
    here = fixture_server.url("/second.html?hist")
    assert act({"type": "navigate", "url": away}, task_id="t-hist-bl").ok
    assert act({"type": "navigate", "url": here}, task_id="t-hist-bl").ok
    blocklist("localhost")
    refused = act({"type": "history", "direction": "back"}, task_id="t-hist-bl")
    assert refused.error.code == "blocked" and "localhost" in refused.error.message
    still = act({"type": "evaluate", "expression": "location.href"}, task_id="t-hist-bl")
    assert still.ok and still.result["value"] == here, "the tab stayed where it was, in its session"
