"""The OCI image, run for real with podman (scripts/test-image builds it and runs these; the
suite skips them): healthy within 20 s; a game made through the API and its German rule card;
the container restarted keeps both; it runs as non-root with no build tools inside; the backup
job of compose.yaml writes a backup (and an rclone copy) that `restore` lays into a fresh volume
with every game back; the previous release's /data is upgraded with every game, club and
evening kept; compose's PostgreSQL app runs on a throwaway PostgreSQL with its password from a
secret file.

Each container runs in a network namespace of its own (`--network none`: loopback only), so
that every one listens on its port 8000 as shipped; the test talks to it from inside that
namespace (`nsenter --net`), never over a network. compose.yaml is read here and each service's
settings (environment, volumes, secrets, command, read-only root) given to `podman run`, as
Compose would: Debian's podman-compose ignores profiles, and Docker's compose is not here.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import pwd
import re
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
import yaml
from pypdf import PdfReader
from release_data import FACTS, facts, head_revision, load_into, revision_of

IMAGE = os.environ.get("RUMMY_TEST_IMAGE", "")
ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "compose.yaml"
CONTAINERS_CONF = ROOT / "tests" / "image" / "containers.conf"
HOST = "rummy.test"
USER = "10001"

pytestmark = pytest.mark.skipif(not IMAGE, reason="scripts/test-image builds the image first")

# Run inside a container's network namespace: one HTTP request, its answer as JSON.
_CLIENT = """
import base64, http.client, json, sys
asked = json.load(sys.stdin)
connection = http.client.HTTPConnection("127.0.0.1", 8000, timeout=60)
body = asked["body"].encode() if asked["body"] is not None else None
connection.request(asked["method"], asked["path"], body=body, headers=asked["headers"])
answer = connection.getresponse()
json.dump({"status": answer.status, "body": base64.b64encode(answer.read()).decode()}, sys.stdout)
"""


@dataclass
class Answer:
    status: int
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Container:
    podman: Podman
    name: str

    @property
    def pid(self) -> int:
        return int(self.podman("inspect", "--format", "{{.State.Pid}}", self.name).stdout)

    def ask(self, method: str, path: str, body: Any = None, token: str | None = None) -> Answer:
        headers = {"Host": HOST}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Bearer {token}"
        asked = {"method": method, "path": path, "headers": headers,
                 "body": None if body is None else json.dumps(body)}  # fmt: skip
        done = subprocess.run(
            ["nsenter", f"--net=/proc/{self.pid}/ns/net", sys.executable, "-c", _CLIENT],
            input=json.dumps(asked), capture_output=True, text=True, timeout=90, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:] + self.logs()
        said = json.loads(done.stdout)
        return Answer(said["status"], base64.b64decode(said["body"]))

    def healthy_within(self, seconds: float) -> float:
        """Seconds until the image's HEALTHCHECK passed (podman runs it on demand here: no
        systemd timers in this sandbox); fails past `seconds`."""
        started = time.monotonic()
        while True:
            done = self.podman("healthcheck", "run", self.name, check=False)
            if done.returncode == 0:
                return time.monotonic() - started
            elapsed = time.monotonic() - started
            assert elapsed < seconds, f"not healthy after {elapsed:.1f} s\n{self.logs()}"
            time.sleep(0.25)

    def logs(self) -> str:
        return str(self.podman("logs", self.name, check=False).stderr[-3000:])

    def exec(self, *argv: str) -> str:
        return str(self.podman("exec", self.name, *argv).stdout)


@dataclass
class Podman:
    """podman with this repository's settings; everything it makes here is named `prefix-…`
    and removed at the end."""

    prefix: str = field(default_factory=lambda: f"rr-test-{secrets.token_hex(3)}")
    made_containers: list[str] = field(default_factory=list)
    made_volumes: list[str] = field(default_factory=list)

    def __call__(self, *argv: str, check: bool = True, timeout: float = 120) -> Any:
        environ = {**os.environ, "CONTAINERS_CONF": str(CONTAINERS_CONF)}
        done = subprocess.run(["podman", *argv], capture_output=True, text=True, env=environ,
                              timeout=timeout, check=False)  # fmt: skip
        if check:
            assert done.returncode == 0, f"podman {' '.join(argv)}:\n{done.stderr[-3000:]}"
        return done

    def volume(self, name: str) -> tuple[str, Path]:
        """A new named volume: its name, and where its files are on this machine."""
        full = f"{self.prefix}-{name}"
        self("volume", "create", full)
        self.made_volumes.append(full)
        mountpoint = self("volume", "inspect", "--format", "{{.Mountpoint}}", full).stdout
        return full, Path(mountpoint.strip())

    def run(self, name: str, *argv: str, network: str = "none") -> Container:
        full = f"{self.prefix}-{name}"
        self("run", "--detach", "--name", full, f"--network={network}", *argv)
        self.made_containers.append(full)
        return Container(self, full)

    def clean(self) -> None:
        for name in reversed(self.made_containers):
            self("rm", "--force", "--volumes", "--time", "0", name, check=False)
        for name in self.made_volumes:
            self("volume", "rm", "--force", name, check=False)


# -- compose.yaml, as Compose would run one of its services -----------------------------------

_VARIABLE = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}")


def _interpolated(value: Any, environ: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return _VARIABLE.sub(lambda m: environ.get(m.group(1)) or m.group(2) or "", value)
    if isinstance(value, list):
        return [_interpolated(item, environ) for item in value]
    if isinstance(value, dict):
        return {key: _interpolated(item, environ) for key, item in value.items()}
    return value


def service_arguments(
    name: str,
    *,
    volumes: Mapping[str, str],
    secret_files: Mapping[str, Path] | None = None,
    environ: Mapping[str, str] | None = None,
) -> list[str]:
    """`podman run` arguments for compose.yaml's service `name`: its environment (with the
    `.env` values in `environ`), its named volumes (as the test's `volumes`), its secrets (as
    files at /run/secrets/<name>), its read-only root and tmpfs, the image, its command."""
    document = _interpolated(yaml.safe_load(COMPOSE.read_text()), environ or {})
    service = document["services"][name]
    argv = []
    for key, value in service.get("environment", {}).items():
        argv += ["--env", f"{key}={value}"]
    for mount in service.get("volumes", []):
        source, target = mount.split(":", 1)
        argv += ["--volume", f"{volumes[source]}:{target}"]
    for secret in service.get("secrets", []):
        argv += ["--volume", f"{(secret_files or {})[secret]}:/run/secrets/{secret}:ro"]
    if service.get("read_only"):
        argv.append("--read-only")
    for path in service.get("tmpfs", []):
        argv += ["--tmpfs", path]
    return [*argv, IMAGE, *service.get("command", [])]


# -- the fixtures -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def podman() -> Iterator[Podman]:
    made = Podman()
    try:
        yield made
    finally:
        made.clean()


@dataclass
class Served:
    container: Container
    volume: str
    folder: Path  # the volume's files, seen from this machine
    startup: float
    game: dict[str, Any] = field(default_factory=dict)
    card: bytes = b""


@pytest.fixture(scope="module")
def served(podman: Podman) -> Served:
    """compose.yaml's `app` (SQLite) on a new volume, answering to HOST."""
    volume, folder = podman.volume("data")
    argv = service_arguments("app", volumes={"data": volume}, environ={"TRUSTED_HOSTS": HOST})
    container = podman.run("app", *argv)
    return Served(container, volume, folder, container.healthy_within(20))


