"""The Windows pipe adapter's buffering (the pipe itself exists only on Windows)."""

from __future__ import annotations

import collections

from native_host import framing
from native_host.win_pipe import PipeSocket


class MessagePipe:
    """Stands in for multiprocessing's PipeConnection: whole messages in, whole messages out."""

    def __init__(self, messages: list[bytes]) -> None:
        self.incoming = collections.deque(messages)
        self.sent: list[bytes] = []
        self.closed = False

    def send_bytes(self, data: bytes) -> None:
        self.sent.append(data)

    def recv_bytes(self) -> bytes:
        if not self.incoming:
            raise EOFError
        return self.incoming.popleft()

    def close(self) -> None:
        self.closed = True


def test_frames_split_across_and_within_messages_are_read_whole():
    one, two = framing.encode({"a": 1}), framing.encode({"b": "x" * 100})
    pipe = MessagePipe([one + two[:10], two[10:]])
    sock = PipeSocket(pipe)
    assert framing.decode_body(framing.read_frame_body(sock.recv)) == {"a": 1}
    assert framing.decode_body(framing.read_frame_body(sock.recv)) == {"b": "x" * 100}
    assert framing.read_frame_body(sock.recv) is None, "EOF of the pipe is a clean end"


def test_sendall_and_close():
    pipe = MessagePipe([])
    sock = PipeSocket(pipe)
    sock.sendall(b"abc")
    sock.shutdown(None)
    assert pipe.sent == [b"abc"] and pipe.closed
