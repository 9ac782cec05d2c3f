"""Where the time of a warm extract goes, measured on the same calls through the whole pipe.

Per call: the whole pipe's wall time (app → host → extension → CDP → page → back), and the in-page walk's own
wall time inside that call (the library's `walk` wrapped in the page's bua world, where the extension calls it:
performance.now around it). Over all the calls: the extension service worker's JavaScript (collect, markdown,
index, uids, fitting into the budget), sampled by the CDP Profiler of the worker. What is left is the messages
themselves: CDP between the worker and the page, the native host, the socket and the app.

The browser's CDP pipe (tests/harness/browser.py) is the person's hands here, never the agent's: it only reads the
clocks. The other in-page calls of an extract (ENTRIES: closed roots, listeners) are timed as one more part.

The first extract after a load (first_parts): the page's main thread sampled by its CDP Profiler over that one call
(the library is installed by the call itself, so it cannot be wrapped first): the walk, the library's other calls,
installing the library (its parts' install functions), the garbage collector, and the engine's own work outside
JavaScript ("(program)": compiling, and style and layout the page still owed).
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass
from typing import Any

from tests.harness.actions import pool_request
from tests.harness.cdp_pipe import CdpPipe

SAMPLING_US = 200

ENTRIES = ("walk", "pendingHosts", "addClosedRoots", "listenSync", "listenAdd", "documentNode", "seenReady")
"""The library's methods an extract calls through run-in-page.js callPage (collect.js, listeners.js)."""

WRAP = """((entries) => {
  const lib = globalThis.__bua;
  if (!lib || lib.__benchTimed) return !!lib;
  const times = (globalThis.__benchTimes = { walk: [], other: [] });
  for (const name of entries) {
    const f = lib[name];
    if (typeof f !== "function") continue;
    lib[name] = function (...args) {
      const start = performance.now();
      try {
        return f.apply(this, args);
      } finally {
        (name === "walk" ? times.walk : times.other).push(performance.now() - start);
      }
    };
  }
  lib.__benchTimed = true;
  return true;
})"""


@dataclass
class Parts:
    """Per-call samples (ms) of the whole pipe and of the walk inside it, and per-call means (ms) of the rest."""

    pipe: list[float]
    walk: list[float]
    other_in_page: float
    worker_js: float

    @property
    def outside(self) -> list[float]:
        """Per call: the pipe's time outside the walk."""
        return [p - w for p, w in zip(self.pipe, self.walk, strict=True)]


def _session(cdp: CdpPipe, target_id: str) -> str:
    return str(cdp.send("Target.attachToTarget", {"targetId": target_id, "flatten": True})["sessionId"])


def _busy_ms(profile: dict[str, Any]) -> float:
    """Sampled time (ms) the profiled thread ran JavaScript or the engine (all but idle)."""
    names = {n["id"]: n["callFrame"]["functionName"] for n in profile["nodes"]}
    return float(sum(d for s, d in zip(profile["samples"][1:], profile["timeDeltas"][1:], strict=True)
                     if names[s] != "(idle)")) / 1000


