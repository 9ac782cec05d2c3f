"""Generates extension/src/schema/actions.schema.json from the pydantic models.

Run `python -m app.protocol.schema_export` after changing an action; a unit
test fails while the committed file is out of date.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from app.protocol.actions import ACTION_ADAPTER

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "extension" / "src" / "schema" / "actions.schema.json"


def actions_schema() -> dict[str, Any]:
    schema = ACTION_ADAPTER.json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "BrowserAction"
    return schema


def render() -> str:
    return json.dumps(actions_schema(), indent=2, sort_keys=True) + "\n"


def main() -> int:
    SCHEMA_PATH.parent.mkdir(parents=True, exist_ok=True)
    SCHEMA_PATH.write_text(render(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
