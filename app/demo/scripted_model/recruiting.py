"""The browser policy for the seed scenario: collect the contact details of the first N candidates.

Every decision is computed from what the tools really returned: uids are read
from the real extract (the N-th "View" button by its row context, the panel's
"Close" button), contact details are parsed from the real panel text. A
wait_for timeout is followed by a re-extract and a different wait, never by
the same wait again.
"""

from __future__ import annotations

import re
from typing import Any

from app.demo.scripted_model.conversation import Element, Step, elements, steps, text, tool_use
from app.demo.scripted_model.server import Reply

EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
PHONE = re.compile(r"\+\d[\d ()-]{7,}\d")
PANEL = "#candidate-panel"


def wanted(prompt: str) -> int:
    match = re.search(r"first (\d+)", prompt)
    return int(match.group(1)) if match else 3


def start_url(prompt: str) -> str:
    match = re.search(r"https?://\S+", prompt)
    return match.group(0).rstrip(".,)") if match else "http://127.0.0.1/"


def _page_text(result: dict[str, Any]) -> str:
    inner = result.get("result") or {}
    return "\n".join(str(inner.get(k) or "") for k in ("markdown", "text", "elements"))


def contact_from(step: Step) -> dict[str, str] | None:
    """A contact from a scoped extract of the open panel."""
    if step.input.get("type") != "extract" or step.input.get("selector") != PANEL or not step.result.get("ok"):
        return None
    page = _page_text(step.result)
    email, phone = EMAIL.search(page), PHONE.search(page)
    heading = re.search(r"^#+\s*(.+)$", (step.result.get("result") or {}).get("markdown", ""), re.M)
    if not (email and phone and heading):
        return None
    return {"name": heading.group(1).strip(), "email": email.group(0), "phone": phone.group(0).strip()}


def _find(found: list[Element], role: str, name: str) -> list[Element]:
    return [e for e in found if e.role == role and e.name == name]


def next_browser_action(prompt: str, history: list[Step]) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """(content blocks to say, or the completion payload when done)."""
    browser = [s for s in history if s.name == "browser"]
    contacts = [c for c in (contact_from(s) for s in browser) if c]
    if not browser:
        return [tool_use("browser", {"type": "navigate", "url": start_url(prompt)})], None
    last = browser[-1]
    kind, ok = last.input.get("type"), last.result.get("ok")
    failures = [s for s in browser[-3:] if not s.result.get("ok")]
    recent = [s for s in browser[-10:] if not s.result.get("ok")]
    same = len({(s.input.get("type"), (s.result.get("error") or {}).get("code")) for s in failures}) == 1
    if (len(failures) == 3 and same) or len(recent) > 4:
        error = recent[-1].result.get("error") or {}
        return [], {"status": "failed", "summary": f"The browser keeps failing: {error.get('code')}: "
                    f"{error.get('message')}", "data": contacts}
    if kind == "navigate":
        return [tool_use("browser", {"type": "extract"})], None
    if kind == "click" and not ok and (last.result.get("error") or {}).get("code") == "not_interactable":
        dismiss = _dismiss_button(browser, str(last.result["error"].get("message", "")))
        if dismiss is not None:
            return [text(f"Something covers the button; dismissing it with \"{dismiss.name}\"."),
                    tool_use("browser", {"type": "click", "uid": dismiss.uid})], None
    if kind == "click" and ok and last.input.get("uid") in _dismiss_uids(browser):
        return [tool_use("browser", {"type": "extract"})], None
    if kind == "click" and ok and last.input.get("uid") in _view_uids(browser):
        return [tool_use("browser", {"type": "wait_for", "selector": f"{PANEL}[aria-hidden='false']",
                                     "timeout_ms": 5000})], None
    if kind == "wait_for" and not ok:
        return [text("The panel did not open in time; looking at the page again."),
                tool_use("browser", {"type": "extract"})], None
    if kind == "wait_for" and ok:
        return [tool_use("browser", {"type": "extract", "selector": PANEL})], None
    if kind == "extract" and last.input.get("selector") == PANEL:
        contact = contact_from(last)
        close = _find(elements(last.result.get("result") or {}), "button", "Close")
        note = text(f"Candidate {len(contacts)}: {contact['name']}, {contact['email']}, {contact['phone']}") \
            if contact else text("Could not read the panel.")
        return [note, tool_use("browser", {"type": "click", "uid": close[0].uid} if close
                               else {"type": "press_key", "key": "Escape"})], None
    if kind == "extract" and ok and any(e.role == "textbox" and "password" in e.name.lower()
                                        for e in elements(last.result.get("result") or {})):
        tab_id = next((s.result["result"]["tab_id"] for s in browser if s.input.get("type") == "navigate"
                       and s.result.get("ok")), None)
        return [], {"status": "needs_user", "summary": "The back office asks for a sign-in; I stopped there.",
                    "needs": f"Sign in to Talent Desk in the bua tab {tab_id}, then ask me to resume.",
                    "tab_id": tab_id, "data": contacts}
    if kind == "extract" and ok:
        page = _page_text(last.result)
        previous = browser[-2] if len(browser) > 1 else None
        if previous and previous.input.get("type") == "wait_for" and not previous.result.get("ok"):
            if "Loading" in page:
                return [tool_use("browser", {"type": "wait_for", "text": "Email", "timeout_ms": 10000})], None
        if len(contacts) >= wanted(prompt):
            return [], {"status": "completed", "summary": f"Collected the contact details of the first "
                        f"{len(contacts)} candidates.", "data": contacts}
        views = _find(elements(last.result.get("result") or {}), "button", "View")
        if len(views) <= len(contacts):
            return [], {"status": "failed", "summary": f"Only {len(views)} candidates are listed.", "data": contacts}
        return [tool_use("browser", {"type": "click", "uid": views[len(contacts)].uid})], None
    return [tool_use("browser", {"type": "extract"})], None


def _latest_elements(browser: list[Step]) -> list[Element]:
    for step in reversed(browser):
        if step.input.get("type") == "extract" and step.result.get("ok"):
            return elements(step.result.get("result") or {})
    return []


def _dismiss_button(browser: list[Step], covered_message: str) -> Element | None:
    """The button inside whatever covers the target (the error names the cover and quotes its text)."""
    cover = covered_message.split("covered by", 1)[-1].split(" at (", 1)[0]
    for element in _latest_elements(browser):
        if element.role == "button" and element.name and element.name in cover:
            return element
    return None


def _dismiss_uids(browser: list[Step]) -> set[str]:
    return {str(s.input.get("uid")) for i, s in enumerate(browser[1:], 1)
            if s.input.get("type") == "click" and browser[i - 1].input.get("type") == "click"
            and not browser[i - 1].result.get("ok")}


def _view_uids(browser: list[Step]) -> set[str]:
    uids: set[str] = set()
    for step in browser:
        if step.input.get("type") == "extract" and step.result.get("ok"):
            uids |= {e.uid for e in _find(elements(step.result.get("result") or {}), "button", "View")}
    return uids


def subagent_policy(body: dict[str, Any], prompt: str) -> Reply:
    blocks, completion = next_browser_action(prompt, steps(body))
    if completion is not None:
        return Reply([tool_use("complete", completion)], "tool_use")
    return Reply(blocks, "tool_use")
