"""Shared helpers of the e2e tests: the `page` and `blocklist` fixtures, evaluate() in a page, in_extension(),
in_page(), wait_until(), stays(), described() (every element an extract names, all it says of each) and uid_of()."""

from __future__ import annotations

import json
import re
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import pytest

from app.demo.scripted_model.elements import Element, elements

Send = Callable[..., Any]


@pytest.fixture
def page(act, fixture_server):
    """page(name, task_id) navigates the task to tests/fixtures/pages/actions/<name> and returns
    send(action) bound to the task; the tabs the task owns are closed afterwards."""
    tasks: list[str] = []

    def open_page(name: str, task_id: str) -> Send:
        response = act({"type": "navigate", "url": fixture_server.url(f"/actions/{name}")}, task_id=task_id)
        assert response.ok, response.error
        tasks.append(task_id)
        return lambda action, **kw: act(action, task_id=task_id, **kw)

    yield open_page
    for task_id in tasks:
        tabs = act({"type": "get_tabs"}, task_id=task_id)
        for tab in tabs.result["tabs"] if tabs.ok else []:
            if tab["in_task"]:
                act({"type": "close_tab", "tab_id": tab["tab_id"]}, task_id=task_id)


def description(e: Element) -> str:
    """An element as one line says all of it: `button "View" disabled (in footer)`."""
    name = f' "{e.name}"' if e.name else ""
    states = f" {e.states}" if e.states else ""
    context = f" ({e.context})" if e.context else ""
    return f"{e.role}{name}{states}{context}"


def described(result: dict[str, Any]) -> str:
    """Every element an extract result names, a line each with all the extract says of it (`e4 button "View"
    disabled`, `e5 textbox "Email" value="a@b.c"`, `e9 link "Jobs" (in navigation "Main")`): the markdown's tokens
    and the index read together as a model reads them (app/demo/scripted_model/elements.py), so a test finds a uid
    by role and name whether the markdown or the index says the name."""
    return "\n".join(f"{e.uid} {description(e)}" for e in elements(result))


def uid_of(result: dict[str, Any], pattern: str, on: str | None = None) -> str:
    """The one uid whose description() matches `pattern` whole; `on`: a pattern
    the markdown line it stands on must hold (the row or list item that tells repeated names apart)."""
    matches = [e.uid for e in elements(result) if re.fullmatch(pattern, description(e))
               and (on is None or re.search(on, e.line))]
    assert len(matches) == 1, (pattern, on, result.get("markdown"), result.get("elements"))
    return matches[0]


def evaluate(send: Send, expression: str) -> Any:
    response = send({"type": "evaluate", "expression": expression})
    assert response.ok, response.error
    return response.result["value"]


def in_extension(browser, expression: str) -> Any:
    """Evaluate in the extension's service worker (to read what the person sees: groups, badges)."""
    return in_target(browser, browser.cdp.extension_worker(), expression)


def in_target(browser, target_id: str, expression: str) -> Any:
    """Evaluate in one target over the test's own CDP pipe (attached for this call only), awaiting a promise."""
    session = browser.cdp.send("Target.attachToTarget", {"targetId": target_id, "flatten": True})["sessionId"]
    try:
        reply = browser.cdp.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                      "returnByValue": True}, session)
        return reply["result"].get("value")
    finally:
        browser.cdp.send("Target.detachFromTarget", {"sessionId": session})


def wait_until(predicate: Callable[[], Any], timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def in_page(browser, url_part: str, expression: str) -> Any:
    """Evaluate in the page whose URL contains `url_part`, with the person's hands (the test's own CDP client,
    never the agent's pipe): to watch what a page did between actions without an action that would report it."""
    target = next(t for t in browser.cdp.send("Target.getTargets")["targetInfos"]
                  if t["type"] == "page" and url_part in t["url"])
    return in_target(browser, target["targetId"], expression)


def stays(predicate: Callable[[], Any], seconds: float) -> bool:
    """True when the predicate holds at every look for the whole window: how a test says "nothing happens"
    (a stopped poll stays stopped). A wait for something to happen is wait_until, never a sleep."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not predicate():
            return False
        time.sleep(0.02)
    return bool(predicate())


@pytest.fixture
def blocklist(core):
    """Add entries through the app's store and push them, as the popup and `bua blocklist` do; removed after."""
    added: list[str] = []

    def add(entry: str) -> list[dict[str, Any]]:
        """Each connected browser's answer to the new list."""
        added.append(core.core.store.block(entry))
        return core.call(core.core.set_blocklist_changed()).browsers

    yield add
    for entry in added:
        core.core.store.unblock(entry)
    core.call(core.core.set_blocklist_changed())


@contextmanager
def worker_restarted(core, browser, wake_url: str, closed_within: float,
                     while_stopped: Callable[[Any], None] = lambda old: None) -> Iterator[Any]:
    """Stop the extension's service worker from a tab of the person's (as Chrome stops an idle one), run
    `while_stopped(old bridge)` once its native port has closed, wake it by navigating that tab to `wake_url`, and
    yield the new bridge; the person's tab closes on exit. The navigation is started from the page, which answers
    at once: Page.navigate answers only at commit and once hung 30 s in CI, and a new tab may get a session tab as
    its opener from Chrome, and so join that task."""
    old = core.pool.select()
    person = browser.cdp.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    try:
        hands = browser.cdp.send("Target.attachToTarget", {"targetId": person, "flatten": True})["sessionId"]
        browser.cdp.send("ServiceWorker.enable", {}, hands)
        browser.cdp.send("ServiceWorker.stopAllWorkers", {}, hands)
        assert wait_until(lambda: old.closed, closed_within), "stopping the worker closes its native port"
        while_stopped(old)
        browser.cdp.send("Runtime.evaluate", {"expression": f"setTimeout(() => location.assign({json.dumps(wake_url)})), true"},
                         hands)
        yield core.call(core.pool.wait_for_bridge(30, exclude=old), timeout=35)
    finally:
        browser.cdp.send("Target.closeTarget", {"targetId": person})
