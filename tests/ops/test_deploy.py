"""deploy/: gunicorn started with deploy/gunicorn.conf.py, and nginx with the site in
deploy/nginx-rummy-referee.conf in front of it (TLS with a throwaway certificate): health,
https links and Secure cookies through the proxy, HSTS, gunicorn's limits, JSON 413/414/431
under /api/, and access logs without edit tokens."""

from __future__ import annotations

import http.client
import json
import os
import re
import runpy
import shutil
import signal
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from processes import free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


@dataclass
class Served:
    gunicorn_port: int
    nginx_port: int
    gunicorn_log: Path
    nginx_log: Path


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    base = tmp_path_factory.mktemp("deploy")
    gunicorn_port, nginx_port = free_port(), free_port()
    gunicorn_log = base / "gunicorn.log"
    env = {
        **os.environ,
        "GUNICORN_BIND": f"127.0.0.1:{gunicorn_port}",
        "GUNICORN_WORKERS": "2",
        "RUMMY_INSTANCE_PATH": str(base / "instance"),
        "DATABASE_URL": f"sqlite:///{base / 'rummy.sqlite3'}",
        "SECRET_KEY": "deploy test",
        "SERVER_NAME": "localhost",
        "PREFERRED_URL_SCHEME": "https",
        "PROXY_FIX": "1",
    }
    with gunicorn_log.open("wb") as log:
        gunicorn = subprocess.Popen(
            [str(ROOT / ".venv/bin/gunicorn"), "-c", str(DEPLOY / "gunicorn.conf.py"), "wsgi:app"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    nginx = _start_nginx(base, gunicorn_port, nginx_port)
    try:
        wait_for(gunicorn_port, gunicorn, gunicorn_log)
        wait_for(nginx_port, nginx, base / "error.log")
        yield Served(gunicorn_port, nginx_port, gunicorn_log, base / "access.log")
    finally:
        for process in (nginx, gunicorn):
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def _start_nginx(base: Path, upstream: int, port: int) -> subprocess.Popen[bytes]:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.fail("nginx is not installed: run scripts/setup (dev installs nginx-light)")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-keyout", str(base / "key.pem"), "-out", str(base / "cert.pem"),
         "-subj", "/CN=localhost"],
        check=True, capture_output=True,
    )  # fmt: skip
    site = (DEPLOY / "nginx-rummy-referee.conf").read_text()
    site = site.replace("127.0.0.1:8000", f"127.0.0.1:{upstream}")
    site = site.replace("rummy.example.org", "localhost")
    site = re.sub(r"/etc/letsencrypt/live/localhost/fullchain.pem", str(base / "cert.pem"), site)
    site = re.sub(r"/etc/letsencrypt/live/localhost/privkey.pem", str(base / "key.pem"), site)
    site = site.replace("/var/log/nginx/rummy-referee.access.log", str(base / "access.log"))
    site = site.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{port} ssl http2;")
    site = site.replace("listen [::]:443 ssl http2;", "")
    site = site.replace("listen 80;", f"listen 127.0.0.1:{free_port()};")
    site = site.replace("listen [::]:80;", "")
    (base / "site.conf").write_text(site)
    (base / "nginx.conf").write_text(
        f"daemon off;\nworker_processes 1;\npid {base / 'nginx.pid'};\n"
        f"error_log {base / 'error.log'};\nevents {{ worker_connections 64; }}\n"
        f"http {{\n  client_body_temp_path {base};\n  proxy_temp_path {base};\n"
        f"  include {base / 'site.conf'};\n}}\n"
    )
    checked = subprocess.run([nginx, "-t", "-c", str(base / "nginx.conf"), "-p", str(base)],
                             capture_output=True, text=True)  # fmt: skip
    assert checked.returncode == 0, checked.stderr
    with (base / "nginx.out").open("wb") as out:
        return subprocess.Popen(
            [nginx, "-c", str(base / "nginx.conf"), "-p", str(base)],
            stdout=subprocess.DEVNULL, stderr=out,
        )  # fmt: skip


