"""Files out: a click that downloads reports it in its effects; downloads {} lists the task's own downloads;
read_download returns the text of a CSV and of a PDF's text layer (the app reads the file); another task can
neither list nor read them. The fixture server sends the files as attachments (Content-Disposition)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.e2e.actions_helpers import page  # noqa: F401 (fixture)
from tests.harness.fixture_server import DOWNLOADS


@pytest.fixture
def download_dir(browser, tmp_path):
    """Where the person's browser puts downloads (set as a person would, in the browser: not by bua)."""
    folder = tmp_path / "Downloads"
    folder.mkdir()
    browser.cdp.send("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(folder)})
    yield folder
    browser.cdp.send("Browser.setDownloadBehavior", {"behavior": "default"})


def click_download(send, selector: str) -> dict:
    response = send({"type": "click", "selector": selector})
    assert response.ok, response.error
    return response.result["effects"]["download"]


def test_a_csv_download_is_reported_listed_and_read(page, download_dir):
    send = page("downloads.html", "t-dl-csv")
    download = click_download(send, "#csv")
    size = len(DOWNLOADS["people.csv"][1])
    assert download["filename"] == "people.csv" and download["state"] == "complete", download
    assert download["size"] == size and download["mime"] == "text/csv" and "executable" not in download
    listed = send({"type": "downloads"})
    assert listed.ok, listed.error
    [entry] = listed.result["downloads"]
    assert entry["id"] == download["id"] and Path(entry["path"]) == download_dir / "people.csv"
    assert Path(entry["path"]).read_bytes() == DOWNLOADS["people.csv"][1]
    read = send({"type": "read_download", "id": download["id"]})
    assert read.ok, read.error
    assert read.result["text"] == DOWNLOADS["people.csv"][1].decode()
    assert read.result["filename"] == "people.csv" and read.result["chars"] == size


def test_a_pdf_download_is_read_as_its_text_layer(page, download_dir):
    send = page("downloads.html", "t-dl-pdf")
    download = click_download(send, "#pdf")
    assert download["filename"] == "report.pdf" and download["mime"] == "application/pdf"
    read = send({"type": "read_download", "id": download["id"], "max_chars": 2000})
    assert read.ok, read.error
    assert read.result["pages"] == 1
    assert "Quarterly report" in read.result["text"] and "Revenue grew 12 percent" in read.result["text"]


def test_downloads_belong_to_the_task_that_caused_them(page, download_dir):
    mine = page("downloads.html", "t-dl-owner")
    download = click_download(mine, "#csv")
    other = page("find.html", "t-dl-other")
    assert other({"type": "downloads"}).result["downloads"] == []
    refused = other({"type": "read_download", "id": download["id"]})
    assert not refused.ok and refused.error.code == "invalid_action"
    assert "has downloaded nothing" in refused.error.message
    assert [d["id"] for d in mine({"type": "downloads"}).result["downloads"]] == [download["id"]]


def test_an_executable_is_marked_and_not_read_as_text(page, download_dir):
    send = page("downloads.html", "t-dl-exe")
    download = click_download(send, "#script")
    assert download["filename"] == "setup.sh" and download["executable"] is True, download
    read = send({"type": "read_download", "id": download["id"]})
    assert not read.ok and "not a text-like file" in read.error.message


def test_a_download_through_a_new_tab_is_the_task_s_by_its_referrer(page, download_dir):
    send = page("downloads.html", "t-dl-blank")
    clicked = send({"type": "click", "selector": "#blank"})
    assert clicked.ok, clicked.error
    deadline = time.monotonic() + 10
    while True:
        listed = send({"type": "downloads"}).result["downloads"]
        if (listed and listed[0]["state"] == "complete") or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert [(d["filename"], d["state"]) for d in listed] == [("people.csv", "complete")], listed
    assert send({"type": "read_download", "id": listed[0]["id"]}).result["text"].startswith("name,email")
