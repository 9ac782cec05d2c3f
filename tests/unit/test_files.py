"""The app's file rules: which files may be uploaded (allowed folders, symlinks and `..` resolved, size cap), and
the text of downloaded files for read_download (text, HTML, the text layer of a PDF, the budget)."""

from __future__ import annotations

import asyncio
import json
import os

import pytest

from app.bridge.file_hooks import FileHooks
from app.files.policy import MAX_UPLOAD_BYTES, allowed_folders, check_uploads
from app.files.text import fit, kind_of, read_text
from app.protocol.actions import parse_action
from app.protocol.envelope import Response
from app.protocol.errors import ActionFailed
from tests.harness.tiny_pdf import tiny_pdf


@pytest.fixture
def tree(tmp_path):
    allowed = tmp_path / "allowed"
    (allowed / "deep").mkdir(parents=True)
    (allowed / "deep" / "a.txt").write_text("a")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "b.txt").write_text("b")
    (allowed / "escape").symlink_to(outside)
    return allowed, outside


def refused(paths, folders) -> ActionFailed:
    with pytest.raises(ActionFailed) as err:
        check_uploads(paths, folders)
    return err.value


def test_files_under_an_allowed_folder_pass_resolved(tree):
    allowed, _ = tree
    assert check_uploads([str(allowed / "deep" / ".." / "deep" / "a.txt")], [allowed]) == [str(allowed / "deep" / "a.txt")]


def test_outside_through_a_link_or_dotdot_or_with_none_allowed_is_file_not_allowed(tree):
    allowed, outside = tree
    for path in (outside / "b.txt", allowed / "escape" / "b.txt", allowed / ".." / "outside" / "b.txt"):
        err = refused([str(path)], [allowed])
        assert err.code == "file_not_allowed" and f"allow {outside} in Settings → Files" in err.message
    none = refused([str(allowed / "deep" / "a.txt")], [])
    assert none.code == "file_not_allowed" and "no folder is allowed" in none.message
    assert f"allow {allowed / 'deep'}" in none.message


def test_relative_missing_and_oversized_files_say_what_to_do(tree):
    allowed, _ = tree
    assert refused(["deep/a.txt"], [allowed]).code == "invalid_action"
    assert "no file at" in refused([str(allowed / "nope.txt")], [allowed]).message
    big = allowed / "big.bin"
    with big.open("wb") as f:
        f.truncate(MAX_UPLOAD_BYTES + 1)
    err = refused([str(big)], [allowed])
    assert err.code == "payload_too_large" and "50 MB" in err.message


def test_the_stored_setting_is_read_defensively(tmp_path):
    assert allowed_folders(None) == [] and allowed_folders("x") == []
    assert allowed_folders([str(tmp_path), 3, ""]) == [tmp_path.resolve()]


def test_text_like_files_html_as_text_and_pdf_text_layer(tmp_path):
    csv = tmp_path / "people.csv"
    csv.write_text("name,email\nAda,ada@example.org\n")
    assert read_text(csv, "text/csv", 1000) == {"text": "name,email\nAda,ada@example.org\n"}
    page = tmp_path / "page.html"
    page.write_text("<html><head><style>p{}</style><script>x()</script></head><body><h1>Title</h1>"
                    "<p>One &amp; two</p><table><tr><td>a</td><td>b</td></tr></table></body></html>")
    assert read_text(page, "", 1000)["text"] == "Title\nOne & two\na b"
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(tiny_pdf(["Quarterly report", "Revenue (EUR): 1,234"]))
    read = read_text(pdf, "application/pdf", 1000)
    assert read["pages"] == 1 and "Quarterly report" in read["text"] and "Revenue (EUR): 1,234" in read["text"]
    exe = tmp_path / "setup.exe"
    exe.write_bytes(b"MZ")
    err = pytest.raises(ActionFailed, read_text, exe, "application/x-msdownload", 1000).value
    assert err.code == "invalid_action" and "not a text-like file" in err.message
    assert kind_of(tmp_path / "x.bin", "application/json") == "text"


def test_a_broken_pdf_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.4 not really")
    err = pytest.raises(ActionFailed, read_text, bad, "application/pdf", 1000).value
    assert err.code == "invalid_action" and "could not be read as a PDF" in err.message


def test_the_whole_answer_stays_within_max_chars():
    result = fit({"id": 3, "filename": "a.txt", "text": 'quote " and \\ ' * 500}, 1_000)
    assert len(json.dumps(result, ensure_ascii=False)) <= 1_000
    assert result["truncated"] is True and result["chars"] == 7_000 and "cut at" in result["note"]
    small = fit({"text": "short"}, 1_000)
    assert small == {"text": "short", "chars": 5}


def test_the_hooks_check_uploads_before_and_read_downloads_after(tree, tmp_path):
    allowed, outside = tree
    hooks = FileHooks(lambda: [str(allowed)])
    ok = asyncio.run(hooks.before(parse_action({"type": "upload", "uid": "e1",
                                                "paths": [str(allowed / "deep" / "a.txt")]})))
    assert not isinstance(ok, Response) and ok.paths == [str(allowed / "deep" / "a.txt")]  # type: ignore[attr-defined]
    no = asyncio.run(hooks.before(parse_action({"type": "upload", "uid": "e1", "paths": [str(outside / "b.txt")]})))
    assert isinstance(no, Response) and no.error.code == "file_not_allowed"
    other = parse_action({"type": "click", "uid": "e1"})
    assert asyncio.run(hooks.before(other)) is other
    note = tmp_path / "n.md"
    note.write_text("# hi")
    found = Response(id="r1", ok=True, result={"id": 4, "filename": "n.md", "path": str(note), "mime": "text/markdown",
                                               "size": 4, "state": "complete"})
    read = asyncio.run(hooks.after(parse_action({"type": "read_download", "id": 4}), found))
    assert read.ok and read.result == {"id": 4, "filename": "n.md", "mime": "text/markdown", "size": 4,
                                       "text": "# hi", "chars": 4}
    os.remove(note)
    gone = asyncio.run(hooks.after(parse_action({"type": "read_download", "id": 4}), found))
    assert not gone.ok and "no longer on disk" in gone.error.message
