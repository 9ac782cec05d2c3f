"""extract on real saved web pages (a directory named by BUA_CORPUS, e.g. Mozilla Readability's 130 test pages)
beside Playwright's aria snapshot of the same pages in the same Chromium binary.

Per page, through the whole pipe (navigate, then extract at the default budget and at max_chars=200,000): the size
of what the model receives (the browser tool's result as app.agent.results renders it for the model: page text
marked inside the task's boundary, serialised JSON), the aria snapshot's size, and the recall of the article's
words (Readability's expected.html; bench/corpus_pages.py says how) in bua's full-budget output and in the aria
snapshot. Nothing leaves the machine: see bench/corpus_pages.py.

Goal (issue 12, "at equal information"): the full-budget result at most 0.5x the aria snapshot, as the median over
all pages and on each long article. Per-page data: bench/results/corpus-pages-latest.json; each page's full-budget
result and aria snapshot: $BUA_CORPUS_OUT (default bench/results/corpus/) as <name>.bua.json / <name>.aria.txt.
Without BUA_CORPUS the suite prints one skip row saying how to get a corpus.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from app.agent.page_text.boundary import token_for
from app.agent.page_text.flagger import FLAG
from app.agent.page_text.region import read_view
from app.agent.results import render_tool_result
from app.agent.tools.base import ToolOutput
from app.browser.launch import find_binary, launch_browser
from app.core.background import CoreThread
from bench import corpus_pages as cp
from bench.report import RESULTS, Report, Row
from tests.harness.actions import pool_request

SUITE = "corpus"
FULL = 200_000
PAGE_TIMEOUT_S = 30
LONG = ("wikipedia", "wikipedia-2", "wikipedia-3", "wikipedia-4", "ietf-1", "mathjax", "google-sre-book-1")
LONG_ARIA_CHARS = 50_000
REAL_ARIA_CHARS = 5_000
RATIO_LIMIT = 0.5


@dataclass
class Page:
    name: str
    html_chars: int
    aria_chars: int | None = None
    bua_default_chars: int | None = None
    bua_full_chars: int | None = None
    default_truncated: bool = False
    full_truncated: bool = False
    markdown_chars: int | None = None
    elements_chars: int | None = None
    text_chars: int | None = None
    element_lines: int | None = None
    recall_bua: float | None = None
    recall_aria: float | None = None
    shingles_bua: float | None = None
    shingles_aria: float | None = None
    article_chars: int | None = None
    """The article's text alone (whitespace collapsed): with aria_chars, the least any reader can send."""
    bua_s: float | None = None
    aria_s: float | None = None
    flagged: list[str] = field(default_factory=list)
    """Lines of the full-budget result the injection flagger marked (false positives: these are ordinary pages)."""
    forgeries: int = 0
    """Forgeries (boundary or tool-result look-alikes) defused in it."""
    error: str = ""

    @property
    def ratio(self) -> float | None:
        if self.bua_full_chars is None or not self.aria_chars:
            return None
        return round(self.bua_full_chars / self.aria_chars, 3)

    @property
    def floor(self) -> float | None:
        """The article's text alone over the aria snapshot: below this no reader can go at equal information."""
        if self.article_chars is None or not self.aria_chars:
            return None
        return round(self.article_chars / self.aria_chars, 3)


def model_sees(result: dict[str, Any], task: str) -> str:
    """The text block the model receives for this extract (app.agent.results, with the page-data boundary)."""
    output = ToolOutput({"ok": True, "action": "extract", "result": result}, boundary=token_for(task))
    return render_tool_result("bench", output)["content"][0]["text"]


def out_dir() -> Path:
    path = Path(os.environ.get(cp.OUT_ENV) or RESULTS / "corpus")
    path.mkdir(parents=True, exist_ok=True)
    return path


