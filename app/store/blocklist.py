"""Blocklist entries: a domain (`bank.example`) or a wildcard for its subdomains (`*.bank.example`).

`bank.example` blocks that host and every subdomain; `*.bank.example` blocks
only the subdomains. Matching is the same rule as the extension's
`extension/src/sessions/blocklist.js` (one rule, two languages, tested on both sides).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")


class InvalidEntry(ValueError):
    pass


def normalise_entry(entry: str) -> str:
    raw = entry.strip().lower()
    if "://" in raw:
        raw = urlsplit(raw).hostname or ""
    raw = raw.rstrip(".")
    wildcard = raw.startswith("*.")
    host = raw[2:] if wildcard else raw
    try:
        host = host.encode("idna").decode("ascii")
    except UnicodeError:
        raise InvalidEntry(f"{entry!r} is not a valid domain") from None
    labels = host.split(".")
    if len(labels) < 2 and host != "localhost" or not all(LABEL.match(label) for label in labels):
        raise InvalidEntry(f"{entry!r} is not a domain; use e.g. bank.example or *.bank.example")
    return f"*.{host}" if wildcard else host


def matches(pattern: str, host: str) -> bool:
    host = host.lower().rstrip(".")
    if pattern.startswith("*."):
        return host.endswith(pattern[1:])
    return host == pattern or host.endswith("." + pattern)


def is_blocked(patterns: list[str], url: str) -> str | None:
    """The first pattern that blocks this URL's host, or None."""
    host = urlsplit(url).hostname or ""
    return next((p for p in patterns if matches(p, host)), None)
