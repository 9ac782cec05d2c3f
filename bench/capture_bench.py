"""How long the pixel judgement's captures take (issue 18; extension/src/extract/pixel-judge.js), on fresh pages.

Each of a few fresh browsers opens fresh pages, each in a task's tab (the extension's minimised window, as for a person), writes a text
over a drawn canvas (page code cannot judge it, so extract asks the pixels), and extracts. Every
Page.captureScreenshot the extension sends is timed inside its service worker (chrome.debugger.sendCommand wrapped
over the bench's own CDP pipe, nothing changed in the extension), and so is the extract. A capture over 1 s is
counted as slow: the 5 s give-up (CAPTURE_MS) and its retry show as a capture of ~5,000 ms and an extract over 5 s.
Then a page with 10 texts over pictures is extracted, fresh each time.

`python -m bench.capture_bench [--pages N] [--ten N]`: prints a table, writes bench/results/*.json.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from app.browser.launch import launch_browser
from app.core.background import CoreThread
from bench.live import live_browser
from bench.report import Report, Row, percentile
from tests.e2e import redteam_matrix as rm
from tests.e2e.actions_helpers import in_extension
from tests.harness.browser import CONNECT_TIMEOUT_S
from tests.harness.cdp_pipe import CdpPipe
from tests.harness.display import x_display
from tests.harness.fixture_server import FixtureServer

WRAP = """(() => {
  if (globalThis.__captures) return true;
  globalThis.__captures = [];
  const api = chrome.debugger, send = api.sendCommand.bind(api);
  api.sendCommand = async (target, method, params) => {
    if (method !== "Page.captureScreenshot") return send(target, method, params);
    const entry = { start: performance.now(), ms: null };
    globalThis.__captures.push(entry);
    try { return await send(target, method, params); } finally { entry.ms = performance.now() - entry.start; }
  };
  return true;
})()"""
# Each capture's time, ms; one still unanswered counts as the time it has waited so far.
TAKE = """(() => { const c = globalThis.__captures || []; globalThis.__captures = [];
  return c.map((e) => e.ms ?? performance.now() - e.start); })()"""

CANVAS = ('<canvas class="paint" width="40" height="10" style="position:absolute;left:0;top:0;width:100%;'
          'height:100%"></canvas>')
PAINT = """<script>for (const c of document.querySelectorAll('canvas.paint')) { const g = c.getContext('2d');
  g.fillStyle = '#fff'; g.fillRect(0, 0, c.width, c.height); }</script>"""


def page(texts: int) -> str:
    rows = "".join(f'<div style="position:relative;background:#123;margin:2px 0">{CANVAS}<p style="position:relative;'
                   f'margin:0;padding:2px;color:#111">Over a picture CAPTEXT{i}</p></div>' for i in range(texts))
    # The texts at the viewport's foot, as in tests/e2e/test_visibility_pixel_budget.py's edge test.
    return (f"<!doctype html><body style='font:14px sans-serif;margin:8px'><div style='height:calc(100vh - "
            f"{40 + 22 * (texts - 1)}px)'>Top</div>{rows}<div style='height:400px'></div>{PAINT}</body>")


def one(core: Any, browser: Any, fixture_server: Any, task: str, texts: int) -> tuple[float, list[float], bool]:
    """A fresh page of `texts` texts over a canvas in a new task's tab, extracted: (extract s, capture ms, all kept)."""
    in_extension(browser, WRAP)
    in_extension(browser, TAKE)
    send = rm.written(core, fixture_server, task, page(texts), timeout=120)
    start = time.perf_counter()
    extracted = send({"type": "extract"})
    elapsed = time.perf_counter() - start
    captures = [float(c) for c in in_extension(browser, TAKE) or []]
    kept = extracted.ok and all(f"CAPTEXT{i}" in extracted.result["markdown"] for i in range(texts))
    rm.close_all(core, [task])
    return elapsed, captures, kept


@contextmanager
def headful_browser() -> Iterator[tuple[CoreThread, Any, Any]]:
    """(core, browser, bridge) of a headful Chromium under Xvfb with a window manager (tests/harness/display.py):
    the task's window is really minimised there, as on a person's desktop."""
    with x_display() as env, tempfile.TemporaryDirectory(prefix="bua-capture-") as tmp:
        old = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = env["DISPLAY"]
        core = CoreThread(Path(tmp) / "home")
        to_browser, from_browser, preexec = CdpPipe.child_fds()
        browser = launch_browser(core.home, headless=False, user_data_dir=Path(tmp) / "profile",
                                 extra_flags=("--remote-debugging-pipe",), pass_fds=(3, 4), preexec_fn=preexec)
        os.close(to_browser[0])
        os.close(from_browser[1])
        browser.cdp = CdpPipe(to_browser[1], from_browser[0])
        try:
            bridge = core.call(core.pool.wait_for_bridge(CONNECT_TIMEOUT_S), timeout=CONNECT_TIMEOUT_S + 5)
            yield core, browser, bridge
        finally:
            browser.stop()
            core.stop()
            if old is None:
                os.environ.pop("DISPLAY", None)
            else:
                os.environ["DISPLAY"] = old


def run(browsers: int, pages: int, ten: int, headful: bool = False) -> Report:
    report = Report()
    server = FixtureServer()
    firsts: list[float] = []
    alls: list[float] = []
    extracts: list[float] = []
    tens: list[float] = []
    lost = 0
    for b in range(browsers):
        with (headful_browser() if headful else live_browser("bua-capture-")) as (core, browser, _bridge):
            for i in range(pages):
                elapsed, captures, kept = one(core, browser, server, f"t-cap-{b}-{i}", 1)
                extracts.append(elapsed)
                alls += captures
                firsts += captures[:1]
                lost += not kept
            for i in range(ten if b == browsers - 1 else 0):
                elapsed, _captures, kept = one(core, browser, server, f"t-ten-{i}", 10)
                tens.append(elapsed)
                lost += not kept
    server.stop()
    slow = sum(c > 1000 for c in alls)
    suite = "headful" if headful else "headless"
    for name, ms in (("first capture of a fresh page", firsts), ("every capture", alls)):
        report.add(Row(suite, name, len(ms), round(percentile(ms, 50), 1), round(percentile(ms, 95), 1),
                       value=round(max(ms, default=0), 1), unit="ms max"))
    report.add(Row(suite, "captures over 1 s", len(alls), value=slow, unit="captures"))
    report.add(Row.timing(suite, "extract, 1 text over a picture (fresh page)", extracts,
                          note=f"max {max(extracts, default=0) * 1000:.0f} ms"))
    report.add(Row.timing(suite, "extract, 10 texts over pictures (fresh page)", tens,
                          note=f"max {max(tens, default=0) * 1000:.0f} ms"))
    report.add(Row(suite, "pages whose readable texts were not all kept", browsers * pages + ten, value=lost, unit="pages"))
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--browsers", type=int, default=10, help="fresh browsers, one after the other")
    parser.add_argument("--pages", type=int, default=5, help="fresh pages in each")
    parser.add_argument("--ten", type=int, default=10)
    parser.add_argument("--headful", action="store_true", help="a headful Chromium under Xvfb (its window minimised)")
    args = parser.parse_args()
    report = run(args.browsers, args.pages, args.ten, args.headful)
    print(report.render())
    print(json.dumps({"written": str(report.write())}))


if __name__ == "__main__":
    main()
