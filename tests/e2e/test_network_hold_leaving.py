"""A request that waits for the person while its page goes away (tests/e2e/network_site.py's pages, real Chromium,
the real extension, host and app): Chromium continues every request still paused in Fetch when the debugger
detaches, so each way a page can go is met before that, or reported (extension/src/safety/network-tab-hold.js,
network-close-guard.js). The page's request is sent by the page itself, with no bua click in it (Runtime.evaluate
over the test's own CDP pipe gives no user activation), so nothing but the hold stands in its way."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.actions_helpers import in_target, stays, wait_until
from tests.e2e.network_site import site  # noqa: F401 (fixture)
from tests.e2e.safety_helpers import Person

PATIENCE = 30.0
"""How long a test waits for what Chromium does (a loaded machine)."""


def page_target(browser, path: str) -> str | None:
    """The page target whose URL ends with `path`, if there is one."""
    return next((t["targetId"] for t in browser.cdp.send("Target.getTargets")["targetInfos"]
                 if t["type"] == "page" and t["url"].endswith(path)), None)


def opened(act, site, name: str, task: str) -> str:
    """Navigate the task to the site's page `name`, at a URL of its own (`?<task>`); returns that URL's path."""
    path = f"/p/{name}?{task}"
    response = act({"type": "navigate", "url": site.url(path)}, task_id=task)
    assert response.ok, response.error
    return path


def by_page(browser, path: str, expression: str) -> Any:
    """Evaluate in the page at `path` with the test's own CDP pipe: no user activation, as the page's own script."""
    target = page_target(browser, path)
    assert target, path
    return in_target(browser, target, expression)


def unanswered(response) -> list[dict[str, Any]]:
    """What a result says went without the person's answer since the task's last result."""
    assert response.ok, response.error
    result = response.result
    return list(result.get("effects", result).get("unanswered_requests", []))


def pending(core) -> list:
    return core.run(lambda: core.core.confirmations.pending())


@pytest.mark.parametrize(("button", "path"), [("#go", "/api/v1/checkout"), ("#beacon", "/api/messages/send")])
def test_a_crashed_page_sends_nothing_that_waited_and_the_next_action_says_so(core, act, browser, site, button, path):
    """The page's renderer crashes while its POST (a fetch, or a beacon, which outlives its renderer) waits for the
    person: the hold fails it, the question goes, and the task's next action says it was not sent."""
    task = f"t-leave-crash-{button[1:]}"
    page = opened(act, site, "post", task)
    with Person(core, answer=None) as person:
        by_page(browser, page, f"document.querySelector('{button}').click(), true")
        assert wait_until(lambda: person.asked, PATIENCE), "held for the person"
        target = page_target(browser, page)
        session = browser.cdp.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        try:
            browser.cdp.send("Page.crash", {}, session)
        except (RuntimeError, TimeoutError):  # the crash may cut the reply short
            pass
        assert wait_until(lambda: pending(core) == [], PATIENCE), "the question went with the request"
    assert stays(lambda: site.saw(path) == [], 1.0), "it never arrived"
    told = unanswered(act({"type": "open_tab", "url": site.url("/p/form")}, task_id=task))
    assert [(u["method"], u["url"], u["decision"]) for u in told] == [("POST", site.url(path), "stopped")], told
    assert "crashed" in told[0]["why"] and "not sent" in told[0]["why"], told
    browser.cdp.send("Target.closeTarget", {"targetId": target})


def test_a_popup_that_closes_itself_while_its_request_waits_sends_nothing(core, act, browser, site):
    """A popup nobody clicked or typed in POSTs, then closes itself with window.close(): Chrome shows a beforeunload
    dialog only for a frame that had a user activation, so the close guard gives the popup one when it goes on;
    the dialog opens, the hold fails the request, and only then does the popup close."""
    task = "t-leave-self-close"
    opened(act, site, "popup", task)
    assert act({"type": "click", "selector": "#open-notes"}, task_id=task).ok

    def popup_held() -> bool:
        tabs = act({"type": "get_tabs"}, task_id=task)
        return tabs.ok and any(t["in_task"] and t["url"].endswith("/p/notes-popup") for t in tabs.result["tabs"])
    assert wait_until(popup_held, PATIENCE), "the popup joined the task"
    before = len(site.saw("/api/v1/checkout"))
    with Person(core, answer=None) as person:
        by_page(browser, "/p/notes-popup", "document.querySelector('#go').click(), true")
        assert wait_until(lambda: person.asked, PATIENCE), "the popup's POST is held for the person"
        closing = browser.cdp.send("Target.attachToTarget", {"targetId": page_target(browser, "/p/notes-popup"),
                                                             "flatten": True})["sessionId"]
        # the page's own script closes it (no activation); the session goes with the page
        browser.cdp.send("Runtime.evaluate", {"expression": "setTimeout(() => window.close()), true"}, closing)
        assert wait_until(lambda: page_target(browser, "/p/notes-popup") is None, PATIENCE), "the popup closed"
        assert wait_until(lambda: pending(core) == [], PATIENCE), "the question went with the request"
    assert stays(lambda: len(site.saw("/api/v1/checkout")) == before, 1.0), "it never arrived"
    told = unanswered(act({"type": "extract"}, task_id=task))
    assert [(u["url"], u["decision"]) for u in told] == [(site.url("/api/v1/checkout"), "stopped")], told


def test_a_tab_a_devtools_client_closes_while_its_request_waits_is_reported_as_let_go(core, act, browser, site):
    """Target.closeTarget skips beforeunload, and Chromium continues what is paused when the debugger detaches, so
    nothing an extension has keeps the request from leaving (a declarativeNetRequest rule is matched before
    Fetch pauses a request, and is not matched again when Chromium continues it). The task is told: its next
    action reports the request as let go, and that it may have been sent."""
    task = "t-leave-close-target"
    page = opened(act, site, "post", task)
    with Person(core, answer=None) as person:
        by_page(browser, page, "document.querySelector('#go').click(), true")
        assert wait_until(lambda: person.asked, PATIENCE), "held for the person"
        browser.cdp.send("Target.closeTarget", {"targetId": page_target(browser, page)})
        assert wait_until(lambda: pending(core) == [], PATIENCE), "the question went"
    told = unanswered(act({"type": "navigate", "url": site.url("/p/form")}, task_id=task))
    assert [(u["url"], u["decision"]) for u in told] == [(site.url("/api/v1/checkout"), "let_go")], told
    assert "may have been sent" in told[0]["why"], told
