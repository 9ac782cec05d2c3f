"""The app's mirror of the extension's tab state (app/bridge/tab_mirror.py): what it answers, and when it leaves
the answer to the extension. The frames are the ones extension/src/tabs/tab-feed.js sends (its node test holds
their shape); real Chromium: tests/e2e/test_tab_mirror.py."""

from __future__ import annotations

from typing import Any

from app.bridge.tab_mirror import TabMirror


def tab(tab_id: int, task: str | None, **kw: Any) -> dict[str, Any]:
    return {"tab_id": tab_id, "window_id": kw.get("window_id", 10), "url": kw.get("url", f"https://s.test/{tab_id}"),
            "title": kw.get("title", f"T{tab_id}"), "active": kw.get("active", False), "task_id": task}


def full(**kw: Any) -> dict[str, Any]:
    rows = kw.get("tabs", [tab(1, None, active=True), tab(2, "t1"), tab(3, "t1")])
    return {"seq": 1, "full": True, "order": [r["tab_id"] for r in rows], "tabs": rows, "unnamed": kw.get("unnamed", 0),
            "current": kw.get("current", {"t1": 3}), "stopped": kw.get("stopped", [])}


def test_nothing_is_answered_before_a_full_frame():
    mirror = TabMirror()
    assert mirror.answer("t1") is None
    mirror.apply({"seq": 1, "full": False, "tabs": [tab(1, "t1")], "order": [1]})
    assert mirror.answer("t1") is None, "a delta without the full frame before it"


def test_the_task_sees_its_own_tabs_in_order_and_the_rest_counted():
    mirror = TabMirror()
    mirror.apply(full(unnamed=1))
    assert mirror.answer("t1") == {"tabs": [
        {"tab_id": 2, "window_id": 10, "url": "https://s.test/2", "title": "T2", "active": False, "in_task": True,
         "current": False},
        {"tab_id": 3, "window_id": 10, "url": "https://s.test/3", "title": "T3", "active": False, "in_task": True,
         "current": True}], "other_tabs": 2}
    assert mirror.answer("t-other") == {"tabs": [], "other_tabs": 4}
    assert mirror.answered == 2


def test_deltas_update_reorder_and_remove():
    mirror = TabMirror()
    mirror.apply(full())
    mirror.apply({"seq": 2, "full": False, "tabs": [tab(3, "t1", title="New title"), tab(4, "t1")],
                  "order": [4, 3, 1], "current": {"t1": 4}})
    answer = mirror.answer("t1")
    assert answer is not None
    assert [(t["tab_id"], t["title"], t["current"]) for t in answer["tabs"]] == [(4, "T4", True), (3, "New title", False)]
    assert answer["other_tabs"] == 1, "tab 2 left the order: it is gone"


def test_a_gap_or_a_garbled_frame_leaves_the_answer_to_the_extension_until_the_next_full_frame():
    mirror = TabMirror()
    mirror.apply(full())
    mirror.apply({"seq": 3, "full": False, "order": [1]})
    assert mirror.answer("t1") is None
    mirror.apply({"seq": 4, "full": False, "order": [1]})
    assert mirror.answer("t1") is None, "still no trusted base"
    mirror.apply(full() | {"seq": 1})
    assert mirror.answer("t1") is not None
    mirror.apply({"full": False})
    assert mirror.answer("t1") is None


def test_a_stopped_task_is_answered_by_the_extension():
    mirror = TabMirror()
    mirror.apply(full(stopped=["t1"]))
    assert mirror.answer("t1") is None
    assert mirror.answer("t2") is not None
    mirror.apply({"seq": 2, "full": False, "stopped": []})
    assert mirror.answer("t1") is not None
