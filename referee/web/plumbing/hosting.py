"""Serving the app for real: the hosts it answers to, a TLS proxy in front, secure cookies,
no caching of anything that carries an edit token, and logs that never show one.

- Links that leave the page (`view_url`, `edit_url`, QR codes) are built from `SERVER_NAME`
  and `PREFERRED_URL_SCHEME` when they are set; otherwise only a `Host` in `TRUSTED_HOSTS`
  is answered at all (Flask refuses any other with a 400), so a link is never built from
  whatever host a request claims. With neither set, only this machine's own names are trusted.
- `PROXY_FIX=N` trusts N proxies' `X-Forwarded-For/-Proto/-Host/-Prefix` (Werkzeug's ProxyFix),
  and only on a request that comes from the proxy's own address (`FORWARDED_ALLOW_IPS`, as
  gunicorn names it: default this machine, `127.0.0.1,::1`): a client that reaches gunicorn
  directly has its `X-Forwarded-*` headers dropped, so it can name neither its address (the
  rate limits' count) nor a prefix. Behind nginx with TLS, `request.is_secure` is then true and
  cookies go out `Secure`; served under a sub-path (`https://host/rummy/`), the proxy names it
  in `X-Forwarded-Prefix` and every link, redirect and QR code carries it
  (deploy/nginx-rummy-referee-subpath.conf). A prefix that is not a plain path (`//host`,
  `/a/../b`, a scheme, a backslash) is a 400: a link must never leave the site.
- A response to a request that carries an edit token (in its path or as a bearer token), or
  one a view marks with `keep_private()`, is `Cache-Control: no-store`.
- `redact(text)` takes the tokens out of a request line or path, however it is spelt (escapes,
  case): the development server's log uses it here, gunicorn's through `deploy/gunicorn.conf.py`;
  a path with escapes it does not need is answered 404 (`canonical_paths_only`).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final

import flask
from flask import Flask, Response, abort, g, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from flask_babel import gettext
from werkzeug.exceptions import BadRequest, HTTPException, SecurityError
from werkzeug.middleware.proxy_fix import ProxyFix

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

#: Hosts trusted when neither SERVER_NAME nor TRUSTED_HOSTS is configured: this machine only.
LOCAL_HOSTS: Final = ("localhost", "127.0.0.1")

#: An edit link's token, and the token segment of any path under it, however the path is
#: spelt: `/%65dit/`, `edit%2F` and `/EDIT/` reach a log as they were sent.
_EDIT_TOKEN: Final = re.compile(
    r"(?i)((?:/|%2f)(?:e|%65)(?:d|%64)(?:i|%69)(?:t|%74)(?:/|%2f))[^/?#\s\"]+"
)
#: A percent-escape of a character that needs none (RFC 3986's unreserved) or of `/`.
_NEEDLESS_ESCAPE: Final = re.compile(r"(?i)%(2[def]|3[0-9]|[46][1-9a-f]|[57][0-9a]|5f|7e)")
_BEARER: Final = re.compile(r"(?i)(bearer\s+)\S+")
REDACTED: Final = "***"


def redact(text: str) -> str:
    """`text` (a path, a request line, a referrer) with every edit token replaced by `***`."""
    return _BEARER.sub(rf"\g<1>{REDACTED}", _EDIT_TOKEN.sub(rf"\g<1>{REDACTED}", text))


def _listed(value: str | None) -> list[str]:
    return [item.strip() for item in (value or "").split(",") if item.strip()]


def settings_from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """The hosting settings the environment gives (SERVER_NAME, PREFERRED_URL_SCHEME,
    TRUSTED_HOSTS as a comma list, PROXY_FIX as the number of proxies in front)."""
    found: dict[str, Any] = {}
    if environ.get("SERVER_NAME"):
        found["SERVER_NAME"] = environ["SERVER_NAME"].strip()
    if environ.get("PREFERRED_URL_SCHEME"):
        found["PREFERRED_URL_SCHEME"] = environ["PREFERRED_URL_SCHEME"].strip().lower()
    if environ.get("TRUSTED_HOSTS"):
        found["TRUSTED_HOSTS"] = _listed(environ["TRUSTED_HOSTS"])
    if environ.get("PROXY_FIX"):
        found["PROXY_FIX"] = int(environ["PROXY_FIX"])
    if environ.get("FORWARDED_ALLOW_IPS", "").strip():
        found["FORWARDED_ALLOW_IPS"] = proxy_addresses(environ["FORWARDED_ALLOW_IPS"])
    return found


#: The proxy's address when nothing says otherwise: nginx on this machine (gunicorn's default).
LOCAL_PROXIES: Final = "127.0.0.1,::1"


def proxy_addresses(text: str) -> str:
    """`text` when it lists addresses or networks ("127.0.0.1,10.0.0.0/8", or "*" for any),
    else a ValueError naming the one that is not."""
    for item in _listed(text):
        if item != "*":
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(
                    f"FORWARDED_ALLOW_IPS lists addresses or networks, not {item!r}"
                ) from None
    return ",".join(_listed(text))


def configure(app: Flask) -> None:
    """Fill in what the settings leave open: the trusted hosts and the proxies in front."""
    server_name = app.config.get("SERVER_NAME")
    trusted = app.config.get("TRUSTED_HOSTS")
    if isinstance(trusted, str):
        trusted = _listed(trusted)
    if server_name:
        host = str(server_name).rsplit(":", 1)[0] if "]" not in server_name else server_name
        trusted = [*(trusted or []), host]
    if not trusted:
        trusted = list(LOCAL_HOSTS)
    app.config["TRUSTED_HOSTS"] = trusted
    app.wsgi_app = ReadableBodies(app.wsgi_app)  # type: ignore[method-assign]
    proxies = int(app.config.get("PROXY_FIX") or 0)
    if proxies > 0:
        allowed = app.config.get("FORWARDED_ALLOW_IPS") or LOCAL_PROXIES
        app.wsgi_app = TrustedProxy(app.wsgi_app, proxies, allowed)  # type: ignore[method-assign]


#: The headers a proxy sets: dropped from a request that did not come through it.
_FORWARDED: Final = tuple(
    f"HTTP_X_FORWARDED_{name}" for name in ("FOR", "PROTO", "HOST", "PORT", "PREFIX")
)
#: A sub-path as a proxy may name it: plain path segments, nothing that leaves the site.
_PLAIN_PREFIX: Final = re.compile(r"(?:/(?!\.\.?(?:/|$))[A-Za-z0-9._~-]+)*/?")


class TrustedProxy:
    """Werkzeug's ProxyFix for the requests of the proxy at `allowed` (addresses or networks,
    "*" any), its X-Forwarded-Prefix only as a plain path (else a 400); anyone else's
    X-Forwarded-* headers are dropped before the app sees them."""

    def __init__(self, app: WSGIApplication, proxies: int, allowed: str) -> None:
        self.app = app
        self.proxies = proxies
        self.fixed = ProxyFix(app, x_for=proxies, x_proto=proxies, x_host=proxies,
                              x_prefix=proxies)  # fmt: skip
        items = _listed(allowed)
        self.anyone = "*" in items
        self.networks = [ipaddress.ip_network(i, strict=False) for i in items if i != "*"]

    def _from_proxy(self, address: str | None) -> bool:
        if self.anyone:
            return True
        try:
            found = ipaddress.ip_address((address or "").split("%", 1)[0])
        except ValueError:
            return False
        return any(found in network for network in self.networks)

    def _prefix(self, environ: WSGIEnvironment) -> str | None:
        """The prefix ProxyFix would take (the `proxies`-th from the right), when one is sent."""
        sent = environ.get("HTTP_X_FORWARDED_PREFIX")
        if sent is None:
            return None
        values = [value.strip() for value in sent.split(",")]
        return values[-self.proxies] if len(values) >= self.proxies else None

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Any:
        if not self._from_proxy(environ.get("REMOTE_ADDR")):
            for key in _FORWARDED:
                environ.pop(key, None)
            return self.app(environ, start_response)
        prefix = self._prefix(environ)
        if prefix is not None and not _PLAIN_PREFIX.fullmatch(prefix):
            refused = Response("X-Forwarded-Prefix is not a plain path.\n", 400,
                               mimetype="text/plain")  # fmt: skip
            return refused(environ, start_response)
        return self.fixed(environ, start_response)


#: The largest form a page posts as `application/x-www-form-urlencoded`: a round of eight
#: seats with every card typed is a few KB. Files come as multipart (an import: up to
#: MAX_CONTENT_LENGTH, in at most MAX_FORM_PARTS parts).
MAX_FORM_BODY: Final = 64 * 1024


class Request(flask.Request):
    """Flask's request, a form body held to MAX_FORM_BODY (413 past it): a 1 MB form of
    60,000 fields cost 80 ms of parsing alone before any view looked at it."""

    @property
    def max_content_length(self) -> int | None:
        if self._max_content_length is None and self.mimetype == _FORM:
            return MAX_FORM_BODY
        return super().max_content_length

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        self._max_content_length = value


_FORM: Final = "application/x-www-form-urlencoded"


class _ClientBody:
    """The request body as the server hands it over, with any failure to read it (gunicorn's
    `InvalidChunkSize`, `ChunkMissingTerminator`, `NoMoreData` for a malformed or cut-off
    chunked body) turned into a 400: it is the client's, wherever the app reads the body
    first (the language of a JSON body, a form, the API's body reader)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def _read(self, method: str, *args: Any) -> Any:
        try:
            return getattr(self.stream, method)(*args)
        except HTTPException:
            raise
        except Exception:  # whatever the server's reader raises, the body is the client's
            # No words here: the language may be deciding (a JSON body's `lang`) as it is read.
            raise BadRequest() from None

    def read(self, *args: Any) -> bytes:
        return bytes(self._read("read", *args))

    def readline(self, *args: Any) -> bytes:
        return bytes(self._read("readline", *args))

    def readlines(self, *args: Any) -> list[bytes]:
        return list(self._read("readlines", *args))

    def __iter__(self) -> Iterator[bytes]:
        while line := self.readline():
            yield line


class ReadableBodies:
    """Every request's body behind `_ClientBody`: a body that cannot be read is a 400, never
    a 500 (issue 34: a malformed chunked body raised inside the language detection)."""

    def __init__(self, app: WSGIApplication) -> None:
        self.app = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Any:
        if "wsgi.input" in environ:
            environ["wsgi.input"] = _ClientBody(environ["wsgi.input"])
        return self.app(environ, start_response)


def external_values() -> dict[str, Any]:
    """What `url_for` needs for a link that leaves the page: the configured scheme, if any."""
    from flask import current_app

    if current_app.config.get("SERVER_NAME"):
        return {"_external": True, "_scheme": current_app.config["PREFERRED_URL_SCHEME"]}
    return {"_external": True}


# -- secrets in answers -------------------------------------------------------------------------


def keep_private() -> None:
    """Mark this request's answer as holding an edit token: it is never stored by a cache."""
    g.holds_token = True


def _holds_token() -> bool:
    if g.get("holds_token"):
        return True
    if request.view_args and "token" in request.view_args:
        return True
    if _EDIT_TOKEN.search(request.path):  # an error page at an edit link says its path again
        return True
    return request.headers.get("Authorization", "").lower().startswith("bearer")


def no_store_for_tokens(response: Response) -> Response:
    if _holds_token():
        response.headers["Cache-Control"] = "no-store"
    return response


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, `Secure` whenever the request came over https."""

    def get_cookie_secure(self, app: Flask) -> bool:
        configured = super().get_cookie_secure(app)
        return configured or (has_request_context() and request.is_secure)


class RedactingFilter(logging.Filter):
    """Takes edit tokens out of a log record's message (the development server's access log)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            record.args = tuple(
                redact(arg) if isinstance(arg, str) else arg
                for arg in (record.args if isinstance(record.args, tuple) else (record.args,))
            )
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def canonical_paths_only() -> None:
    """A path spelt with escapes it does not need (`/games/x/%65dit/...`, `edit%2F...`) is a
    404: one address per page, so that no log, cache or filter is fooled by a second one."""
    raw = request.environ.get("RAW_URI") or request.environ.get("REQUEST_URI") or ""
    if _NEEDLESS_ESCAPE.search(raw.split("?", 1)[0]):
        abort(404)


def _untrusted_host(_error: SecurityError) -> Response:
    """Answered before routing and without a page (a page would build links on that host):
    JSON under /api/, as every answer there is, plain text elsewhere."""
    message = gettext("This server does not answer to that host name.")
    if request.path.startswith("/api/"):
        body = {"error": {"code": "bad_request", "message": message}}
        return Response(json.dumps(body, ensure_ascii=False), 400, mimetype="application/json")
    return Response(message + "\n", 400, mimetype="text/plain")


def init_app(app: Flask) -> None:
    app.request_class = Request
    configure(app)
    app.register_error_handler(SecurityError, _untrusted_host)
    app.session_interface = SessionInterface()
    app.after_request(no_store_for_tokens)
    app.before_request(canonical_paths_only)
    # The development server's access log, and Flask's "Exception on <path>" in the error log.
    for logger in (logging.getLogger("werkzeug"), app.logger):
        if not any(isinstance(f, RedactingFilter) for f in logger.filters):
            logger.addFilter(RedactingFilter())
