"""Declared, not named (issue 19): the safety, session and result code reads what an action's declaration says
(app/protocol/actions/spec.py flags, carriers.py), never an action's name. This scan fails when a branch on an
action name appears there: a comparison, `case` or membership test of an action's `type` (or a variable named
for it) against an action-type literal. The app's Python modules are also walked as syntax trees by
tests/unit/safety/test_declared_actions.py; this scan is what covers the extension's JavaScript."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.protocol.actions.registry import ACTION_TYPES

ROOT = Path(__file__).resolve().parents[3]
SCANNED = ("extension/src/safety", "extension/src/sessions", "extension/src/wire", "extension/src/tabs",
           "extension/src/input", "app/safety", "app/agent/tools", "app/bridge")
"""Safety checks, the session gate, the wire, the pointer and keyboard input shared by the input actions, and the
code that builds and renders results."""

_NAMES = "|".join(re.escape(name) for name in sorted(ACTION_TYPES, key=len, reverse=True))
_HOLDER = r"""(?:\b\w*(?:type|action|verb|name)\b|\[\s*["']type["']\s*\]|\.get\(\s*["']type["']\s*\))"""
"""An expression that holds an action's name: `type`, `action.type`, `raw["type"]`, `raw.get("type")`,
`actionName`, `verb`."""
_LITERAL = rf"""["'](?:{_NAMES})["']"""
BRANCH = re.compile(
    rf"""{_HOLDER}\s*(?:===|!==|==|!=)\s*{_LITERAL}"""       # type === "evaluate"
    rf"""|{_LITERAL}\s*(?:===|!==|==|!=)\s*{_HOLDER}"""      # "evaluate" == type
    rf"""|{_HOLDER}\s+(?:not\s+)?in\s*[(\[{{][^)\]}}]*{_LITERAL}"""  # type in ("type", "fill")
    rf"""|\bcase\s+{_LITERAL}"""                              # switch (type) { case "fill": … }
    rf"""|\[[^\]]*{_LITERAL}[^\]]*\]\s*\.\s*includes\s*\(\s*{_HOLDER}""",  # ["type", "fill"].includes(type)
    re.IGNORECASE,
)


def branches_on_action_names(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if BRANCH.search(line)]


def _sources() -> list[Path]:
    return sorted(p for folder in SCANNED for p in (ROOT / folder).rglob("*")
                  if p.suffix in (".js", ".py") and "generated" not in p.parts)


@pytest.mark.parametrize("line", [
    'if (type === "evaluate") return result?.navigated === true;',
    'const reads = flags(type).read_only || type === "evaluate";',
    'if action.get("type") in ("type", "fill"):',
    'if raw["type"] == "press_key":',
    '    case "fill":',
    'if (["type", "fill"].includes(action.type)) return null;',
    'if "navigate" == action_type:',
])
def test_the_scan_catches_a_branch_on_an_action_name(line: str) -> None:
    assert branches_on_action_names(line) == [line.strip()]


@pytest.mark.parametrize("line", [
    'const download = mode === "click" ? executableDownload(control) : null;',
    'if (flags(type).closes_tab) return;',
    'if (p.name === "load") resolve(undefined);',
    'if kind == Carries.TYPED_TEXT:',
])
def test_the_scan_passes_what_reads_a_declaration(line: str) -> None:
    assert branches_on_action_names(line) == []


def test_no_safety_session_or_result_code_branches_on_an_action_name() -> None:
    found = [f"{path.relative_to(ROOT)}: {line}" for path in _sources()
             for line in branches_on_action_names(path.read_text(encoding="utf-8"))]
    assert _sources(), "the scanned folders moved: update SCANNED"
    assert found == [], ("these branch on an action's name; declare the fact in app/protocol/actions/spec.py "
                         "(or a field's carrier, carriers.py) and read the declaration instead:\n" + "\n".join(found))
