"""The app's named-pipe server on Windows, created with a descriptor that admits only the current user.

asyncio's own `start_serving_pipe` creates every pipe instance with the
default descriptor (readable by everyone) and takes no security attributes,
so this is its loop with one change: each instance is created through
`create_instance`, which passes an owner-only descriptor (see
native_host/win_security.py). The first instance still uses
FILE_FLAG_FIRST_PIPE_INSTANCE, so a name another account already holds makes
the start fail instead of sharing the name.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any, Callable

from native_host.win_security import owner_only_sddl

PIPE_ACCESS_DUPLEX = 0x00000003
FILE_FLAG_OVERLAPPED = 0x40000000
FILE_FLAG_FIRST_PIPE_INSTANCE = 0x00080000
PIPE_TYPE_MESSAGE = 0x00000004
PIPE_READMODE_MESSAGE = 0x00000002
PIPE_WAIT = 0x00000000
PIPE_REJECT_REMOTE_CLIENTS = 0x00000008
PIPE_UNLIMITED_INSTANCES = 255
BUFSIZE = 8192
NMPWAIT_WAIT_FOREVER = 0xFFFFFFFF

CreateNamedPipe = Callable[[str, int, int, int, int, int, int, int], int]


def create_instance(create: CreateNamedPipe, address: str, first: bool, security_attributes: int) -> int:
    """One pipe instance: message mode, overlapped, local clients only, the given descriptor."""
    open_mode = PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED | (FILE_FLAG_FIRST_PIPE_INSTANCE if first else 0)
    pipe_mode = PIPE_TYPE_MESSAGE | PIPE_READMODE_MESSAGE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS
    return create(address, open_mode, pipe_mode, PIPE_UNLIMITED_INSTANCES, BUFSIZE, BUFSIZE,
                  NMPWAIT_WAIT_FOREVER, security_attributes)


async def serve_pipe(address: str, protocol_factory: Callable[[], asyncio.BaseProtocol]) -> Any:  # pragma: no cover
    """Windows only: serve `address` on the running proactor loop; returns the PipeServer (close() stops it)."""
    if sys.platform != "win32":
        raise OSError("named pipes are served only on Windows")
    import _winapi
    import ctypes
    from asyncio import windows_events, windows_utils

    from native_host.win_security import Win32SecurityApi

    api = Win32SecurityApi()
    attributes = api.security_attributes(owner_only_sddl(api.user_sid()))
    pointer = ctypes.addressof(attributes)

    pipe_server: Any = windows_events.PipeServer

    class RestrictedPipeServer(pipe_server):  # type: ignore[misc]  # Windows-only asyncio class: Any here
        _security = attributes  # kept alive with the server

        def _server_pipe_handle(self, first: bool) -> Any:
            if self.closed():
                return None
            handle = create_instance(_winapi.CreateNamedPipe, self._address, first, pointer)
            pipe = windows_utils.PipeHandle(handle)
            self._free_instances.add(pipe)
            return pipe

    loop: Any = asyncio.get_running_loop()
    server = RestrictedPipeServer(address)

    def accept(future: Any = None) -> None:
        pipe = None
        try:
            if future is not None:
                pipe = future.result()
                server._free_instances.discard(pipe)
                if server.closed():
                    pipe.close()
                    return
                loop._make_duplex_pipe_transport(pipe, protocol_factory(), extra={"addr": address})
            pipe = server._get_unconnected_pipe()
            if pipe is None:
                return
            future = loop._proactor.accept_pipe(pipe)
        except BrokenPipeError:
            if pipe and pipe.fileno() != -1:
                pipe.close()
            loop.call_soon(accept)
        except OSError:
            if pipe and pipe.fileno() != -1:
                pipe.close()
            loop.call_soon(accept)
        except asyncio.CancelledError:
            if pipe:
                pipe.close()
        else:
            server._accept_pipe_future = future
            future.add_done_callback(accept)

    loop.call_soon(accept)
    return server
