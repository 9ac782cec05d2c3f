"""Click round trip through the whole pipe vs. a direct CDP click on the same element, same browser, one run.

* direct CDP: Input.dispatchMouseEvent mousePressed + mouseReleased at the element's centre, sent over
  --remote-debugging-pipe to the same tab (no extension, host or socket);
* direct CDP with the checks: the same plus what bua's click does before pressing (resolve, scroll into view,
  box, hit-test, mouse move sent without waiting for its ack, as bua does) — the fair baseline for the work,
  not just the transport;
* bua click, settle 0: timed from the bench's thread (a hop onto the app's loop and back, as a UI call makes)
  and on the app's loop, where the agent issues its calls (the ratios use the latter); the whole pipe (app → host → extension → CDP → back), uid target, every check, effects
  read once with no settle window (`settle_ms: 0`, an extension-side tuning field outside the model's schema);
* chrome.debugger press + release inside the extension: the same two events sent with
  chrome.debugger.sendCommand from the extension's service worker, timed there (no pipe, no checks) — the floor
  of the transport the design prescribes, since every extension-side CDP command goes through it;
* bua click, default: what the model gets: the same plus the effects settle window (ends 100 ms after the page
  went quiet, or at 300 ms when nothing changes). The clicked button changes the DOM, so this is the quiet path.
"""

from __future__ import annotations

import json
import threading
from typing import Awaitable

from app.protocol.envelope import Response
from bench.live import live_browser
from bench.report import Report, Row, timed, timed_on_loop

TARGET = "#counter"


def run(report: Report, fixture_url: str, n: int = 100) -> None:
    page_url = fixture_url.rsplit("/", 1)[0] + "/actions/click.html"
    with live_browser("bua-bench-") as (core, browser, bridge):
        cdp = browser.cdp
        nav = core.call(core.pool.request({"type": "navigate", "url": page_url}, "bench"))
        assert nav.ok, nav.error
        tab_id = nav.result["tab_id"]
        extract = core.call(core.pool.request({"type": "extract", "tab_id": tab_id}, "bench"))
        assert extract.ok, extract.error
        uid = next(line.split()[0] for line in extract.result["elements"].splitlines() if '"Counter"' in line)
        ids = iter(range(10**9))

        def bua_click_request(settle_ms: int | None) -> Awaitable[Response]:
            action = {"type": "click", "uid": uid, "tab_id": tab_id, "button": "left", "click_count": 1}
            if settle_ms is not None:
                action["settle_ms"] = settle_ms
            request_id = f"bench-{next(ids)}"
            raw = {"v": 1, "kind": "request", "id": request_id, "task_id": "bench", "action": action}
            return bridge.send_and_wait(raw, request_id, None, 30)

        def bua_click(settle_ms: int | None) -> None:
            response = core.call(bua_click_request(settle_ms))
            assert response.ok, response.error

        targets = cdp.send("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page" and t["url"] == page_url)
        session = cdp.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})["sessionId"]

        def centre() -> tuple[float, float]:
            box = json.loads(cdp.send("Runtime.evaluate", {"expression": f"JSON.stringify(document.querySelector("
                                      f"{TARGET!r}).getBoundingClientRect())", "returnByValue": True},
                                      session)["result"]["value"])
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

        x, y = centre()

        def press(px: float, py: float) -> None:
            for kind in ("mousePressed", "mouseReleased"):
                cdp.send("Input.dispatchMouseEvent", {"type": kind, "x": px, "y": py, "button": "left",
                                                      "clickCount": 1}, session)

        def direct_click() -> None:
            press(x, y)

        def direct_checked_click() -> None:
            obj = cdp.send("Runtime.evaluate", {"expression": f"document.querySelector({TARGET!r})"},
                           session)["result"]["objectId"]
            cdp.send("DOM.scrollIntoViewIfNeeded", {"objectId": obj}, session)
            quad = cdp.send("DOM.getContentQuads", {"objectId": obj}, session)["quads"][0]
            px, py = (quad[0] + quad[4]) / 2, (quad[1] + quad[5]) / 2
            hit = cdp.send("Runtime.callFunctionOn", {
                "objectId": obj, "returnByValue": True, "arguments": [{"value": px}, {"value": py}],
                "functionDeclaration": "function (x, y) { const h = document.elementFromPoint(x, y);"
                                       " return h === this || this.contains(h); }"}, session)
            assert hit["result"]["value"] is True
            moved = threading.Thread(target=cdp.send, args=("Input.dispatchMouseEvent",
                                                            {"type": "mouseMoved", "x": px, "y": py}, session))
            moved.start()
            press(px, py)
            moved.join()

        worker = next(t for t in cdp.send("Target.getTargets")["targetInfos"] if t["type"] == "service_worker")
        worker_session = cdp.send("Target.attachToTarget", {"targetId": worker["targetId"], "flatten": True})["sessionId"]
        in_extension = f"""(async () => {{
          const times = [];
          for (let i = 0; i < {n}; i++) {{
            const started = performance.now();
            for (const type of ["mousePressed", "mouseReleased"]) {{
              await chrome.debugger.sendCommand({{tabId: {tab_id}}}, "Input.dispatchMouseEvent",
                {{type, x: {x}, y: {y}, button: "left", clickCount: 1}});
            }}
            times.push((performance.now() - started) / 1000);
          }}
          return times;
        }})()"""

        def extension_clicks() -> list[float]:
            reply = cdp.send("Runtime.evaluate", {"expression": in_extension, "awaitPromise": True,
                                                  "returnByValue": True}, worker_session)
            return reply["result"]["value"]

        for fn in (direct_click, direct_checked_click, lambda: bua_click(0), lambda: bua_click(None)):
            timed(fn, 10)
        floor = report.add(Row.timing("click", "chrome.debugger press+release in the extension", extension_clicks()))
        direct = report.add(Row.timing("click", "direct CDP click (pressed+released)", timed(direct_click, n)))
        checked = report.add(Row.timing("click", "direct CDP click + the same checks", timed(direct_checked_click, n)))
        report.add(Row.timing("click", "bua click through the pipe, settle 0, thread hop", timed(lambda: bua_click(0), n)))
        bare = report.add(Row.timing("click", "bua click through the pipe, settle 0, on the app's loop",
                                     timed_on_loop(core, lambda: bua_click_request(0), n)))
        full = report.add(Row.timing("click", "bua click through the pipe, default settle, on the app's loop",
                                     timed_on_loop(core, lambda: bua_click_request(None), n)))
        report.add(Row("click", "settle window of a DOM-changing click (p50 difference)", n,
                       value=round(full.p50_ms - bare.p50_ms, 1), unit="ms"))
        report.add(Row("click", "ratio bua settle 0 / direct click (p50)", n,
                       value=round(bare.p50_ms / direct.p50_ms, 2), unit="x"))
        report.add(Row("click", "ratio bua settle 0 / direct click + checks (p50)", n,
                       value=round(bare.p50_ms / checked.p50_ms, 2), unit="x"))
        report.add(Row("click", "ratio chrome.debugger press+release / direct click (p50)", n,
                       value=round(floor.p50_ms / direct.p50_ms, 2), unit="x"))
        report.goal("click round trip (settle 0) within 1.5x of a direct CDP click (p50)",
                    bare.p50_ms / direct.p50_ms, 1.5, "x")
