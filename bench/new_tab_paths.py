"""How many ordinary links the new-tab rule blocks and loads again (extension/src/safety/network-new-tabs.js), and
whether it misses what the data-flow memory could hold (app/safety/dataflow.py).

Every `<a href>` of the saved-page corpus (bench/corpus_pages.py: `BUA_CORPUS`, `<name>/source.html`) is resolved
against `https://example.org/<name>/` (the host is no data: every row has the same one) and judged three ways:
* `carriesData` of extension/src/safety/network-url-data.js (the rule's regexFilter, case-sensitive, and a held
  tab's GETs to another host), run by node on the real module;
* the rule as it was before it read letter case (a query, userinfo, six digits in a host label, a digit, @ or %
  in the path, case-insensitive), for the side-by-side fraction;
* `url_pieces` of the data-flow memory: a link it finds a piece in must be one `carriesData` says yes to (the
  rule may block more than the memory holds, never less); each miss is printed.

A link opened in a new tab by a session tab is blocked and loaded again through the hold when `carriesData` says
yes: the fraction is what that costs an ordinary page (one extra load of that tab), not a question to the person.

`python -m bench.new_tab_paths`; needs node (as the extension's tests do).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from app.safety.dataflow import url_pieces
from bench.corpus_pages import HOW_TO_GET, corpus_dir, page_names

ROOT = Path(__file__).resolve().parent.parent
BEFORE = re.compile(r"^[^#?]*[?][^#]|^[a-z][a-z0-9+.-]*://(?:[^/?#]*@|[^/?#]*[0-9](?:-?[0-9]){5}|[^/?#]*/[^?#]*[0-9@%])",
                    re.IGNORECASE)
"""The rule's regexFilter before it read letter case (git show c23f7a5:extension/src/safety/network-new-tabs.js)."""
JUDGE = """
const { carriesData } = await import(process.argv[1]);
let text = "";
for await (const chunk of process.stdin) text += chunk;
process.stdout.write(JSON.stringify(JSON.parse(text).map((url) => carriesData(url))));
"""


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href") if tag == "a" else None
        if href:
            self.hrefs.append(href.strip())


def corpus_links(root: Path) -> list[str]:
    """Every http(s) link of every page, as the browser would request it (resolved, without its fragment)."""
    links: list[str] = []
    for name in page_names(root):
        parser = _Links()
        parser.feed((root / name / "source.html").read_text(encoding="utf-8", errors="replace"))
        for href in parser.hrefs:
            url = urljoin(f"https://example.org/{name}/", href)
            parts = urlsplit(url)
            if parts.scheme in ("http", "https"):
                links.append(parts._replace(netloc=parts.netloc.lower(), fragment="").geturl())
    return links


def carries_data(urls: list[str]) -> list[bool]:
    module = (ROOT / "extension" / "src" / "safety" / "network-url-data.js").as_uri()
    out = subprocess.run(["node", "--input-type=module", "-e", JUDGE, module], input=json.dumps(urls), text=True,
                         capture_output=True, check=True)
    return [bool(v) for v in json.loads(out.stdout)]


def main() -> int:
    root = corpus_dir()
    if root is None or not root.is_dir():
        print(HOW_TO_GET, file=sys.stderr)
        return 2
    links = corpus_links(root)
    now = carries_data(links)
    before = [BEFORE.search(url) is not None for url in links]
    held = [bool(url_pieces(url)) for url in links]
    misses = [url for url, yes, data in zip(links, now, held, strict=True) if data and not yes]
    n = len(links) or 1
    print(f"links: {len(links)} in {len(page_names(root))} pages")
    print(f"blocked and loaded again, before: {sum(before)} ({sum(before) / n:.1%})")
    print(f"blocked and loaded again, now:    {sum(now)} ({sum(now) / n:.1%})")
    print(f"  of which only now: {sum(a and not b for a, b in zip(now, before, strict=True))}")
    print(f"holding a data piece of the memory: {sum(held)} ({sum(held) / n:.1%}); missed by the rule: {len(misses)}")
    for url in misses[:20]:
        print(f"  missed: {url} {url_pieces(url)}")
    only_now = [url for url, a, b in zip(links, now, before, strict=True) if a and not b]
    for url in only_now[:15]:
        print(f"  only now: {url}")
    return 0 if not misses else 1


if __name__ == "__main__":
    raise SystemExit(main())
