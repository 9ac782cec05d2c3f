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


def test_numbers_match_with_or_without_separators_and_one_at_a_time() -> None:
    flow = DataFlow()
    flow.observe("t", MAIL, "Card 4111 1111 1111 1111, call +49 30 1234567 or (030) 765–4321. Row 12 | 34 | 56 7")
    for typed in ("4111111111111111", "4111-1111-1111-1111", "4111.1111.1111.1111", "49301234567",
                  "+49 (30) 123 4567", "030 1234567", "0307654321", "030/765 43 21"):
        assert flow.check_text("t", typed, NOTES) is not None, typed
    other = DataFlow()
    other.observe("t", MAIL, "card 4111111111111111, phone 49301234567")
    for typed in ("4111 1111 1111 1111", "+49 30 1234567", "4111\u00a01111\u00a01111\u00a01111"):
        assert other.check_text("t", typed, NOTES) is not None, typed
    apart = DataFlow()
    apart.observe("t", MAIL, "order 12, total 3456 items\nref 998 from 877")
    assert apart.check_text("t", "123456", NOTES) is None, "two numbers of one paragraph are not one number"
    assert apart.check_text("t", "998877", NOTES) is None


def test_text_is_compared_case_folded_and_normalised() -> None:
    flow = DataFlow()
    flow.observe("t", MAIL, "Key SK-LIVE-4F9A8B7C6D5E, street Hauptstraße-12b, note The Launch Is Moved To Friday")
    for typed in ("sk-live-4f9a8b7c6d5e", "ｓｋ－ｌｉｖｅ－４ｆ９ａ８ｂ７ｃ６ｄ５ｅ", "sk-live-4f9a\u200b8b7c6d5e",
                  "HAUPTSTRASSE-12B", "the launch is moved to friday"):
        assert flow.check_text("t", typed, NOTES) is not None, typed
    flow.note_task_words("t", "Put the launch is moved to Friday in my notes")
    assert flow.check_text("t", "THE LAUNCH IS MOVED TO FRIDAY", NOTES) is None, "the person's words, folded too"


def test_a_sentence_is_found_inside_a_longer_message_or_body_whatever_its_case_and_separators() -> None:
    flow = DataFlow()
    flow.observe("t", MAIL, "Hi Ana,\nThe vault moves to the north dock at noon. Bring the blue folder.\nBest, Bo")
    for sent in ("note=fyi&text=The+vault+moves+to+the+north+dock+at+noon.+thanks",
                 '{"msg": "see below. THE VAULT MOVES TO THE NORTH-DOCK, AT NOON! ok"}',
                 "the vault moves to the north dock at noon",
                 "fyi the vault moves to the north dock at noon so be there"):
        found = flow.check_text("t", sent.replace("+", " "), NOTES)
        assert found is not None and "the north dock" in found.piece, sent
    assert flow.check_text("t", "the vault moves to the north docks soon", NOTES) is None, "whole words only"
    assert flow.check_text("t", "Bring the blue pen and a folder", NOTES) is None


def test_a_homoglyph_or_padded_copy_of_remembered_data_is_the_same_data() -> None:
    flow = DataFlow()
    flow.observe("t", MAIL, "Your code is ZX44719920QQ; the meeting moved to Friday night at nine.")
    cyrillic = "ZХ44719920QQ".replace("Q", "Ԛ")  # Cyrillic Kha and Qa
    assert flow.check_text("t", cyrillic, NOTES) is not None
    assert flow.check_text("t", "Z\u200bX44719920\u00adQQ", NOTES) is not None, "invisible characters"
    assert flow.check_text("t", "ＺＸ４４７１９９２０ＱＱ", NOTES) is not None, "full-width letters and digits"
    assert flow.check_text("t", "thе mееting movеd to Fridаy night аt ninе", NOTES) is not None, "Cyrillic е and а"
    for written in ("4471_9920", "4,471,9920", "4471'9920", "4471*9920", "4471·9920"):
        assert flow.check_text("t", written, NOTES) is not None, written
    assert flow.check_text("t", "the meeting moved to a new room", NOTES) is None
