"""Serves tests/fixtures/pages on 127.0.0.1 (and, for cross-site iframes, as localhost).

Extra routes: `/slow?ms=N` answers after N ms (for pending-request tests),
`/redirect?to=URL` answers 302, `/cors/<path>` serves a page file with `Access-Control-Allow-Origin: *` (another
origin's picture a page may read), `/download/<name>` serves a file as an attachment (Content-Disposition)
from DOWNLOADS, and `/get?id=N` serves the Nth of DOWNLOADS (`download_id`) the same way, from a URL that does
not name the file.
"""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from app.demo.site_server import QuietHandler, StaticServer
from tests.harness.tiny_pdf import tiny_pdf

PAGES = Path(__file__).resolve().parents[1] / "fixtures" / "pages"
DOWNLOADS: dict[str, tuple[str, bytes]] = {
    "people.csv": ("text/csv", b"name,email\nAda Lovelace,ada@example.org\nGrace Hopper,grace@example.org\n"),
    "report.pdf": ("application/pdf", tiny_pdf(["Quarterly report", "Revenue grew 12 percent"])),
    "setup.sh": ("application/x-sh", b"#!/bin/sh\necho hi\n"),
    "setup.exe": ("application/octet-stream", b"MZ\x90\x00" + b"\x00" * 60),
}


def download_id(name: str) -> str:
    """The `/get?id=` of a file of DOWNLOADS."""
    return str(list(DOWNLOADS).index(name))


class _Handler(QuietHandler):
    cors = False

    def end_headers(self) -> None:
        if self.cors:
            self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        if parts.path.startswith("/cors/"):
            self.cors = True
            self.path = self.path.removeprefix("/cors")
            super().do_GET()
        elif parts.path == "/slow":
            time.sleep(min(int(query.get("ms", ["1000"])[0]), 30_000) / 1000)
            self._send(200, f"<title>slow</title><p>slow page {query.get('ms', ['?'])[0]} ms</p>")
        elif parts.path.startswith("/download/") and parts.path.removeprefix("/download/") in DOWNLOADS:
            self._attachment(parts.path.removeprefix("/download/"))
        elif parts.path == "/get" and query.get("id", [""])[0] in {download_id(n) for n in DOWNLOADS}:
            self._attachment(list(DOWNLOADS)[int(query["id"][0])])
        elif parts.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", query.get("to", ["/"])[0])
            self.end_headers()
        else:
            super().do_GET()

    def _attachment(self, name: str) -> None:
        mime, body = DOWNLOADS[name]
        self.send_response(200)
        self.send_header("Content-Type", mime)
        self.send_header("Content-Disposition", f'attachment; filename="{name}"')
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _send(self, status: int, html: str) -> None:
        body = html.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


class FixtureServer(StaticServer):
    def __init__(self, root: Path = PAGES) -> None:
        super().__init__(root, _Handler)
