"""What the visibility judgement from the rendering (issue 18) costs per extract and per find, side by side in one run.

The in-page library (extension/src/extract/run-in-page.js INSTALL_SOURCE, printed by node) is installed twice into
an isolated world of the page (as the extension installs it: Page.createIsolatedWorld), by Playwright's CDP session
on the same Chromium: once as it is, once with its rendering part switched off (no text boxes, clipping, opacity,
colours, hit testing or covering boxes: lib.textSeen answers "", lib.renderContext a context that clips nothing,
lib.hiddenBy nothing, lib.textVisibility no colour verdict, lib.notePainter and lib.coveredLater nothing). The walk
(extract) and the search (find) of each are timed alternating, each call in a task of its own (the library keeps
its layout facts for one task only, as in the extension, where every call is a CDP call of its own). The
difference is the judgement's cost.

Two clocks per call: the wall clock inside the page (performance.now), and the CPU time of the renderer's main
thread (Linux /proc/<pid>/task/<pid>/schedstat), which other work on a loaded machine does not inflate as much.
And the work one extract does, counted by wrapping the browser's methods in a third copy: computed styles and
computed-property reads (and how many of them read an (element, pseudo-element, property) the call had read already:
page-render.js styleOf reads each once per call, so a check that reads around it shows here), text boxes
(Range.getClientRects), element boxes, hit tests and canvas reads. Counts do not depend on the machine's load.

`python -m bench.visibility_cost [--against REV] [--runs N] [--pages 1000,10000]`: with --against, the same
alternation between this tree's library and the one of git revision REV (its extension/src), both with the
judgement on, for the walk and for find, and their outputs compared: how a change to the judgement's speed is measured on a loaded
machine (paired ratios of CPU time).

Why in-page geometry and hit testing rather than CDP DOMSnapshot.captureSnapshot (measured 2026-12-01 on this
machine, loaded by other work, same Chromium): captureSnapshot with the styles, paint order, rects, blended
backgrounds and text colour opacities took 285 ms (1.1 MB) on the 1,000-element page and 3.5 s (11 MB) on the
10,000-element one, while main's whole in-page walk took 34-52 ms and this branch's 74-97 ms on the first.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urljoin

from app.browser.launch import find_binary

ROOT = Path(__file__).resolve().parents[1]
EXTENSION = ROOT / "extension"
WALK = "globalThis.__libs[{i}].walk({{ limit: 24000 }})"
FIND = 'JSON.stringify(globalThis.__libs[{i}].search({{ text: "Interview", limit: 20 }}))'

OPEN = "{ clip: { l: -Infinity, t: -Infinity, r: Infinity, b: Infinity }, freeX: false, freeY: false, fixed: false }"
JUDGEMENT_OFF = f"""(lib) => {{
  lib.textSeen = () => "";
  lib.renderContext = () => ({{ alpha: 1, blur: 0, at: {OPEN}, abs: null, hidden: "" }});
  lib.hiddenBy = () => "";
  lib.textVisibility = (el, cs, ns, st, unseen = "") => {{
    ns.rc = lib.renderContext(); ns.bg = null; ns.picture = null; ns.unseen = unseen || st.unseen || ""; ns.hideText = ns.unseen;
  }};
  lib.notePainter = () => {{}};
  lib.coveredLater = () => new Set();
}}"""

COUNTING = """(() => {
  const c = (globalThis.__counts = {});
  const count = (label) => { c[label] = (c[label] || 0) + 1; };
  const wrap = (proto, name, label) => {
    const f = proto[name];
    proto[name] = function (...args) { count(label); return f.apply(this, args); };
  };
  const computed = window.getComputedStyle;
  globalThis.__readSeen = new WeakMap();
  // A read by attribute (cs.backgroundColor) and by getPropertyValue("background-color") count as one property.
  const cssName = (key) => key.includes("-") ? key : key === "cssFloat" ? "float"
    : (/^(webkit|epub)[A-Z]/.test(key) ? "-" : "") + key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  window.getComputedStyle = function (el, pseudo) {
    count("computed styles");
    const note = (key) => {
      count("computed-property reads");
      let read = globalThis.__readSeen.get(el);
      if (!read) globalThis.__readSeen.set(el, (read = new Set()));
      const name = `${pseudo || ""}|${cssName(key)}`;
      if (read.has(name)) count("computed-property reads repeated in the call");
      read.add(name);
    };
    return new Proxy(computed.call(window, el, pseudo), { get(target, key) {
      if (key === "getPropertyValue") return (name) => (note(name), target.getPropertyValue(name));
      if (typeof key === "string") note(key);
      const value = target[key];
      return typeof value === "function" ? value.bind(target) : value;
    } });
  };
  wrap(Range.prototype, "getClientRects", "text boxes (Range.getClientRects)");
  wrap(Element.prototype, "getBoundingClientRect", "element boxes");
  wrap(Element.prototype, "getClientRects", "element boxes");
  for (const proto of [Document.prototype, ShadowRoot.prototype]) {
    wrap(proto, "elementFromPoint", "hit tests");
    wrap(proto, "elementsFromPoint", "hit tests");
  }
  wrap(OffscreenCanvasRenderingContext2D.prototype, "getImageData", "canvas reads");
  return true;
})()"""


def library_source(extension: Path = EXTENSION) -> str:
    """The library's install function, as the extension (this tree's, or another version's) sends it."""
    script = "import('./src/extract/run-in-page.js').then((m) => process.stdout.write(m.INSTALL_SOURCE))"
    return subprocess.run(["node", "-e", script], cwd=extension, check=True, capture_output=True, text=True).stdout


