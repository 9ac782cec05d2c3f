"""The text of a downloaded file, for read_download: text-like files as they are (HTML as its text), PDFs as the
text layer of their pages (pypdf), cut so that the whole answer stays within the caller's budget."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from app.protocol.errors import ActionFailed, ErrorCode

TEXT_SUFFIXES = frozenset({".txt", ".text", ".csv", ".tsv", ".json", ".md", ".markdown", ".log", ".xml", ".yaml",
                           ".yml", ".ics", ".vcf", ".srt"})
HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
TEXT_MIMES = ("text/", "application/json", "application/xml", "application/x-ndjson", "application/csv")
MAX_READ_BYTES = 20 * 1024 * 1024
"""Of a text file, read at most this much (the answer is far smaller anyway)."""


def kind_of(path: Path, mime: str) -> str:
    """"pdf", "html", "text", or "" for what read_download does not read."""
    suffix = path.suffix.lower()
    if suffix == ".pdf" or mime == "application/pdf":
        return "pdf"
    if suffix in HTML_SUFFIXES or mime in ("text/html", "application/xhtml+xml"):
        return "html"
    if suffix in TEXT_SUFFIXES or mime.startswith(TEXT_MIMES):
        return "text"
    return ""


class _Text(HTMLParser):
    """The readable text of an HTML document: scripts and styles left out, blocks on their own lines."""

    BLOCKS = frozenset({"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article",
                        "table", "ul", "ol", "pre", "blockquote", "header", "footer", "title"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, _attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "noscript", "template"):
            self._skip += 1
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "noscript", "template"):
            self._skip = max(0, self._skip - 1)
        elif tag in self.BLOCKS or tag in ("td", "th"):
            self.parts.append("\n" if tag in self.BLOCKS else "\t")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)

    def text(self) -> str:
        lines = (" ".join(line.split()) for line in "".join(self.parts).splitlines())
        return "\n".join(line for line in lines if line)


def _decode(data: bytes) -> str:
    for encoding in ("utf-8-sig", "utf-16") if data[:2] in (b"\xff\xfe", b"\xfe\xff") else ("utf-8-sig",):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _pdf_text(path: Path, max_chars: int) -> tuple[str, int]:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(path)
        pages: list[str] = []
        total = 0
        for number, page in enumerate(reader.pages, 1):
            text = page.extract_text() or ""
            pages.append(f"[page {number}]\n{text.strip()}")
            total += len(pages[-1])
            if total > max_chars:
                break
        return "\n\n".join(pages), len(reader.pages)
    except (PdfReadError, ValueError, KeyError, OSError) as err:
        raise ActionFailed(ErrorCode.INVALID_ACTION, f"{path.name} could not be read as a PDF ({err})") from None


def read_text(path: Path, mime: str, max_chars: int) -> dict[str, Any]:
    """{text, pages?} of the file, or ActionFailed when it is not text-like or cannot be read."""
    kind = kind_of(path, mime)
    if not kind:
        raise ActionFailed(ErrorCode.INVALID_ACTION,
                           f"{path.name} ({mime or 'unknown type'}) is not a text-like file; read_download reads txt, "
                           "csv, json, md, html, xml and the text layer of PDFs")
    if not path.is_file():
        raise ActionFailed(ErrorCode.INVALID_ACTION, f"{path.name} is no longer on disk (moved or deleted)")
    if kind == "pdf":
        text, pages = _pdf_text(path, max_chars)
        out: dict[str, Any] = {"text": text, "pages": pages}
        if not text.replace("[page", "").strip(" \n]0123456789"):
            out["note"] = "the PDF has no text layer (a scan?): open it in a tab and take a screenshot to read it"
        return out
    with path.open("rb") as f:
        data = f.read(MAX_READ_BYTES)
    text = _decode(data)
    if kind == "html":
        parser = _Text()
        parser.feed(text)
        text = parser.text()
    return {"text": text}


def fit(result: dict[str, Any], max_chars: int) -> dict[str, Any]:
    """Cut result["text"] so that the serialised result is at most max_chars, saying so (`truncated`, `chars`)."""
    text = str(result.get("text", ""))
    whole = len(text)
    out = dict(result, chars=whole)
    for _ in range(8):
        if len(json.dumps(out, ensure_ascii=False)) <= max_chars:
            return out
        over = len(json.dumps(out, ensure_ascii=False)) - max_chars
        text = text[:max(0, len(text) - over - 40)]
        out = dict(result, text=text + "…", chars=whole, truncated=True,
                   note=f"cut at {len(text)} of {whole} characters (max_chars {max_chars}); the rest is not shown")
    return out
