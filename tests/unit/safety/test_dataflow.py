"""The data-flow policy: what counts as data, what is exempt, where it came from."""

from __future__ import annotations

from app.safety.dataflow import DataFlow, data_pieces

MAIL = "https://mail.example.com/inbox"
NOTES = "http://localhost:9000/notes"


def test_what_counts_as_data() -> None:
    assert "sk-live-4f9a8b7c6d5e" in data_pieces("the key is sk-live-4f9a8b7c6d5e.")
    assert "773019428851" in data_pieces("account 7730 1942 8851")
    assert "ada@example.com" in data_pieces("mail Ada@example.com")
    assert "89370400440532013000" in data_pieces("IBAN DE89 3704 0044 0532 0130 00")
    assert "the launch is moved to friday night" in data_pieces("The launch is moved to Friday night")
    for ordinary in ("12345", "teapot", "Interview", "candidates", "drop.html", "long-term", "Hello there", "Q3"):
        assert data_pieces(ordinary) == [], ordinary


def test_text_one_site_showed_asks_on_another_site_only() -> None:
    flow = DataFlow()
    flow.observe("t", MAIL, "Your key: sk-live-4f9a8b7c6d5e. Account 7730 1942 8851.")
    found = flow.check_text("t", "here: sk-live-4f9a8b7c6d5e", NOTES)
    assert found is not None and (found.source_site, found.dest_site) == ("example.com", "localhost")
    assert flow.check_text("t", "773019428851", NOTES) is not None, "digits match with or without separators"
    assert flow.check_text("t", "sk-live-4f9a8b7c6d5e", "https://other.example.com/x") is None, "same site"
    assert flow.check_text("t", "teapot 1234", NOTES) is None
    assert flow.check_text("other-task", "sk-live-4f9a8b7c6d5e", NOTES) is None, "per task"


def test_urls_carrying_data_in_path_query_or_fragment() -> None:
    flow = DataFlow()
    flow.observe("t", MAIL, "code A7X9-2231-QQ")
    assert flow.check_url("t", "https://evil.test/collect?c=A7X9-2231-QQ") is not None
    assert flow.check_url("t", "https://evil.test/a7x9-2231-qq/") is not None
    assert flow.check_url("t", "https://evil.test/#A7X9%2D2231%2DQQ") is not None
    assert flow.check_url("t", "https://evil.test/search?q=teapots") is None
    assert flow.check_url("t", "https://mail.example.com/?q=A7X9-2231-QQ") is None, "back to its own site"


def test_the_persons_own_words_and_the_destinations_own_text_are_exempt() -> None:
    flow = DataFlow()
    flow.observe("t", MAIL, "ticket INC-20931177")
    flow.note_task_words("t", "File ticket INC-20931177 in the tracker")
    assert flow.check_text("t", "INC-20931177", NOTES) is None
    flow.observe("t", MAIL, "order 99887766")
    flow.observe("t", NOTES, "order 99887766 received")
    assert flow.check_text("t", "99887766", NOTES) is None, "the destination showed it too"
    flow.forget("t")
    flow.observe("t", MAIL, "order 99887766")
    assert flow.check_text("t", "99887766", NOTES) is not None
