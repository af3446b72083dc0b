"""Static files as a phone receives them: read whole and closed at once, and compressed once,
at brotli's (or gzip's) best, not again on every request at the quick level pages take.

A phone at the table may have poor signal: the first load of a round screen is mostly htmx,
the outbox and the card picker (tests/web/games/test_games_pages.py keeps it under 60 KB).
Pages and JSON are compressed per answer by Flask-Compress at its quick default; the static
files never change while the app runs, so each is compressed at the slowest quality the
first time it is asked for (htmx: 0.1 s, once) and kept in memory by its ETag, which names
the file's path, size and time. What Flask-Compress would do besides is kept: `Vary`, an ETag
of its own per encoding, and a 304 for a phone that already holds that encoding.
"""

from __future__ import annotations

import gzip
import threading

import brotli
from flask import Flask, Response, current_app, request

# Brotli first: at its best it is the smallest the browsers read (Chrome also offers zstd).
_ENCODINGS = ("br", "gzip")
_KEPT_MAX = 256  # entries: every static file in two encodings, with room for new versions

_kept: dict[tuple[str, str], bytes] = {}
_lock = threading.Lock()


def init_app(app: Flask) -> None:
    """Register after Flask-Compress: `after_request` runs the last registered first, and
    Flask-Compress leaves an answer alone that is already encoded."""
    app.after_request(_send)


def _send(response: Response) -> Response:
    if request.endpoint != "static" or response.status_code != 200:
        return response
    if response.is_streamed:
        _read_whole(response)
    etag, weak = response.get_etag()
    encoding = next((e for e in _ENCODINGS if request.accept_encodings[e]), None)
    if (
        encoding is None
        or etag is None
        or "Content-Encoding" in response.headers
        or response.mimetype not in _compressible()
    ):
        return response
    response.set_data(_compressed(etag, encoding, response.get_data()))
    response.headers["Content-Encoding"] = encoding
    response.vary.add("Accept-Encoding")
    response.set_etag(f"{etag}:{encoding}", weak=bool(weak))
    response.make_conditional(request)
    return response


def _read_whole(response: Response) -> None:
    """Read the file into memory (they are all small) and close it at once: a file left for
    the response's end stays open when the phone goes away mid-answer (the development server
    then never closes the response)."""
    opened = response.response
    response.direct_passthrough = False
    try:
        response.set_data(b"".join(response.iter_encoded()))
    finally:
        if callable(close := getattr(opened, "close", None)):
            close()


def _compressible() -> list[str]:
    return list(current_app.config["COMPRESS_MIMETYPES"])


def _compressed(etag: str, encoding: str, data: bytes) -> bytes:
    key = (etag, encoding)
    with _lock:
        if (kept := _kept.get(key)) is not None:
            return kept
    packed: bytes
    if encoding == "br":
        packed = brotli.compress(data, quality=11)
    else:
        packed = gzip.compress(data, compresslevel=9, mtime=0)
    with _lock:
        if len(_kept) >= _KEPT_MAX:
            _kept.clear()  # a redeploy's worth of old versions: start again
        _kept[key] = packed
    return packed