def _text(pdf: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages)


# -- the tests, in the order an admin meets them ------------------------------------------------


def test_the_image_is_small_and_holds_no_build_tools(podman: Podman) -> None:
    config = json.loads(podman("image", "inspect", IMAGE).stdout)[0]
    size_mb = config["Size"] / 1e6
    print(f"image {IMAGE}: {size_mb:.0f} MB")
    assert size_mb < 450
    settings = config["Config"]
    assert settings["User"] == f"{USER}:{USER}"
    assert "/data" in settings["Volumes"]
    assert settings["Entrypoint"] == ["rummy-referee"]
    assert settings["Cmd"] == ["serve", "--host", "0.0.0.0", "--port", "8000"]
    healthcheck = ["CMD", "python3", "-m", "referee.reach", "--port", "8000"]  # `health`
    assert config["Healthcheck"]["Test"] == healthcheck  # kept: built in Docker's format
    probe = (
        "import importlib.util as u, json, shutil; print(json.dumps("
        "[t for t in ('gcc', 'cc', 'c++', 'make', 'pip', 'pip3', 'apt-get') if shutil.which(t)]"
        " + [m for m in ('pip', 'setuptools', 'build') if u.find_spec(m)]))"
    )
    done = podman("run", "--rm", "--network=none", "--entrypoint", "python3", IMAGE, "-c", probe)
    assert json.loads(done.stdout) == ["apt-get"]  # Debian's own, as in debian:bookworm-slim


def test_healthy_within_20_seconds_as_a_user_who_is_not_root(served: Served) -> None:
    print(f"healthy {served.startup:.1f} s after the start")
    assert served.startup < 20
    state = json.loads(served.container.podman("inspect", served.container.name).stdout)[0]
    assert state["State"]["Health"]["Status"] == "healthy"
    status = served.container.exec("cat", "/proc/1/status")  # gunicorn's master
    for ids in ("Uid", "Gid"):
        found = re.search(rf"^{ids}:\s+(.*)$", status, re.M)
        assert found is not None and found.group(1).split() == [USER] * 4, ids
    assert served.container.exec("id", "-un").strip() == "rummy"
    assert "gunicorn" in served.container.exec("cat", "/proc/1/cmdline")
    assert (served.folder / "rummy.sqlite3").stat().st_uid == int(USER)
    assert (served.folder / "secret_key").stat().st_uid == int(USER)


