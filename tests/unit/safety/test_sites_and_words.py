"""Sites (registrable domains) and the one data file of sensitive words."""

from __future__ import annotations

import pytest

from app.protocol.codegen import WORDS_GENERATED_PATH, render_words
from app.protocol.safety import LANGUAGES, sensitive_words
from app.safety.sites import site_of


@pytest.mark.parametrize(("url", "site"), [
    ("https://mail.google.com/mail/u/0", "google.com"),
    ("https://www.bbc.co.uk/news", "bbc.co.uk"),
    ("https://a.b.example.co.jp/x", "example.co.jp"),
    ("http://127.0.0.1:8123/x", "127.0.0.1"),
    ("http://localhost:8123/x", "localhost"),
    ("http://[::1]:80/", "::1"),
    ("https://user.github.io/repo", "user.github.io"),
    ("example.com", "example.com"),
    ("https://EXAMPLE.com./", "example.com"),
    ("not a url at all", ""),
    ("", ""),
])
def test_site_of(url: str, site: str) -> None:
    assert site_of(url) == site


def test_every_phrase_category_compose_destination_and_exempt_list_cover_twenty_languages() -> None:
    words = sensitive_words()
    assert len(LANGUAGES) == 20
    assert set(words["phrases"]) == {"pay", "send", "delete", "transfer", "account"}
    lists = [*words["phrases"].items(), ("exempt", words["exempt"]), ("conjunctions", words["conjunctions"]),
             ("compose", words["compose"]),
             ("destinations", words["destinations"]),
             *((f"endpoints {name}", by_language) for name, by_language in words["endpoints"]["words"].items())]
    for name, by_language in lists:
        assert set(LANGUAGES) <= set(by_language), name
        assert all(by_language[lang] for lang in LANGUAGES), name
    assert set(words["endpoints"]["words"]) == set(words["endpoints"]["kinds"]) == {*words["phrases"], "order"}
    assert set(words["endpoints"]["affixes"]) <= set(LANGUAGES)
    assert {"cc-number", "cvc"} <= set(words["fields"]["card"])
    assert {"exe", "msi", "dmg", "pkg", "deb", "rpm", "sh", "bat", "apk", "appimage"} <= set(words["executable_extensions"])


def test_the_extension_reads_the_same_words() -> None:
    assert WORDS_GENERATED_PATH.read_text(encoding="utf-8") == render_words(), "run `make schema`"
