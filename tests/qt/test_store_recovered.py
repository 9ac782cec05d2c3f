"""A damaged store replaced at start is told in the chat (and the tray) until the person dismisses it."""

from __future__ import annotations

from app.store.db import store_path
from tests.qt.conftest import make_core, until


def test_the_chat_says_what_was_lost_and_where_the_old_file_is(make_app, home, run):
    store_path(home).write_bytes(b"not a database at all" * 500)
    core = make_core(home)
    announced: list[tuple[str, str]] = []

    async def body() -> None:
        app = await make_app(core)
        card = app.chat.notices.cards.get("store_recovered")
        assert card is not None, "the chat shows the notice"
        text = card.body.text()
        assert core.store.recovered.damaged_path in text and "chat history" in text and "blocklist" in text
        app.tray.available = app.tray_available = True  # offscreen has no tray; its balloon is replaced below
        app.tray.icon.showMessage = lambda title, message, *rest: announced.append((title, message))
        await app._tell_store_recovered()
        assert announced and announced[0][1] == core.store.recovered.message(), "the tray balloon says the same"
        card = app.chat.notices.cards["store_recovered"]
        card.buttons["Got it"].click()
        await until(lambda: core.store.last_recovery() is None, message="dismissed in the store")
        assert not app.chat.notices.has("store_recovered")
    run(body())
