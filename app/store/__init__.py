"""The persistent store: one SQLite file under BUA_HOME (blocklist, chat history, settings)."""

from app.store.db import Store

__all__ = ["Store"]
