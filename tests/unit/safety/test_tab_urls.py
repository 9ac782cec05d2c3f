"""Where a task's tabs are (app.safety.tab_urls): the sessions table's URL and the last one a result reported,
both kept; the current tab is the one the last result named."""

from __future__ import annotations

from app.safety.tab_urls import TabUrls

MAIL, NOTES = "https://mail.example.com/inbox", "http://localhost:9000/notes"


def test_both_the_table_s_url_and_the_last_reported_one_are_candidates() -> None:
    table = {("t", 1): MAIL}
    tabs = TabUrls(lambda task, tab: table.get((task, tab)))
    assert tabs.urls_of("t", 1) == [MAIL] and tabs.urls_of("t", None) == [], "no current tab yet"
    assert tabs.note_result("t", 1, {"url": NOTES, "tab_id": 1}) == NOTES
    assert tabs.urls_of("t", 1) == [MAIL, NOTES], "the table lags the navigation: both count"
    table[("t", 1)] = NOTES
    assert tabs.urls_of("t", 1) == [NOTES], "once they agree, one"


def test_the_current_tab_is_the_one_the_last_result_named() -> None:
    tabs = TabUrls(lambda task, tab: None)
    assert tabs.note_result("t", None, {"url": MAIL, "tab_id": 4}) == MAIL
    assert tabs.url_of("t", None) == MAIL, "an action that names no tab works on tab 4"
    assert tabs.note_result("t", None, {"tabs": [], "current_tab_id": 7}) is None, "tab 7 is current, URL unknown"
    assert tabs.urls_of("t", None) == [] and tabs.url_of("t", 4) == MAIL
    assert tabs.note_result("t", 4, {"text": "no tab or url"}) == MAIL, "a result without a URL came from its tab"
    assert tabs.urls_of("other", None) == [], "per task"


def test_forget_drops_every_tab_of_the_task_only() -> None:
    tabs = TabUrls(lambda task, tab: None)
    tabs.note_result("gone", None, {"url": MAIL, "tab_id": 1})
    tabs.note_result("kept", None, {"url": NOTES, "tab_id": 1})
    tabs.forget("gone")
    assert tabs.url_of("gone", 1) is None and tabs.url_of("gone", None) is None
    assert tabs.url_of("kept", None) == NOTES
