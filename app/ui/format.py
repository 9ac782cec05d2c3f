"""Plain-text formatting shared by the widgets (no Qt here, so it is unit-testable on its own)."""

from __future__ import annotations

import time
from typing import Any


def elapsed(seconds: float) -> str:
    """`4 s`, `1 min 05 s`, `2 h 03 min`."""
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds} s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def ago(timestamp: float, now: float | None = None) -> str:
    """`just now`, `42 s ago`, `3 min ago`, `2 h ago`, or a clock time for older ones."""
    delta = (time.time() if now is None else now) - timestamp
    if delta < 5:
        return "just now"
    if delta < 60:
        return f"{int(delta)} s ago"
    if delta < 3600:
        return f"{int(delta // 60)} min ago"
    if delta < 86400:
        return f"{int(delta // 3600)} h ago"
    return time.strftime("%d %b %H:%M", time.localtime(timestamp))


def last_action(session: dict[str, Any], now: float | None = None) -> str:
    """`click, 3 s ago` (or just the time while the session has seen no action yet)."""
    when = ago(session["last_action"], now)
    return f"{session['last_action_type']}, {when}" if session.get("last_action_type") else when


def clock(timestamp: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(timestamp))


def tokens(count: int) -> str:
    """`840`, `12.3k`, `1.2M`."""
    if count < 1000:
        return str(count)
    if count < 1_000_000:
        return f"{count / 1000:.1f}k".replace(".0k", "k")
    return f"{count / 1_000_000:.1f}M".replace(".0M", "M")


def money(usd: float) -> str:
    if usd == 0:
        return "$0"
    if usd < 0.01:
        return f"${usd:.4f}"
    return f"${usd:.2f}"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
