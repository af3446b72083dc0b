"""The wheel holds the whole app: `python -m build` makes an sdist and, from it, a wheel; put
into a venv outside the checkout, `rummy-referee serve` answers /healthz, starts a game
through the API, speaks German from the compiled catalogs, serves its static files and
renders both kinds of PDF, on SQLite in the user's data folder; `backup` and `pdf-warm`
work beside it.

To stay quick, the wheel is installed without its dependencies, which come from this venv
through a .pth line. A .pth line adds a folder to sys.path without reading the .pth files in
it, so this venv's editable install (a finder that points at the checkout) stays out: the
`referee` the new venv imports is the wheel's, and the test checks that it is.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from processes import free_port

ROOT = Path(__file__).resolve().parents[2]
#: The environment of this test run that must not reach the installed app.
SCRUBBED = (
    "PYTHONPATH", "RUMMY_INSTANCE_PATH", "DATABASE_URL", "DATABASE_URL_FILE", "SECRET_KEY",
    "SECRET_KEY_FILE", "SERVER_NAME", "TRUSTED_HOSTS", "PROXY_FIX", "PDF_CACHE_MAX_MB",
    "GUNICORN_BIND", "GUNICORN_WORKERS", "PROMETHEUS_MULTIPROC_DIR", "METRICS",
)  # fmt: skip


@dataclass
class Installed:
    venv: Path
    home: Path  # the working folder: outside the checkout
    environ: dict[str, str]

    def run(self, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.venv / "bin" / "rummy-referee"), *argv],
            cwd=self.home, env=self.environ, capture_output=True, text=True, timeout=timeout,
            check=False,
        )  # fmt: skip


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("wheel")
    assert not base.is_relative_to(ROOT)
    dist = base / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(ROOT)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (wheel,) = dist.glob("rummy_referee-*.whl")

    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps",
         "--disable-pip-version-check", str(wheel)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(site) / "dependencies-from-the-dev-venv.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n"
    )

    home = base / "home"
    home.mkdir()
    environ = {key: value for key, value in os.environ.items() if key not in SCRUBBED}
    # platformdirs puts the user's data folder under XDG_DATA_HOME; gunicorn its control
    # socket under XDG_RUNTIME_DIR.
    environ |= {"HOME": str(home), "XDG_DATA_HOME": str(base / "data"),
                "XDG_RUNTIME_DIR": str(base)}  # fmt: skip
    return Installed(venv, home, environ)


def test_the_wheel_carries_the_app_and_imports_none_of_the_checkout(installed: Installed) -> None:
    probe = """
import json, referee
from referee.web import create_app, database, resources
app = create_app({"SECRET_KEY": "x"})
print(json.dumps({
    "package": referee.__file__, "checkout": str(resources.CHECKOUT), "root": str(resources.ROOT),
    "templates": app.template_folder, "static": app.static_folder,
    "catalogs": app.config["BABEL_TRANSLATION_DIRECTORIES"], "migrations": str(database.MIGRATIONS),
    "instance": app.instance_path,
}))
"""
    done = subprocess.run(
        [str(installed.venv / "bin" / "python"), "-c", probe],
        cwd=installed.home, env=installed.environ, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    site = installed.venv.resolve()
    assert Path(found["package"]).resolve().is_relative_to(site)
    assert found["checkout"] == "None"
    for key in ("root", "templates", "static", "migrations"):
        assert Path(found[key]).is_relative_to(site), (key, found[key])
    for folder in found["catalogs"].split(";"):
        assert Path(folder).is_relative_to(site)
        assert list(Path(folder).glob("*/LC_MESSAGES/messages.mo")), folder
    assert (Path(found["migrations"]) / "script.py.mako").is_file()
    assert (Path(found["migrations"]).parent / "alembic.ini").is_file()
    assert found["instance"] == str(Path(installed.environ["XDG_DATA_HOME"]) / "rummy-referee")


@pytest.fixture(scope="module")
def served(installed: Installed) -> Iterator[int]:
    port = free_port()
    log = installed.home / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [str(installed.venv / "bin" / "rummy-referee"), "serve", "--port", str(port),
             "--workers", "2"],
            cwd=installed.home, env=installed.environ, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.1)
        yield port
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    assert "Booting worker" in log.read_text()  # gunicorn, not a development server


def _ask(port: int, method: str, path: str, body: object = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    data = json.dumps(body) if body is not None else None
    connection.request(method, path, body=data, headers=headers)
    answer = connection.getresponse()
    payload = answer.read()
    connection.close()
    return answer.status, payload


def test_serve_runs_the_installed_app_on_sqlite_in_the_users_data_folder(
    installed: Installed, served: int
) -> None:
    status, body = _ask(served, "GET", "/healthz")
    assert status == 200
    health = json.loads(body)
    assert {k: health[k] for k in ("status", "database", "version")} == {
        "status": "ok", "database": "ok", "version": "0.1.0"
    }  # fmt: skip
    # SQLite: one worker, its own broker (the default `serve` keeps to the live push's limit)
    assert health["live"]["broker"] == "in-process" and "one worker" in health["live"]["limit"]

    status, body = _ask(
        served, "POST", "/api/v1/games", {"variant": "contract", "players": ["Ann", "Bo", "Cy"]}
    )
    assert status == 201, body
    game = json.loads(body)

    status, body = _ask(served, "GET", "/?lang=de")
    assert status == 200 and "Punkte mitschreiben" in body.decode()
    status, body = _ask(served, "GET", "/static/js/app.js")
    assert status == 200 and b"serviceWorker" in body
    status, body = _ask(served, "GET", "/rules/contract.pdf?lang=fr&paper=a4")
    assert status == 200 and body.startswith(b"%PDF-")  # WeasyPrint, pdf/print.css
    status, body = _ask(served, "GET", f"/games/{game['id']}/sheet.pdf")
    assert status == 200 and body.startswith(b"%PDF-")  # ReportLab

    data = Path(installed.environ["XDG_DATA_HOME"]) / "rummy-referee"
    assert (data / "rummy.sqlite3").is_file() and (data / "secret_key").is_file()


def test_backup_and_pdf_warm_beside_it(installed: Installed, served: int) -> None:
    status, _ = _ask(
        served, "POST", "/api/v1/games", {"variant": "contract", "players": ["Di", "Ed", "Flo"]}
    )
    assert status == 201
    backup = installed.home / "games.json"
    done = installed.run("backup", str(backup))
    assert done.returncode == 0, done.stderr
    assert json.loads(backup.read_text())["tables"]["games"]["rows"]
    assert "rummy-referee/rummy.sqlite3" in done.stderr

    warmed = installed.run("pdf-warm", "--variant", "rummy", "--lang", "nl", "--paper", "letter")
    assert warmed.returncode == 0, warmed.stderr
    assert warmed.stderr.startswith("built 2 PDFs")
