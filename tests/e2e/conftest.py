"""The real-Chromium harness: temporary BUA_HOME and profile, the core started, headless Chromium
with the real extension, the real native host launched by Chromium through the host manifest
written by the installer into the profile."""

from __future__ import annotations

from typing import Any

import pytest

from app.agent.context import Deps, RuntimeContext, ToolServices
from app.agent.results import render_tool_result
from app.agent.runtime import AgentRuntime
from app.agent.settings import AgentSettings
from app.agent.tools import browser as browser_tool
from app.safety.confirmations import Decision
from tests.e2e.safety_helpers import Person
from tests.harness.actions import pool_request
from tests.harness.browser import start_connected_browser
from tests.harness.core_thread import CoreThread


@pytest.fixture(scope="session")
def core(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    core = CoreThread(home)
    # The suite's tests exercise actions, not the person: a stand-in at the app window allows every held action.
    # tests/e2e/test_safety_confirm.py puts its own person in front of it, or takes it away.
    core.person = Person(core, Decision.ALLOW_ONCE).__enter__()
    yield core
    core.stop()


@pytest.fixture(scope="session")
def browser(core, tmp_path_factory):
    browser, _bridge = start_connected_browser(core, tmp_path_factory.mktemp("profile"))
    yield browser
    browser.stop()


@pytest.fixture
def act(core, browser):
    """Send one action through the whole pipe; returns the Response."""
    def send(action: dict, task_id: str = "t-test", timeout: float | None = None, abort=None):
        return core.call(pool_request(core.pool, action, task_id, abort, timeout), timeout=90)
    return send


def _through_the_tool(core, action: dict[str, Any], task_id: str, timeout: float) -> tuple[dict[str, Any], str]:
    """One browser action through the app's own tool (browser.execute) and result builder: its data and the text
    the model reads."""
    runtime = AgentRuntime(AgentSettings(), lambda _settings: None)  # type: ignore[arg-type,return-value]
    deps = Deps(RuntimeContext(task_id=task_id), ToolServices(browser_bridge=core.pool), runtime=runtime)
    output = core.call(browser_tool.execute(action, deps), timeout=timeout)
    return output.data, render_tool_result("call-1", output)["content"][0]["text"]


@pytest.fixture
def model_view(core, browser):
    """(data, the text the model reads) of one action through the app's own tool."""
    return lambda action, task_id: _through_the_tool(core, action, task_id, 90)


@pytest.fixture
def model_reads(core, browser):
    """The text the model reads of one action through the app's own tool."""
    return lambda action, task_id: _through_the_tool(core, action, task_id, 120)[1]
