"""The app's part of the file actions, around the request to the extension (which cannot see the disk), read from
the declarations, never an action's name: fields that carry file paths (`Carries.FILE_PATHS`, upload's `paths`)
are checked against the folders the person allowed and resolved before the request goes out; the answer of an
action that `answers_from_disk` (read_download: where the task's download is) becomes the file's text."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Callable

from app.files.policy import allowed_folders, check_uploads
from app.files.text import fit, read_text
from app.protocol.actions.carrier_paths import carrier_paths
from app.protocol.actions.extract import DEFAULT_MAX_CHARS
from app.protocol.actions.fields import ActionModel
from app.protocol.actions.spec import Carries
from app.protocol.envelope import Response
from app.protocol.errors import ActionFailed


class FileHooks:
    def __init__(self, folders: Callable[[], object] = lambda: []) -> None:
        """`folders` reads the stored setting (blocking: it runs off the loop); none allowed by default."""
        self._folders = folders

    async def before(self, action: ActionModel) -> ActionModel | Response:
        """The action to send (its declared file paths resolved), or a failure Response; others pass unchanged."""
        fields = [path for path, kind in carrier_paths(type(action)) if kind == Carries.FILE_PATHS]
        resolved: dict[str, Any] = {}
        for name in fields:  # a top-level field: the paths an action names (a nested one would be declared so)
            paths = getattr(action, name, None)
            if paths is None:
                continue
            given = paths if isinstance(paths, list) else [paths]
            try:
                folders = allowed_folders(await asyncio.to_thread(self._folders))
                checked = await asyncio.to_thread(check_uploads, given, folders)
            except ActionFailed as err:
                return Response.failure("r0", err.code, err.message)
            resolved[name] = checked if isinstance(paths, list) else checked[0]
        return action.model_copy(update=resolved) if resolved else action

    async def after(self, action: ActionModel, response: Response) -> Response:
        """An action that answers from disk: the extension said where the file is; answer with its text instead."""
        if not action.spec.answers_from_disk or not response.ok:
            return response
        found = response.result if isinstance(response.result, dict) else {}
        budget = action.spec.answer_budget
        given = getattr(action, budget, None) if budget else None
        max_chars = given if isinstance(given, int) else DEFAULT_MAX_CHARS
        path = Path(str(found.get("path", "")))
        try:
            read = await asyncio.to_thread(read_text, path, str(found.get("mime", "")), max_chars)
        except ActionFailed as err:
            return Response.failure(response.id, err.code, err.message)
        shown = {k: v for k, v in found.items() if k in ("id", "filename", "mime", "size")}
        return Response(id=response.id, ok=True, result=fit({**shown, **read}, max_chars))
