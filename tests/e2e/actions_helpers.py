"""Shared helpers of the action e2e tests: the `page` fixture and evaluate()."""

from __future__ import annotations

from typing import Any, Callable

import pytest

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


def evaluate(send: Send, expression: str) -> Any:
    response = send({"type": "evaluate", "expression": expression})
    assert response.ok, response.error
    return response.result["value"]
