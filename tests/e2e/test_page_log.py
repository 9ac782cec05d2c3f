"""page_log: console messages, uncaught errors and failed or slow requests of the task's tab, through the whole
pipe, from when the session began."""

from __future__ import annotations

import time

from tests.e2e.actions_helpers import evaluate, page  # noqa: F401 (fixture)


def log(send, kind: str, **extra) -> dict:
    response = send({"type": "page_log", "kind": kind, **extra})
    assert response.ok, response.error
    return response.result


def wait_for(send, kind: str, predicate, **extra) -> dict:
    deadline = time.monotonic() + 10
    while True:
        result = log(send, kind, **extra)
        if predicate(result["entries"]) or time.monotonic() > deadline:
            return result
        time.sleep(0.2)


def test_the_first_page_load_is_logged_from_the_session_start(page):
    send = page("logs.html", "t-log-load")
    console = wait_for(send, "console", lambda es: any("deprecated widget" in e["text"] for e in es))
    texts = [e["text"] for e in console["entries"]]
    assert "page loaded {items: 3}" in texts, texts
    assert any(e["level"] == "warning" and e["text"] == "deprecated widget" for e in console["entries"])
    errors = wait_for(send, "errors", lambda es: len(es) >= 2)["entries"]
    messages = " | ".join(e["message"] for e in errors)
    assert "boom in a timer" in messages and "nobody caught this" in messages
    assert all(e["at"].startswith("http://127.0.0.1") for e in errors)
    network = wait_for(send, "network", lambda es: any("no-such-file" in e["url"] for e in es))["entries"]
    missing = next(e for e in network if "no-such-file" in e["url"])
    assert missing["outcome"] == "http_error" and missing["status"] == 404


def test_failed_and_slow_requests_and_since(page):
    send = page("logs.html", "t-log-click")
    before = wait_for(send, "network", lambda es: any("no-such-file" in e["url"] for e in es))
    assert send({"type": "click", "selector": "#go"}).ok
    refused = wait_for(send, "network", lambda es: any("refused" in e["url"] for e in es), since=before["last_seq"])
    assert all("no-such-file" not in e["url"] for e in refused["entries"]), "since leaves out what was read"
    failed = next(e for e in refused["entries"] if "refused" in e["url"])
    assert failed["outcome"] == "failed" and failed["error"].startswith("net::ERR_")
    slow = wait_for(send, "network", lambda es: any("/slow" in e["url"] and e["outcome"] == "slow" for e in es),
                    since=before["last_seq"])
    entry = next(e for e in slow["entries"] if "/slow" in e["url"])
    assert entry["outcome"] == "slow" and entry["ms"] >= 2000 and entry["method"] == "GET", entry
    console = log(send, "console", since=before["last_seq"])["entries"]
    long = next(e for e in console if e["text"].startswith("loading failed:"))
    assert long["level"] == "error" and len(long["text"]) == 500 and long["text"].endswith("…")


def test_logs_belong_to_the_tab_of_the_task(page):
    first = page("logs.html", "t-log-a")
    wait_for(first, "errors", lambda es: len(es) >= 2)
    other = page("find.html", "t-log-b")
    assert log(other, "errors")["entries"] == []
    bad = other({"type": "page_log", "kind": "everything"})
    assert not bad.ok and bad.error.code == "invalid_action" and "console" in bad.error.message
