"""gunicorn's settings for Rummy Referee: `gunicorn -c deploy/gunicorn.conf.py wsgi:app`.

Behind nginx (deploy/nginx-rummy-referee.conf) on this machine's port 8000. Every setting
can be changed from the environment the systemd unit (deploy/rummy-referee.service) gives.
The access log never shows an edit token: paths and referrers go through `hosting.redact`.
"""

from __future__ import annotations

import gc
import os
import shutil
import signal
from pathlib import Path
from typing import Any

from gunicorn.glogging import Logger

from referee.web.plumbing.hosting import redact

# This machine only: nginx in front is what the world talks to. It reads each request whole
# (client_header_timeout, proxy_request_buffering) before gunicorn sees it, so a client that
# sends its headers slowly holds an nginx connection, not a worker.
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")


def _on_postgresql() -> bool:
    """Whether the app's database is PostgreSQL (DATABASE_URL or DATABASE_URL_FILE)."""
    url = os.environ.get("DATABASE_URL", "")
    named = os.environ.get("DATABASE_URL_FILE")
    if not url and named and Path(named).is_file():
        url = Path(named).read_text().strip()
    return url.startswith(("postgres://", "postgresql"))


# The live push (docs/DEPLOY.md, "Live"): on SQLite a stream hears only the writes of its own
# worker process, so SQLite is served by one worker (its threads hold the streams); on
# PostgreSQL every worker LISTENs and hears every write.
workers = int(
    os.environ.get(
        "GUNICORN_WORKERS",
        str(min(2 * (os.cpu_count() or 1) + 1, 9)) if _on_postgresql() else "1",
    )
)
# Workers that hold open streams on an event loop (issue 35): each worker runs uvicorn's loop
# with the Flask app in `threads` threads (referee/web/live/worker.py and front.py). A request
# runs in a thread exactly as under a threaded WSGI server; a page's stream (text/event-stream)
# answers its first event from a thread and then waits on the loop, holding a socket and a few
# KB, no thread: one worker holds thousands (bench/streams.py). A socket that sends its headers
# slowly waits on the loop too, never in a thread (issue 23). `threads` is the requests a worker
# runs at once: the slowest (a first rule card, a hard solve) take under a second.
worker_class = "referee.web.live.worker.LiveWorker"
threads = int(os.environ.get("GUNICORN_THREADS", "32"))
# Load the app once in the master: workers share its memory and start in milliseconds.
preload_app = True

# Limits: a request line holds at most a rule card's house rules (4,000 characters of JSON,
# escaped); headers stay small. Past them gunicorn refuses before the app sees anything.
limit_request_line = 8190
limit_request_fields = 60
limit_request_field_size = 8190
# A worker stuck this long is killed and replaced; the slowest request (a first rule card,
# a hard solve) takes about a second.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30
keepalive = 5
# Workers are replaced now and then, so memory never creeps.
max_requests = 5000
max_requests_jitter = 500

# X-Forwarded-Proto from nginx on this machine marks https requests (the app's PROXY_FIX=1
# reads the same headers for links and Secure cookies).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")

accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
errorlog = os.environ.get("GUNICORN_ERROR_LOG", "-")
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms "%(f)s" "%(a)s"'


class RedactingLogger(Logger):
    """gunicorn's logger, with edit tokens taken out of request lines, paths and referrers."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        for key in ("r", "U", "f"):
            if isinstance(atoms.get(key), str):
                atoms[key] = redact(atoms[key])
        return atoms


logger_class = RedactingLogger


def when_ready(server: Any) -> None:
    """The loaded app (preload_app) is kept out of the garbage collector's full collections
    (`gc.freeze`), in the master and so in every worker forked from it: a collection then goes
    over what requests made, not over the whole app, and pages stay shared between workers.
    A body that makes many objects (a 64 KB list) costs its own work, not the app's size
    (issue 34: a full collection of the app took 45 ms; tests/web/api/test_request_cost.py)."""
    gc.collect()
    gc.freeze()


def on_starting(server: Any) -> None:
    """With METRICS=1 and several workers, the workers' figures meet in one empty folder."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
        Path(folder).mkdir(parents=True, exist_ok=True)


def child_exit(server: Any, worker: Any) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_flask_exporter.multiprocess import GunicornInternalPrometheusMetrics

        GunicornInternalPrometheusMetrics.mark_process_dead_on_child_exit(worker.pid)


def post_worker_init(worker: Any) -> None:
    """A worker told to stop (SIGTERM: a deploy, a restart) ends its pages' streams at once,
    so its graceful shutdown waits for short requests only; browsers open their streams again
    on the workers that go on. (The live worker does so itself, as its loop begins to stop.)"""
    from referee.web.live.hub import drain

    if getattr(worker, "drains_streams", False):
        return

    stopping = signal.getsignal(signal.SIGTERM)

    def stop(signum: int, frame: Any) -> None:
        drain()
        if callable(stopping):
            stopping(signum, frame)

    signal.signal(signal.SIGTERM, stop)
