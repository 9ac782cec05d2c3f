"""Shared fixtures: an isolated BUA_HOME per session, the fixture web server."""

from __future__ import annotations

import pytest

from tests.harness.fixture_server import FixtureServer


@pytest.fixture(scope="session")
def fixture_server():
    server = FixtureServer()
    yield server
    server.stop()
