"""SQLite under BUA_HOME. Calls are small and fast; async callers use `asyncio.to_thread` via `AsyncStore`.

One connection per Store, `check_same_thread=False` guarded by a lock, WAL
mode so the CLI and the app can read while the other writes.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from app.store.blocklist import normalise_entry
from app.store.home import create_private_file, secure_home
from app.store.recovery import RECOVERED_KEY, RESTORE_BLOCKLIST_KEY, Recovery, is_damage, move_aside, problem

SCHEMA = """
CREATE TABLE IF NOT EXISTS blocklist (pattern TEXT PRIMARY KEY, added REAL NOT NULL);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS conversations (id TEXT PRIMARY KEY, title TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id TEXT NOT NULL REFERENCES conversations(id),
    role TEXT NOT NULL,
    payload TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_by_conversation ON messages(conversation_id, id);
CREATE TABLE IF NOT EXISTS task_history (task_id TEXT PRIMARY KEY, finished REAL NOT NULL, record TEXT NOT NULL);
"""


def store_path(home: Path) -> Path:
    return home / "bua.sqlite3"


class Store:
    """Opening checks the file: a damaged one is moved aside and `recovered` says where (see recovery.py)."""

    def __init__(self, home: Path) -> None:
        secure_home(home)
        self.path = store_path(home)
        self._lock = threading.Lock()
        self.recovered: Recovery | None = None
        damage = problem(self.path) if self.path.exists() else None
        if damage is None:
            try:
                self._db = self._open()
                return
            except sqlite3.DatabaseError as err:  # passed the check but the schema cannot be applied
                if not is_damage(err):
                    raise
                damage = str(err)
        moved = move_aside(self.path)
        self._db = self._open()
        self.recovered = Recovery(str(moved), damage, time.time())
        self.set_setting(RECOVERED_KEY, self.recovered.as_dict())
        self.set_setting(RESTORE_BLOCKLIST_KEY, True)

    def _open(self) -> sqlite3.Connection:
        create_private_file(self.path)
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=5)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def last_recovery(self) -> Recovery | None:
        """The recovery the person has not dismissed yet (this start's, or an earlier one's)."""
        data = self.get_setting(RECOVERED_KEY)
        return Recovery.from_dict(data) if isinstance(data, dict) else None

    def dismiss_recovery(self) -> None:
        self._write("DELETE FROM settings WHERE key = ?", (RECOVERED_KEY,))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def _write(self, sql: str, args: tuple[Any, ...] = ()) -> int:
        with self._lock:
            return self._db.execute(sql, args).rowcount

    # -- blocklist --------------------------------------------------------
    def blocklist(self) -> list[str]:
        return [row[0] for row in self._rows("SELECT pattern FROM blocklist ORDER BY pattern")]

    def block(self, entry: str) -> str:
        pattern = normalise_entry(entry)
        self._write("INSERT OR IGNORE INTO blocklist(pattern, added) VALUES (?, ?)", (pattern, time.time()))
        return pattern

    def unblock(self, entry: str) -> bool:
        return self._write("DELETE FROM blocklist WHERE pattern = ?", (normalise_entry(entry),)) > 0

    # -- settings ---------------------------------------------------------
    def get_setting(self, key: str, default: Any = None) -> Any:
        rows = self._rows("SELECT value FROM settings WHERE key = ?", (key,))
        return json.loads(rows[0][0]) if rows else default

    def set_setting(self, key: str, value: Any) -> None:
        self._write("INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, json.dumps(value)))

    # -- chat history -----------------------------------------------------
    def create_conversation(self, conversation_id: str, title: str) -> None:
        self._write("INSERT OR IGNORE INTO conversations(id, title, created) VALUES (?, ?, ?)",
                    (conversation_id, title, time.time()))

    def conversations(self) -> list[dict[str, Any]]:
        rows = self._rows("SELECT id, title, created FROM conversations ORDER BY created DESC")
        return [{"id": r[0], "title": r[1], "created": r[2]} for r in rows]

    def append_message(self, conversation_id: str, role: str, payload: dict[str, Any]) -> None:
        self._write("INSERT INTO messages(conversation_id, role, payload, created) VALUES (?, ?, ?, ?)",
                    (conversation_id, role, json.dumps(payload), time.time()))

    # -- finished tasks moved out of memory --------------------------------
    def save_task(self, record: dict[str, Any]) -> None:
        """Keep a finished task (as `TaskRecord.as_dict()`: milestones carry thumbnails and file paths)."""
        self._write("INSERT INTO task_history(task_id, finished, record) VALUES (?, ?, ?) "
                    "ON CONFLICT(task_id) DO UPDATE SET finished = excluded.finished, record = excluded.record",
                    (str(record["task_id"]), time.time(), json.dumps(record)))

    def task_history(self, limit: int = 100) -> list[dict[str, Any]]:
        """The most recently stored finished tasks, newest first."""
        rows = self._rows("SELECT record FROM task_history ORDER BY finished DESC LIMIT ?", (limit,))
        return [json.loads(r[0]) for r in rows]

    def messages(self, conversation_id: str) -> list[dict[str, Any]]:
        rows = self._rows("SELECT role, payload, created FROM messages WHERE conversation_id = ? ORDER BY id",
                          (conversation_id,))
        return [{"role": r[0], "payload": json.loads(r[1]), "created": r[2]} for r in rows]
