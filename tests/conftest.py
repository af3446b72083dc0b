"""Shared fixtures: the app and its clients, a live server for the browser, and the databases.

- `app`, `client`, `runner`: a fresh app per test (temp instance folder, SQLite, CSRF off).
  A test that also asks for `database_url` gets its app on that database.
- `live_server`: the `app` served from a thread; the base URL, e.g. http://127.0.0.1:41234.
- `page` (pytest-playwright) runs Debian's Chromium as a 360x740 phone; `phone(320, locale=...)`
  opens phones of other widths, languages or schemes; `screenshot_dir`.
- `pg_url` (session): a throwaway PostgreSQL server's URL, or RUMMY_TEST_DATABASE_URL.
- `database_url`: each test runs twice, on a fresh SQLite file and on a fresh PostgreSQL database.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from jinja2.bccache import Bucket, BytecodeCache
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page
from processes import free_port
from sqlalchemy.engine import make_url
from werkzeug.serving import make_server

from referee.web import create_app
from referee.web.plumbing.database import database, make_engine, normalize_url, upgrade
from referee.web.plumbing.limit_store import DiskCacheStorage

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
# Test modules share tables and helpers by module name (`from test_events import NAMES`), as when
# every test sat in tests/: each folder of tests is on the path, so that one folder run alone
# (`pytest tests/web/events`) finds what its tests import from another.
sys.path += sorted({str(test.parent) for test in TESTS.rglob("test_*.py")} - set(sys.path))
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"


class _SharedBytecode(BytecodeCache):
    """Templates compiled once per test process, not once per app: nearly every test makes an
    app of its own, and Jinja compiling the same pages again was a few percent of the suite.
    Every app here is `create_app`'s, with the same Jinja options, so the code is the same
    (a bucket's checksum is its source's, so an edited template is compiled again)."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if (code := self._code.get(bucket.key)) is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": _SharedBytecode()}
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# -- session start: a fresh clone has no .mo files (they are not committed) ----------------------


def compile_catalogs() -> None:
    """Compile every translations/*/*/LC_MESSAGES/*.po whose .mo is missing or older."""
    for po_path in sorted((ROOT / "translations").glob("*/*/LC_MESSAGES/*.po")):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with po_path.open("rb") as po_file:
            catalog = read_po(po_file, locale=po_path.parts[-3])
        # Written aside and renamed: another test run may be reading the old one right now.
        draft = mo_path.with_name(f".{mo_path.name}.{secrets.token_hex(4)}")
        with draft.open("wb") as mo_file:
            write_mo(mo_file, catalog)
        draft.replace(mo_path)


def pytest_configure(config: pytest.Config) -> None:
    compile_catalogs()
    # Rate limits off for every app the tests build, in this process and the servers it starts
    # (gunicorn, a served app): a test that checks them turns them on in its own config.
    os.environ["RATELIMIT_ENABLED"] = "0"


# The marks a folder of tests gives all its tests (`./scripts/test --fast` leaves these out); a
# test elsewhere is `pdf` too when its name says it reads one, `browser` when it opens one.
FOLDER_MARKS = {"browser": "browser", "ops": "slow", "web/printing": "pdf"}


def folder_marks(path: Path) -> set[str]:
    """The marks of a test file's folder under tests/: `tests/web/printing/x.py` is `pdf`."""
    parent = path.resolve().parent
    if not parent.is_relative_to(TESTS):
        return set()
    folder = f"{parent.relative_to(TESTS).as_posix()}/"
    return {mark for prefix, mark in FOLDER_MARKS.items() if folder.startswith(f"{prefix}/")}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Marks follow from the fixtures and the folders, so `-m "not browser"`, `-m storage` or
    # `--fast` need no bookkeeping.
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        marks = folder_marks(item.path)
        if "page" in fixtures or "browser" in fixtures:
            marks.add("browser")
        if "pdf" in getattr(item, "originalname", item.name):
            marks.add("pdf")
        for mark in sorted(marks):
            item.add_marker(mark)
        if "database_url" in fixtures:
            item.add_marker(pytest.mark.storage)
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "postgresql" in callspec.params.values():
            item.add_marker(pytest.mark.postgresql)
        # A module's own fixture (gunicorn and nginx, an installed wheel, the print app) starts
        # once: its tests go to one xdist worker together (`--dist loadgroup`); every other
        # test goes to whichever worker is free, so no long file is left to one worker at the end.
        info = getattr(item, "_fixtureinfo", None)
        definitions = info.name2fixturedefs.values() if info is not None else ()
        if any(defs[-1].scope == "module" for defs in definitions if defs):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


