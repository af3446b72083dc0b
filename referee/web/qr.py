"""A link as a QR code: an SVG the pages show and a phone at the table scans."""

from __future__ import annotations

import segno
from flask import Response


def qr_response(link: str) -> Response:
    """`link` as an SVG QR code (medium error correction), kept a day by the phone only."""
    svg = segno.make(link, error="m").svg_inline(scale=4, border=2, dark="#111", light="#fff")
    response = Response(svg, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=86400"
    return response