def run(report: Report, fixture_url: str) -> None:
    root = cp.corpus_dir()
    if root is None or not root.is_dir():
        why = "no corpus" if root is None else f"{root} is not a directory"
        report.add(Row(SUITE, "skipped: no saved-page corpus", 0, note=f"{why}: {cp.HOW_TO_GET}"))
        return
    names = cp.page_names(root)
    pages = {n: Page(n, len((root / n / "source.html").read_text(encoding="utf-8", errors="replace")))
             for n in names}
    out = out_dir()
    server = cp.CorpusServer(root)
    try:
        bua_probe = measure_bua(server, pages, out)
        bua_isolated = server.isolated() if bua_probe else "probe not loaded"
        server.hits.clear()
        aria_probe = measure_aria(server, pages, out)
        aria_isolated = server.isolated() if aria_probe else "probe not loaded"
    finally:
        server.stop()
    for name in names:
        page = pages[name]
        text = cp.article_text(root / name)
        article = cp.words(text) if text is not None else None
        shingles = cp.shingles(text) if text is not None else None
        page.article_chars = len(text) if text is not None else None
        bua_file, aria_file = out / f"{name}.bua.json", out / f"{name}.aria.txt"
        if bua_file.exists() and page.bua_full_chars is not None:
            full = json.loads(bua_file.read_text())
            page.recall_bua = cp.recall(article, cp.bua_text(full))
            page.shingles_bua = cp.shingle_recall(shingles, cp.bua_plain(full))
        if aria_file.exists() and page.aria_chars is not None:
            snapshot = aria_file.read_text()
            page.recall_aria = cp.recall(article, snapshot, aria=True)
            page.shingles_aria = cp.shingle_recall(shingles, cp.aria_plain(snapshot))
    summarise(report, list(pages.values()), bua_isolated, aria_isolated)
    write_pages(list(pages.values()))


def measure_bua(server: cp.CorpusServer, pages: dict[str, Page], out: Path) -> bool:
    """Every page through bua's pipe; whether the isolation probe loaded."""
    with tempfile.TemporaryDirectory(prefix="bua-bench-corpus-") as tmp:
        core = CoreThread(Path(tmp) / "home")
        browser = launch_browser(core.home, headless=True, user_data_dir=Path(tmp) / "profile",
                                 extra_flags=cp.ISOLATION_FLAGS)
        try:
            bridge = core.call(core.pool.wait_for_bridge(45), timeout=50)

            def act(action: dict[str, Any], task: str) -> dict[str, Any]:
                response = core.call(pool_request(bridge, action, task, timeout=PAGE_TIMEOUT_S + 10),
                                     timeout=PAGE_TIMEOUT_S + 15)
                if not response.ok:
                    raise RuntimeError(f"{action['type']}: {response.error.code}: {response.error.message}"
                                       if response.error else f"{action['type']} failed")
                return response.result

            try:
                probe = act({"type": "navigate", "url": server.url(cp.PROBE)}, "bench-corpus-probe")
                act({"type": "close_tab", "tab_id": probe["tab_id"]}, "bench-corpus-probe")
                probed = True
            except Exception:
                probed = False
            # A task and a tab per page: uids count up per tab and are never reused, so one tab for all pages
            # would give the later pages longer uids (e12345) than a model meets on a fresh tab.
            for i, page in enumerate(pages.values()):
                task, on_tab = f"bench-corpus-{i}", {}
                started = time.perf_counter()
                try:
                    nav = act({"type": "navigate", "url": server.page_url(page.name),
                               "timeout_ms": PAGE_TIMEOUT_S * 1000}, task)
                    on_tab = {"tab_id": nav["tab_id"]}
                    default = act({"type": "extract", **on_tab}, task)
                    full = act({"type": "extract", "max_chars": FULL, **on_tab}, task)
                    page.bua_s = round(time.perf_counter() - started, 2)
                    record_bua(page, task, default, full, out)
                except Exception as err:  # one page's failure is its row, not the suite's end
                    page.error = f"bua: {err}"
                if on_tab:
                    try:
                        act({"type": "close_tab", **on_tab}, task)
                    except Exception:  # a tab left open costs memory, not the measure
                        pass
        finally:
            browser.stop()
            core.stop()
    return probed