# -- the app ---------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def rate_limits_in_one_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rate limits' clock starts a second into an hour and runs on from there, so that a
    test's few hits all fall in one minute's window (and one hour's). On the real clock, two
    hits of "2 per minute" at 59.9 s and a third at 60.1 s let the third through: the sliding
    window weighs the last minute's two as 1.997, and counts whole hits (CI met it once). A
    server the tests start in a process of its own keeps the real clock."""
    started = time.time()
    hour = started - started % 3600 + 1
    monkeypatch.setattr(DiskCacheStorage, "now", lambda _self: hour + time.time() - started)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database at the newest revision, made once per test process: an `app` on
    SQLite starts from a copy of it (every migration run again for each test was a sixth of a
    page test's time). A test that asks for `database_url` still gets an empty database."""
    path = tmp_path_factory.mktemp("migrated") / "rummy.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    try:
        upgrade(engine)
    finally:
        engine.dispose()  # the last connection closed: everything is in the one file
    return path


@pytest.fixture
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    instance = tmp_path / "instance"
    if "database_url" in request.fixturenames:
        database_url = request.getfixturevalue("database_url")
    else:
        instance.mkdir()
        shutil.copyfile(request.getfixturevalue("migrated_sqlite"), instance / "rummy.sqlite3")
        database_url = f"sqlite:///{instance / 'rummy.sqlite3'}"
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test secret key",
            "WTF_CSRF_ENABLED": False,
            "DATABASE_URL": database_url,
            # A page's stream read to its end by a test client (a crawl, a fuzz) ends soon.
            "LIVE_LIFETIME_SECONDS": 10,
        },
        instance_path=str(instance),
    )
    yield app
    database(app).dispose()  # its pooled connections, before the database is dropped


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def live_server(app: Flask) -> Iterator[str]:
    """The test's `app` on a real port, for the browser. Yields the base URL without a slash."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


# -- the browser (pytest-playwright) ---------------------------------------------------------


@pytest.fixture(scope="session")
def base_url() -> None:
    """No fixed base URL: tests use `live_server`. (This override also keeps pytest-playwright's
    own base_url fixture, a session fixture on an instance that pytest now warns about, unused.)"""
    return None


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    # `playwright install` cannot download browsers here: use Debian's (scripts/setup installs it).
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """A 360-px phone held by thumb."""
    return {
        **browser_context_args,
        "viewport": {"width": 360, "height": 740},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    }


# Pointer activations the page receives: what a thumb does (typed digits are not taps).
COUNT_TAPS = """
window.__taps = 0;
document.addEventListener("pointerdown", () => { window.__taps += 1; }, true);
"""


@pytest.fixture
def phone(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Any]:
    """Phones of any width (and language, scheme, ...): `phone(320, locale="de-DE")`."""
    contexts: list[BrowserContext] = []

    def open_phone(width: int = 360, height: int = 740, **options: Any) -> Page:
        args = {**browser_context_args, "viewport": {"width": width, "height": height}}
        context = browser.new_context(**{**args, **options})
        contexts.append(context)
        page = context.new_page()
        page.add_init_script(COUNT_TAPS)
        return page

    yield open_phone
    for context in contexts:
        context.close()


# Collects what the Content-Security-Policy blocks, as the page itself sees it.
WATCH_CSP = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
"""


@pytest.fixture
def console_errors(page: Page) -> Iterator[list[str]]:
    """What the page logs as an error or warning, or throws, as it happens.

    It also starts watching for CSP violations: `page.evaluate("window.__cspViolations")`.
    """
    errors: list[str] = []

    def note(message: ConsoleMessage) -> None:
        if message.type in ("error", "warning"):
            errors.append(message.text)

    page.on("console", note)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(WATCH_CSP)
    yield errors


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    """test-artifacts/screenshots/ (git-ignored), there for `page.screenshot(path=...)`."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


# -- the rules' readings (tests/rules/test_rules_*_reading.py) ---------------------------------


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    """One app for a module of rule checks (the API, /referee, rule cards): no game kept."""
    instance = tmp_path_factory.mktemp("rules")
    yield create_app(
        {"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{instance / 'db'}"},
        instance_path=str(instance),
    )


@pytest.fixture
def http(web: Flask) -> FlaskClient:
    return web.test_client()


@pytest.fixture
def book(web: Flask) -> Any:
    """`book(variant_id, lang="en", **house_rules)`: the variant's Rulebook, in `lang`."""
    from referee.web.vocabulary.house_rules import table_rules
    from referee.web.vocabulary.rulebook import build_rulebook

    def make(variant_id: str, lang: str = "en", **house: Any) -> Any:
        with web.test_request_context(f"/?lang={lang}"):
            return build_rulebook(table_rules(variant_id, house or None), lang)

    return make


