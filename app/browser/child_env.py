"""The environment every process bua starts gets: the parent's, less anything that looks like a secret.

Chromium (and through it the native host and every renderer), the extensions
page opener and any other child see no `ANTHROPIC_*` variable and nothing
named `*_API_KEY`, `*_TOKEN` or `*_SECRET` (any case): a page, an extension
or a crash dump must never be able to read the person's model key.
"""

from __future__ import annotations

import os
from typing import Mapping

SECRET_PREFIXES = ("ANTHROPIC_",)
SECRET_SUFFIXES = ("_API_KEY", "_TOKEN", "_SECRET")


def is_secret(name: str) -> bool:
    upper = name.upper()
    return upper.startswith(SECRET_PREFIXES) or upper.endswith(SECRET_SUFFIXES)


def child_env(base: Mapping[str, str] | None = None, **extra: str) -> dict[str, str]:
    """`base` (default os.environ) without secrets, plus `extra`."""
    source = os.environ if base is None else base
    env = {name: value for name, value in source.items() if not is_secret(name)}
    env.update(extra)
    return env
