"""The saved-page corpus for `python -m bench corpus`: finding it, serving it on loopback only, and the
information measure (how much of the article a reader's output carries).

Serving: each `<name>/source.html` as it was saved, from 127.0.0.1, with a Content-Security-Policy that allows only
the page's own origin, inline code and data: URLs. Both browsers also get ISOLATION_FLAGS, which make every host
name except 127.0.0.1 fail to resolve without asking DNS, so a saved page's CDNs, images and trackers are never
fetched. `/__probe__` (no CSP) checks that: its `localhost` image would reach this server if names were resolved.

Information: the article is Readability's `expected.html` for the page. Its words are the lowercased runs of
letters and digits of its text (each CJK character a word of its own, as those scripts have no spaces). Recall is
the share of the article's word occurrences that the output also contains, counted as multisets (a word the article
has 3 times counts 3 times only if the output has it 3 times): order-free, so it does not punish either format for
its markup between words (bua's `[text](e12)`, the aria snapshot's `- link "text"`), and it falls where text is
missing (a dropped formula, list or table). Uid tokens (`e12`) and the aria snapshot's `/url:` lines are left out
of the outputs first: they address things, they do not say what the page says.

A second, order-aware measure: the share of the article's distinct 3-word shingles found in the output, after each
format's own syntax is taken out (bua: `](e12)` link targets and the index's `e12 role` line heads; aria: the
`- role "name" [attrs]:` line heads and `/url:` lines), so a shingle survives a link in the middle of a sentence
in both. It falls where words survive but their order or adjacency does not (text merged across cells, a formula
as a bag of symbols).
"""

from __future__ import annotations

import os
import re
import threading
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

from app.demo.site_server import QuietHandler, StaticServer

ENV = "BUA_CORPUS"
OUT_ENV = "BUA_CORPUS_OUT"
CSP = "default-src 'self' 'unsafe-inline' data:"
ISOLATION_FLAGS = ("--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",)
PROBE = "/__probe__"
HOW_TO_GET = (f"set {ENV} to a directory of <name>/source.html pages (with <name>/expected.html for recall), e.g. "
              "Mozilla Readability's test/test-pages (github.com/mozilla/readability)")

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
_WORD = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+")
_UID = re.compile(r"^e\d+$")
_ARIA_URL = re.compile(r"^\s*- /url: .*$", re.MULTILINE)
_ARIA_LINE = re.compile(r'^\s*- (?:/[\w-]+: .*|[\w-]+(?: "((?:[^"\\]|\\.)*)")?(?: \[[^\]]*\])*:? ?(.*))$')
_ELEMENT_HEAD = re.compile(r"^(?:e\d+ )+[\w-]+ ?")
_UID_REF = re.compile(r"\]\(e\d+\)|\[e\d+\]")
SHINGLE = 3


def corpus_dir() -> Path | None:
    value = os.environ.get(ENV, "").strip()
    return Path(value).expanduser() if value else None


def page_names(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if (p / "source.html").is_file())


class _Handler(QuietHandler):
    hits: Counter[str]
    lock = threading.Lock()

    def end_headers(self) -> None:
        if not self.path.startswith(PROBE):
            self.send_header("Content-Security-Policy", CSP)
        super().end_headers()

    def handle(self) -> None:
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):  # a page left before its subresource was sent
            pass

    def do_GET(self) -> None:
        with self.lock:
            self.hits[self.path.split("?")[0]] += 1
        if self.path.startswith(PROBE):
            port = str(self.headers.get("Host", "")).rpartition(":")[2]
            body = (f'<title>probe</title><p>probe page</p><img src="http://127.0.0.1:{port}/__pixel__">'
                    f'<img src="http://localhost:{port}/__resolved__"><img src="http://example.com/x.png">')
            data = body.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        elif self.path.startswith(("/__pixel__", "/__resolved__")):
            self.send_response(204)
            self.end_headers()
        else:
            super().do_GET()


class CorpusServer(StaticServer):
    """The corpus on 127.0.0.1, each response with the CSP; counts requests per path (for the probe)."""

    def __init__(self, root: Path) -> None:
        handler: type[_Handler] = type("CorpusHandler", (_Handler,), {"hits": Counter()})
        super().__init__(root, handler)
        self.hits: Counter[str] = handler.hits

    def page_url(self, name: str) -> str:
        return self.url(f"/{name}/source.html")

    def isolated(self) -> str:
        """'' when the probe's loopback image loaded and its `localhost` one never arrived, else what went wrong."""
        if not self.hits["/__pixel__"]:
            return "the probe page's 127.0.0.1 image never arrived (page not loaded?)"
        if self.hits["/__resolved__"]:
            return "a `localhost` request reached the server: --host-resolver-rules is not in force"
        return ""


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self._skip += 1
        self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template") and self._skip:
            self._skip -= 1
        self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def html_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]")
"""Format characters nobody sees (extract drops them: extension/src/extract/format-chars.js): a word is the same
word with or without a soft hyphen in it, in the article and in what is measured."""


def words(text: str) -> Counter[str]:
    return Counter(w for w in _WORD.findall(_INVISIBLE.sub("", text).lower()) if not _UID.match(w))


def article_text(page_dir: Path) -> str | None:
    """The text of the page's article (Readability's expected.html), whitespace collapsed; None without one."""
    expected = page_dir / "expected.html"
    if not expected.is_file():
        return None
    return " ".join(html_text(expected.read_text(encoding="utf-8", errors="replace")).split())


def recall(article: Counter[str] | None, output: str, *, aria: bool = False) -> float | None:
    """The share of the article's word occurrences found in the output (see the module docstring)."""
    if not article:
        return None
    found = words(_ARIA_URL.sub("", output) if aria else output)
    return round(sum(min(n, found[w]) for w, n in article.items()) / sum(article.values()), 4)


def shingles(text: str) -> set[tuple[str, ...]]:
    tokens = _WORD.findall(text.lower())
    return {tuple(tokens[i:i + SHINGLE]) for i in range(len(tokens) - SHINGLE + 1)}


def aria_plain(snapshot: str) -> str:
    """The snapshot's names and texts without its YAML syntax, role words and /url: lines."""
    lines = []
    for line in snapshot.splitlines():
        m = _ARIA_LINE.match(line)
        lines.append(f"{m.group(1) or ''} {m.group(2) or ''}" if m else line)
    return "\n".join(lines)


def bua_plain(result: dict) -> str:
    """bua_text without link targets (also on the index's region lines) and the index's `e12 role` line heads."""
    elements = "\n".join(_UID_REF.sub("]", _ELEMENT_HEAD.sub("", line))
                          for line in str(result.get("elements") or "").splitlines())
    markdown = _UID_REF.sub("]", str(result.get("markdown") or ""))
    return "\n".join([str(result.get("title") or ""), markdown, elements, str(result.get("text") or "")])


def shingle_recall(article: set[tuple[str, ...]] | None, plain: str) -> float | None:
    """The share of the article's distinct 3-word shingles found in the output (plain: aria_plain / bua_plain)."""
    if not article:
        return None
    return round(len(article & shingles(plain)) / len(article), 4)


def bua_text(result: dict) -> str:
    """Everything of an extract result a reader gets: title, markdown, element index, text fallback."""
    return "\n".join(str(result.get(k) or "") for k in ("title", "markdown", "elements", "text"))
