"""The data that defines a sensitive action, in one file both sides read: `sensitive-words.json` (word lists per
category and language, the form fields that make a submit sensitive, executable file extensions). The extension
gets it as `extension/src/generated/sensitive-words.js` (`make schema`); its classifier is in
`extension/src/safety/`."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

WORDS_PATH = Path(__file__).with_name("sensitive-words.json")
LANGUAGES = ("en", "es", "de", "ja", "fr", "pt", "ru", "it", "nl", "pl", "tr", "fa", "zh", "vi", "id", "cs", "ko", "uk", "ar", "hu")
"""The 20 most used content languages of the web: every phrase category, the compose and destination words, the exempt
list and every endpoint category cover each (a unit test checks it). Hindi is covered too, beyond these."""


@cache
def sensitive_words() -> dict[str, Any]:
    words: dict[str, Any] = json.loads(WORDS_PATH.read_text(encoding="utf-8"))
    return words