def _https(served: Served) -> http.client.HTTPSConnection:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return http.client.HTTPSConnection("127.0.0.1", served.nginx_port, context=context, timeout=30)


def _ask(
    served: Served,
    method: str,
    path: str,
    body: object = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    connection = _https(served)
    data = json.dumps(body) if body is not None else None
    connection.request(method, path, body=data,
                       headers={"Host": "localhost", "Content-Type": "application/json",
                                **(headers or {})})  # fmt: skip
    response = connection.getresponse()
    payload = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, payload


def test_health_through_nginx_with_hsts(served: Served) -> None:
    status, headers, body = _ask(served, "GET", "/healthz")
    assert status == 200 and json.loads(body)["status"] == "ok"
    assert headers["strict-transport-security"].startswith("max-age=63072000")
    assert "set-cookie" not in headers


def test_links_are_https_on_the_configured_host_and_cookies_are_secure(served: Served) -> None:
    status, headers, body = _ask(
        served, "POST", "/api/v1/games", {"variant": "contract", "players": ["Ann", "Bo", "Cy"]}
    )
    game = json.loads(body)
    assert status == 201 and game["edit_url"].startswith("https://localhost/games/")
    assert headers["cache-control"] == "no-store"
    # A made-up Host is not answered (only SERVER_NAME's).
    assert _ask(served, "GET", "/healthz", headers={"Host": "evil.example"})[0] == 400
    path = game["edit_url"].removeprefix("https://localhost")
    status, headers, _ = _ask(served, "GET", path)
    assert status == 200 and "Secure" in headers["set-cookie"]
    assert headers["cache-control"] == "no-store"
    time.sleep(0.5)  # the access logs are written after the answer
    for log in (served.nginx_log, served.gunicorn_log):
        text = log.read_text()
        assert "/edit/***" in text and game["edit_token"] not in text, log


def test_nginx_answers_too_large_too_long_and_too_many_headers_as_json_under_api(
    served: Served,
) -> None:
    # A body announced as 2 MB is refused before it is sent.
    connection = _https(served)
    connection.putrequest("POST", "/api/v1/meld", skip_host=True)
    for name, value in (("Host", "localhost"), ("Content-Type", "application/json"),
                        ("Content-Length", "2000000")):  # fmt: skip
        connection.putheader(name, value)
    connection.endheaders()
    response = connection.getresponse()
    assert response.status == 413
    assert json.loads(response.read())["error"]["code"] == "payload_too_large"
    connection.close()
    status, _, body = _ask(served, "GET", "/api/v1/games/" + "x" * 9_000)
    assert status == 414 and json.loads(body)["error"]["code"] == "uri_too_long"
    status, _, body = _ask(served, "GET", "/api/v1/variants", headers={"X-Big": "y" * 9_000})
    assert status == 431 and json.loads(body)["error"]["code"] == "headers_too_large"
    status, headers, body = _ask(served, "GET", "/rules/" + "x" * 9_000)
    assert status == 414 and not headers["content-type"].startswith("application/json")


def test_gunicorn_refuses_a_request_line_over_its_limit(served: Served) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", served.gunicorn_port, timeout=30)
    connection.request("GET", "/rules/contract?house_rules=" + "x" * 9000)
    response = connection.getresponse()
    assert 400 <= response.status < 500
    connection.close()
    connection = http.client.HTTPConnection("127.0.0.1", served.gunicorn_port, timeout=30)
    connection.request("GET", "/healthz", headers={"Host": "localhost"})
    assert connection.getresponse().status == 200
    connection.close()


# -- rate and connection limits, slow clients (issue 23) ----------------------------------------


def test_the_configs_keep_slow_clients_and_floods_off_the_workers() -> None:
    site = (DEPLOY / "nginx-rummy-referee.conf").read_text()
    for directive in (
        "client_header_timeout 10s;",
        "client_body_timeout 10s;",
        "send_timeout 30s;",
        "proxy_request_buffering on;",
        "limit_conn rummy_connections 100;",
        "limit_req zone=rummy_requests",
        "limit_req zone=rummy_writes",
        "limit_req zone=rummy_solve",
        "limit_req_status 429;",
        "limit_conn_status 429;",
    ):
        assert directive in site, directive
    solve = site[site.index("location = /api/v1/solve {") :]
    solve = solve[: solve.index("}")]
    # A location with a limit_req of its own inherits none: it names every zone again.
    assert solve.count("limit_req zone=") == 3
    settings = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    assert settings["bind"].startswith("127.0.0.1:")  # only nginx, on this machine, talks to it
    # Streams and slow sockets wait on each worker's event loop; requests run in its threads.
    assert settings["worker_class"] == "referee.web.live.worker.LiveWorker"
    assert settings["threads"] >= 16


def test_nginx_answers_429_in_json_past_the_solvers_rate(served: Served) -> None:
    """30 solves a minute with a burst of 10: twenty sent at once, some are refused."""
    body = {"variant": "contract", "round": 1, "hand": "7H 7S 7D KC KD KS 2C 9H"}
    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(lambda _: _ask(served, "POST", "/api/v1/solve", body), range(20)))
    took = time.monotonic() - started
    statuses = sorted(status for status, _, _ in answers)
    # One at once and a burst of ten, and one more every 2 s that the sending took.
    assert 11 <= statuses.count(200) <= 11 + took / 2 + 1, (statuses, took)
    assert set(statuses) == {200, 429}, statuses
    for status, headers, payload in answers:
        if status == 429:
            assert headers["content-type"] == "application/json"
            assert json.loads(payload)["error"]["code"] == "too_many_requests"
            assert headers["retry-after"] == "10"
    # Other calls have their own, larger allowance.
    meld = {"variant": "contract", "cards": "5H 6H 7H"}
    assert _ask(served, "POST", "/api/v1/meld", meld)[0] == 200


