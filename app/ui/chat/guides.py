"""The guided notices' words and buttons."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Callable

from app.ui.chat.notices import NoticeCard

Callback = Callable[[], object]


def missing_key(open_settings: Callback, try_demo: Callback, has_keyring: bool) -> NoticeCard:
    """Says what Settings will say about the keyring (app/ui/settings/key_field.py describe): with none on this
    system the key cannot be saved there, so the card points at ANTHROPIC_API_KEY instead."""
    where = ("Add it in Settings — it is kept in your system keyring, never in a file." if has_keyring else
             "This system has no secure keyring, so bua cannot save a key: set ANTHROPIC_API_KEY in the "
             "environment before starting bua (bua never writes the key to a file).")
    return NoticeCard(
        "missing_key", "Add your Anthropic API key to start",
        f"bua needs an API key to talk to the model. {where} Or try the offline demo first: no key needed, it "
        "runs on a demo site in a browser.",
        [("Open Settings", open_settings, "primary"), ("Try the demo", try_demo, None)])


def no_extension(extension_dir: Path, copy_path: Callback, open_extensions: Callback, start_browser: Callback,
                 setup: Callback) -> NoticeCard:
    path = html.escape(str(extension_dir))
    return NoticeCard(
        "no_extension", "Your browser is not connected yet",
        "Load the bua extension once: open <b>chrome://extensions</b>, turn on <b>Developer mode</b>, click "
        f"<b>Load unpacked</b> and choose <code>{path}</code>. This turns green as soon as it connects. "
        "Or let bua start its own browser window with the extension already loaded.",
        [("Open extensions page", open_extensions, None), ("Copy folder path", copy_path, None),
         ("Start a bua browser", start_browser, None), ("Set-up guide…", setup, None)])


def no_tray() -> NoticeCard:
    return NoticeCard(
        "no_tray", "No system tray on this desktop",
        "bua runs in this window instead: Stop all, Sessions & blocklist and Settings are in the top bar. "
        "Closing this window quits bua.", [], tone="info")


def core_error(message: str, retry: Callback | None = None) -> NoticeCard:
    return NoticeCard("core_error", "bua cannot work right now", html.escape(message),
                      [("Try again", retry, None)] if retry else [], tone="error")


def store_recovered(message: str, dismiss: Callback) -> NoticeCard:
    return NoticeCard("store_recovered", "bua's store was damaged and has been replaced", html.escape(message),
                      [("Got it", dismiss, None)], tone="error")


def demo_status(text: str, stop: Callback) -> NoticeCard:
    return NoticeCard("demo", "Demo", html.escape(text), [("Stop", stop, None)], tone="info")
