"""Where the bridge listens: a Unix socket (0600, in a 0700 directory) or, on Windows, a named pipe.

Never a TCP port. The named pipe is served on the proactor loop (the loop
Windows runs by default) with an owner-only descriptor (win_pipe_server.py);
that path cannot run here and is kept small on purpose.
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
    def __init__(self, server: Any) -> None:
        self._server = server

    def close(self) -> None:
        self._server.close()

    async def wait_closed(self) -> None:
        return None


async def listen(address: str, handler: Handler) -> Any:
    if sys.platform == "win32":  # pragma: no cover - Windows only
        from app.bridge.win_pipe_server import serve_pipe

        loop = asyncio.get_running_loop()

        def protocol() -> asyncio.StreamReaderProtocol:
            reader = asyncio.StreamReader(limit=READ_LIMIT)
            return asyncio.StreamReaderProtocol(reader, lambda r, w: loop.create_task(handler(r, w)))

        return PipeServerHandle(await serve_pipe(address, protocol))
    server = await asyncio.start_unix_server(handler, path=address, limit=READ_LIMIT)
    os.chmod(address, 0o600)
    return server
