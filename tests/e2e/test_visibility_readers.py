"""Every reader of page text goes through one visibility judgement (issue 18): each declared action whose result
or error can carry page text runs in real Chromium on a page full of hidden carriers (tests/fixtures/pages/
actions/hidden-readers.html: one of each hidden kind in every place a reader looks — a paragraph, a button, an
overlay, list items, a contenteditable, a drop zone, a select, a field, a same-origin frame), and no hidden marker may appear anywhere
in what it answers, results and errors alike (descriptions, candidates, contexts, snippets, change lists), while
the visible text of the same places does.

READERS lists every action of app/protocol/actions (ACTION_TYPES): a runner that reads the page with it, or the
reason it carries no page text a visibility judgement applies to. An action added without an entry fails
test_every_declared_action_is_listed, so no new reader can bypass the judgement unnoticed."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest

from app.files.policy import FOLDERS_SETTING
from app.protocol.actions import ACTION_TYPES
from tests.e2e.actions_helpers import Send, described, evaluate, page  # noqa: F401 (fixture)

PAGE = "hidden-readers.html"
# Hidden kinds, as the fixture's marker words (`QZ<KIND>`; no two start alike, so a marker cut short still names
# its kind). Every one is text a person cannot see there.
HIDDEN_BY_RULE = ["NONE", "VIS", "ZEROOP", "TRANSP", "WHITE", "CLIP", "SRONLY", "LEFT", "MINI", "INDENT",
                  "DETAILS", "HIDDENOPT", "GONEOPT", "FIELD"]
# Kinds only a judgement from the rendering tells (issue 18's list: low opacity, an ancestor's opacity, a
# transform, a colour in another syntax, off to the right, a 2 px clipping box, a box painted over the text).
HIDDEN_BY_RENDERING = ["OPACITY", "ANCESTOR", "SCALE", "OKLCH", "RIGHT", "HAIRLINE", "UNDERBOX"]
HIDDEN = HIDDEN_BY_RULE + HIDDEN_BY_RENDERING
MARKER = re.compile(r"QZ([A-Z]+)")


@dataclass(frozen=True)
class Read:
    """One answer of a reader: what it returned (result or error, whole), and the visible words it must show."""
    label: str
    answer: Any
    shows: tuple[str, ...] = ()


@dataclass(frozen=True)
class Page:
    """The task's page: send(action), a folder the person allowed (for upload), and the hidden kinds extract's
    walker still shows (none once every kind is judged; a reader never shows more)."""
    send: Send
    folder: Path
    walked: frozenset[str]

    def must_hide(self, kind: str) -> bool:
        return kind not in self.walked


Runner = Callable[[Page], list[Read]]


def answer(response: Any) -> Any:
    """The whole response as the app got it: result, or error with its candidates and confirmation."""
    return response.model_dump(mode="json")


def ok(response: Any) -> Any:
    assert response.ok, response.error
    return answer(response)


def failed(response: Any, code: str) -> Any:
    assert not response.ok and response.error.code == code, response
    return answer(response)


def uid_in(elements: str, pattern: str) -> str:
    match = re.search(rf"^\s*(e\d+) {pattern}", elements, re.M)
    assert match, (pattern, elements)
    return match.group(1)


def read_extract(p: Page) -> list[Read]:
    send = p.send
    return [Read("extract", ok(send({"type": "extract"})), ("VISPARA", "VISBTN", "VISJOB1", "VISLEAD")),
            Read("extract of a scope", ok(send({"type": "extract", "selector": "#para"})), ("VISPARA", "VISEND"))]


def read_find(p: Page) -> list[Read]:
    send = p.send
    reads = [Read("find text", ok(send({"type": "find", "text": "carrier", "limit": 100})), ()),
             Read("find a paragraph", ok(send({"type": "find", "text": "visible paragraph"})), ("VISPARA",)),
             Read("find a button", ok(send({"type": "find", "role": "button", "name": "send"})), ("VISBTN",)),
             Read("find repeated names", ok(send({"type": "find", "role": "button", "name": "Retry"})), ("VISJOB1", "VISJOB2")),
             Read("find a field", ok(send({"type": "find", "role": "textbox"})), ("VISLABEL",)),
             Read("find a heading", ok(send({"type": "find", "role": "heading"})), ("VISHEAD",)),
             Read("find in a same-origin frame", ok(send({"type": "find", "role": "button", "name": "framed"})), ("VISFRAME",))]
    for kind in HIDDEN:
        found = ok(send({"type": "find", "text": f"QZ{kind}"}))
        assert found["result"]["total"] == 0 or not p.must_hide(kind), (kind, found)
        reads.append(Read(f"find hidden {kind}", found))
    return reads


def read_click(p: Page) -> list[Read]:
    send = p.send
    clicked = ok(send({"type": "click", "selector": "#send"}))
    framed = ok(send({"type": "find", "role": "button", "name": "framed"}))["result"]["matches"]
    assert len(framed) == 1, framed
    in_frame = ok(send({"type": "click", "uid": framed[0]["uid"]}))
    covered = failed(send({"type": "click", "selector": "#under"}), "not_interactable")
    assert "covered by div \"Promo VISPROMO\"" in covered["error"]["message"], covered
    # The covered button's own text is covered too: its description quotes nothing of it.
    return [Read("click", clicked, ("VISBTN",)), Read("click on a covered button", covered, ("VISPROMO",)),
            Read("click in a same-origin frame", in_frame, ("VISFRAME",))]


def read_hover(p: Page) -> list[Read]:
    send = p.send
    return [Read("hover", ok(send({"type": "hover", "selector": "#send"})), ("VISBTN",)),
            Read("hover on a covered button", failed(send({"type": "hover", "selector": "#under"}), "not_interactable"),
                 ("VISPROMO",))]


def read_stale_candidates(p: Page) -> list[Read]:
    send = p.send
    uid = uid_in(described(ok(send({"type": "extract"}))["result"]), 'button "Retry"')
    evaluate(send, "document.querySelectorAll('.retry').forEach((b) => b.replaceWith(b.cloneNode(true))), true")
    stale = failed(send({"type": "click", "uid": uid}), "element_stale")
    assert len(stale["error"]["candidates"]) == 2, stale
    return [Read("a stale uid's candidates", stale, ("VISJOB1", "VISJOB2"))]


def read_type(p: Page) -> list[Read]:
    send = p.send
    editor = ok(send({"type": "type", "selector": "#editor", "text": " more"}))
    ghost = ok(send({"type": "type", "selector": "#ghost", "text": " typed"}))
    assert "value" not in ghost["result"] and ghost["result"]["value_length"] > 0, ghost
    missing = failed(send({"type": "type", "selector": "#pick", "text": "no such option"}), "element_not_found")
    return [Read("type into a contenteditable", editor, ("VISEDIT",)), Read("type into an unseen field", ghost),
            Read("type: a select's options", missing, ("VISOPT",)),
            Read("type into a field", ok(send({"type": "type", "selector": "#name", "text": "Ada"})), ("Ada",))]


def read_fill(p: Page) -> list[Read]:
    send = p.send
    fields = [{"selector": "#editor", "value": "Draft VISEDIT again"}, {"selector": "#ghost", "value": "x"},
              {"selector": "#pick", "value": "nothing like it"}, {"selector": "#name", "value": "Grace"}]
    filled = ok(send({"type": "fill", "fields": fields}))
    assert filled["result"]["as_asked"] == 3, "a field read back as given is counted, its value not said again"
    return [Read("fill", filled, ("VISOPT",))]


def read_select_text(p: Page) -> list[Read]:
    send = p.send
    whole = ok(send({"type": "select_text", "selector": "#para"}))
    assert "VISPARA" in whole["result"]["selected"] and "VISEND" in whole["result"]["selected"], whole
    part = ok(send({"type": "select_text", "selector": "#mixed", "text": "VISMIX1 omega"}))
    assert part["result"]["selected"] == "VISMIX1 omega", part
    reads = [Read("select_text", whole, ("VISPARA", "VISEND")), Read("select_text across carriers", part, ("VISMIX1",))]
    for kind in [k for k in HIDDEN if p.must_hide(k) and k not in ("DETAILS", "HIDDENOPT", "GONEOPT", "FIELD")]:
        missing = failed(send({"type": "select_text", "selector": "#para", "text": f"QZ{kind}"}), "invalid_action")
        reads.append(Read(f"select_text of hidden {kind}", quoted_query_removed(missing, f"QZ{kind}"), ("VISPARA",)))
    reads.append(Read("select_text in a button", ok(send({"type": "select_text", "selector": "#send"})), ("VISBTN",)))
    return reads


def read_wait_for(p: Page) -> list[Read]:
    send = p.send
    reads = [Read("wait_for visible text", ok(send({"type": "wait_for", "text": "VISPARA"})), ("VISPARA",)),
             Read("wait_for a selector", ok(send({"type": "wait_for", "selector": "#send"})), ("VISBTN",)),
             Read("wait_for a hidden element", failed(send({"type": "wait_for", "selector": ".c-none", "timeout_ms": 200}),
                                                      "timeout")),
             Read("wait_for absent text", failed(send({"type": "wait_for", "text": "no such words", "timeout_ms": 200}),
                                                 "timeout"), ("VISLEAD",))]
    for kind in [k for k in HIDDEN if p.must_hide(k)]:
        waited = failed(send({"type": "wait_for", "text": f"carrier QZ{kind}", "timeout_ms": 150}), "timeout")
        reads.append(Read(f"wait_for hidden {kind}", quoted_query_removed(waited, f"carrier QZ{kind}")))
    return reads


def read_changes(p: Page) -> list[Read]:
    send = p.send
    ok(send({"type": "extract"}))
    grown = ok(send({"type": "click", "selector": "#grow"}))
    assert "VISNEW" in json.dumps(grown["result"].get("changes")), grown
    return [Read("a click's change list", grown, ("VISNEW",))]


def read_scroll(p: Page) -> list[Read]:
    send = p.send
    return [Read("scroll to an element", ok(send({"type": "scroll", "selector": "#far"})), ("VISFAR",)),
            Read("scroll a container", ok(send({"type": "scroll", "direction": "down"})))]


def read_press_key(p: Page) -> list[Read]:
    send = p.send
    ok(send({"type": "click", "selector": "#name"}))
    return [Read("press_key", ok(send({"type": "press_key", "key": "Tab"})))]


def read_drag(p: Page) -> list[Read]:
    send = p.send
    return [Read("drag", ok(send({"type": "drag", "selector": "#drag-from", "to_selector": "#drop"})), ("VISDROP",))]


def read_upload(p: Page) -> list[Read]:
    send = p.send
    file = p.folder / "note.txt"
    file.write_text("a note")
    return [Read("upload onto a drop zone", ok(send({"type": "upload", "selector": "#drop", "paths": [str(file)]})), ())]


def read_tabs(p: Page) -> list[Read]:
    send = p.send
    return [Read("get_tabs", ok(send({"type": "get_tabs"})), ("Readers",))]


def read_navigation(p: Page) -> list[Read]:
    send = p.send
    here = evaluate(send, "location.href")
    return [Read("navigate", ok(send({"type": "navigate", "url": here})), ("Readers",))]


def quoted_query_removed(response: Any, query: str) -> Any:
    """The answer with the model's own query taken out (an error may repeat what was asked for)."""
    return json.loads(json.dumps(response).replace(query, "<query>"))


