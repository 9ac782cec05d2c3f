"""Settings → Files: the folders the agent may upload from are kept in the store, loaded back, and are what the
core's upload check reads."""

from __future__ import annotations

from app.files.policy import FOLDERS_SETTING
from app.protocol.actions import parse_action
from app.protocol.envelope import Response
from tests.qt.conftest import make_core, until


def test_allowed_folders_are_saved_loaded_and_used_by_the_upload_check(make_app, home, run, memory_keyring, tmp_path):
    allowed = tmp_path / "shared"
    allowed.mkdir()
    (allowed / "cv.txt").write_text("cv")
    (tmp_path / "other.txt").write_text("no")

    async def body() -> None:
        app = await make_app(make_core(home))
        app.open_settings()
        dialog = app.settings
        await until(lambda: not dialog.loading, message="the stored settings are read")
        field = dialog.folders
        assert field.values() == [] and "cannot upload" in field.status.text()
        field.add_folder(str(allowed / "sub" / ".."))
        field.add_folder(str(allowed))
        assert field.values() == [str(allowed)], "resolved, and listed once"
        assert "may upload files from this folder" in field.status.text()
        assert await dialog.save()
        assert app.core.store.get_setting(FOLDERS_SETTING) == [str(allowed)]
        upload = parse_action({"type": "upload", "selector": "#f", "paths": [str(allowed / "cv.txt")]})
        ok = await app.core.pool.files.before(upload)
        assert ok == upload and not isinstance(ok, Response)
        refused = await app.core.pool.files.before(parse_action({"type": "upload", "selector": "#f",
                                                                 "paths": [str(tmp_path / "other.txt")]}))
        assert isinstance(refused, Response) and refused.error.code == "file_not_allowed"
        app.open_settings()
        await until(lambda: not app.settings.loading, message="the stored settings are read")
        assert app.settings.folders.values() == [str(allowed)], "the folders are loaded back"
        app.settings.folders.list.setCurrentRow(0)
        assert app.settings.folders.remove.isEnabled()
        app.settings.folders.remove.click()
        assert app.settings.folders.values() == []
        assert await app.settings.save()
        assert app.core.store.get_setting(FOLDERS_SETTING) == []
    run(body())


def test_the_folder_picker_opens_without_blocking_and_adds_what_is_chosen(make_app, home, run, memory_keyring, tmp_path):
    async def body() -> None:
        app = await make_app(make_core(home))
        app.open_settings()
        dialog = app.settings
        await until(lambda: not dialog.loading, message="the stored settings are read")
        dialog.folders.add.click()
        picker = dialog.folders._picker
        assert picker is not None and picker.isVisible()
        picker.fileSelected.emit(str(tmp_path))
        picker.close()
        assert dialog.folders.values() == [str(tmp_path.resolve())]
        dialog.reject()
    run(body())
