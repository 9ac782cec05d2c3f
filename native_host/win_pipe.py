"""The host's end of the app's named pipe on Windows (the Unix socket's counterpart).

`multiprocessing.connection` opens the pipe with overlapped I/O, so one thread
may block in a read while another writes (a plain file handle would serialise
them and deadlock the relay). The pipe is in message mode; `PipeSocket` gives
it the two socket methods the relay uses, `recv(n)` and `sendall(data)`.
This path cannot run on the Linux machines the suite runs on; its buffering
is unit-tested with a stand-in connection.
"""

from __future__ import annotations

import threading
from typing import Any, Protocol


class MessageConnection(Protocol):
    def send_bytes(self, data: bytes) -> None: ...

    def recv_bytes(self) -> bytes: ...

    def close(self) -> None: ...


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

    def shutdown(self, how: Any) -> None:
        self.close()

    def close(self) -> None:
        try:
            self._conn.close()
        except OSError:
            pass


def open_pipe(address: str) -> PipeSocket:  # pragma: no cover - Windows only
    from multiprocessing.connection import Client

    return PipeSocket(Client(address, family="AF_PIPE"))
