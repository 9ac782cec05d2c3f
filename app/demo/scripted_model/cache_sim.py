"""Prompt-cache accounting for the scripted server, mimicking the API's rules closely enough to be honest.

The prompt is the sequence tools → system → messages, block by block. A
`cache_control` marker ends a cacheable prefix, which the request writes to
the cache. For each marker the API also looks back up to 20 block boundaries
for a prefix written by an earlier request: the longest found is a cache read,
the part up to the last marker beyond it is a cache write, the rest is plain
input. Token counts are characters / 4.
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
        if isinstance(content, str):  # the same as one text block, as the API treats it
            blocks.append({"role": message["role"], "type": "text", "text": content})
        else:
            blocks += [{"role": message["role"], **b} for b in content]
    return blocks


LOOKBACK_BLOCKS = 20
"""How many block boundaries before a breakpoint the API checks for an earlier cached prefix."""


def tokens(chars: int) -> int:
    return (chars + 3) // 4


class CacheSimulator:
    def __init__(self) -> None:
        self._seen: set[str] = set()

    def account(self, body: dict[str, Any]) -> dict[str, int]:
        digest = hashlib.sha256()
        total = 0
        boundaries: list[tuple[str, int]] = []
        marks: list[int] = []
        for block in _blocks(body):
            clean = {k: v for k, v in block.items() if k != "cache_control"}
            text = json.dumps(clean, sort_keys=True, separators=(",", ":"))
            digest.update(text.encode())
            total += len(text)
            boundaries.append((digest.copy().hexdigest(), total))
            if "cache_control" in block:
                marks.append(len(boundaries) - 1)
        read_chars = max((boundaries[j][1] for i in marks for j in range(i, max(-1, i - LOOKBACK_BLOCKS - 1), -1)
                          if boundaries[j][0] in self._seen), default=0)
        write_chars = max((boundaries[i][1] for i in marks), default=0) - read_chars
        self._seen.update(boundaries[i][0] for i in marks)
        return {
            "input_tokens": tokens(total - read_chars - max(write_chars, 0)),
            "cache_read_input_tokens": tokens(read_chars),
            "cache_creation_input_tokens": tokens(max(write_chars, 0)),
            "prompt_chars": total,
        }
