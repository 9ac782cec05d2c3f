"""Strict mode ("ask before acting"): the person's choice that bua asks before ANY request an action makes that
can change something (a method other than GET, HEAD and OPTIONS, a form submission, a beacon), on every site or on
the sites listed, not only before the sensitive ones. Off by default.

It is one stored setting, `strict_mode` = {"all": bool, "sites": [domain, …]} (sites as blocklist entries:
app.store.blocklist.normalise_entry), pushed to every browser with the `set_strict_mode` control at connect and
on each change; the extension applies it to the requests it holds (extension/src/safety/network-strict.js)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.store.blocklist import InvalidEntry, normalise_entry

STRICT_SETTING = "strict_mode"


@dataclass(frozen=True)
class StrictMode:
    all: bool = False
    sites: tuple[str, ...] = field(default_factory=tuple)

    def as_args(self) -> dict[str, Any]:
        return {"all": self.all, "sites": list(self.sites)}


OFF = StrictMode()


def strict_mode(all_sites: bool, sites: list[str]) -> StrictMode:
    """A checked setting; raises InvalidEntry naming the entry that is not a domain."""
    normalised = [normalise_entry(site) for site in sites if site.strip()]
    return StrictMode(bool(all_sites), tuple(dict.fromkeys(normalised)))


def stored(value: object) -> StrictMode:
    """The stored value read back (anything malformed is off, as it was never set)."""
    if not isinstance(value, dict):
        return OFF
    try:
        sites = value.get("sites") or []
        return strict_mode(value.get("all") is True, [str(s) for s in sites] if isinstance(sites, list) else [])
    except InvalidEntry:
        return OFF