def record_bua(page: Page, task: str, default: dict[str, Any], full: dict[str, Any], out: Path) -> None:
    page.bua_default_chars = len(model_sees(default, task))
    seen = model_sees(full, task)
    page.bua_full_chars = len(seen)
    view = read_view(seen).get("result", {})
    page.flagged = [line.split(FLAG, 1)[1][:100] for key in ("markdown", "elements", "text")
                    for line in str(view.get(key, "")).split("\n") if FLAG in line]
    page.forgeries = int(view.get("page_safety", {}).get("neutralised_forgeries", 0))
    page.default_truncated = "truncated" in str(default.get("note", ""))
    page.full_truncated = "truncated" in str(full.get("note", ""))
    page.markdown_chars = len(full.get("markdown") or "")
    page.elements_chars = len(full.get("elements") or "")
    page.text_chars = len(full.get("text") or "")
    page.element_lines = len((full.get("elements") or "").splitlines())
    (out / f"{page.name}.bua.json").write_text(json.dumps(full, ensure_ascii=False, indent=1))
    (out / f"{page.name}.bua.md").write_text(f"{full.get('markdown', '')}\n\n----- elements\n{full.get('elements', '')}"
                                             f"\n\n----- text\n{full.get('text', '')}\n\n----- note\n"
                                             f"{full.get('note', '')}\n")


