"""The single-instance lock lives in the 0700 runtime dir: no other account can claim it or answer it."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

from app.ui.single_instance import InstanceServer, forward_to_running, server_name
from native_host.paths import runtime_dir


def test_the_lock_is_a_socket_in_the_private_runtime_dir(home):
    name = Path(server_name(home))
    assert name.parent == runtime_dir(home)
    assert stat.S_IMODE(os.stat(runtime_dir(home)).st_mode) == 0o700
    server = InstanceServer(home)
    try:
        assert server.listen()
        assert stat.S_ISSOCK(os.stat(name).st_mode)
    finally:
        server.close()


def test_a_name_squatted_in_tmp_does_not_stop_bua(home):
    """What another account could do before: hold the old predictable name in /tmp."""
    import hashlib

    old_name = "/tmp/bua-ui-" + hashlib.sha256(str(home.resolve()).encode("utf-8")).hexdigest()[:16]
    squatter = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        squatter.bind(old_name)
        squatter.listen(1)
        assert not forward_to_running(home), "the squatter is never asked to come forward"
        server = InstanceServer(home)
        assert server.listen()
        server.close()
    finally:
        squatter.close()
        os.unlink(old_name)


def test_a_stale_lock_left_by_a_crash_is_replaced(home):
    path = server_name(home)
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(path)
    stale.close()  # the file stays, nobody listens: what a killed bua leaves behind
    assert not forward_to_running(home)
    server = InstanceServer(home)
    try:
        assert server.listen()
    finally:
        server.close()
