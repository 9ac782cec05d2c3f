"""`bua blocklist` against the real core and real Chromium: the command line takes the same path as the popup,
so the new list reaches the extension (which ends the session on the newly blocked site and refuses the next
navigation there) and the core's listeners (the tray and its windows) hear `blocklist_changed`."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_cli import bua
from tests.e2e.test_sessions import wait_until


def test_bua_blocklist_add_reaches_the_browser_and_the_listeners(core, browser, act, fixture_server):
    heard: list[tuple[str, dict[str, Any]]] = []
    remove = core.run(core.core.subscribe, lambda kind, payload: heard.append((kind, payload)))
    try:
        opened = act({"type": "navigate", "url": fixture_server.url("/second.html", host="localhost")},
                     task_id="t-cli-block")
        assert opened.ok, opened
        added = bua(core.home, "blocklist", "add", "localhost")
        assert added.returncode == 0, added.stdout + added.stderr
        assert added.stdout.split() == ["localhost"]

        changes = [payload for kind, payload in heard if kind == "blocklist_changed"]
        assert len(changes) == 1 and changes[0]["patterns"] == ["localhost"]
        [answer] = changes[0]["browsers"]
        ended = [e["domain"] for e in answer["result"]["ended"]]
        # Sessions an earlier test left on localhost end too (the whole suite shares one browser): all on localhost.
        assert answer["ok"] and ended and set(ended) == {"localhost"}, answer
        assert wait_until(lambda: not any(r["task_id"] == "t-cli-block" for r in core.core.sessions.rows()), 5)
        refused = act({"type": "navigate", "url": fixture_server.url("/", host="localhost")}, task_id="t-cli-block-2")
        assert refused.error is not None and refused.error.code == "blocked"
    finally:
        removed = bua(core.home, "blocklist", "remove", "localhost")
        remove()
    assert removed.returncode == 0, removed.stderr
    assert [p["patterns"] for k, p in heard if k == "blocklist_changed"] == [["localhost"], []]
