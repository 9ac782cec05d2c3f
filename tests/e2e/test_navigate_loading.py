"""A page that is ready to read but still loading answers navigate at once, as 'interactive' with a note, and
belongs to the task from then on."""

from __future__ import annotations


def test_a_ready_page_with_a_slow_resource_answers_interactive(act, fixture_server):
    response = act({"type": "navigate", "url": fixture_server.url("/slow-image.html")}, task_id="t-slow-img")
    assert response.ok, response.error
    assert response.result["status"] == "interactive" and "still loading" in response.result["note"]
    read = act({"type": "extract"}, task_id="t-slow-img")
    assert read.ok and "Ready to read" in read.result["markdown"], "the page is the task's and readable now"
