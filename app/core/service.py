"""Runs the core: the bridge pool behind the local socket, plus the CLI service."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from app.bridge.pool import BrowserBridgePool
from app.bridge.server import BridgeServer
from app.core.cli_service import CliService


class Core:
    def __init__(self, home: Path, request_timeout: float = 30.0) -> None:
        self.home = home
        self.pool = BrowserBridgePool(timeout=request_timeout)
        self.cli = CliService(self.pool)
        self.server = BridgeServer(home, self.pool, self.cli.handle)

    async def start(self) -> None:
        await self.server.start()

    async def close(self) -> None:
        await self.server.close()


async def serve_forever(home: Path) -> None:
    core = Core(home)
    await core.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    print(f"bua core listening on {core.server.address}", flush=True)
    try:
        await stop.wait()
    finally:
        await core.close()
