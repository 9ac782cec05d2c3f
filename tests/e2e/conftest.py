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
from tests.e2e.actions_helpers import wait_until
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


def _pages(browser: Any) -> set[str]:
    return {t["targetId"] for t in browser.cdp.send("Target.getTargets")["targetInfos"] if t["type"] == "page"}


@pytest.fixture(autouse=True)
def _close_the_tests_tabs(request: pytest.FixtureRequest):
    """The tabs a test opened are closed after it: hundreds of tests' tabs left open would keep as many renderers
    alive for the rest of the run, slowing every later test (and the pixel captures) on a small machine. Tabs a
    module's fixture opened before its first test stay."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    before = _pages(browser)
    yield
    try:
        opened = _pages(browser) - before
        for target in opened:
            browser.cdp.send("Target.closeTarget", {"targetId": target})
        wait_until(lambda: not opened & _pages(browser), 10)  # gone before the next test counts tabs
    except (RuntimeError, TimeoutError, OSError):
        pass  # the browser was stopped or restarted by the test itself


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
