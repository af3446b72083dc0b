"""The app at http://host/rummy/ in Chromium, through nginx with
deploy/nginx-rummy-referee-subpath.conf in a site that serves other things at its top, and
gunicorn with deploy/gunicorn.conf.py behind it (PROXY_FIX=1): the start page, a game started
and a round entered by thumb, the language switch, the QR codes, the service worker registered
with the prefixed scope and its caches named with it (a kept page opens without signal), the
API docs page, and the JSON 413 under /rummy/api/. Plain http on 127.0.0.1: a secure context,
so the service worker registers without a certificate."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from processes import free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
PREFIX = "/rummy"


def _nginx_conf(base: Path, upstream: int, port: int) -> Path:
    """The main site's http-level part (upstream, maps, log format) and a server of another
    site that includes the sub-path snippet, as docs/DEPLOY.md says."""
    site = (DEPLOY / "nginx-rummy-referee.conf").read_text()
    http_part = site[: site.index("\nserver {")].replace("127.0.0.1:8000", f"127.0.0.1:{upstream}")
    snippet = (DEPLOY / "nginx-rummy-referee-subpath.conf").read_text()
    snippet = snippet.replace("/var/log/nginx/rummy-referee.access.log", str(base / "access.log"))
    (base / "subpath.conf").write_text(snippet)
    conf = base / "nginx.conf"
    conf.write_text(
        f"daemon off;\nworker_processes 1;\npid {base / 'nginx.pid'};\n"
        f"error_log {base / 'error.log'};\nevents {{ worker_connections 64; }}\n"
        f"http {{\n  client_body_temp_path {base};\n  proxy_temp_path {base};\n"
        f"  access_log {base / 'site.log'};\n{http_part}\n"
        f"  server {{\n    listen 127.0.0.1:{port};\n    server_name localhost;\n"
        f"    location / {{ default_type text/plain; return 200 'the site itself\\n'; }}\n"
        f"    include {base / 'subpath.conf'};\n  }}\n}}\n"
    )
    return conf


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The site's base URL (the app is at its /rummy/) and nginx's access log of the app."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.fail("nginx is not installed: run scripts/setup (dev installs nginx-light)")
    base = tmp_path_factory.mktemp("subpath")
    upstream, port = free_port(), free_port()
    env = {
        **os.environ,
        "GUNICORN_BIND": f"127.0.0.1:{upstream}",
        "GUNICORN_WORKERS": "2",
        "RUMMY_INSTANCE_PATH": str(base / "instance"),
        "DATABASE_URL": f"sqlite:///{base / 'rummy.sqlite3'}",
        "SECRET_KEY": "sub-path test",
        "PROXY_FIX": "1",
        "XDG_RUNTIME_DIR": str(base),  # gunicorn's control socket
    }
    log = base / "gunicorn.log"
    with log.open("wb") as out:
        gunicorn = subprocess.Popen(
            [str(ROOT / ".venv/bin/gunicorn"), "-c", str(DEPLOY / "gunicorn.conf.py"), "wsgi:app"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    conf = _nginx_conf(base, upstream, port)
    checked = subprocess.run([nginx, "-t", "-c", str(conf), "-p", str(base)],
                             capture_output=True, text=True)  # fmt: skip
    assert checked.returncode == 0, checked.stderr
    with (base / "nginx.out").open("wb") as out:
        server = subprocess.Popen([nginx, "-c", str(conf), "-p", str(base)],
                                  stdout=subprocess.DEVNULL, stderr=out)  # fmt: skip
    try:
        wait_for(upstream, gunicorn, log, seconds=60)
        wait_for(port, server, base / "error.log", seconds=60)
        yield f"http://127.0.0.1:{port}", base / "access.log"
    finally:
        for process in (server, gunicorn):
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def test_a_game_under_a_sub_path_in_chromium(
    page: Page, site: tuple[str, Path], console_errors: list[str], screenshot_dir: Path
) -> None:
    server, access_log = site
    app = server + PREFIX
    page.goto(server + PREFIX)  # nginx adds the slash
    expect(page).to_have_url(app + "/")
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    for seat, name in enumerate(["Ann", "Bo", "Cy"]):
        page.locator(f"#players-{seat}").fill(name)
    page.get_by_role("button", name="Start the game").tap()
    page.wait_for_url(re.compile(rf"{re.escape(app)}/games/[^/]+/edit/[^/]+$"))
    edit_url = page.url
    token = edit_url.rsplit("/", 1)[1]

    # A round by thumb: the form posts (htmx) under the prefix and the page moves on.
    page.locator("label.out-toggle:has(#went-out-0)").tap()
    page.locator("#seat-1-penalty").fill("25")
    page.locator("#seat-2-penalty").fill("40")
    page.get_by_role("button", name="Save the round").tap()
    expect(page.locator("#form-title")).to_contain_text("Enter round 2")
    expect(page.locator(".score-table tfoot td")).to_have_text(["0", "25", "40"])
    page.screenshot(path=str(screenshot_dir / "subpath-round-2.png"), full_page=True)

    # The service worker: registered at /rummy/sw.js, its scope the app and not the site.
    scope = page.evaluate("() => navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == app + "/"
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    caches = page.evaluate("() => caches.keys()")
    assert caches and all(name.startswith(PREFIX + "/") for name in caches), caches
    assert any(name.startswith(PREFIX + "/shell-") for name in caches), caches

    # The QR codes load from the prefixed address.
    page.locator(".share summary").first.tap()
    qr = page.locator("img.qr").first
    expect(qr).to_have_attribute("src", re.compile(rf"^{PREFIX}/games/[^/]+/qr\.svg$"))
    qr.scroll_into_view_if_needed()  # loading="lazy"
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=qr.element_handle())

    # The language switch comes back to the same page under the prefix.
    page.locator(".lang-picker summary").tap()
    page.locator('.lang-picker a[hreflang="de"]').tap()
    page.wait_for_url(edit_url)
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator(".score-table thead th").first).to_have_text("Runde")
    assert console_errors == []

    # Without signal the kept page opens from the worker's prefixed cache.
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-offline", "1")
    expect(page.locator(".score-table tfoot td")).to_have_text(["0", "25", "40"])
    page.context.set_offline(False)

    # The API docs page, and the document it points to, name the prefixed addresses.
    page.goto(app + "/api/v1/docs")
    expect(page.locator("h1")).to_have_text("Die JSON-API")
    link = page.locator(f'a[href="{PREFIX}/api/v1/openapi.json"]')
    expect(link).to_have_count(1)
    expect(page.locator(f"code:text-is('POST {PREFIX}/api/v1/games')").first).to_be_visible()
    document = page.request.get(app + "/api/v1/openapi.json").json()
    assert document["servers"] == [{"url": PREFIX}]
    manifest = page.request.get(app + "/manifest.webmanifest").json()
    assert manifest["scope"] == PREFIX + "/" and manifest["start_url"] == PREFIX + "/"

    # The site's own pages are not the app's.
    assert page.request.get(server + "/").text() == "the site itself\n"
    time.sleep(0.5)  # the access log is written after the answer
    logged = access_log.read_text()
    assert f"{PREFIX}/games/" in logged and "/edit/***" in logged and token not in logged


def test_nginx_answers_a_too_large_body_under_the_prefixed_api_as_json(
    site: tuple[str, Path],
) -> None:
    server, _ = site
    connection = http.client.HTTPConnection(server.removeprefix("http://"), timeout=30)
    connection.putrequest("POST", f"{PREFIX}/api/v1/meld")
    connection.putheader("Content-Type", "application/json")
    connection.putheader("Content-Length", "2000000")
    connection.endheaders()
    response = connection.getresponse()
    assert response.status == 413
    assert json.loads(response.read())["error"]["code"] == "payload_too_large"
    connection.close()
    connection = http.client.HTTPConnection(server.removeprefix("http://"), timeout=30)
    connection.request("GET", f"{PREFIX}/healthz")
    assert json.loads(connection.getresponse().read())["status"] == "ok"
    connection.close()