def extension_at(rev: str, into: Path) -> Path:
    """extension/ of git revision `rev` (its src and package.json), unpacked under `into`."""
    archive = subprocess.run(["git", "archive", rev, "extension/src", "extension/package.json"], cwd=ROOT,
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "extension"


@dataclass
class Calls:
    """Samples of one kind of call (ms): wall clock in the page, and the renderer main thread's CPU time."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


@dataclass
class PageCost:
    walk_on: Calls
    walk_off: Calls
    find_on: Calls
    find_off: Calls
    hidden: int
    counts: dict[str, int]
    """work of one extract with the judgement, by kind"""
    counts_off: dict[str, int]
    find_counts: dict[str, int] = field(default_factory=dict)
    """work of one find with the judgement"""
    find_counts_off: dict[str, int] = field(default_factory=dict)


class _World:
    """The page's isolated world "bua" over Playwright's CDP session, and the renderer's main-thread CPU clock."""

    def __init__(self, browser: Any, page: Any) -> None:
        self.cdp = page.context.new_cdp_session(page)
        frame = self.cdp.send("Page.getFrameTree")["frameTree"]["frame"]["id"]
        self.context = self.cdp.send("Page.createIsolatedWorld", {"frameId": frame, "worldName": "bua",
                                                                  "grantUniveralAccess": True})["executionContextId"]
        processes = browser.new_browser_cdp_session().send("SystemInfo.getProcessInfo")["processInfo"]
        renderers = [p["id"] for p in processes if p["type"] == "renderer"]
        self.evaluate("globalThis.__libs = []; true")
        self.pid = None
        # The renderer whose main thread runs a busy loop of this world (others may be busy too). The loop is a fixed
        # amount of work, not of wall time: on a loaded machine a 100 ms loop may get 10 ms of CPU. A page just loaded
        # may keep another renderer busy for a while: asked again then.
        for _ in range(8):
            before = {pid: _cpu_ns(pid) for pid in renderers}
            self.evaluate("(() => { let x = 0; for (let i = 0; i < 1e8; i++) x += i & 1; return x > 0; })()")
            grown = {pid: (_cpu_ns(pid) or 0) - (before[pid] or 0) for pid in renderers if before[pid] is not None}
            busiest = max(grown, key=lambda pid: grown[pid]) if grown else None
            if busiest is not None and grown[busiest] >= 30e6 and all(grown[p] < grown[busiest] / 2 for p in grown if p != busiest):
                self.pid = busiest
                break

    def evaluate(self, expression: str) -> Any:
        reply = self.cdp.send("Runtime.evaluate", {"expression": expression, "contextId": self.context,
                                                   "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in reply:
            raise RuntimeError(f"in-page call failed: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def install(self, source: str, patch: str | None = None) -> int:
        """Installs a copy of the library (patched by `patch`, a JS function of lib); returns its index."""
        apply = f"({patch})(globalThis.__bua);" if patch else ""
        return self.evaluate(f"({source})(); {apply} globalThis.__libs.push(globalThis.__bua) - 1")

    def timed(self, expression: str, into: Calls) -> Any:
        """One call in a task of its own: its in-page wall time and the main thread's CPU time (ms)."""
        start = _cpu_ns(self.pid) if self.pid else None
        out = self.evaluate(f"(() => {{ const s = performance.now(); const out = {expression}; "
                            f"return [performance.now() - s, out]; }})()")
        if start is not None and self.pid:
            end = _cpu_ns(self.pid)
            if end is not None:
                into.cpu.append((end - start) / 1e6)
        into.wall.append(out[0])
        return out[1]


def _cpu_ns(pid: int) -> int | None:
    """CPU time the process's main thread has run (ns), None where /proc has no schedstat."""
    try:
        return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _alternate(world: _World, runs: int, calls: list[tuple[str, Calls]]) -> None:
    for expression, _ in calls:  # warm up every copy once
        world.evaluate(f"({expression}, true)")
    for _ in range(runs):
        for expression, into in calls:
            world.timed(expression, into)


def _counts(world: _World, source: str, patch: str | None, call: str) -> dict[str, int]:
    """The work one call (WALK or FIND) does, counted in a page of its own (the wrappers slow everything down)."""
    world.evaluate(COUNTING)
    i = world.install(source, patch)
    world.evaluate(f"({call.format(i=i)}, Object.keys(globalThis.__counts).forEach((k) => delete globalThis.__counts[k]), "
                   "globalThis.__readSeen = new WeakMap(), true)")
    world.evaluate(f"({call.format(i=i)}, true)")
    return dict(sorted(world.evaluate("globalThis.__counts").items()))


@contextmanager
def _bench_browser() -> Iterator[Any]:
    """Playwright's headless Chromium on the machine's own binary, closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_binary(), args=["--no-sandbox", "--headless=new"])
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def _page_at(browser: Any, url: str) -> Iterator[_World]:
    """A new page of `browser` at `url`, as a _World; closed after."""
    page = browser.new_page()
    try:
        page.goto(url)
        yield _World(browser, page)
    finally:
        page.close()


def judgement_cost(urls: dict[int, str], runs: int) -> dict[int, PageCost]:
    """Per page: walk and find times with and without the rendering judgement, and the work of one extract."""
    source = library_source()
    out: dict[int, PageCost] = {}
    with _bench_browser() as browser:
        for n, url in urls.items():
            cost = PageCost(Calls(), Calls(), Calls(), Calls(), 0, {}, {})
            with _page_at(browser, url) as world:
                on, off = world.install(source), world.install(source, JUDGEMENT_OFF)
                cost.hidden = json.loads(world.evaluate(WALK.format(i=on)))["hidden"]
                _alternate(world, runs, [(WALK.format(i=on), cost.walk_on), (WALK.format(i=off), cost.walk_off),
                                         (FIND.format(i=on), cost.find_on), (FIND.format(i=off), cost.find_off)])
            for patch, call, into in ((None, WALK, cost.counts), (JUDGEMENT_OFF, WALK, cost.counts_off),
                                      (None, FIND, cost.find_counts), (JUDGEMENT_OFF, FIND, cost.find_counts_off)):
                with _page_at(browser, url) as world:
                    into.update(_counts(world, source, patch, call))
            out[n] = cost
    return out


def _output(world: _World, call: str) -> str:
    """A call's output as JSON with the library copy's own document id left out (it differs by copy)."""
    out = json.loads(world.evaluate(call))
    out.pop("doc", None)
    return json.dumps(out, sort_keys=True)


def compare(urls: dict[int, str], runs: int, against: str) -> None:
    """This tree's library against revision `against`'s, alternating on each page: extract's walk and find, each
    with its outputs compared; prints CPU and wall ratios."""
    with tempfile.TemporaryDirectory(prefix="bua-visibility-") as tmp:
        sources = {"this tree": library_source(), against: library_source(extension_at(against, Path(tmp)))}
        with _bench_browser() as browser:
            for n, url in urls.items():
                with _page_at(browser, url) as world:
                    index = {name: world.install(source) for name, source in sources.items()}
                    for action, call in (("walk", WALK), ("find", FIND)):
                        same = len({_output(world, call.format(i=i)) for i in index.values()}) == 1
                        calls = {name: Calls() for name in index}
                        _alternate(world, runs, [(call.format(i=i), calls[name]) for name, i in index.items()])
                        print(f"{n:,}-element page, {action} ({runs} calls each, alternating; outputs {'equal' if same else 'DIFFER'}):")
                        for name, c in calls.items():
                            cpu = f"cpu p50 {statistics.median(c.cpu):7.1f} ms, " if c.cpu else ""
                            print(f"  {name:>12}: {cpu}wall p50 {statistics.median(c.wall):7.1f} ms")
                        mine, theirs = calls["this tree"], calls[against]
                        for clock, get in (("cpu", lambda c: c.cpu), ("wall", lambda c: c.wall)):
                            pairs = sorted(a / b for a, b in zip(get(mine), get(theirs), strict=True) if b)
                            if pairs:
                                print(f"  this tree / {against}, {clock}: paired median {statistics.median(pairs):.3f} "
                                      f"(IQR {pairs[len(pairs) // 4]:.3f}-{pairs[3 * len(pairs) // 4]:.3f})")


def _p50(samples: list[float]) -> str:
    return f"{statistics.median(samples):7.1f}" if samples else "      -"


def _main(argv: list[str]) -> int:
    from tests.harness.fixture_server import FixtureServer

    parser = argparse.ArgumentParser(prog="python -m bench.visibility_cost", description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", help="a git revision whose library to alternate with (e.g. main)")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--pages", default="1000,10000", help="element counts of the bench page, comma-separated")
    args = parser.parse_args(argv)
    server = FixtureServer()
    try:
        urls = {int(n): urljoin(server.url("/index.html"), f"/extract/mixed.html?n={int(n)}") for n in args.pages.split(",")}
        if args.against:
            compare(urls, args.runs, args.against)
            return 0
        for n, cost in judgement_cost(urls, args.runs).items():
            print(f"{n:,}-element page: hidden {cost.hidden} chars")
            for label, calls in (("walk, judged", cost.walk_on), ("walk, off", cost.walk_off),
                                 ("find, judged", cost.find_on), ("find, off", cost.find_off)):
                print(f"  {label:14} cpu p50 {_p50(calls.cpu)} ms  wall p50 {_p50(calls.wall)} ms")
            for action, on, off in (("extract", cost.counts, cost.counts_off), ("find", cost.find_counts, cost.find_counts_off)):
                for kind in sorted(set(on) | set(off)):
                    print(f"  {action:7} {kind:36} {on.get(kind, 0):7,} judged  {off.get(kind, 0):7,} off")
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
