"""The real-Chromium harness: temporary BUA_HOME and profile, the core started, headless Chromium
with the real extension, the real native host launched by Chromium through the host manifest
written by the installer into the profile."""

from __future__ import annotations

import pytest

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
