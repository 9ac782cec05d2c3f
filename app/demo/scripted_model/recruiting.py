"""The browser policy for the seed scenario: collect the contact details of the first N candidates.

Every decision is computed from what the tools really returned: uids are read
from the real extract (the "View" buttons in list order, the panel's "Close"
button), contact details are parsed from the real panel text. A wait_for
timeout is followed by a re-extract and a different wait, never by the same
wait again.

It works as a careful model does with bua: it notes what it will need later
(the View buttons' uids when it first reads the list, each candidate's contact
when it reads it), because older tool results are shrunk to one line; and when
change lists are offered (extract's `changes`) it reads the panel from
`extract {changes: true}` and goes on from a click's own change list instead
of extracting the whole page again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from app.demo.scripted_model.conversation import (
    Step,
    new_lines,
    notes,
    offers,
    steps,
    text,
    tool_use,
)
from app.demo.scripted_model.elements import Element, elements
from app.demo.scripted_model.server import Reply

EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
PHONE = re.compile(r"\+\d[\d ()-]{7,}\d")
PANEL = "#candidate-panel"
VIEWS_NOTE = "View buttons in list order:"
CONTACT_NOTE = re.compile(r"^Candidate \d+: (.+), (\S+@\S+), (\+[\d ()-]+)$", re.M)


def wanted(prompt: str) -> int:
    match = re.search(r"first (\d+)", prompt)
    return int(match.group(1)) if match else 3


def start_url(prompt: str) -> str:
    match = re.search(r"https?://\S+", prompt)
    return match.group(0).rstrip(".,)") if match else "http://127.0.0.1/"


@dataclass
class Seen:
    """What the policy knows: the task, the browser steps with their real results, its own notes, and whether
    change lists are offered."""

    prompt: str
    browser: list[Step]
    notes: list[str]
    changes: bool

    @classmethod
    def of(cls, body: dict[str, Any], prompt: str) -> "Seen":
        return cls(prompt, [s for s in steps(body) if s.name == "browser"], notes(body),
                   offers(body, "browser", "changes"))

    @property
    def contacts(self) -> list[dict[str, str]]:
        found = [m for note in self.notes for m in CONTACT_NOTE.finditer(note)]
        return [{"name": m.group(1), "email": m.group(2), "phone": m.group(3).strip()} for m in found]

    @property
    def views(self) -> list[str]:
        listed = [n.split(VIEWS_NOTE, 1)[1] for n in self.notes if VIEWS_NOTE in n]
        return re.findall(r"e\d+", listed[-1]) if listed else []


def _page_text(result: dict[str, Any]) -> str:
    inner = result.get("result") or {}
    return "\n".join(str(inner.get(k) or "") for k in ("markdown", "text", "elements"))


def _changes(step: Step) -> dict[str, Any] | None:
    """The change list a result carries (not a full extract given instead)."""
    changes = (step.result.get("result") or {}).get("changes")
    return changes if isinstance(changes, dict) and not changes.get("full") else None


def _is_full_extract(step: Step) -> bool:
    inner = step.result.get("result") or {}
    return step.input.get("type") == "extract" and bool(step.result.get("ok")) and "markdown" in inner \
        and not step.input.get("selector")


def contact_from(step: Step) -> tuple[dict[str, str] | None, list[Element]]:
    """A contact, and the elements it came with, from what showed the open panel: a scoped extract, a change
    list (an extract's, or a click's when the panel opened within it), or a full extract."""
    if not step.result.get("ok"):
        return None, []
    changes = _changes(step)
    if changes is None and step.input.get("type") != "extract":
        return None, []
    if changes is not None:
        page = "\n".join(new_lines(changes, "markdown"))
        found = elements({"elements": "\n".join(new_lines(changes, "elements"))})
    else:
        inner = step.result.get("result") or {}
        page = str(inner.get("markdown") or "")
        if not step.input.get("selector"):
            page = page.split("[dialog", 1)[1] if "[dialog" in page else ""
        found = elements(inner)
    email, phone = EMAIL.search(page), PHONE.search(page)
    heading = re.search(r"^#+\s*(.+)$", page, re.M)
    if not (email and phone and heading):
        return None, found
    return {"name": heading.group(1).strip(), "email": email.group(0), "phone": phone.group(0).strip()}, found


def _find(found: list[Element], role: str, name: str) -> list[Element]:
    return [e for e in found if e.role == role and e.name == name]


def _next_candidate(seen: Seen, views: list[str], note: list[dict[str, Any]]) -> tuple[list[dict[str, Any]],
                                                                                      dict[str, Any] | None]:
    contacts = seen.contacts
    if len(contacts) >= wanted(seen.prompt):
        return [], {"status": "completed", "summary": f"Collected the contact details of the first "
                    f"{len(contacts)} candidates.", "data": contacts}
    if len(views) <= len(contacts):
        return [], {"status": "failed", "summary": f"Only {len(views)} candidates are listed.", "data": contacts}
    return [*note, tool_use("browser", {"type": "click", "uid": views[len(contacts)]})], None


def next_browser_action(seen: Seen) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """(content blocks to say, or the completion payload when done)."""
    browser = seen.browser
    if not browser:
        return [tool_use("browser", {"type": "navigate", "url": start_url(seen.prompt)})], None
    contacts = seen.contacts
    last = browser[-1]
    kind, ok = last.input.get("type"), last.result.get("ok")
    error = last.result.get("error") or {}
    failures = [s for s in browser[-3:] if not s.result.get("ok")]
    recent = [s for s in browser[-10:] if not s.result.get("ok")]
    same = len({(s.input.get("type"), (s.result.get("error") or {}).get("code")) for s in failures}) == 1
    if (len(failures) == 3 and same) or len(recent) > 4:
        latest = recent[-1].result.get("error") or {}
        return [], {"status": "failed", "summary": f"The browser keeps failing: {latest.get('code')}: "
                    f"{latest.get('message')}", "data": contacts}
    extract = {"type": "extract"}
    if kind == "navigate":
        return [tool_use("browser", extract)], None
    if kind == "click" and not ok and error.get("code") == "not_interactable":
        dismiss = _dismiss_button(browser, str(error.get("message", "")))
        if dismiss is not None:
            return [text(f"Something covers the button; dismissing it with \"{dismiss.name}\"."),
                    tool_use("browser", {"type": "click", "uid": dismiss.uid})], None
        return [text("Something covers the button; reading the page to see what."), tool_use("browser", extract)], None
    if kind == "click" and ok and last.input.get("uid") in _dismiss_uids(browser):
        return _next_candidate(seen, seen.views, []) if seen.changes else ([tool_use("browser", extract)], None)
    contact, found = contact_from(last)
    if contact is not None:
        close = _find(found, "button", "Close") or _find(_all_elements(browser), "button", "Close")
        note = text(f"Candidate {len(contacts) + 1}: {contact['name']}, {contact['email']}, {contact['phone']}")
        return [note, tool_use("browser", {"type": "click", "uid": close[-1].uid} if close
                               else {"type": "click", "selector": "#panel-close"})], None
    if kind == "click" and ok and last.input.get("uid") in seen.views:
        return [tool_use("browser", {"type": "wait_for", "selector": f"{PANEL}[aria-hidden='false']",
                                     "timeout_ms": 5000})], None
    if kind == "wait_for" and not ok:
        return [text("The panel did not open in time; looking at the page again."), tool_use("browser", extract)], None
    if kind == "wait_for" and ok:
        return [tool_use("browser", {"type": "extract", "changes": True} if seen.changes
                         else {"type": "extract", "selector": PANEL})], None
    if kind == "click" and ok and last.input.get("selector") == "#panel-close" or _closed_panel(browser):
        return _next_candidate(seen, seen.views, []) if seen.changes else ([tool_use("browser", extract)], None)
    if kind == "extract" and ok and last.input.get("selector") == PANEL:
        return [text("Could not read the panel."), tool_use("browser", {"type": "press_key", "key": "Escape"})], None
    if _is_full_extract(last):
        found = elements(last.result.get("result") or {})
        if any(e.role == "textbox" and "password" in e.name.lower() for e in found):
            tab_id = next((s.result["result"]["tab_id"] for s in browser if s.input.get("type") == "navigate"
                           and s.result.get("ok")), None)
            return [], {"status": "needs_user", "summary": "The back office asks for a sign-in; I stopped there.",
                        "needs": f"Sign in to Talent Desk in the bua tab {tab_id}, then ask me to resume.",
                        "tab_id": tab_id, "data": contacts}
        previous = browser[-2] if len(browser) > 1 else None
        if previous and previous.input.get("type") == "wait_for" and not previous.result.get("ok"):
            if "Loading" in _page_text(last.result):
                return [tool_use("browser", {"type": "wait_for", "text": "Email", "timeout_ms": 10000})], None
        if previous and previous.input.get("type") == "click" and not previous.result.get("ok"):
            dismiss = _dismiss_button(browser, str((previous.result.get("error") or {}).get("message", "")))
            if dismiss is not None:
                return [text(f"Something covers the button; dismissing it with \"{dismiss.name}\"."),
                        tool_use("browser", {"type": "click", "uid": dismiss.uid})], None
        views = [e.uid for e in _find(found, "button", "View")]
        listed = [text(f"{VIEWS_NOTE} {' '.join(views)}")] if views and views != seen.views else []
        return _next_candidate(seen, views, listed)
    return [tool_use("browser", extract)], None


def _closed_panel(browser: list[Step]) -> bool:
    """The last step clicked the panel's Close button: the click right after reading a contact."""
    if len(browser) < 2 or browser[-1].input.get("type") != "click" or not browser[-1].result.get("ok"):
        return False
    return contact_from(browser[-2])[0] is not None


