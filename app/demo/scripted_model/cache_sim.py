"""Prompt-cache accounting for the scripted server, mimicking the API's rules closely enough to be honest.

The prompt is the sequence tools → system → messages, block by block. A
`cache_control` marker ends a cacheable prefix; a prefix seen before is a
cache read, the part up to the last marker that was not seen is a cache
write, the rest is plain input. Token counts are characters / 4.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def _blocks(body: dict[str, Any]) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = list(body.get("tools") or [])
    system = body.get("system") or []
    blocks += [{"type": "text", "text": system}] if isinstance(system, str) else list(system)
    for message in body.get("messages") or []:
        content = message.get("content")
        if isinstance(content, str):
            blocks.append({"role": message["role"], "text": content})
        else:
            blocks += [{"role": message["role"], **b} for b in content]
    return blocks


def tokens(chars: int) -> int:
    return (chars + 3) // 4


class CacheSimulator:
    def __init__(self) -> None:
        self._seen: set[str] = set()

    def account(self, body: dict[str, Any]) -> dict[str, int]:
        digest = hashlib.sha256()
        total = 0
        marks: list[tuple[str, int]] = []
        for block in _blocks(body):
            clean = {k: v for k, v in block.items() if k != "cache_control"}
            text = json.dumps(clean, sort_keys=True, separators=(",", ":"))
            digest.update(text.encode())
            total += len(text)
            if "cache_control" in block:
                marks.append((digest.copy().hexdigest(), total))
        read_chars = max((chars for h, chars in marks if h in self._seen), default=0)
        write_chars = max((chars for _h, chars in marks), default=0) - read_chars
        self._seen.update(h for h, _chars in marks)
        return {
            "input_tokens": tokens(total - read_chars - max(write_chars, 0)),
            "cache_read_input_tokens": tokens(read_chars),
            "cache_creation_input_tokens": tokens(max(write_chars, 0)),
            "prompt_chars": total,
        }
