"""Chrome's stdio framing, pure."""

from __future__ import annotations

import io
import struct

import pytest

from native_host import framing


def test_encode_decode_round_trip_with_unicode():
    data = framing.encode({"a": "é😀", "n": 1})
    assert struct.unpack("<I", data[:4])[0] == len(data) - 4
    body = framing.read_frame_body(io.BytesIO(data))
    assert framing.decode_body(body) == {"a": "é😀", "n": 1}


def test_clean_eof_is_none():
    assert framing.read_frame_body(io.BytesIO(b"")) is None


@pytest.mark.parametrize("data, fatal, text", [
    (b"\x05\x00", True, "truncated"),
    (struct.pack("<I", 10) + b"{}", True, "truncated"),
    (struct.pack("<I", 10), True, "truncated"),
    (struct.pack("<I", framing.MAX_INBOUND + 1), True, "exceeds the limit"),
])
def test_fatal_frame_errors(data, fatal, text):
    with pytest.raises(framing.FrameError) as info:
        framing.read_frame_body(io.BytesIO(data))
    assert info.value.fatal is fatal and text in str(info.value)


@pytest.mark.parametrize("body, text", [(b"\xc3(", "UTF-8"), (b"nul", "not JSON"), (b'"s"', "str")])
def test_non_fatal_body_errors(body, text):
    with pytest.raises(framing.FrameError) as info:
        framing.decode_body(body)
    assert not info.value.fatal and text in str(info.value)


def test_two_frames_in_a_row():
    stream = io.BytesIO(framing.encode({"i": 1}) + framing.encode({"i": 2}))
    assert [framing.decode_body(framing.read_frame_body(stream))["i"] for _ in range(2)] == [1, 2]
    assert framing.read_frame_body(stream) is None


def test_starts_as_object_is_the_hosts_cheap_check():
    assert framing.starts_as_object(b'{"v":1}') and framing.starts_as_object(b' \n{not json')
    assert not framing.starts_as_object(b"[1]") and not framing.starts_as_object(b"") \
        and not framing.starts_as_object(b"\xff\xfe{}")
