"""Which data an action is about to carry where: the destinations of the data-flow check (app.safety.dataflow).
What an action carries is read from its declaration (app.protocol.actions.spec.Carries), never its name:

* typed text (`type`'s text, `fill`'s values, a prompt's answer) and keys: the typed text, and the text this task
  typed on the same site just before it joined to it, so a secret typed in pieces (`7730 19`, then `42 8851`, or
  one key at a time) is seen whole. A paste chord (Control/Meta+V, Shift+Insert) types what the task last copied
  (`key_chord`). The destination is the page the field is in (the guard passes the frame's URL when the field, or
  the focused frame a key goes to, is another site's).
* a URL (`navigate`, `open_tab`): the whole URL (app.safety.dataflow.url_pieces).
* a script (`evaluate`): the script's text (a secret read on another site, written into a script on this one) and every URL
  it names (a secret carried to that URL's site). And a script that holds a network sink (fetch, XMLHttpRequest,
  sendBeacon, WebSocket, EventSource, `.src =`, `.href =`, `location`, `window.open`, form submit/action) together
  with a URL of another site can send whatever the page shows there: that asks too, whatever the task has read.
  A script that builds the URL at run time (string pieces, atob, a URL the page holds) is not seen: see the README's
  threat model.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from enum import StrEnum

from app.safety.dataflow import DataFlow, Flow, data_pieces
from app.safety.sites import site_of

TAIL_CHARS = 400
"""How much of what a task typed on a site is kept to join with the next piece."""
MAX_TAILS = 256

_SINK = re.compile(
    r"\bfetch\s*\(|XMLHttpRequest|sendBeacon|\bWebSocket\b|\bEventSource\b|\.src\s*=|\.href\s*=|\.action\s*=|"
    r"\blocation\b|\bwindow\.open\b|\bopen\s*\(|\.submit\s*\(|requestSubmit|\bimport\s*\(|\.setAttribute\s*\(\s*['\"]"
    r"(?:src|href|action)", re.IGNORECASE)
_URL = re.compile(r"(?:https?:)?//[^\s\"'`<>()\\]+", re.IGNORECASE)
_KEY_CHARS = {"space": " ", "enter": "\n", "tab": "\t"}
_COMMAND_MODIFIERS = frozenset({"control", "ctrl", "meta", "cmd", "command", "super", "win", "controlormeta"})
_MODIFIERS = _COMMAND_MODIFIERS | {"alt", "option", "opt", "shift"}


class KeyChord(StrEnum):
    COPY = "copy"
    """Puts the selection on the clipboard (Control/Meta+C or X, Control+Insert, Shift+Delete)."""
    PASTE = "paste"
    """Types what is on the clipboard (Control/Meta+V, Shift+Insert)."""


def _parts(key: str) -> tuple[set[str], str]:
    """A key combination's modifiers (lower-case) and its last key."""
    if len(key) == 1 or key.endswith("++"):
        return {p.lower() for p in key[:-2].split("+") if p} if len(key) > 1 else set(), key[-1]
    *mods, last = key.split("+")
    return {m.strip().lower() for m in mods}, last.strip()


def key_chord(key: str) -> KeyChord | None:
    """Whether a key combination copies or pastes, as Chrome's editing shortcuts read it on every platform."""
    mods, last = _parts(key)
    name = last.lower()
    command = bool(mods & _COMMAND_MODIFIERS)
    if (command and name in ("c", "x", "insert")) or (mods == {"shift"} and name == "delete"):
        return KeyChord.COPY
    if (command and name == "v") or (mods == {"shift"} and name == "insert"):
        return KeyChord.PASTE
    return None


class TypedTails:
    """Per (task, site): the last TAIL_CHARS characters the task typed there."""

    def __init__(self) -> None:
        self._tails: OrderedDict[tuple[str, str], str] = OrderedDict()

    def get(self, task_id: str, site: str) -> str:
        return self._tails.get((task_id, site), "")

    def add(self, task_id: str, site: str, text: str) -> None:
        key = (task_id, site)
        self._tails[key] = (self._tails.get(key, "") + text)[-TAIL_CHARS:]
        self._tails.move_to_end(key)
        while len(self._tails) > MAX_TAILS:
            self._tails.popitem(last=False)

    def key(self, task_id: str, site: str, key: str) -> None:
        """A `press_key`: a printable key joins the tail, Backspace takes one off, other keys change nothing."""
        text = key_text(key)
        if text:
            self.add(task_id, site, text)
        elif _parts(key)[1].lower() == "backspace":
            self._tails[(task_id, site)] = self.get(task_id, site)[:-1]

    def forget(self, task_id: str) -> None:
        for key in [k for k in self._tails if k[0] == task_id]:
            del self._tails[key]


def key_text(key: str) -> str:
    """The character a key types ('' for a key that types none: arrows, Escape, Backspace, and any chord with
    Control, Meta or Alt, which is a shortcut)."""
    mods, last = _parts(key)
    if mods & (_MODIFIERS - {"shift"}):
        return ""
    return last if len(last) == 1 else _KEY_CHARS.get(last.lower(), "")


def typing_flow(dataflow: DataFlow, tails: TypedTails, task_id: str, texts: list[str], dest: str) -> Flow | None:
    """Data another site showed in what is typed on `dest`: each text alone, and joined to what the task typed on
    that site just before (pieces the tail already held were checked when it was typed)."""
    site = site_of(dest)
    tail = tails.get(task_id, site)
    for text in texts:
        flow = dataflow.check_text(task_id, text, dest)
        if flow is None and tail:
            joined = tail + text
            before = set(data_pieces(tail))
            flow = dataflow.check_pieces(task_id, [p for p in data_pieces(joined) if p not in before], dest)
        if flow is not None:
            return flow
        tail += text
    return None


def script_flow(dataflow: DataFlow, task_id: str, expression: str, page_url: str) -> Flow | None:
    """Data another site showed in an `evaluate`'s text or in a URL it names; or a network sink with a URL of
    another site than the page's (the script can send the page's own data there)."""
    flow = dataflow.check_text(task_id, expression, page_url) if page_url else None
    if flow is not None:
        return flow
    page_site = site_of(page_url)
    urls = [url if not url.startswith("//") else f"https:{url}" for url in _URL.findall(expression)]
    for url in urls:
        flow = dataflow.check_url(task_id, url)
        if flow is not None:
            return flow
    sink = _SINK.search(expression)
    if sink is None:
        return None
    for url in urls:
        site = site_of(url)
        if site and site != page_site:
            return Flow(piece=sink.group(0).strip(), source_site=page_site or "this page", dest_site=site,
                        why=f"the script can send what {page_site or 'this page'} shows to {site} "
                            f"({sink.group(0).strip()} with {url[:80]})")
    return None
