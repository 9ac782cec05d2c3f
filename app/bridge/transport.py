"""Where the bridge listens: a Unix socket (0600, in a 0700 directory) or, on Windows, a named pipe.

Never a TCP port. The named pipe uses the proactor loop's pipe server (the
loop Windows runs by default); that path cannot run here and is kept this
small on purpose.
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any, Awaitable, Callable

from native_host import framing

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
READ_LIMIT = framing.MAX_INBOUND + 8


class PipeServerHandle:  # pragma: no cover - Windows only
    def __init__(self, servers: list[Any]) -> None:
        self._servers = servers

    def close(self) -> None:
        for server in self._servers:
            server.close()

    async def wait_closed(self) -> None:
        return None


async def listen(address: str, handler: Handler) -> Any:
    if sys.platform == "win32":  # pragma: no cover - Windows only
        loop = asyncio.get_running_loop()

        def protocol() -> asyncio.StreamReaderProtocol:
            reader = asyncio.StreamReader(limit=READ_LIMIT)
            return asyncio.StreamReaderProtocol(reader, lambda r, w: loop.create_task(handler(r, w)))

        servers = await loop.start_serving_pipe(protocol, address)  # type: ignore[attr-defined]
        return PipeServerHandle(servers)
    server = await asyncio.start_unix_server(handler, path=address, limit=READ_LIMIT)
    os.chmod(address, 0o600)
    return server
