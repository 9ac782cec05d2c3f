"""A URL's site: its registrable domain (eTLD+1), so that `mail.example.com` and `example.com` are one site and
`a.co.uk` and `b.co.uk` are two. A short list of common multi-part public suffixes is enough here (the full
Public Suffix List is not needed for the checks that use it); an IP address and `localhost` are each their own
site."""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

_HOST = re.compile(r"[\w.:\-]+")

MULTI_PART_SUFFIXES = frozenset({
    "co.uk", "org.uk", "ac.uk", "gov.uk", "ltd.uk", "plc.uk", "me.uk", "net.uk",
    "com.au", "net.au", "org.au", "edu.au", "gov.au", "co.nz", "org.nz", "co.za", "org.za",
    "co.jp", "ne.jp", "or.jp", "ac.jp", "go.jp", "co.kr", "or.kr", "com.cn", "net.cn", "org.cn", "gov.cn",
    "com.hk", "com.tw", "com.sg", "com.my", "co.in", "net.in", "org.in", "co.id", "co.th",
    "com.br", "net.br", "org.br", "gov.br", "com.ar", "com.mx", "org.mx", "gob.mx", "com.co", "com.pe", "cl.cl",
    "com.tr", "com.ua", "co.il", "com.eg", "com.sa", "ac.at", "co.at", "or.at", "gv.at",
    "com.es", "org.es", "com.pt", "com.pl", "net.pl", "org.pl", "co.ke", "com.ng",
    "github.io", "gitlab.io", "herokuapp.com", "appspot.com", "vercel.app", "netlify.app", "pages.dev",
    "blogspot.com", "azurewebsites.net", "cloudfront.net", "s3.amazonaws.com",
})


def host_of(url: str) -> str:
    """The lower-case host of a URL (or of a bare host name), '' when it has none."""
    text = url.strip()
    if "://" not in text:
        text = f"http://{text}"
    try:
        host = (urlsplit(text).hostname or "").rstrip(".").lower()
    except ValueError:
        return ""
    return host if _HOST.fullmatch(host) else ""


def site_of(url: str) -> str:
    """The registrable domain of a URL or host: `https://a.b.example.co.uk/x` → `example.co.uk`; IPs and
    single-label hosts (`localhost`) as they are."""
    host = host_of(url)
    if not host:
        return ""
    try:
        ipaddress.ip_address(host.strip("[]"))
        return host
    except ValueError:
        pass
    labels = host.split(".")
    if len(labels) <= 2:
        return host
    if ".".join(labels[-2:]) in MULTI_PART_SUFFIXES:
        return ".".join(labels[-3:])
    if ".".join(labels[-3:]) in MULTI_PART_SUFFIXES:
        return ".".join(labels[-4:])
    return ".".join(labels[-2:])