def test_a_game_through_the_api_and_its_german_rule_card(served: Served) -> None:
    game = {"variant": "contract", "players": ["Zoë", "Jürgen", "Ana"]}
    made = served.container.ask("POST", "/api/v1/games", game)
    assert made.status == 201, made.body
    served.game = made.json()
    results = [{"player": "Zoë", "went_out": True}, {"player": "Jürgen", "penalty": 15},
               {"player": "Ana", "penalty": 40}]  # fmt: skip
    rounds = f"/api/v1/games/{served.game['id']}/rounds"
    entered = served.container.ask("POST", rounds, {"round": 1, "results": results},
                                   served.game["edit_token"])  # fmt: skip
    assert entered.status == 200, entered.body
    card = served.container.ask("GET", "/rules/contract.pdf?lang=de&paper=a4")
    assert card.status == 200 and card.body.startswith(b"%PDF-")
    assert "Kontrakt" in _text(card.body)  # German, from the image's compiled catalogs
    served.card = card.body
    assert list((served.folder / "pdf-cache").rglob("*")), "the card is kept in /data"


def test_the_container_restarted_keeps_the_game_and_the_card(served: Served) -> None:
    assert served.game, "the game of the test before"
    before = served.container.ask("GET", f"/api/v1/games/{served.game['id']}").json()
    served.container.podman("restart", "--time", "10", served.container.name)
    served.container.healthy_within(20)
    after = served.container.ask("GET", f"/api/v1/games/{served.game['id']}")
    assert after.status == 200 and after.json() == before
    assert after.json()["rounds"][0]["scores"] == {"Zoë": 0, "Jürgen": 15, "Ana": 40}
    card = served.container.ask("GET", "/rules/contract.pdf?lang=de&paper=a4")
    assert card.status == 200 and card.body == served.card  # the same file, from the cache


def test_the_backup_job_writes_a_backup_that_restore_lays_into_a_fresh_volume(
    podman: Podman, served: Served
) -> None:
    assert served.game, "the game of the tests before"
    offsite, offsite_folder = podman.volume("offsite")
    argv = service_arguments(
        "backup", volumes={"data": served.volume},
        environ={"BACKUP_RCLONE": "offsite:/offsite"},
    )  # fmt: skip
    # An rclone remote of rclone's `local` backend, configured as an admin may, by environment.
    job = podman.run("backup", "--env", "RCLONE_CONFIG_OFFSITE_TYPE=local",
                     "--volume", f"{offsite}:/offsite", *argv)  # fmt: skip
    backups = served.folder / "backups"
    deadline = time.monotonic() + 60
    while not (list(backups.glob("rummy-referee-*Z.json")) and list(offsite_folder.glob("*"))):
        assert time.monotonic() < deadline, job.logs()
        time.sleep(0.25)
    (backup,) = backups.glob("rummy-referee-*Z.json")
    assert [path.name for path in offsite_folder.iterdir()] == [backup.name]
    assert backup.stat().st_uid == int(USER)
    # The schedule sleeps until the next one is due; a stop signal ends it at once.
    stopped = time.monotonic()
    job.podman("stop", "--time", "20", job.name)
    assert time.monotonic() - stopped < 10
    assert job.podman("inspect", "--format", "{{.State.ExitCode}}", job.name).stdout.strip() == "0"

    # The disaster drill (docs/DEPLOY.md): the newest backup into a fresh volume, served.
    fresh, fresh_folder = podman.volume("restored")
    podman("run", "--rm", "--network=none", "--read-only", "--volume", f"{served.volume}:/old:ro",
           "--volume", f"{fresh}:/data", IMAGE, "restore", "--dir", "/old/backups")  # fmt: skip
    assert (fresh_folder / "rummy.sqlite3").stat().st_uid == int(USER)
    argv = service_arguments("app", volumes={"data": fresh}, environ={"TRUSTED_HOSTS": HOST})
    restored = podman.run("restored", *argv)
    restored.healthy_within(20)
    game_url = f"/api/v1/games/{served.game['id']}"
    assert restored.ask("GET", game_url).json() == served.container.ask("GET", game_url).json()
    # The game's old edit link still edits.
    results = [{"player": "Zoë", "penalty": 5}, {"player": "Jürgen", "went_out": True},
               {"player": "Ana", "penalty": 10}]  # fmt: skip
    again = restored.ask("POST", f"{game_url}/rounds", {"round": 2, "results": results},
                         served.game["edit_token"])  # fmt: skip
    assert again.status == 200, again.body


