"""gunicorn's worker for Rummy Referee: uvicorn's event loop serving the ASGI front.

deploy/gunicorn.conf.py names it (`worker_class`), so `rummy-referee serve`, the systemd unit
and any `gunicorn -c deploy/gunicorn.conf.py wsgi:app` run it: gunicorn stays the master
(workers, preloading, reloads, max_requests, the timeout), each worker runs one event loop
(uvicorn, h11: a request's head is bounded) and the Flask app in `threads` threads
(live/front.py). From gunicorn's settings it keeps what its own workers did: the request
limits, `https` from a trusted proxy, the access log in `access_log_format` through gunicorn's
logger (deploy's RedactingLogger: no edit token in it), `keepalive`, `graceful_timeout`.

A worker told to stop (SIGTERM, a reload, max_requests) ends its streams at once (hub.drain)
before it waits for the requests in progress: each browser opens its stream again on a worker
that goes on, after the stream's `retry`.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from types import SimpleNamespace
from typing import Any, ClassVar

import h11
from gunicorn.arbiter import Arbiter
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import Server
from uvicorn_worker import UvicornWorker

from .front import Forwarded, Front, Message, Receive, RequestLimits, Scope, Send
from .hub import drain

#: The most a request's line and headers may take together before h11 refuses it (400).
HEAD_BYTES = 64 * 1024


#: What a request under /api/ that the server cannot read is answered (SPEC: every answer of the
#: API is JSON, its errors too); no language is known yet, so the API's default, English.
UNREADABLE = json.dumps(
    {"error": {"code": "bad_request", "message": "The request could not be read."}}
).encode()


class ReadingProtocol(H11Protocol):
    """h11's protocol, whose 400 for a request it cannot read (a malformed chunked body, a
    broken head) is JSON under /api/, as every answer there is; plain text elsewhere."""

    def send_400_response(self, msg: str) -> None:
        scope = getattr(self, "scope", None)
        path = scope.get("path", "") if scope else ""
        if "/api/" not in path:
            super().send_400_response(msg)
            return
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(UNREADABLE)).encode()),
            (b"connection", b"close"),
        ]
        for event in (
            h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
            h11.Data(data=UNREADABLE),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()


class DrainingServer(Server):
    """uvicorn's server, ending every open stream before it waits for responses to finish."""

    async def shutdown(self, sockets: Any = None) -> None:
        drain()
        await super().shutdown(sockets=sockets)


class LiveWorker(UvicornWorker):
    """See the module's docstring."""

    CONFIG_KWARGS: ClassVar[dict[str, Any]] = {
        "loop": "asyncio",
        "http": ReadingProtocol,
        "proxy_headers": False,
        "access_log": False,
    }
    #: gunicorn.conf.py's post_worker_init leaves stopping to the worker.
    drains_streams = True
    wsgi: Any  # what gunicorn loaded; load_wsgi puts the front around it

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.config.timeout_graceful_shutdown = self.cfg.graceful_timeout
        self.config.h11_max_incomplete_event_size = HEAD_BYTES
        self.config.server_header = False

    def load_wsgi(self) -> None:
        super().load_wsgi()
        cfg = self.cfg
        front = Front(
            self.wsgi,  # the Flask app gunicorn loaded (in the master: preload_app)
            threads=max(4, cfg.threads),
            limits=RequestLimits(
                line=cfg.limit_request_line,
                fields=cfg.limit_request_fields,
                field_size=cfg.limit_request_field_size,
            ),
            forwarded=Forwarded(
                allowed=tuple(cfg.forwarded_allow_ips),
                secure={k.lower(): v for k, v in cfg.secure_scheme_headers.items()},
            ),
        )
        self.wsgi = AccessLog(front, self.log)

    async def _serve(self) -> None:  # uvicorn_worker's, with the draining server
        self.config.app = self.wsgi
        server = DrainingServer(config=self.config)
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)


class AccessLog:
    """One line per request through gunicorn's logger (`log.access`), as its workers write."""

    def __init__(self, app: Any, log: Any) -> None:
        self.app, self.log = app, log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        answer = SimpleNamespace(status="500", sent=0, headers=[])

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer.status = str(message["status"])
                answer.headers = [(k.decode("latin-1"), v.decode("latin-1"))
                                  for k, v in message.get("headers", ())]  # fmt: skip
            elif message["type"] == "http.response.body":
                answer.sent += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            took = timedelta(seconds=time.perf_counter() - started)
            headers = list(_headers(scope))
            self.log.access(answer, headers, _environ(scope, headers), took)


def _headers(scope: Scope) -> Iterator[tuple[str, str]]:
    for name, value in scope.get("headers") or ():
        yield name.decode("latin-1"), value.decode("latin-1")


def _environ(scope: Scope, headers: list[tuple[str, str]]) -> dict[str, str]:
    """What gunicorn's log atoms read of a WSGI environ."""
    query = scope.get("query_string", b"").decode("latin-1")
    raw = (scope.get("raw_path") or scope["path"].encode()).decode("latin-1")
    environ = {
        "REMOTE_ADDR": (scope.get("client") or ("-",))[0],
        "REQUEST_METHOD": scope["method"],
        "RAW_URI": raw + (f"?{query}" if query else ""),
        "PATH_INFO": scope["path"],
        "QUERY_STRING": query,
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
    }
    for name, value in headers:
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    return environ