NOT_PAGE_TEXT = {
    "screenshot": "pixels: it shows what is painted, nothing that is not",
    "page_log": "the page's console output, which no person sees on the page; it is marked as page data (app side)",
    "downloads": "file names and states of the task's downloads",
    "read_download": "the content of a file the task downloaded, not text shown on a page",
    "evaluate": "the model's own script's value: what that script chose to read",
    "open_tab": "the new tab's URL and title only",
    "close_tab": "which tab closed",
    "history": "the URL and title the tab went to (as navigate: read by read_navigation)",
}

READERS: dict[str, Runner] = {
    "extract": read_extract, "find": read_find, "click": read_click, "hover": read_hover, "type": read_type,
    "fill": read_fill, "select_text": read_select_text, "wait_for": read_wait_for, "scroll": read_scroll,
    "press_key": read_press_key, "drag": read_drag, "upload": read_upload, "get_tabs": read_tabs,
    "navigate": read_navigation,
}
# Readers that serve several actions' shared parts: change lists and a stale uid's candidates (any uid action).
SHARED: dict[str, Runner] = {"change lists": read_changes, "stale uid candidates": read_stale_candidates}


def test_every_declared_action_is_listed():
    listed = set(READERS) | set(NOT_PAGE_TEXT)
    missing = [t for t in ACTION_TYPES if t not in listed]
    assert not missing, (f"actions {missing} are in no table: add a runner to READERS that reads the hidden-carrier "
                         "page with each, or say in NOT_PAGE_TEXT why its result holds no page text")
    assert not (set(READERS) & set(NOT_PAGE_TEXT)) and listed <= set(ACTION_TYPES), "stale or doubled entries"


