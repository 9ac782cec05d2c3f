"""Executables a task downloads are stopped unless the person approved them, in real Chromium with the real
extension and host. The click check asks first only when a link's URL or `download` attribute names the file; a
redirect, a server's Content-Disposition or a page script names it only once the download has begun, and then
the extension stops it (tabs/executable-guard.js): nothing lands on disk, `downloads {}` lists it interrupted
with the reason, the click's effects say so, and nobody is asked. An approved click's download completes;
ordinary files are untouched.

Each test runs twice: with the profile's download folder, where Chrome names the file and first asks the
extension (chrome.downloads.onDeterminingFilename, as in the person's browser), and with a folder set over CDP
(Browser.setDownloadBehavior), where Chrome names it without asking extensions, so the guard's backstop on the
download's changes is what stops it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.protocol.actions import ACTION_SPECS
from app.safety.confirmations import Decision
from tests.e2e.actions_helpers import in_extension, page  # noqa: F401 (fixture)
from tests.e2e.safety_helpers import Person
from tests.harness.fixture_server import DOWNLOADS


@pytest.fixture(params=["chrome_names", "cdp_names"])
def folder(request, browser, tmp_path):
    """Where the browser puts downloads; files a test downloaded into the profile's folder are removed after."""
    if request.param == "chrome_names":
        before = set(browser.download_dir.iterdir())
        yield browser.download_dir
        for path in set(browser.download_dir.iterdir()) - before:
            path.unlink()
        return
    target = tmp_path / "Downloads"
    target.mkdir()
    browser.cdp.send("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(target)})
    yield target
    browser.cdp.send("Browser.setDownloadBehavior", {"behavior": "default"})


def settled(send, name: str, timeout: float = 10.0) -> dict:
    """The task's download of `name`, once it is no longer in progress."""
    deadline = time.monotonic() + timeout
    while True:
        listed = send({"type": "downloads"})
        assert listed.ok, listed.error
        entry = next((d for d in listed.result["downloads"] if d["filename"] == name), None)
        if (entry and entry["state"] != "in_progress") or time.monotonic() > deadline:
            assert entry, listed.result
            return entry
        time.sleep(0.1)


def assert_stopped(entry: dict) -> None:
    assert entry["state"] == "interrupted" and entry.get("stopped") is True, entry
    assert entry["executable"] is True and entry["error"].startswith("stopped by bua"), entry
    assert "download it themselves" in entry["error"], entry


def nothing_on_disk(folder: Path, name: str) -> bool:
    """No file of that name in the download folder, complete or partial, and no partial download at all."""
    return not [p.name for p in folder.iterdir() if p.name.startswith(name) or p.suffix == ".crdownload"]


def chrome_item(browser, download_id: int) -> dict:
    """What Chrome itself says of a download (as chrome://downloads shows it to the person)."""
    return in_extension(browser, f"chrome.downloads.search({{id: {download_id}}}).then(([i]) => "
                                 "({state: i.state, error: i.error || '', filename: i.filename}))")


def test_an_executable_behind_a_redirect_or_content_disposition_is_stopped(core, browser, page, folder):
    with Person(core, Decision.DENY) as person:
        send = page("downloads-hidden.html", "t-dl-stop")
        for selector, name in (("#redirect", "setup.sh"), ("#attachment", "setup.exe")):
            clicked = send({"type": "click", "selector": selector})
            assert clicked.ok, clicked.error
            download = clicked.result["effects"]["download"]
            assert download["filename"] == name, download
            assert_stopped(download)
            milestone = ACTION_SPECS["click"].done({"type": "click", "selector": selector}, clicked.result)
            assert "bua stopped the download of" in milestone, milestone
        assert person.asked == [], "nothing was predicted: nobody was asked, and the download was stopped"
    listed = {d["filename"]: d for d in send({"type": "downloads"}).result["downloads"]}
    assert set(listed) == {"setup.sh", "setup.exe"}
    for entry in listed.values():
        assert_stopped(entry)
        assert entry["path"] == ""
        if folder == browser.download_dir:
            # Held in onDeterminingFilename: cancelled before Chrome gave the file a name, let alone completed it.
            assert chrome_item(browser, entry["id"]) == {"state": "interrupted", "error": "USER_CANCELED",
                                                         "filename": ""}
    assert nothing_on_disk(folder, "setup.sh") and nothing_on_disk(folder, "setup.exe"), list(folder.iterdir())
    refused = send({"type": "read_download", "id": listed["setup.exe"]["id"]})
    assert not refused.ok and "stopped by bua" in refused.error.message
    assert "needs_user" in refused.error.message


def test_an_executable_a_page_script_downloads_is_stopped(core, page, folder):
    with Person(core, Decision.DENY) as person:
        send = page("downloads-hidden.html", "t-dl-stop-script")
        assert send({"type": "click", "selector": "#scripted"}).ok
        assert_stopped(settled(send, "setup.sh"))
        assert person.asked == []
    assert nothing_on_disk(folder, "setup.sh"), list(folder.iterdir())


def test_an_approved_executable_download_completes_once(core, page, folder):
    with Person(core, Decision.ALLOW_ONCE) as person:
        send = page("downloads.html", "t-dl-approved")
        clicked = send({"type": "click", "selector": "#script"})
        assert clicked.ok, clicked.error
        assert [a["reason"] for a in person.asked] == ["it downloads an executable (setup.sh)"]
        download = clicked.result["effects"]["download"]
        assert download["state"] == "complete" and "stopped" not in download, download
        assert download["executable"] is True
        milestone = ACTION_SPECS["click"].done({"type": "click", "selector": "#script"}, clicked.result)
        assert milestone.endswith("downloaded setup.sh"), milestone
    assert (folder / "setup.sh").read_bytes() == DOWNLOADS["setup.sh"][1]
    # The approval covered that click's download only: one the URL does not name is stopped as ever.
    send = page("downloads-hidden.html", "t-dl-approved")
    assert_stopped(send({"type": "click", "selector": "#attachment"}).result["effects"]["download"])
    assert nothing_on_disk(folder, "setup.exe")


def test_ordinary_files_behind_a_url_that_names_none_download(page, folder):
    send = page("downloads-hidden.html", "t-dl-plain")
    download = send({"type": "click", "selector": "#csv"}).result["effects"]["download"]
    assert download["filename"] == "people.csv" and download["state"] == "complete", download
    assert "executable" not in download and "stopped" not in download
    assert (folder / "people.csv").read_bytes() == DOWNLOADS["people.csv"][1]
