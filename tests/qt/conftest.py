"""Qt UI tests: offscreen, one qasync loop per test, Qt warnings fail the test, an in-memory keyring."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Awaitable, Callable, TypeVar

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
import qasync
from PySide6.QtCore import QtMsgType, qInstallMessageHandler

from app.agent.model import ModelClient
from app.core.service import Core
from app.demo.scripted_model.server import ScriptedModelServer
from app.ui import aio
from tests.harness.memory_keyring import memory_keyring_in_use

T = TypeVar("T")

# The offscreen platform plugin cannot raise windows or propagate size hints and says so; that is the test
# platform talking, not the app. Everything else Qt warns about fails the test.
PLATFORM_NOISE = ("This plugin does not support",)
FAILING = (QtMsgType.QtWarningMsg, QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg)


@pytest.fixture(autouse=True)
def qt_warnings_fail(qapp):
    recorded: list[str] = []

    def handler(mode, context, message):
        if mode in FAILING and not message.startswith(PLATFORM_NOISE):
            recorded.append(f"{mode.name}: {message}")
        if previous is not None:
            previous(mode, context, message)

    previous = qInstallMessageHandler(handler)
    yield recorded
    qInstallMessageHandler(previous)
    if recorded:
        pytest.fail("Qt warned:\n" + "\n".join(recorded))


@pytest.fixture(autouse=True)
def memory_keyring(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with memory_keyring_in_use() as backend:
        yield backend


class TestLoop(qasync.QEventLoop):
    """qasync's loop without the extra round of Qt events it processes after `run_until_complete` returns:
    that round runs asyncio callbacks outside the running loop. Tests drive each one whole async body."""

    def run_until_complete(self, future):
        future = asyncio.ensure_future(future, loop=self)
        future.add_done_callback(lambda _f: self.stop())
        self.run_forever()
        if not future.done():
            raise RuntimeError("the loop stopped before the test body finished")
        return future.result()


@pytest.fixture
def loop(qapp):
    loop = TestLoop(qapp)
    asyncio.set_event_loop(loop)
    yield loop
    loop.run_until_complete(aio.cancel_all())
    loop.close()
    asyncio.set_event_loop(None)


@pytest.fixture
def run(loop) -> Callable[..., Any]:
    def run(coro: Awaitable[T], timeout: float = 30.0) -> T:
        return loop.run_until_complete(asyncio.wait_for(coro, timeout))
    return run


async def until(predicate: Callable[[], object], timeout: float = 10.0, message: str = "") -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting: {message or predicate}")
        await asyncio.sleep(0.02)


@pytest.fixture
def home(monkeypatch) -> Path:
    """A short path (the bridge's Unix socket lives under it) and the env the app reads."""
    path = Path(tempfile.mkdtemp(prefix="bua-qt-"))
    monkeypatch.setenv("BUA_HOME", str(path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(path / "xdg-config"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def scripted():
    servers: list[ScriptedModelServer] = []

    def start(policy, delay: float = 0.0) -> ScriptedModelServer:
        server = ScriptedModelServer(policy, reply_delay_s=delay)
        servers.append(server)
        return server
    yield start
    for server in servers:
        server.stop()


def make_core(home: Path, server: ScriptedModelServer | None = None) -> Core:
    """A real core; with a server, its chat talks to the scripted Messages API with a test key."""
    if server is None:
        return Core(home)
    core = Core(home, client_factory=lambda s: ModelClient("test-key", s.base_url, 0))
    core.store.set_setting("base_url", server.base_url)
    return core


@pytest.fixture
def make_app(loop, home):
    """`await make_app(core)`: the whole app (BuaApp) on a given core, started; closed after the test."""
    from app.ui.shell import BuaApp

    apps: list[BuaApp] = []

    async def make(core: Core, show: bool = True) -> BuaApp:
        app = BuaApp(home, core=core, warm_up=False)
        apps.append(app)
        await app.start(show=show)
        return app
    yield make
    for app in apps:
        if not app.closed:
            loop.run_until_complete(asyncio.wait_for(app.close(), 30))
