"""The command line on a damaged store: `bua serve` starts and says what happened; no traceback anywhere."""

from __future__ import annotations

import os
import time

from app.store.db import store_path
from native_host.paths import socket_address
from tests.e2e.test_cli import bua, spawn, stop


def test_serve_status_and_blocklist_on_a_damaged_store(tmp_path):
    home = tmp_path / "h"
    home.mkdir()
    store_path(home).write_bytes(b"\x00" * 50 + b"not sqlite" * 300)
    serve = spawn(home, "serve")
    try:
        deadline = time.monotonic() + 30
        while not os.path.exists(socket_address(home)) and time.monotonic() < deadline:
            assert serve.poll() is None, serve.stdout.read()
            time.sleep(0.1)
        status = bua(home, "status")
        assert status.returncode == 0, status.stderr
        assert "store: bua's store was damaged" in status.stdout and ".damaged-" in status.stdout
        listed = bua(home, "blocklist", "list")
        assert listed.returncode == 0 and "(the blocklist is empty)" in listed.stdout
        added = bua(home, "blocklist", "add", "bank.example")
        assert added.returncode == 0 and "bank.example" in added.stdout
    finally:
        stop(serve)
    output = serve.stdout.read()
    assert "bua: bua's store was damaged" in output and "The damaged file is kept at" in output
    for result in (status, listed, added):
        assert "Traceback" not in result.stdout + result.stderr
    assert "Traceback" not in output


def test_serve_on_an_unwritable_home_says_why_without_a_traceback(tmp_path):
    home = tmp_path / "h"
    home.mkdir()
    (home / "bua.sqlite3").mkdir()  # a folder where the store file should be: cannot be opened
    result = bua(home, "serve", timeout=30)
    assert result.returncode == 2
    assert "cannot start the core" in result.stderr and "Traceback" not in result.stderr


def test_the_app_on_an_unwritable_home_says_why_without_a_traceback(tmp_path):
    home = tmp_path / "h"
    home.mkdir()
    (home / "bua.sqlite3").mkdir()
    result = bua(home, timeout=60)  # `bua` alone: the app (the core alone where no window can open)
    assert result.returncode == 2
    assert "cannot start" in result.stderr and "Traceback" not in result.stderr