def test_the_previous_releases_data_volume_is_upgraded_keeping_everything(
    podman: Podman,
) -> None:
    recorded = json.loads(FACTS.read_text(encoding="utf-8"))
    volume, folder = podman.volume("release")
    load_into(folder / "rummy.sqlite3")
    (folder / "secret_key").write_text(secrets.token_hex(32))
    for path in (folder, *folder.iterdir()):
        os.chown(path, int(USER), int(USER))
    argv = service_arguments("app", volumes={"data": volume}, environ={"TRUSTED_HOSTS": HOST})
    upgraded = podman.run("upgraded", *argv)
    upgraded.healthy_within(20)
    said = facts(lambda path: upgraded.ask("GET", path).json(), recorded["ids"])
    assert said == recorded["facts"]
    upgraded.podman("stop", "--time", "10", upgraded.name)
    assert revision_of(folder / "rummy.sqlite3") == head_revision()


# -- compose's PostgreSQL profile ---------------------------------------------------------------


@contextlib.contextmanager
def _postgres_in(pid: int, password: str) -> Iterator[Path]:
    """A throwaway PostgreSQL listening on 127.0.0.1:5432 inside the network namespace of
    process `pid` (the profile's `db`: password logins over TCP), with the role and database
    compose.yaml names; its socket folder (trust, for this test) is yielded."""
    from conftest import _postgres_bin

    bin_ = _postgres_bin()
    account = pwd.getpwnam("postgres")
    base = Path(tempfile.mkdtemp(prefix="rummy-image-pg-"))
    os.chown(base, account.pw_uid, account.pw_gid)
    as_postgres = ["nsenter", f"--net=/proc/{pid}/ns/net", f"--setuid={account.pw_uid}",
                   f"--setgid={account.pw_gid}"]  # fmt: skip
    data = base / "data"

    def run(*argv: str, check: bool = True) -> None:
        subprocess.run([*as_postgres, *argv], capture_output=True, text=True, timeout=120,
                       check=check, env={**os.environ, "LC_ALL": "C.UTF-8"}, cwd=base)  # fmt: skip

    run(str(bin_ / "initdb"), "-D", str(data), "-E", "UTF8", "--locale=C.UTF-8", "-U",
        "postgres", "--auth-local=trust", "--auth-host=scram-sha-256")  # fmt: skip
    options = f"-p 5432 -k {base} -c listen_addresses=127.0.0.1 -c fsync=off"
    run(str(bin_ / "pg_ctl"), "-D", str(data), "-l", str(base / "log"), "-w", "-o", options,
        "start")  # fmt: skip
    try:
        with psycopg.connect(host=str(base), port=5432, user="postgres", dbname="postgres",
                             autocommit=True) as connection:  # fmt: skip
            connection.execute(f"CREATE ROLE rummy LOGIN PASSWORD '{password}'")
            connection.execute("CREATE DATABASE rummy OWNER rummy")
        yield base
    finally:
        run(str(bin_ / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop", check=False)
        subprocess.run(["rm", "-rf", str(base)], check=False)


def test_the_postgresql_profiles_app_runs_on_a_throwaway_postgresql(
    podman: Podman, tmp_path: Path
) -> None:
    password = secrets.token_hex(16)
    secret_folder = tmp_path / "secrets"
    secret_folder.mkdir(mode=0o700)
    secret = secret_folder / "postgres_password"
    secret.write_text(password + "\n")
    secret.chmod(0o644)  # as DEPLOY.md says: the containers' users read it
    # The profile's network, where `db` is a name: here a namespace of its own, held by a
    # container that only sleeps; the app joins it with `db` in its /etc/hosts.
    holder = podman.run("network", "--entrypoint", "sleep", IMAGE, "600")
    volume, _folder = podman.volume("data-postgres")
    with _postgres_in(holder.pid, password) as socket_folder:
        argv = service_arguments(
            "app-postgres", volumes={"data-postgres": volume},
            secret_files={"postgres_password": secret}, environ={"TRUSTED_HOSTS": HOST},
        )  # fmt: skip
        app = podman.run("app-postgres", "--add-host", "db:127.0.0.1", *argv,
                         network=f"ns:/proc/{holder.pid}/ns/net")  # fmt: skip
        app.healthy_within(20)
        health = app.ask("GET", "/healthz").json()
        assert health["database"] == "ok" and health["live"]["broker"] == "postgresql"
        made = app.ask("POST", "/api/v1/games", {"variant": "rummy", "players": ["Ann", "Bo"]})
        assert made.status == 201, made.body
        with psycopg.connect(host=str(socket_folder), port=5432, user="postgres",
                             dbname="rummy") as connection:  # fmt: skip
            row = connection.execute("SELECT id FROM games").fetchall()
        assert row == [(made.json()["id"],)]
        assert password not in app.logs()
        app.podman("stop", "--time", "10", app.name)
