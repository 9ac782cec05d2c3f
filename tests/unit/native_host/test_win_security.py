"""Windows pipe security with stand-ins for Win32: the host never sends its token to a pipe another account owns,
and the app creates its pipe with an owner-only descriptor."""

from __future__ import annotations

import multiprocessing.connection
import sys

import pytest

from app.bridge import win_pipe_server
from native_host import app_link, framing, win_pipe
from native_host.paths import token_path
from native_host.win_security import PipeOwnerMismatch, check_pipe_owner, owner_only_sddl

ME = "S-1-5-21-1-2-3-1001"
ADMINS = "S-1-5-32-544"
OTHER = "S-1-5-21-1-2-3-1002"


class FakeApi:
    def __init__(self, owner: str) -> None:
        self.owner = owner
        self.asked: list[int] = []

    def owner_sid(self, handle: int) -> str:
        self.asked.append(handle)
        return self.owner

    def own_sids(self) -> frozenset[str]:
        return frozenset({ME, ADMINS})


class FakeConnection:
    def __init__(self) -> None:
        self.sent: list[bytes] = []
        self.closed = False

    def fileno(self) -> int:
        return 1234

    def send_bytes(self, data: bytes) -> None:
        self.sent.append(data)

    def recv_bytes(self) -> bytes:
        return framing.encode({"v": 1, "kind": "auth_ok"})

    def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize("owner", [ME, ADMINS])
def test_a_pipe_owned_by_this_account_is_accepted(owner):
    api = FakeApi(owner)
    check_pipe_owner(77, api)
    assert api.asked == [77]


def test_a_pipe_owned_by_another_account_is_refused_with_a_reason():
    with pytest.raises(PipeOwnerMismatch) as raised:
        check_pipe_owner(77, FakeApi(OTHER))
    assert isinstance(raised.value, OSError), "the host treats it like a pipe that is not there yet: it retries"
    assert OTHER in str(raised.value) and "token was not sent" in str(raised.value)


def test_open_pipe_checks_the_owner_before_anything_is_sent():
    connection = FakeConnection()
    with pytest.raises(PipeOwnerMismatch):
        win_pipe.open_pipe(r"\\.\pipe\bua-x", client=lambda address: connection, api=FakeApi(OTHER))
    assert connection.closed and connection.sent == []
    mine = FakeConnection()
    sock = win_pipe.open_pipe(r"\\.\pipe\bua-x", client=lambda address: mine, api=FakeApi(ME))
    sock.sendall(b"hello")
    assert mine.sent == [b"hello"]


def test_the_host_never_sends_its_token_to_a_squatted_pipe(tmp_path, monkeypatch):
    """The host's real connect path, with Windows' pipe client and security calls replaced."""
    token_path(tmp_path).parent.mkdir(parents=True)
    token_path(tmp_path).write_text("secret-token")
    squatter = FakeConnection()
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(multiprocessing.connection, "Client", lambda address, family: squatter, raising=False)
    monkeypatch.setattr(win_pipe, "Win32SecurityApi", lambda: FakeApi(OTHER))
    assert app_link.try_connect(tmp_path, "chrome-extension://x/") is None, "not connected: it will retry"
    assert squatter.sent == [] and squatter.closed

    ours = FakeConnection()
    monkeypatch.setattr(multiprocessing.connection, "Client", lambda address, family: ours, raising=False)
    monkeypatch.setattr(win_pipe, "Win32SecurityApi", lambda: FakeApi(ME))
    link = app_link.try_connect(tmp_path, "chrome-extension://x/")
    assert link is not None and b"secret-token" in ours.sent[0]


def test_the_app_pipe_admits_only_its_user():
    assert owner_only_sddl(ME) == f"O:{ME}D:P(A;;GA;;;{ME})", "protected DACL, one entry: the user"
    calls: list[tuple] = []

    def create(*args):
        calls.append(args)
        return 99

    assert win_pipe_server.create_instance(create, r"\\.\pipe\bua-x", True, 5555) == 99
    win_pipe_server.create_instance(create, r"\\.\pipe\bua-x", False, 5555)
    (first, later) = calls
    assert first[0] == r"\\.\pipe\bua-x" and first[-1] == 5555 and later[-1] == 5555, "every instance restricted"
    assert first[1] & win_pipe_server.FILE_FLAG_FIRST_PIPE_INSTANCE, "a squatted name fails the start"
    assert not later[1] & win_pipe_server.FILE_FLAG_FIRST_PIPE_INSTANCE
    assert first[2] & win_pipe_server.PIPE_REJECT_REMOTE_CLIENTS
