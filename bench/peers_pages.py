"""The peer suite's own pages on 127.0.0.1: the demo's recruiting back office (the seed scenario), a flight-search
form whose submission the server records (so a fill is checked by what the page received, not by what a server
says it did), and a 1,000-row table."""

from __future__ import annotations

import html
import json
import random
import threading
from http.server import ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from app.demo.site_server import SITE, QuietHandler

FORM_FIELDS = {"origin": "Lisbon", "destination": "Oslo", "date": "2026-12-24", "travellers": "2"}
"""What each script fills in, by field name (the client checks it against `/last-received`, which answers the
last submission's fields as JSON and forgets them); the labels below are what a model finds them by. A search
form: submitting it sends nothing in the person's name, so no confirmation is asked for (bua asks the person
before a submit that can send, pay or post: README "Safety model")."""
FORM_LABELS = {"origin": "From", "destination": "To", "date": "Departure date", "travellers": "Travellers"}
SUBMIT_LABEL = "Search flights"

FORM_PAGE = f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Find a flight</title></head><body>
<header><nav aria-label="Main"><a href="#">Home</a> <a href="#">Deals</a> <a href="#">Help</a></nav></header>
<main><h1>Find a flight</h1><p>Fares include taxes and one cabin bag.</p>
<form action="/received" method="get">
<p><label>From <input name="origin" autocomplete="off" required></label></p>
<p><label>To <input name="destination" autocomplete="off" required></label></p>
<p><label>Departure date <input name="date" placeholder="YYYY-MM-DD"></label></p>
<p><label>Travellers <input name="travellers" inputmode="numeric"></label></p>
<p><button type="submit">{SUBMIT_LABEL}</button></p>
</form></main><footer><p>© Example Air</p></footer></body></html>"""

TABLE_ROWS = 1000
CITIES = ["Lisbon", "Oslo", "Kyoto", "Lima", "Accra", "Quebec", "Tartu", "Perth", "Izmir", "Cusco"]


PLAIN_PAGE = ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Plain</title></head><body>"
              "<p>A page with nothing to act on: the cheap calls run beside it.</p></body></html>")


def table_rows(n: int = TABLE_ROWS) -> list[tuple[str, str, str, str]]:
    """The table's rows (order no., customer, city, amount), the same every run."""
    rng = random.Random(21)
    first = ["Ada", "Lin", "Omar", "Sofia", "Kenji", "Priya", "Tom", "Nadia", "Carlos", "Amara"]
    last = ["Okafor", "Berg", "Sato", "Rossi", "Wei", "Haddad", "Novak", "Mendes", "Doe", "Raman"]
    return [(f"ORD-{10000 + i}", f"{rng.choice(first)} {rng.choice(last)}", rng.choice(CITIES),
             f"{rng.randint(5, 9999)}.{rng.randint(0, 99):02d}") for i in range(n)]


def table_page(n: int = TABLE_ROWS) -> str:
    body = "".join(f"<tr><td>{a}</td><td>{html.escape(b)}</td><td>{c}</td><td>{d}</td></tr>" for a, b, c, d in
                   table_rows(n))
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Orders</title></head><body>"
            f"<main><h1>Orders</h1><p>{n} orders this quarter.</p><table><thead><tr><th>Order</th><th>Customer</th>"
            f"<th>City</th><th>Amount</th></tr></thead><tbody>{body}</tbody></table></main></body></html>")


class PeerPages:
    """The pages, and what the form received (`received`: one dict of fields per submission)."""

    def __init__(self) -> None:
        self.received: list[dict[str, str]] = []
        pages = self
        table = table_page()

        class Handler(QuietHandler):
            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                if parts.path == "/form.html":
                    self._send(FORM_PAGE)
                elif parts.path == "/table.html":
                    self._send(table)
                elif parts.path == "/received":
                    fields = {k: v[0] for k, v in parse_qs(parts.query).items()}
                    pages.received.append(fields)
                    self._send("<!doctype html><title>Results</title><h1>Flights found</h1>"
                               "<p>3 flights match your search.</p>")
                elif parts.path == "/plain.html":
                    self._send(PLAIN_PAGE)
                elif parts.path == "/last-received":
                    last = pages.received.pop() if pages.received else {}
                    pages.received.clear()
                    self._send(json.dumps(last), "application/json")
                else:
                    super().do_GET()

            def _send(self, text: str, kind: str = "text/html") -> None:
                data = text.encode()
                self.send_response(200)
                self.send_header("Content-Type", f"{kind}; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        def handler(*args: Any, **kwargs: Any) -> Handler:
            return Handler(*args, directory=str(SITE), **kwargs)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}{path}"

    def urls(self) -> dict[str, str]:
        return {"seed": self.url("/index.html?delay=50"), "form": self.url("/form.html"),
                "table": self.url("/table.html"), "plain": self.url("/plain.html")}

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
