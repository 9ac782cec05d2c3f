"""What each part of an action's result is: the page's text, a URL, or bua's own words (docs/architecture.md,
"Adding an action").

An action declares its result's shape in its spec (`ActionSpec.result`): a mapping from key to a `Part`, or to
the shape of a nested object. A list takes the shape of its items. The boundary marking (app.agent.tools.
browser_result) and the data-flow memory (app.safety.flow_check, through `page_data`) read these declarations, and
nothing else: no key name means anything by itself.

**A key an action does not declare is page text.** Forgetting a declaration can only over-mark (the model reads
one more string inside the boundary, the data-flow memory remembers one more string), never let the page's words
reach the model unmarked. So the declarations that matter for the model's convenience are the `OWN` and `URL`
ones (uids, states, counts, images, URLs it copies into actions).

The parts every result shares (a tab, effects, change lists, dialogs, downloads, element candidates, errors) are
declared once here and reused.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Mapping, Union


class Part(StrEnum):
    PAGE = "page"
    """The page's text (an element's description quotes its text too): marked inside the boundary, remembered."""
    PAGE_JSON = "page_json"
    """A value of any JSON shape that the page made (evaluate's `value`): marked as one JSON text, remembered."""
    CLIPBOARD = "clipboard"
    """Page text that is now on the task's clipboard (what a copy copied): page text, and what a paste types."""
    URL = "url"
    """A URL: forgeries defused but not wrapped (the model copies it into actions); not remembered as data."""
    OWN = "own"
    """bua's own words or values (uids, states, counts, an image): shown as they are."""
    FRAMED = "framed"
    """Which lines of the result's page text a frame of another origin than the page's shows, as `{url, text}`
    objects (`url`: the frame's origin; `text`: those lines, each exactly as the result says it elsewhere: a
    markdown line, an index line, a change list's line): remembered under the frame's site and not the page's;
    left out of the model's view, which reads them where the result says them. Any result (or nested object) that
    quotes a frame's text declares its `frames` key so (extension/src/extract/framed.js). A line is listed once for
    each time the result says it: the memory takes as many identical lines out of the page's own text as the frames
    list (app/safety/flow_check.py own_text), so a result that repeats a quote (the app's refusal says it in its
    message and its details) lists it that many times (app/protocol/page_data.py frames_as_said)."""
    QUOTING = "quoting"
    """bua's words that quote the page: each string of the sibling `page_text` list, where it appears verbatim,
    is marked inside them (and the whole message when one does not appear)."""


Shape = Mapping[str, Union[Part, "Shape"]]
"""A result (or a nested object's) keys and what each is; an undeclared key is `Part.PAGE`."""

UNDECLARED = Part.PAGE
"""What a key no declaration names is (see the module docstring for why)."""

OWN, PAGE, URL = Part.OWN, Part.PAGE, Part.URL

FRAMES: Shape = {"frames": Part.FRAMED}
"""The part of a result that says which of its page lines frames of other origins show (`Part.FRAMED`)."""

TAB: Shape = {"tab_id": OWN, "window_id": OWN, "url": URL, "final_url": URL, "title": PAGE}
"""A tab as results name it."""

DIALOG: Shape = {"type": OWN, "message": PAGE, "handled": OWN, "prompt_text": OWN, "while_idle": OWN, "url": URL}
"""A JavaScript dialog a page opened (extension/src/tabs/dialogs.js DialogRecord): its message is the page's."""

DOWNLOAD: Shape = {"id": OWN, "filename": PAGE, "path": PAGE, "size": OWN, "mime": PAGE, "state": OWN, "url": URL,
                   "error": OWN, "executable": OWN, "danger": OWN, "stopped": OWN, "next_step": OWN}
"""A download (extension/src/tabs/downloads.js): the server names the file and its type."""

EFFECTS: Shape = {"navigated": OWN, "url": URL, "same_document": OWN, "still_loading": OWN,
                  "new_tabs": {"tab_id": OWN, "url": URL}, "dialog": DIALOG, "dialogs": DIALOG, "download": DOWNLOAD,
                  "dom_mutations": OWN, "focus_moved_to": PAGE, "scrolled": {"what": PAGE, "x": OWN, "y": OWN},
                  "nothing_changed": OWN}
"""What an input action changed (extension/src/input/effects.js Effects)."""

CHANGES: Shape = {"summary": OWN, "full": OWN, "markdown": PAGE, "elements": PAGE, **FRAMES}
"""A change list (extension/src/extract/diff.js): its lines are the page's, or a frame's (`frames`)."""

CANDIDATE: Shape = {"uid": OWN, "role": OWN, "name": PAGE, "context": PAGE}
"""An element as a stale uid's candidates and find's matches name it."""

ERROR: Shape = {"code": OWN, "message": Part.QUOTING, "page_text": PAGE, "candidates": CANDIDATE,
                "confirmation": {"what": OWN, "site": OWN, "url": URL, "frame_url": URL, "element": PAGE,
                                 "reason": PAGE, "category": OWN, "kind": OWN,
                                 "check_only": OWN, "pasted": Part.CLIPBOARD},
                "next_step": OWN, **FRAMES}
"""Every error, of every action (app.protocol.envelope.ErrorBody): its message is bua's words, and the page text
it quotes is listed in `page_text`."""

INPUT: Shape = {"effects": EFFECTS, "changes": CHANGES}
"""What an input action's result adds to its own keys."""
