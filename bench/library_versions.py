"""The in-page library of two versions side by side in one run: this tree's and a git ref's (e.g. main), on the
same page in the same Chromium, alternating (so a loaded machine slows both alike).

Timed inside the page (performance.now): the walk extract makes (lib.walk at the default budget) and find by
role and name and by text (lib.search); the pipe around them (CDP, host, app) is the same for both versions. Each
version's library is installed by Playwright into the main world of its own tab, built as the extension sends it
(run-in-page.js INSTALL_SOURCE; the ref's from `git archive`). Prints p50s and their ratio to the ref's.

    python -m bench.library_versions main "http://127.0.0.1:PORT/extract/mixed.html?n=1000"
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from app.browser.launch import find_binary
from bench.visibility_cost import EXTENSION, library_source

ROOT = EXTENSION.parent
CALLS = {
    "walk": "() => globalThis.__bua.walk({limit: 24000})",
    "find role+name": '() => globalThis.__bua.search({role: "button", name: "Filter", limit: 20})',
    "find text": '() => globalThis.__bua.search({text: "Only mine", limit: 20})',
}
TIMED = "(call) => { const f = (0, eval)(call); f(); const start = performance.now(); f(); return performance.now() - start; }"


def ref_source(ref: str) -> str:
    """The library of a git ref, as that version's extension would send it."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "extension/src", "extension/package.json"], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        return library_source(Path(tmp) / "extension")


def compare(ref: str, url: str, runs: int = 15) -> dict[str, dict[str, float]]:
    """{call: {ref: p50 ms, "here": p50 ms}}."""
    from playwright.sync_api import sync_playwright

    sources = {ref: ref_source(ref), "here": library_source()}
    times: dict[str, dict[str, list[float]]] = {call: {v: [] for v in sources} for call in CALLS}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_binary(), args=["--no-sandbox", "--headless=new"])
        try:
            tabs = {}
            for version, source in sources.items():
                tab = browser.new_page(viewport={"width": 1280, "height": 800})
                tab.goto(url)
                tab.evaluate(f"({source})()")
                tabs[version] = tab
            for _ in range(runs):
                for call, code in CALLS.items():
                    for version, tab in tabs.items():
                        times[call][version].append(tab.evaluate(TIMED, code))
        finally:
            browser.close()
    return {call: {v: statistics.median(t) for v, t in by.items()} for call, by in times.items()}


if __name__ == "__main__":
    ref_name, page = sys.argv[1], sys.argv[2]
    for call, p50 in compare(ref_name, page).items():
        print(f"{call:16s} {ref_name} {p50[ref_name]:7.1f} ms   here {p50['here']:7.1f} ms   {p50['here'] / p50[ref_name]:.2f}x")