# -- databases ---------------------------------------------------------------------------------


def _postgres_bin() -> Path:
    candidates = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
        key=lambda path: int(path.parts[-3]) if path.parts[-3].isdigit() else 0,
    )
    if candidates:
        return candidates[-1].parent
    on_path = shutil.which("pg_ctl")
    if on_path:
        return Path(on_path).parent
    raise RuntimeError(
        "PostgreSQL server binaries not found (no /usr/lib/postgresql/*/bin/pg_ctl, no pg_ctl "
        "on PATH): run scripts/setup, or set RUMMY_TEST_DATABASE_URL to an existing server"
    )


class ThrowawayPostgres:
    """A PostgreSQL cluster in a temp dir: initdb, start on a free port, stop and delete."""

    def __init__(self) -> None:
        self.bin = _postgres_bin()
        self.base = Path(tempfile.mkdtemp(prefix="rummy-pg-"))
        self.data = self.base / "data"
        self.log = self.base / "server.log"
        self.port = 0
        # initdb refuses to run as root: as root the cluster belongs to `postgres`.
        self.user = "postgres" if os.geteuid() == 0 else None
        if self.user:
            account = pwd.getpwnam(self.user)
            os.chown(self.base, account.pw_uid, account.pw_gid)

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin / args[0]), *args[1:]],
            user=self.user,
            group=self.user,
            extra_groups=[] if self.user else None,
            cwd=self.base,
            env={**os.environ, "LC_ALL": "C.UTF-8"},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=120,
            check=False,
        )

    def start(self) -> str:
        done = self._run("initdb", "-D", str(self.data), "-A", "trust", "-E", "UTF8",
                         "--locale=C.UTF-8", "-U", "postgres")  # fmt: skip
        if done.returncode:
            raise RuntimeError(f"initdb failed:\n{done.stdout}")
        for _attempt in range(3):  # the free port may be taken between the probe and the start
            self.port = free_port()
            options = (
                f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off"
            )
            done = self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w",
                             "-o", options, "start")  # fmt: skip
            if done.returncode == 0:
                return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        log = self.log.read_text(errors="replace") if self.log.exists() else ""
        raise RuntimeError(f"pg_ctl start failed:\n{done.stdout}\n{log[-3000:]}")

    def stop(self) -> None:
        if self.data.exists():
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.base, ignore_errors=True)


def _conninfo(url: str) -> str:
    """SQLAlchemy's postgresql+psycopg://... as the libpq URI psycopg wants."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """The URL of a PostgreSQL server for this session (a superuser's, on database `postgres`).

    RUMMY_TEST_DATABASE_URL names an existing server; otherwise a throwaway cluster is started
    (and removed at the end). When neither works, every test that needs it fails, saying why.
    """
    existing = os.environ.get("RUMMY_TEST_DATABASE_URL")
    if existing:
        yield normalize_url(existing)
        return
    try:
        cluster = ThrowawayPostgres()
    except (RuntimeError, OSError, KeyError) as error:
        pytest.fail(f"cannot start PostgreSQL for the tests: {error}", pytrace=False)
    try:
        url = cluster.start()
    except (RuntimeError, OSError, subprocess.SubprocessError) as error:
        cluster.stop()
        pytest.fail(f"cannot start PostgreSQL for the tests: {error}", pytrace=False)
    try:
        yield url
    finally:
        cluster.stop()


def new_pg_database(server: str, prefix: str) -> str:
    """A new empty database on the PostgreSQL `server` (its URL), named `<prefix>_<random>`."""
    name = f"{prefix}_{secrets.token_hex(6)}"
    with psycopg.connect(_conninfo(server), autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return make_url(server).set(database=name).render_as_string(hide_password=False)


@contextlib.contextmanager
def throwaway_pg_database(server: str, prefix: str) -> Iterator[str]:
    """`new_pg_database`, dropped at the end with whatever is still connected to it."""
    url = new_pg_database(server, prefix)
    try:
        yield url
    finally:
        with (
            contextlib.suppress(psycopg.Error),
            psycopg.connect(_conninfo(server), autocommit=True) as connection,
        ):
            connection.execute(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of each kind in turn, as a SQLAlchemy URL (the app's DATABASE_URL)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.sqlite3'}"
        return
    with throwaway_pg_database(request.getfixturevalue("pg_url"), "t") as url:
        yield url
