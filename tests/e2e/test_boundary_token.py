"""The boundary's token is the model's alone (app/agent/page_text/boundary.py): it is in every result the model
reads that holds page text, and bua never hands it to the browser, in real Chromium: after a read, a type, a
click and an error through the app's own tool, neither the page (its document, storage, window name, the URL) nor
the extension (its storage) holds it."""

from __future__ import annotations

from app.agent.page_text.boundary import marker, token_for
from tests.e2e.actions_helpers import in_extension, in_page

PAGE_HOLDS = ("document.documentElement.outerHTML + JSON.stringify({...localStorage}) + JSON.stringify({...sessionStorage})"
              " + window.name + document.cookie + location.href + document.title")
EXTENSION_HOLDS = ("Promise.all([chrome.storage.local.get(null), chrome.storage.session.get(null)])"
                   ".then((all) => JSON.stringify(all))")


def test_the_token_reaches_the_model_and_never_the_browser(model_view, browser, fixture_server):
    task = "t-token-stays"
    token = token_for(task)
    read = []
    for action in ({"type": "navigate", "url": fixture_server.url("/actions/form.html")},
                   {"type": "extract"},
                   {"type": "type", "selector": "#email", "text": "jane@example.org"},
                   {"type": "click", "selector": "#no-such-control"},
                   {"type": "find", "text": "Email"}):
        data, text = model_view(action, task)
        read.append(text)
    assert sum(f"\n{marker(token)}\n" in text for text in read) >= 3, "the model reads the token where page text is"
    page = in_page(browser, "/actions/form.html", PAGE_HOLDS)
    assert isinstance(page, str) and "Email" in page, "the page was read"
    assert token not in page, "the page never sees the token"
    extension = in_extension(browser, EXTENSION_HOLDS)
    assert isinstance(extension, str) and task in extension, "the extension's storage was read (it holds the task)"
    assert token not in extension, "the extension never holds the token"
