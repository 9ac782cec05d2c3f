"""Stop's registry: every registration is its own entry, and an outside action cannot join an agent's task."""

from __future__ import annotations

import asyncio

import pytest

from app.abort import AbortSignal
from app.bridge.pool import BrowserBridgePool
from app.core.control import Controls, TaskHeld
from app.store.db import Store


@pytest.fixture
def controls(tmp_path):
    store = Store(tmp_path)
    yield Controls(BrowserBridgePool(), store)
    store.close()


def test_an_action_on_a_task_a_running_agent_holds_is_refused(controls):
    agent = AbortSignal()
    controls.register("t-research", agent)
    with pytest.raises(TaskHeld) as refused:
        controls.register("t-research", AbortSignal(), owner="action")
    assert "bua stop --task t-research" in str(refused.value) and "another task name" in str(refused.value)
    assert controls.running == {"t-research": agent}, "the agent's entry is untouched"


def test_actions_never_replace_each_other_and_stop_reaches_every_entry(controls):
    first, second = AbortSignal(), AbortSignal()
    controls.register("cli", first, owner="action")
    controls.register("cli", second, owner="action")
    controls.unregister("cli", first)
    assert controls.running == {"cli": second}, "the second action's entry survives the first one's end"
    third = AbortSignal()
    controls.register("cli", third, owner="action")
    report = asyncio.run(controls.stop("cli"))
    assert report.cancelled_tasks == ["cli"]
    assert second.aborted and third.aborted and not first.aborted


def test_an_agent_may_start_on_a_task_an_action_used(controls):
    action, agent = AbortSignal(), AbortSignal()
    controls.register("t1", action, owner="action")
    controls.register("t1", agent)
    controls.unregister("t1", action)
    assert controls.running == {"t1": agent}
    controls.unregister("t1", agent)
    assert controls.running == {}