def _all_elements(browser: list[Step]) -> list[Element]:
    """Every element the whole results still in view listed, newest last."""
    found: list[Element] = []
    for step in browser:
        inner = step.result.get("result") or {}
        changes = _changes(step)
        found += elements({"elements": "\n".join(new_lines(changes, "elements"))}) if changes else elements(inner)
    return found


def _dismiss_button(browser: list[Step], covered_message: str) -> Element | None:
    """The button inside whatever covers the target (the error names the cover and quotes its text)."""
    cover = covered_message.split("covered by", 1)[-1].split(" at (", 1)[0]
    for element in reversed(_all_elements(browser)):
        if element.role == "button" and element.name and element.name in cover:
            return element
    return None


def _dismiss_uids(browser: list[Step]) -> set[str]:
    """The clicks that dismissed a cover: the first click after a failed click, with only extracts between."""
    found: set[str] = set()
    for i, step in enumerate(browser):
        if step.input.get("type") != "click" or step.result.get("ok"):
            continue
        later = next((s for s in browser[i + 1:] if s.input.get("type") != "extract"), None)
        if later is not None and later.input.get("type") == "click":
            found.add(str(later.input.get("uid")))
    return found


def subagent_policy(body: dict[str, Any], prompt: str) -> Reply:
    blocks, completion = next_browser_action(Seen.of(body, prompt))
    if completion is not None:
        return Reply([*[b for b in blocks if b["type"] == "text"], tool_use("complete", completion)], "tool_use")
    return Reply(blocks, "tool_use")
