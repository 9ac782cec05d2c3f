"""The app's part of the file actions, around the request to the extension (which cannot see the disk):
`upload` paths are checked against the folders the person allowed and resolved before the request goes out;
`read_download`'s answer (where the task's download is on disk) becomes the file's text."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Callable

from app.files.policy import allowed_folders, check_uploads
from app.files.text import fit, read_text
from app.protocol.envelope import Response
from app.protocol.errors import ActionFailed

DEFAULT_READ_CHARS = 24_000
"""read_download's budget when max_chars is left out: extract's default."""


class FileHooks:
    def __init__(self, folders: Callable[[], object] = lambda: []) -> None:
        """`folders` reads the stored setting (blocking: it runs off the loop); none allowed by default."""
        self._folders = folders

    async def before(self, action: Any) -> Any:
        """The action to send (an upload's paths resolved), or a failure Response; others pass unchanged."""
        if not isinstance(action, dict) or action.get("type") != "upload":
            return action
        paths = action.get("paths")
        if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
            return action  # the declaration's validation answers this one
        try:
            folders = allowed_folders(await asyncio.to_thread(self._folders))
            resolved = await asyncio.to_thread(check_uploads, paths, folders)
        except ActionFailed as err:
            return Response.failure("r0", err.code, err.message)
        return {**action, "paths": resolved}

    async def after(self, action: Any, response: Response) -> Response:
        """read_download: the extension said where the file is; answer with its text instead."""
        if not isinstance(action, dict) or action.get("type") != "read_download" or not response.ok:
            return response
        found = response.result if isinstance(response.result, dict) else {}
        given = action.get("max_chars")
        max_chars = given if isinstance(given, int) else DEFAULT_READ_CHARS
        path = Path(str(found.get("path", "")))
        try:
            read = await asyncio.to_thread(read_text, path, str(found.get("mime", "")), max_chars)
        except ActionFailed as err:
            return Response.failure(response.id, err.code, err.message)
        shown = {k: v for k, v in found.items() if k in ("id", "filename", "mime", "size")}
        return Response(id=response.id, ok=True, result=fit({**shown, **read}, max_chars))