def markers(value: Any) -> set[str]:
    """The hidden kinds whose marker shows in a value; a marker cut short (`QZOPAC…`) counts as its kind."""
    words = MARKER.findall(json.dumps(value, ensure_ascii=False))
    return {kind for kind in HIDDEN for word in words if kind.startswith(word) and len(word) >= 2}


@pytest.fixture
def allowed_folder(core, tmp_path):
    core.core.store.set_setting(FOLDERS_SETTING, [str(tmp_path)])
    yield tmp_path
    core.core.store.set_setting(FOLDERS_SETTING, [])


@pytest.mark.parametrize("name", [*READERS, *SHARED])
def test_no_hidden_text_reaches_the_model_through_any_reader(page, allowed_folder, name):
    send = page(PAGE, f"t-vis-{name.replace(' ', '-')}")
    # What extract's walker shows of the carriers: a reader never shows more (one judgement), and none of the
    # kinds the rules catch.
    walked = markers(ok(send({"type": "extract"})))
    assert not walked & set(HIDDEN_BY_RULE), f"extract shows hidden carriers {walked}"
    reads = {**READERS, **SHARED}[name](Page(send, allowed_folder, frozenset(walked)))
    assert reads
    for read in reads:
        shown = markers(read.answer)
        assert not shown & set(HIDDEN_BY_RULE), f"{read.label}: hidden carriers {sorted(shown)} in {read.answer}"
        assert shown <= walked, f"{read.label}: shows {sorted(shown - walked)}, which extract judges hidden"
        text = json.dumps(read.answer, ensure_ascii=False)
        for word in read.shows:
            assert word in text, f"{read.label}: the visible {word!r} is missing from {read.answer}"


def test_the_rendering_kinds_are_judged_hidden_by_every_reader(page):
    """The kinds only a judgement from the rendering catches: hidden from extract, so from every reader above."""
    send = page(PAGE, "t-vis-rendering")
    walked = markers(ok(send({"type": "extract"})))
    assert not walked & set(HIDDEN_BY_RENDERING), f"extract shows {sorted(walked)}"
