"""One app per BUA_HOME: a second `bua` asks the first to come forward, then exits."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from app.store.home import private_dir
from native_host.paths import runtime_dir

CONNECT_TIMEOUT_MS = 500
SHOW = b"show\n"


def server_name(home: Path) -> str:
    """A socket inside the 0700 runtime dir, so no other account can claim or answer it.

    On Windows a local server is a named pipe (no path); Qt's UserAccessOption limits it to this user.
    """
    if sys.platform == "win32":
        return "bua-ui-" + hashlib.sha256(str(home.resolve()).encode("utf-8")).hexdigest()[:16]
    return str(private_dir(runtime_dir(home)) / "ui.sock")


def forward_to_running(home: Path) -> bool:
    """True when another instance answered and was asked to show itself."""
    socket = QLocalSocket()
    socket.connectToServer(server_name(home))
    if not socket.waitForConnected(CONNECT_TIMEOUT_MS):
        return False
    socket.write(SHOW)
    socket.flush()
    socket.waitForBytesWritten(CONNECT_TIMEOUT_MS)
    socket.disconnectFromServer()
    return True


class InstanceServer(QObject):
    """Listens for later launches; emits `activated` when one asks us to show."""

    activated = Signal()

    def __init__(self, home: Path) -> None:
        super().__init__()
        self.name = server_name(home)
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self.server.newConnection.connect(self._on_connection)

    def listen(self) -> bool:
        if self.server.listen(self.name):
            return True
        QLocalServer.removeServer(self.name)
        return self.server.listen(self.name)

    def _on_connection(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            socket.readyRead.connect(lambda s=socket: self._read(s))
            socket.disconnected.connect(socket.deleteLater)

    def _read(self, socket: QLocalSocket) -> None:
        if bytes(socket.readAll().data()).startswith(SHOW.strip()):
            self.activated.emit()

    def close(self) -> None:
        self.server.close()