def measure_aria(server: cp.CorpusServer, pages: dict[str, Page], out: Path) -> bool:
    """Playwright's `locator("body").aria_snapshot()` of every page; whether the isolation probe loaded."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_binary(),
                                     args=["--no-sandbox", "--headless=new", *cp.ISOLATION_FLAGS])
        try:
            page_ = browser.new_page()
            try:
                page_.goto(server.url(cp.PROBE), timeout=PAGE_TIMEOUT_S * 1000)
                probed = True
            except PlaywrightError:
                probed = False
            for page in pages.values():
                started = time.perf_counter()
                try:
                    try:
                        page_.goto(server.page_url(page.name), timeout=PAGE_TIMEOUT_S * 1000)
                    except PlaywrightError as err:
                        if "Timeout" not in str(err):
                            raise
                    snapshot = page_.locator("body").aria_snapshot(timeout=PAGE_TIMEOUT_S * 1000)
                except PlaywrightError as err:
                    page.error = (page.error + "; " if page.error else "") + f"aria: {str(err).splitlines()[0]}"
                    page_.close()
                    page_ = browser.new_page()
                    continue
                page.aria_s = round(time.perf_counter() - started, 2)
                page.aria_chars = len(snapshot)
                (out / f"{page.name}.aria.txt").write_text(snapshot)
        finally:
            browser.close()
    return probed


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 3) if values else None


def summarise(report: Report, pages: list[Page], bua_isolated: str, aria_isolated: str) -> None:
    for label, problem in (("bua's browser", bua_isolated), ("Playwright's browser", aria_isolated)):
        report.add(Row(SUITE, f"network isolated ({label})", 1, value="no" if problem else "yes",
                       note=problem or "only 127.0.0.1 reached; `localhost` and other names never resolved"))
    measured = [p for p in pages if p.ratio is not None]
    for p in sorted(pages, key=lambda p: -(p.ratio if p.ratio is not None else float("inf"))):
        if p.ratio is None:
            empty = p.aria_chars == 0 and not p.error
            report.add(Row(SUITE, p.name, 1, value="aria empty" if empty else "error",
                           note=f"bua {p.bua_full_chars} chars" if empty else p.error))
            continue
        cut = " (full cut)" if p.full_truncated else ""
        report.add(Row(SUITE, f"{p.name}: full / aria", 1, value=p.ratio, unit="x",
                       note=f"html {p.html_chars:,}, aria {p.aria_chars:,}, bua {p.bua_default_chars:,} default / "
                            f"{p.bua_full_chars:,} full{cut}; recall bua {p.recall_bua} aria {p.recall_aria}; "
                            f"3-shingles bua {p.shingles_bua} aria {p.shingles_aria}; article alone {p.floor}x"))
    median_all = _median([p.ratio for p in measured if p.ratio is not None])
    real = [p.ratio for p in measured if p.ratio is not None and (p.aria_chars or 0) >= REAL_ARIA_CHARS]
    default_ratios = [p.bua_default_chars / p.aria_chars for p in measured if p.bua_default_chars and p.aria_chars]
    report.add(Row(SUITE, "median full budget / aria, all pages", len(measured), value=median_all, unit="x"))
    read = [p for p in pages if p.bua_full_chars is not None]
    flagged = [f"{p.name}: {line}" for p in read for line in p.flagged]
    report.add(Row(SUITE, "injection flagger: lines flagged on these ordinary pages", len(read), value=len(flagged),
                   note=f"forgeries defused on {sum(1 for p in read if p.forgeries)} pages"))
    for line in flagged[:10]:
        report.add(Row(SUITE, f"  flagged: {line}", 1, value="FP"))
    report.goal("injection flagger false positives on the saved-page corpus", len(flagged), 0, "lines")
    report.add(Row(SUITE, f"median full budget / aria, aria >= {REAL_ARIA_CHARS:,} chars", len(real),
                   value=_median(real), unit="x", note="without the small synthetic test pages, where the result's "
                                                        "fixed envelope (url, title, keys, boundary) dominates"))
    report.add(Row(SUITE, "median default budget / aria, all pages", len(default_ratios),
                   value=_median(default_ratios), unit="x"))
    long_pages = [p for p in measured if p.name in LONG or (p.aria_chars or 0) > LONG_ARIA_CHARS]
    report.add(Row(SUITE, "median full budget / aria, long articles", len(long_pages),
                   value=_median([p.ratio for p in long_pages if p.ratio is not None]), unit="x",
                   note=", ".join(p.name for p in long_pages)))
    recalls = [(p.recall_bua, p.recall_aria) for p in measured if p.recall_bua is not None and p.recall_aria is not None]
    report.add(Row(SUITE, "median recall of the article's words, bua full", len(recalls),
                   value=_median([b for b, _ in recalls]),
                   note=f"aria {_median([a for _, a in recalls])}; bua lower on "
                        f"{sum(1 for b, a in recalls if b < a - 0.02)} pages, aria lower on "
                        f"{sum(1 for b, a in recalls if a < b - 0.02)} (by > 0.02)"))
    shingles = [(p.shingles_bua, p.shingles_aria) for p in measured
                if p.shingles_bua is not None and p.shingles_aria is not None]
    report.add(Row(SUITE, "median recall of the article's 3-shingles, bua full", len(shingles),
                   value=_median([b for b, _ in shingles]),
                   note=f"aria {_median([a for _, a in shingles])}; bua lower on "
                        f"{sum(1 for b, a in shingles if b < a - 0.02)} pages, aria lower on "
                        f"{sum(1 for b, a in shingles if a < b - 0.02)} (by > 0.02)"))
    floors = [p for p in measured if p.floor is not None and (p.aria_chars or 0) >= REAL_ARIA_CHARS]
    report.add(Row(SUITE, f"article text alone > {RATIO_LIMIT}x aria (aria >= {REAL_ARIA_CHARS:,})", len(floors),
                   value=sum(1 for p in floors if (p.floor or 0) > RATIO_LIMIT), unit="pages",
                   note=f"median article alone {_median([p.floor for p in floors if p.floor is not None])}x aria: "
                        "there the goal cannot be met without losing text"))
    report.add(Row(SUITE, "default result over 24,000 chars", len(measured),
                   value=sum(1 for p in measured if (p.bua_default_chars or 0) > 24_000), unit="pages"))
    report.add(Row(SUITE, "full budget cut (note says truncated)", len(measured),
                   value=sum(1 for p in measured if p.full_truncated), unit="pages",
                   note=", ".join(p.name for p in measured if p.full_truncated)))
    report.add(Row(SUITE, "pages that failed", len(pages), value=sum(1 for p in pages if p.error), unit="pages",
                   note="; ".join(f"{p.name}: {p.error}" for p in pages if p.error)[:500]))
    report.add(Row(SUITE, "pages whose aria snapshot is empty", len(pages),
                   value=sum(1 for p in pages if p.aria_chars == 0), unit="pages",
                   note=", ".join(p.name for p in pages if p.aria_chars == 0)))
    if median_all is not None:
        report.goal(f"at equal information (max_chars={FULL:,}) <= {RATIO_LIMIT}x aria, median of "
                    f"{len(measured)} saved pages", median_all, RATIO_LIMIT, "x")
    for p in long_pages:
        report.goal(f"at equal information <= {RATIO_LIMIT}x aria, {p.name}", p.ratio or 0.0, RATIO_LIMIT, "x")


def write_pages(pages: list[Page]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    rows = [{**asdict(p), "ratio_full_aria": p.ratio, "article_over_aria": p.floor} for p in pages]
    text = json.dumps({"when": time.strftime("%Y-%m-%dT%H:%M:%S"), "pages": rows}, indent=1)
    path = RESULTS / f"corpus-pages-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.write_text(text)
    (RESULTS / "corpus-pages-latest.json").write_text(text)
    return path