def _slow_headers(port: int, *, tls: bool) -> socket.socket:
    """A client that sends the start of its headers and then nothing more."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    if tls:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        raw = context.wrap_socket(raw, server_hostname="localhost")
    raw.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
    return raw


def test_slow_header_sockets_starve_neither_nginx_nor_gunicorn(served: Served) -> None:
    """Four sockets that never finish their headers held every sync worker for 30 s. Now six
    (of the test's 2 workers x 4 threads) leave the health check answered at once, straight
    from gunicorn; through nginx, a dozen never reach gunicorn at all."""
    slow = [_slow_headers(served.gunicorn_port, tls=False) for _ in range(6)]
    slow += [_slow_headers(served.nginx_port, tls=True) for _ in range(12)]
    try:
        time.sleep(0.5)
        started = time.monotonic()
        direct = http.client.HTTPConnection("127.0.0.1", served.gunicorn_port, timeout=5)
        direct.request("GET", "/healthz", headers={"Host": "localhost"})
        assert direct.getresponse().status == 200
        direct.close()
        assert _ask(served, "GET", "/healthz")[0] == 200
        assert time.monotonic() - started < 5
    finally:
        for sock in slow:
            sock.close()


def test_an_edit_link_spelt_with_escapes_is_a_404_and_never_logged(served: Served) -> None:
    """`/%65dit/<token>` and `edit%2F<token>` opened the edit page and were logged as they
    came: now a 404, and both access logs show `***` where the token was."""
    _, _, body = _ask(
        served, "POST", "/api/v1/games", {"variant": "contract", "players": ["Ann", "Bo", "Cy"]}
    )
    game = json.loads(body)
    token, game_id = game["edit_token"], game["id"]
    spelt = ("%65dit/", "edit%2F", "%2Fedit%2F", "EDIT/")
    for path in (f"/games/{game_id}/{way}{token}" for way in spelt):
        assert _ask(served, "GET", path)[0] == 404, path
    time.sleep(0.5)  # the access logs are written after the answer
    for log in (served.nginx_log, served.gunicorn_log):
        text = log.read_text()
        assert token not in text and "%65dit/***" in text and "edit%2F***" in text, log


def test_a_stream_comes_through_nginx_unbuffered_with_the_configs_saying_so(
    served: Served,
) -> None:
    """The first event of a game's stream reaches the client at once through nginx (a proxy
    that buffered would hold it for the stream's whole lifetime)."""
    status, _, body = _ask(served, "POST", "/api/v1/games",
                           {"variant": "contract", "players": ["Ann", "Bo", "Cy"]})  # fmt: skip
    assert status == 201
    game = json.loads(body)
    connection = _https(served)
    connection.timeout = 5
    connection.request("GET", f"/games/{game['id']}/stream", headers={"Host": "localhost"})
    response = connection.getresponse()
    assert response.status == 200
    assert response.getheader("Content-Type", "").startswith("text/event-stream")
    lines = [response.readline() for _ in range(3)]  # retry:, id:, data:
    assert f"id: {game['version']}\n".encode() in lines
    connection.close()
    for name in ("nginx-rummy-referee.conf", "nginx-rummy-referee-subpath.conf"):
        site = (DEPLOY / name).read_text()
        stream = site[site.index("/stream$ {") :]
        stream = stream[: stream.index("}")]
        assert "proxy_buffering off;" in stream and "proxy_read_timeout 60s;" in stream, name
    assert "listen 443 ssl http2;" in (DEPLOY / "nginx-rummy-referee.conf").read_text()


# -- issue 34: a malformed chunked body, a forged prefix ------------------------------------------


def _raw(port: int, request: bytes) -> tuple[int, bytes]:
    """`request` sent as it is to gunicorn: the answer's status and body."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


@pytest.mark.parametrize(
    "chunks",
    [
        b'zz\r\n{"variant": "contract"}\r\n0\r\n\r\n',  # a size that is no number
        b"-1\r\nx\r\n0\r\n\r\n",  # a negative size
        b"3\r\nabcdef\r\n0\r\n\r\n",  # more data than the size said
        b"3\r\nabc\r\n0\r\nTrailer\r\n\r\n",  # a trailer that is no header
    ],
)
@pytest.mark.parametrize(
    ("path", "kind"),
    [("/api/v1/meld", "application/json"), ("/", "application/x-www-form-urlencoded")],
)
def test_a_malformed_chunked_body_is_a_400_under_gunicorn(
    served: Served, chunks: bytes, path: str, kind: str
) -> None:
    """Issue 34: gunicorn's chunk reader raised inside the language detection: a 500."""
    head = (f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {kind}\r\n"
            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")  # fmt: skip
    status, body = _raw(served.gunicorn_port, head.encode() + chunks)
    assert status == 400, body[:300]
    if path.startswith("/api/"):
        assert json.loads(body)["error"]["code"] == "bad_request"
    assert _ask(served, "GET", "/healthz")[0] == 200  # the worker is fine


def test_gunicorn_reached_directly_never_sends_a_link_off_site(served: Served) -> None:
    """Issue 34: `X-Forwarded-Prefix: //evil.example` (PROXY_FIX=1, gunicorn reached directly)
    sent redirects and links off-site. From this machine (the proxy's address) it is a 400."""
    head = ("GET /rules/zioncheck HTTP/1.1\r\nHost: localhost\r\n"
            "X-Forwarded-Prefix: //evil.example\r\nConnection: close\r\n\r\n")  # fmt: skip
    status, body = _raw(served.gunicorn_port, head.encode())
    assert status == 400 and b"evil" not in body
