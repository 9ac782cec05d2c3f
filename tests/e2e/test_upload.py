"""upload: files from a folder the person allowed onto a file input and a drop zone, through the whole pipe; a file
outside the allowed folders (also through a symlink or `..`) and any file with none allowed are refused in the app
with file_not_allowed naming the folder to allow."""

from __future__ import annotations

import pytest

from app.files.policy import FOLDERS_SETTING
from tests.e2e.actions_helpers import evaluate, page  # noqa: F401 (fixture)


@pytest.fixture
def files(core, tmp_path):
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (allowed / "resume.txt").write_text("Ada Lovelace, engineer")
    (allowed / "photo1.txt").write_text("first photo")
    (allowed / "photo2.txt").write_text("second photo")
    outside = tmp_path / "private"
    outside.mkdir()
    (outside / "secret.txt").write_text("do not send")
    (allowed / "link.txt").symlink_to(outside / "secret.txt")
    core.core.store.set_setting(FOLDERS_SETTING, [str(allowed)])
    yield allowed, outside
    core.core.store.set_setting(FOLDERS_SETTING, [])


def text(send, selector: str) -> str:
    return evaluate(send, f"document.querySelector('{selector}').textContent")


def test_a_file_input_gets_the_allowed_file(page, files):
    allowed, _ = files
    send = page("upload.html", "t-upload-input")
    response = send({"type": "upload", "selector": "#resume", "paths": [str(allowed / "resume.txt")]})
    assert response.ok, response.error
    assert response.result["uploaded"] == [{"name": "resume.txt", "size": 22}]
    assert response.result["how"] == "file input" and response.result["accept"] == ".txt,.pdf"
    assert text(send, "#chosen") == "resume.txt:22:Ada Lovelace, engine"
    typed = send({"type": "type", "selector": "#resume", "text": "/tmp/x"})
    assert not typed.ok and "use upload" in typed.error.message


def test_a_label_stands_for_its_hidden_multiple_input(page, files):
    allowed, _ = files
    send = page("upload.html", "t-upload-label")
    paths = [str(allowed / "photo1.txt"), str(allowed / "photo2.txt")]
    response = send({"type": "upload", "selector": "#many-label", "paths": paths})
    assert response.ok, response.error
    assert [f["name"] for f in response.result["uploaded"]] == ["photo1.txt", "photo2.txt"]
    assert text(send, "#chosen") == "photo1.txt:11:first photo|photo2.txt:12:second photo"
    single = send({"type": "upload", "selector": "#resume", "paths": paths})
    assert not single.ok and single.error.code == "invalid_action" and "one file" in single.error.message


def test_files_dropped_on_a_drop_zone(page, files):
    allowed, _ = files
    send = page("upload.html", "t-upload-drop")
    response = send({"type": "upload", "selector": "#zone", "paths": [str(allowed / "resume.txt")]})
    assert response.ok, response.error
    assert response.result["how"] == "drop" and response.result["uploaded"] == [{"name": "resume.txt"}]
    assert text(send, "#dropped") == "resume.txt:22:Ada Lovelace, engine"


def test_files_outside_the_allowed_folders_are_refused_naming_the_folder(page, files):
    allowed, outside = files
    send = page("upload.html", "t-upload-refused")
    for path in (outside / "secret.txt", allowed / "link.txt", allowed / ".." / "private" / "secret.txt"):
        response = send({"type": "upload", "selector": "#resume", "paths": [str(path)]})
        assert not response.ok and response.error.code == "file_not_allowed", response
        assert f"allow {outside}" in response.error.message and "Settings → Files" in response.error.message
    assert text(send, "#chosen") == ""
    missing = send({"type": "upload", "selector": "#resume", "paths": [str(allowed / "nope.txt")]})
    assert not missing.ok and missing.error.code == "invalid_action" and "no file" in missing.error.message


def test_with_no_folder_allowed_every_upload_is_refused(page, core, tmp_path):
    core.core.store.set_setting(FOLDERS_SETTING, [])
    (tmp_path / "a.txt").write_text("x")
    send = page("upload.html", "t-upload-none")
    response = send({"type": "upload", "selector": "#resume", "paths": [str(tmp_path / "a.txt")]})
    assert not response.ok and response.error.code == "file_not_allowed"
    assert f"no folder is allowed for uploads yet; ask the person to allow {tmp_path}" in response.error.message
