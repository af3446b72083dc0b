"""Security headers on every response (the policy allows no inline script and no inline
style), and the `bdi` filter that isolates what people typed in the page's text direction."""

from __future__ import annotations

from collections.abc import Iterable

from flask import Flask, Response
from markupsafe import Markup, escape

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        # fetch, htmx and a page's stream (EventSource) talk to this site only.
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    ]
)

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
}


def add_security_headers(response: Response) -> Response:
    # setdefault: a view that needs a different value for one response sets it itself.
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def bdi(text: object) -> Markup:
    """`text` escaped inside `<bdi>`: a name in Arabic or Hebrew cannot reorder its line."""
    return Markup("<bdi>%s</bdi>") % escape(text)


def bdi_join(items: Iterable[object], separator: str = ", ") -> Markup:
    """Each item isolated, then joined (a list of names in a sentence)."""
    return Markup(escape(separator)).join(bdi(item) for item in items)


def init_app(app: Flask) -> None:
    app.after_request(add_security_headers)
    app.add_template_filter(bdi)
    app.add_template_filter(bdi_join)
