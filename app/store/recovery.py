"""A damaged store is moved aside, never deleted, and a fresh one takes its place.

The check runs once at start (`PRAGMA quick_check` reads every page, so a
truncated file, a garbage header and a broken b-tree page all show). What the
person lost and where the old file is are kept in the fresh store's settings,
so the tray, the chat and `bua status` can all say it, until they dismiss it.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

from app.store.blocklist import InvalidEntry

RECOVERED_KEY = "store_recovered"
"""Settings key: the last recovery (a `Recovery` as a dict), kept until the person dismisses it."""
RESTORE_BLOCKLIST_KEY = "blocklist_restore_pending"
"""Settings key: true until a connecting extension has handed back its copy of the blocklist."""
LOST = ("chat history", "settings (models, base URL, idle threshold)", "the blocklist, until a browser reconnects")
SIDE_FILES = ("-wal", "-shm", "-journal")


class SettingsAndBlocklist(Protocol):
    """What a restore needs of `app.store.db.Store` (named here so this module, which the store imports, does
    not import it back)."""

    def get_setting(self, key: str, default: Any = None) -> Any: ...

    def set_setting(self, key: str, value: Any) -> None: ...

    def block(self, entry: str) -> str: ...


@dataclass(frozen=True)
class Recovery:
    damaged_path: str
    """Where the damaged file now is (kept; bua never deletes it)."""
    reason: str
    at: float
    lost: tuple[str, ...] = LOST

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Recovery":
        return cls(str(data["damaged_path"]), str(data["reason"]), float(data["at"]),
                   tuple(data.get("lost") or LOST))

    def message(self) -> str:
        """One paragraph for the person: what happened, what is gone, where the old file is, what comes back."""
        return (f"bua's store was damaged ({self.reason}) and has been replaced by a fresh one. "
                f"Lost: {', '.join(self.lost)}. The damaged file is kept at {self.damaged_path}. "
                "The blocklist comes back from the extension's copy when a browser connects; "
                "the API key is in the system keyring and was not touched.")


DAMAGE_CODES = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def is_damage(err: sqlite3.Error) -> bool:
    """Damage, not a passing condition: a locked or unreadable file is never moved aside."""
    return getattr(err, "sqlite_errorcode", None) in DAMAGE_CODES


def problem(path: Path) -> str | None:
    """None when the database at `path` passes quick_check; else what is wrong.

    Raises the sqlite3 error when the file cannot be checked for another reason (locked, no permission).
    """
    db = sqlite3.connect(path, timeout=5)
    try:
        rows = db.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as err:
        if is_damage(err):
            return str(err)
        raise
    finally:
        db.close()
    found = [str(r[0]) for r in rows if r and r[0] != "ok"]
    return "; ".join(found[:3]) if found else None


def move_aside(path: Path, now: float | None = None) -> Path:
    """Rename the database (and its WAL/SHM/journal files) to `<name>.damaged-<UTC timestamp>`; returns the new path."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now if now is not None else time.time()))
    target = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    for suffix in SIDE_FILES:
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.rename(target.with_name(target.name + suffix))
    path.rename(target)
    return target


def restore_blocklist(store: SettingsAndBlocklist, held: object) -> list[str] | None:
    """After a recovery, take the connecting extension's copy of the blocklist into the fresh store.

    Returns the patterns added (the restore is then done), or None when no restore is pending or the extension
    sent no copy (an older extension): the store's empty list must then not be pushed over the extension's.
    """
    if not store.get_setting(RESTORE_BLOCKLIST_KEY, False) or not isinstance(held, list):
        return None
    added: list[str] = []
    for entry in held:
        try:
            added.append(store.block(str(entry)))
        except InvalidEntry:
            continue
    store.set_setting(RESTORE_BLOCKLIST_KEY, False)
    return added


def restore_pending(store: SettingsAndBlocklist) -> bool:
    return bool(store.get_setting(RESTORE_BLOCKLIST_KEY, False))
