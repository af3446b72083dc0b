"""A link as a QR code: an SVG the pages show and a phone at the table scans."""

from __future__ import annotations

import io

import segno
from flask import Response


def qr_response(link: str) -> Response:
    """`link` as an SVG QR code (medium error correction), kept a day by the phone only.

    A file of its own (an <img>'s source), so an SVG document with its namespace: without it
    (segno's `svg_inline`, made for SVG inside HTML) a browser draws nothing."""
    svg = io.BytesIO()
    segno.make(link, error="m").save(
        svg, kind="svg", xmldecl=False, scale=4, border=2, dark="#111", light="#fff"
    )
    response = Response(svg.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=86400"
    return response
