"""What the extension's action path is made of, seen from inside its service worker (bench only, over the test
browser's CDP pipe; the extension itself is not changed):

* which CDP commands one action sends through chrome.debugger (chrome.debugger.sendCommand counted while the
  action runs, then restored), so the action's cost can be read as so many debugger round trips;
* one chrome.debugger round trip (Runtime.evaluate "1" on the tab) timed in the worker, beside the same command
  sent directly over --remote-debugging-pipe;
* one chrome.tabs.query of get_tabs (what its handler waits for, and what the tab feed runs before the answer of
  an action that may change tabs: extension/src/tabs/tab-feed.js) timed in the worker.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Callable

COUNT = """(() => {
  const api = chrome.debugger;
  if (!api.__benchOriginal) api.__benchOriginal = api.sendCommand;
  globalThis.__benchCdp = [];
  api.sendCommand = function (...args) { globalThis.__benchCdp.push(String(args[1])); return api.__benchOriginal.apply(this, args); };
  return api.sendCommand !== api.__benchOriginal;
})()"""
RESTORE = """(() => {
  const api = chrome.debugger;
  if (api.__benchOriginal) api.sendCommand = api.__benchOriginal;
  const seen = globalThis.__benchCdp ?? [];
  delete globalThis.__benchCdp;
  return JSON.stringify(seen);
})()"""
TIME = """(async () => {
  const times = [];
  for (let i = 0; i < %d; i++) {
    const start = performance.now();
    await chrome.debugger.sendCommand({tabId: %d}, "Runtime.evaluate", {expression: "1", returnByValue: true});
    times.push(performance.now() - start);
  }
  return JSON.stringify(times);
})()"""

TABS_QUERY = """(async () => {
  const times = [];
  for (let i = 0; i < %d; i++) {
    const start = performance.now();
    await chrome.tabs.query({windowType: "normal"});
    times.push(performance.now() - start);
  }
  return JSON.stringify(times);
})()"""


class Worker:
    """The extension's service worker over the browser's CDP pipe (`cdp`: tests.harness.cdp_pipe.CdpPipe)."""

    def __init__(self, cdp: Any) -> None:
        self.cdp = cdp
        self.session = cdp.send("Target.attachToTarget", {"targetId": cdp.extension_worker(), "flatten": True})[
            "sessionId"]

    def evaluate(self, expression: str) -> Any:
        reply = self.cdp.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                   "returnByValue": True}, self.session, timeout=120)
        if "exceptionDetails" in reply:
            raise RuntimeError(f"in the worker: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def commands_of(self, action: Callable[[], None]) -> Counter[str] | None:
        """The CDP commands `action()` made the extension send (None when sendCommand could not be wrapped)."""
        if not self.evaluate(COUNT):
            return None
        try:
            action()
        finally:
            seen = json.loads(self.evaluate(RESTORE))
        return Counter(seen)

    def debugger_round_trips(self, tab_id: int, n: int) -> list[float]:
        """n chrome.debugger Runtime.evaluate round trips timed in the worker, in seconds."""
        return [ms / 1000 for ms in json.loads(self.evaluate(TIME % (n, tab_id)))]

    def tabs_query_round_trips(self, n: int) -> list[float]:
        """n chrome.tabs.query({windowType: "normal"}) timed in the worker, in seconds."""
        return [ms / 1000 for ms in json.loads(self.evaluate(TABS_QUERY % n))]