def warm_parts(core: Any, bridge: Any, cdp: CdpPipe, task: str, tab_id: int, url: str, runs: int) -> Parts:
    """`runs` warm extracts of the tab (showing `url`), split into their parts (see the module's docstring)."""
    page = next(t["targetId"] for t in cdp.send("Target.getTargets")["targetInfos"]
                if t["type"] == "page" and t["url"] == url)
    page_session = _session(cdp, page)
    frame = cdp.send("Page.getFrameTree", session_id=page_session)["frameTree"]["frame"]["id"]
    world = cdp.send("Page.createIsolatedWorld", {"frameId": frame, "worldName": "bua", "grantUniveralAccess": True},
                     session_id=page_session)["executionContextId"]

    def evaluate(expression: str) -> Any:
        reply = cdp.send("Runtime.evaluate", {"expression": expression, "contextId": world, "returnByValue": True},
                         session_id=page_session)
        if "exceptionDetails" in reply:
            raise RuntimeError(f"bench in-page call failed: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def extract() -> float:
        start = time.perf_counter()
        response = core.call(pool_request(bridge, {"type": "extract", "tab_id": tab_id}, task), timeout=90)
        assert response.ok, response.error
        return (time.perf_counter() - start) * 1000

    extract()
    if not evaluate(f"{WRAP}({json.dumps(ENTRIES)})"):
        raise RuntimeError("the page's bua world holds no library after an extract")
    worker = _session(cdp, cdp.extension_worker())
    cdp.send("Profiler.enable", session_id=worker)
    cdp.send("Profiler.setSamplingInterval", {"interval": SAMPLING_US}, session_id=worker)
    pipe, walk, other = [], [], []
    cdp.send("Profiler.start", session_id=worker)
    try:
        for _ in range(runs):
            evaluate("globalThis.__benchTimes.walk = []; globalThis.__benchTimes.other = []; true")
            pipe.append(extract())
            times = evaluate("globalThis.__benchTimes")
            if not times["walk"]:
                raise RuntimeError(f"no walk was timed in the page at {url}: the extract read another page")
            walk.append(sum(times["walk"]))
            other.append(sum(times["other"]))
    finally:
        profile = cdp.send("Profiler.stop", session_id=worker)["profile"]
        cdp.send("Target.detachFromTarget", {"sessionId": worker})
        cdp.send("Target.detachFromTarget", {"sessionId": page_session})
    return Parts(pipe, walk, statistics.mean(other), _busy_ms(profile) / runs)


FIRST_PARTS = ("walk", "other calls", "install", "garbage collector", "(program)")


def _first_shares(profile: dict[str, Any]) -> dict[str, float]:
    """Sampled ms of one first extract's parts (FIRST_PARTS) on the page's main thread."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    parent = {c: n["id"] for n in profile["nodes"] for c in n.get("children", [])}
    out = dict.fromkeys(FIRST_PARTS, 0.0)
    for sample, delta in zip(profile["samples"][1:], profile["timeDeltas"][1:], strict=True):
        name = nodes[sample]["callFrame"]["functionName"]
        if name in ("(garbage collector)", "(program)"):
            out[name.strip("()") if name == "(garbage collector)" else name] += delta / 1000
            continue
        chain: list[tuple[str, str]] = []  # (function, its caller) from the sample up to the root
        x: int | None = sample
        while x is not None:
            up = parent.get(x)
            chain.append((nodes[x]["callFrame"]["functionName"], nodes[up]["callFrame"]["functionName"] if up else "?"))
            x = up
        if any(fn == "lib.walk" for fn, _ in chain):
            out["walk"] += delta / 1000
        elif any(fn.startswith("lib.") and fn[4:] in ENTRIES for fn, _ in chain):
            out["other calls"] += delta / 1000
        elif any(fn.startswith("page") and not caller for fn, caller in chain):
            out["install"] += delta / 1000
    return out


def first_parts(core: Any, bridge: Any, cdp: CdpPipe, task: str, tab_id: int, url: str,
                loads: int) -> tuple[list[float], dict[str, list[float]]]:
    """The first extract after each of `loads` loads of the tab: its pipe times (ms) and its parts (ms each)."""
    page = next(t["targetId"] for t in cdp.send("Target.getTargets")["targetInfos"]
                if t["type"] == "page" and t["url"] == url)
    session = _session(cdp, page)
    cdp.send("Profiler.enable", session_id=session)
    cdp.send("Profiler.setSamplingInterval", {"interval": SAMPLING_US}, session_id=session)
    pipe: list[float] = []
    parts: dict[str, list[float]] = {name: [] for name in FIRST_PARTS}
    try:
        for _ in range(loads):
            navigated = core.call(pool_request(bridge, {"type": "navigate", "url": url, "tab_id": tab_id}, task),
                                  timeout=90)
            assert navigated.ok, navigated.error
            cdp.send("Profiler.start", session_id=session)
            start = time.perf_counter()
            response = core.call(pool_request(bridge, {"type": "extract", "tab_id": tab_id}, task), timeout=90)
            pipe.append((time.perf_counter() - start) * 1000)
            profile = cdp.send("Profiler.stop", session_id=session)["profile"]
            assert response.ok, response.error
            for name, ms in _first_shares(profile).items():
                parts[name].append(ms)
    finally:
        cdp.send("Target.detachFromTarget", {"sessionId": session})
    return pipe, parts
