"""What keeping a session's page log costs a click: the same bua click (settle 0, through the whole pipe, on the
app's loop) on a tab with the Runtime, Log and Network domains on (as every session tab has them, for page_log)
and off, in alternating blocks of ten on the same tab. On a quiet page and on a busy one (a fetch and a console.log every 50 ms:
the events the domains send travel to the extension's worker).

The domains are turned off and on again from the extension's own worker with chrome.debugger.sendCommand on
the tab (the same debugger session bua uses), between blocks."""

from __future__ import annotations

from typing import Any, Awaitable

from app.protocol.envelope import Response
from bench.live import live_browser
from bench.report import Report, Row, on_loop_once
from tests.harness.actions import pool_request

DOMAINS = ("Runtime", "Log", "Network")
BLOCK = 10


def run(report: Report, fixture_url: str, n: int = 60) -> None:
    base = fixture_url.rsplit("/", 1)[0]
    with live_browser("bua-bench-log-") as (core, browser, bridge):
        cdp = browser.cdp
        worker_session = cdp.send("Target.attachToTarget", {"targetId": cdp.extension_worker(), "flatten": True})["sessionId"]
        for page in ("click.html", "busy.html"):
            task = f"bench-{page}"
            nav = core.call(pool_request(core.pool, {"type": "navigate", "url": f"{base}/actions/{page}"}, task))
            assert nav.ok, nav.error
            turns = measure(core, bridge, cdp, worker_session, nav.result["tab_id"], task, n)
            on = report.add(Row.timing("pagelog", f"bua click, settle 0, log domains on ({page})", turns["on"]))
            off = report.add(Row.timing("pagelog", f"bua click, settle 0, log domains off ({page})", turns["off"]))
            report.add(Row("pagelog", f"cost of the log domains on a click, p50 ({page})", n,
                           value=round(on.p50_ms - off.p50_ms, 2), unit="ms"))


def measure(core: Any, bridge: Any, cdp: Any, worker_session: str, tab_id: int, task: str,
            n: int) -> dict[str, list[float]]:
    """Clicks on the tab in alternating blocks with the domains on and off (left on at the end)."""
    ids = iter(range(10**9))

    def click() -> Awaitable[Response]:
        request_id = f"bench-log-{next(ids)}"
        action = {"type": "click", "selector": "#counter", "tab_id": tab_id, "settle_ms": 0}
        raw = {"v": 1, "kind": "request", "id": request_id, "task_id": task, "action": action}
        return bridge.send_and_wait(raw, request_id, None, 30)

    def domains(state: str) -> None:
        calls = ", ".join(f'chrome.debugger.sendCommand({{tabId: {tab_id}}}, "{d}.{state}")' for d in DOMAINS)
        reply = cdp.send("Runtime.evaluate", {"expression": f"Promise.all([{calls}]).then(() => true)",
                                              "awaitPromise": True, "returnByValue": True}, worker_session)
        assert reply["result"].get("value") is True, reply

    sample_click = on_loop_once(core, click)

    def block(state: str) -> list[float]:
        """BLOCK clicks in one state; the first after the switch is dropped (Runtime.enable replays the console
        messages the page logged meanwhile, a one-off burst)."""
        domains(state)
        sample_click()
        return [sample_click() for _ in range(BLOCK)]

    for _ in range(5):
        sample_click()
    turns: dict[str, list[float]] = {"on": [], "off": []}
    for _ in range(n // BLOCK):
        turns["on"] += block("enable")
        turns["off"] += block("disable")
    domains("enable")
    return turns
