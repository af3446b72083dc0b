"""The ASGI front: the Flask app in a pool of threads, its open streams on the event loop.

`Front(wsgi_app, threads=...)` is what each worker of `rummy-referee serve` (gunicorn with
deploy/gunicorn.conf.py: live/worker.py, uvicorn's event loop) serves. Every request goes to
the Flask app through a2wsgi, in a thread of a pool of `threads`, exactly as a threaded WSGI
server would run it: the app's hooks, errors, limits and headers are the same for a stream as
for a page. A stream's view answers its first chunk from that thread and hands the rest over
(live/handoff.py); once that chunk is sent the front carries the stream on here, waiting on the
hub with no thread held, until its lifetime ends, the process drains its streams (hub.drain),
or the client goes away (`http.disconnect`: its place in the hub is given back at once).

What gunicorn's own HTTP handling did for the app, the front keeps: the request line and
header limits of its settings (`RequestLimits`: 414 and 431 before the app sees anything) and
`https` from `X-Forwarded-Proto` sent by an address in `forwarded_allow_ips` (gunicorn's
`secure_scheme_headers`). The client address is the socket's: PROXY_FIX, in the app, reads the
proxy's `X-Forwarded-For` as before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any, cast

from a2wsgi import WSGIMiddleware

from .handoff import CURRENT, Handoff

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True)
class RequestLimits:
    """gunicorn's limit_request_line, limit_request_fields, limit_request_field_size (0: none)."""

    line: int = 8190
    fields: int = 100
    field_size: int = 8190

    def refusal(self, scope: Scope) -> int | None:
        """414 or 431 for a request past a limit, else None."""
        target = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"") + 1
        if self.line and len(scope["method"]) + target + len(" HTTP/1.1") > self.line:
            return 414
        headers = scope.get("headers") or ()
        if self.fields and len(headers) > self.fields:
            return 431
        if self.field_size and any(len(k) + len(v) + 2 > self.field_size for k, v in headers):
            return 431
        return None


@dataclass(frozen=True)
class Forwarded:
    """Which peers may say the request came over https, and by which headers (gunicorn's
    forwarded_allow_ips and secure_scheme_headers)."""

    allowed: Collection[str] = ("127.0.0.1", "::1")
    secure: Mapping[str, str] = field(default_factory=dict)

    def scheme(self, scope: Scope) -> str:
        client = scope.get("client")
        trusted = client and ("*" in self.allowed or client[0] in self.allowed)
        if not self.secure or not trusted:
            return str(scope.get("scheme", "http"))
        for name, value in scope.get("headers") or ():
            said = self.secure.get(name.decode("latin-1").lower())
            if said is not None and value.decode("latin-1").strip().lower() == said.lower():
                return "https"
        return str(scope.get("scheme", "http"))


class Front:
    """The ASGI app around the Flask (WSGI) app: see the module's docstring."""

    def __init__(
        self,
        wsgi_app: Any,
        *,
        threads: int,
        limits: RequestLimits | None = None,
        forwarded: Forwarded | None = None,
    ) -> None:
        self.app = cast(App, WSGIMiddleware(_with_raw_uri(wsgi_app), workers=threads))
        self.limits = limits or RequestLimits()
        self.forwarded = forwarded or Forwarded()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)  # a websocket: a2wsgi closes it
            return
        refused = self.limits.refusal(scope)
        if refused is not None:
            await _plain(send, refused)
            return
        scope = {**scope, "scheme": self.forwarded.scheme(scope)}
        carried = Handoff()
        token = CURRENT.set(carried)  # the app's thread runs in a copy of this context
        sending = _Carrying(send, receive, carried)
        try:
            await self.app(scope, receive, sending)
            # The WSGI side is done (its thread, its environ and request are let go): the
            # stream goes on from here, then ends as the app's answer ended.
            if sending.last is not None:
                await sending.carry_on()
                await send(sending.last)
        finally:
            CURRENT.reset(token)
            carried.close()


class _Carrying:
    """`send` as the app's answer goes out, holding back the end of a 200 whose view handed
    its rest over (`last`): the front sends the rest before it."""

    def __init__(self, send: Send, receive: Receive, carried: Handoff) -> None:
        self.send, self.receive, self.carried = send, receive, carried
        self.status = 0
        self.last: Message | None = None

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = int(message["status"])
        elif (
            message["type"] == "http.response.body"
            and not message.get("more_body", False)
            and self.carried.rest is not None
            and self.status == 200
        ):
            self.last = message
            return
        await self.send(message)

    async def carry_on(self) -> None:
        rest, self.carried.rest = self.carried.rest, None
        if rest is None:
            return
        gone = asyncio.create_task(self.until_gone())
        try:
            async for text in rest():
                await self.send(
                    {"type": "http.response.body", "body": text.encode(), "more_body": True}
                )
        finally:
            gone.cancel()
            self.carried.close()

    async def until_gone(self) -> None:
        """The client went away: the stream ends now, not at its next heartbeat."""
        while (await self.receive())["type"] != "http.disconnect":
            pass
        self.carried.close()


def _with_raw_uri(app: Any) -> Any:
    """The WSGI app, given the request's target as the client sent it (`RAW_URI`, as gunicorn
    and werkzeug give it: hosting.py refuses paths spelt with escapes they do not need)."""

    def with_raw_uri(environ: dict[str, Any], start_response: Any) -> Any:
        scope = environ.get("asgi.scope") or {}
        raw = (scope.get("raw_path") or environ.get("PATH_INFO", "").encode()).decode("latin-1")
        query = environ.get("QUERY_STRING", "")
        environ.setdefault("RAW_URI", raw + (f"?{query}" if query else ""))
        environ.setdefault("REQUEST_URI", environ["RAW_URI"])
        return app(environ, start_response)

    return with_raw_uri


async def _plain(send: Send, status: int) -> None:
    body = {414: b"Request line too large\n", 431: b"Request headers too large\n"}[status]
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
