"""The host's end of the app's named pipe on Windows (the Unix socket's counterpart).

`multiprocessing.connection` opens the pipe with overlapped I/O, so one thread
may block in a read while another writes (a plain file handle would serialise
them and deadlock the relay). The pipe is in message mode; `PipeSocket` gives
it the two socket methods the relay uses, `recv(n)` and `sendall(data)`.
Before the token is sent, the pipe's owner must be this account (see
win_security.py). This path cannot run on the Linux machines the suite runs
on; its buffering and owner check are unit-tested with stand-ins.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Protocol

from native_host.win_security import SecurityApi, Win32SecurityApi, check_pipe_owner


class MessageConnection(Protocol):
    def send_bytes(self, data: bytes) -> None: ...

    def recv_bytes(self) -> bytes: ...

    def close(self) -> None: ...

    def fileno(self) -> int: ...


class PipeSocket:
    def __init__(self, connection: MessageConnection) -> None:
        self._conn = connection
        self._buffer = b""
        self._read_lock = threading.Lock()

    def recv(self, n: int) -> bytes:
        with self._read_lock:
            if not self._buffer:
                try:
                    self._buffer = self._conn.recv_bytes()
                except (EOFError, OSError):
                    return b""
            chunk, self._buffer = self._buffer[:n], self._buffer[n:]
            return chunk

    def sendall(self, data: bytes) -> None:
        self._conn.send_bytes(data)

    def shutdown(self, _how: Any) -> None:
        self.close()

    def close(self) -> None:
        try:
            self._conn.close()
        except OSError:
            pass


def open_pipe(address: str, client: Callable[[str], Any] | None = None,
              api: SecurityApi | None = None) -> PipeSocket:
    """Connect, then check the pipe's owner before anything (the token) is sent; PipeOwnerMismatch if not ours.

    `client` and `api` are the Win32 parts (multiprocessing's Client, ctypes); tests pass stand-ins.
    """
    if client is None:  # pragma: no cover - Windows only
        from multiprocessing.connection import Client

        def client(name: str) -> Any:
            return Client(name, family="AF_PIPE")
    connection = client(address)
    try:
        check_pipe_owner(connection.fileno(), api or Win32SecurityApi())
    except OSError:
        connection.close()
        raise
    return PipeSocket(connection)
