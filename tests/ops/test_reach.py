"""How the others reach a served app (`referee.reach`): `./scripts/serve` is the production
server (gunicorn, as `rummy-referee serve`), `--lan` listens on the machine's address in the
local network and answers to it; `rummy-referee health` (the image's HEALTHCHECK) asks
/healthz naming a host the app trusts, whatever SERVER_NAME or TRUSTED_HOSTS say."""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from processes import free_port, wait_for
from werkzeug.serving import make_server

from referee import reach
from referee.cli import main
from referee.web import create_app
from referee.web.plumbing.database import database

ROOT = Path(__file__).resolve().parents[2]
#: Settings of this test run that must not reach the server a test starts.
SCRUBBED = ("DATABASE_URL", "DATABASE_URL_FILE", "SECRET_KEY", "SECRET_KEY_FILE",
            "SERVER_NAME", "TRUSTED_HOSTS", "PROXY_FIX", "RUMMY_INSTANCE_PATH",
            "GUNICORN_BIND", "GUNICORN_WORKERS", "PROMETHEUS_MULTIPROC_DIR", "METRICS")  # fmt: skip


@contextmanager
def _served(tmp_path: Path, **environ: str) -> Iterator[int]:
    """The app, with `environ`'s hosting settings, on a port of this machine."""
    saved = {name: os.environ.get(name) for name in environ}
    os.environ.update(environ)
    try:
        app = create_app({"SECRET_KEY": "x"}, instance_path=str(tmp_path / "data"))
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name)
            else:
                os.environ[name] = value
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.port
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
        database(app).dispose()


@pytest.mark.parametrize(
    "environ",
    [
        {},
        {"TRUSTED_HOSTS": "rummy.example.org, other.example.org"},
        {"TRUSTED_HOSTS": ".example.org"},  # the name itself and its subdomains
        {"SERVER_NAME": "rummy.example.org", "PREFERRED_URL_SCHEME": "https", "PROXY_FIX": "1"},
        {"SERVER_NAME": "rummy.example.org:8443", "TRUSTED_HOSTS": "10.0.0.5"},
    ],
)
def test_health_names_a_host_the_app_trusts(tmp_path: Path, environ: dict[str, str]) -> None:
    """The health check reads SERVER_NAME and TRUSTED_HOSTS as the app reads them: a name
    outside them would be refused (400) and the container marked unhealthy."""
    with _served(tmp_path, **environ) as port:
        healthy, said = reach.health(port, environ)
        assert healthy, said
        assert said.startswith('200 {"database":"ok"') or said.startswith("200 {")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/healthz", headers={"Host": "evil.example.net"})
        assert connection.getresponse().status in (400, 404)  # the check would bite
        connection.close()


def test_health_says_unhealthy_when_nothing_answers_or_the_database_is_away(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = free_port()
    assert main(["health", "--port", str(port)]) == 1
    assert f"no answer on port {port}" in capsys.readouterr().err
    unreachable = "postgresql+psycopg://nobody:pw@127.0.0.1:1/none"
    with _served(tmp_path, DATABASE_URL=unreachable) as served:
        healthy, said = reach.health(served, {})
        assert not healthy and said.startswith("503")


def _run_server(argv: list[str], tmp_path: Path) -> tuple[subprocess.Popen[bytes], Path]:
    environ = {key: value for key, value in os.environ.items() if key not in SCRUBBED}
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(argv, cwd=ROOT, env=environ, stdout=out,
                                   stderr=subprocess.STDOUT)  # fmt: skip
    return process, log


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _get(address: str, port: int, host: str) -> int:
    connection = http.client.HTTPConnection(address, port, timeout=30)
    connection.request("GET", "/healthz", headers={"Host": host})
    status = connection.getresponse().status
    connection.close()
    return status


def test_the_readmes_serve_command_runs_the_production_server(tmp_path: Path) -> None:
    """`./scripts/serve` is gunicorn with the deployment settings (no development server: one
    phone's slow request would hold everyone's)."""
    port = free_port()
    process, log = _run_server(
        [str(ROOT / "scripts" / "serve"), "--port", str(port), "--data", str(tmp_path)], tmp_path
    )
    try:
        wait_for(port, process, log, seconds=60)
        assert _get("127.0.0.1", port, "127.0.0.1") == 200
    finally:
        _stop(process)
    said = log.read_text()
    assert "Booting worker" in said and "Running on" not in said  # gunicorn, not Werkzeug
    assert (tmp_path / "rummy.sqlite3").is_file()


def test_serve_lan_listens_on_that_address_and_answers_to_it(tmp_path: Path) -> None:
    """The machine's address in the local network, as lan_address finds it, stands in here as
    a loopback address (127.0.0.2): the test reaches nothing beyond this machine."""
    port = free_port()
    serve = (
        "import sys; from referee import reach, cli; reach.lan_address = lambda: '127.0.0.2'; "
        f"sys.exit(cli.main(['serve', '--lan', '--port', '{port}', '--data', sys.argv[1]]))"
    )
    process, log = _run_server([sys.executable, "-c", serve, str(tmp_path)], tmp_path)
    try:
        wait_for(port, process, log, seconds=60, address="127.0.0.2")
        assert _get("127.0.0.2", port, f"127.0.0.2:{port}") == 200  # the phones' address
        assert _get("127.0.0.2", port, "rummy.example.org") == 400  # no other name
    finally:
        _stop(process)
    said = log.read_text()
    assert f"phones on this network open http://127.0.0.2:{port}/" in said
    assert "HTTPS" in said and "Booting worker" in said


def test_the_images_healthcheck_is_health_without_the_command_lines_imports() -> None:
    """`python3 -m referee.reach` (the Containerfile's HEALTHCHECK) imports no Flask."""
    probe = (
        "import sys; import referee.reach; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('flask', 'babel')))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=True)  # fmt: skip
    assert done.stdout.strip() == "[]"
    assert reach.main(["--port", str(free_port())]) == 1
    assert 'CMD ["python3", "-m", "referee.reach"' in (ROOT / "Containerfile").read_text()
