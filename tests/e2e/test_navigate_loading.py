"""A page that is ready to read but still loading answers navigate at once, as 'interactive' with a note, and
belongs to the task from then on."""

from __future__ import annotations


def test_a_ready_page_with_a_slow_resource_answers_interactive(act, fixture_server):
    response = act({"type": "navigate", "url": fixture_server.url("/slow-image.html")}, task_id="t-slow-img")
    assert response.ok, response.error
    assert response.result["status"] == "interactive" and "still loading" in response.result["note"]
    read = act({"type": "extract"}, task_id="t-slow-img")
    assert read.ok and "Ready to read" in read.result["markdown"], "the page is the task's and readable now"


def test_a_first_navigate_that_times_out_leaves_the_task_its_tab(act, fixture_server):
    slow = fixture_server.url("/slow?ms=4000")
    timed_out = act({"type": "navigate", "url": slow, "timeout_ms": 500}, task_id="t-slow-first")
    assert timed_out.error.code == "timeout"
    tabs = act({"type": "get_tabs"}, task_id="t-slow-first")
    assert [t for t in tabs.result["tabs"] if t.get("in_task")], "the tab is the task's from the moment it opened"
    read = act({"type": "wait_for", "text": "slow page", "timeout_ms": 8000}, task_id="t-slow-first")
    assert read.ok, read.error
