"""Settings from the environment (`referee.web.plumbing.settings`): the data folder, and SECRET_KEY
and DATABASE_URL from files (`*_FILE`, the container convention) beside the plain variables; and
`rummy-referee serve`, which hands them to gunicorn."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import make_url

from referee import reach
from referee.cli import main
from referee.web import create_app
from referee.web.plumbing import resources, settings
from referee.web.plumbing.database import database
from referee.web.plumbing.settings import SettingError

ROOT = Path(__file__).resolve().parents[3]
VARIABLES = (
    "DATABASE_URL", "DATABASE_URL_FILE", "SECRET_KEY", "SECRET_KEY_FILE", "RUMMY_INSTANCE_PATH",
    "SERVER_NAME", "TRUSTED_HOSTS", "GUNICORN_BIND", "GUNICORN_WORKERS",
)  # fmt: skip


@pytest.fixture
def environ(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_secret_key_and_database_url_come_from_files(tmp_path: Path, environ: Any) -> None:
    """A mounted secret ends with a newline; the value is the file's text without it. The
    database URL read from a file is normalised like the variable's (postgres:// too)."""
    key_file = tmp_path / "secret_key.txt"
    key_file.write_text("a key from a mounted secret\n")
    url_file = tmp_path / "database_url.txt"
    url_file.write_text(f"sqlite:///{tmp_path / 'from-file.sqlite3'}\n")
    environ.setenv("SECRET_KEY_FILE", str(key_file))
    environ.setenv("DATABASE_URL_FILE", str(url_file))
    app = create_app({"TESTING": True}, instance_path=str(tmp_path / "instance"))
    try:
        assert app.config["SECRET_KEY"] == "a key from a mounted secret"
        assert app.config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'from-file.sqlite3'}"
        assert app.test_client().get("/healthz").get_json()["database"] == "ok"
        assert (tmp_path / "from-file.sqlite3").is_file()
        assert not (tmp_path / "instance" / "secret_key").exists()  # none made: one was given
    finally:
        database(app).dispose()

    url_file.write_text("postgres://rummy:pw@db.example/rummy")
    assert create_app({"TESTING": True}, instance_path=str(tmp_path / "instance")).config[
        "DATABASE_URL"
    ] == ("postgresql+psycopg://rummy:pw@db.example/rummy")


def test_the_plain_variables_still_work_and_neither_means_the_data_folder(
    tmp_path: Path, environ: Any
) -> None:
    environ.setenv("SECRET_KEY", "plain")
    app = create_app({"TESTING": True}, instance_path=str(tmp_path))
    assert app.config["SECRET_KEY"] == "plain"
    assert app.config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'rummy.sqlite3'}"
    environ.delenv("SECRET_KEY")
    made = create_app({"TESTING": True}, instance_path=str(tmp_path)).config["SECRET_KEY"]
    assert made == (tmp_path / "secret_key").read_text().strip() and len(made) == 64


@pytest.mark.parametrize("name", ["SECRET_KEY", "DATABASE_URL"])
def test_a_setting_and_its_file_together_are_refused(name: str, tmp_path: Path) -> None:
    (tmp_path / "value").write_text("from the file")
    environ = {name: "plain", f"{name}_FILE": str(tmp_path / "value")}
    with pytest.raises(SettingError, match=f"{name} and {name}_FILE are both set"):
        settings.secret(environ, name)


def test_a_file_that_cannot_be_read_or_is_empty_is_refused_by_name(tmp_path: Path) -> None:
    missing = tmp_path / "missing"
    with pytest.raises(SettingError, match=f"SECRET_KEY_FILE: cannot read {missing}: No such"):
        settings.secret({"SECRET_KEY_FILE": str(missing)}, "SECRET_KEY")
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(SettingError, match=r"DATABASE_URL_FILE: .*empty is empty"):
        settings.secret({"DATABASE_URL_FILE": str(tmp_path / "empty")}, "DATABASE_URL")
    (tmp_path / "binary").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(SettingError, match="not UTF-8 text"):
        settings.secret({"SECRET_KEY_FILE": str(tmp_path / "binary")}, "SECRET_KEY")


def test_the_command_line_says_which_setting_is_wrong(
    tmp_path: Path, environ: Any, capsys: Any
) -> None:
    environ.setenv("SECRET_KEY_FILE", str(tmp_path / "nowhere"))
    assert main(["restore", "--data", str(tmp_path), str(tmp_path / "backup.json")]) == 2
    assert f"restore: SECRET_KEY_FILE: cannot read {tmp_path / 'nowhere'}" in (
        capsys.readouterr().err
    )


# -- the data folder ----------------------------------------------------------------------------


def test_the_data_folder_is_data_then_rummy_instance_path_then_the_default(
    tmp_path: Path, environ: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert settings.instance_path({}) == str(ROOT / "instance")  # a checkout: instance/ in it
    env = {"RUMMY_INSTANCE_PATH": str(tmp_path / "env")}
    assert settings.instance_path(env) == str(tmp_path / "env")
    assert settings.instance_path(env, str(tmp_path / "flag")) == str(tmp_path / "flag")
    monkeypatch.chdir(tmp_path)
    assert settings.instance_path({}, "relative") == str(tmp_path / "relative")

    # Installed from a wheel: the user's data folder, as the platform has it.
    monkeypatch.setattr(resources, "CHECKOUT", None)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert settings.instance_path({}) == str(tmp_path / "xdg" / "rummy-referee")

    environ.setenv("RUMMY_INSTANCE_PATH", str(tmp_path / "env"))
    app = create_app({"TESTING": True, "SECRET_KEY": "x"})  # what wsgi.py does
    assert app.instance_path == str(tmp_path / "env")
    assert app.config["DATABASE_URL"] == f"sqlite:///{tmp_path / 'env' / 'rummy.sqlite3'}"


# -- rummy-referee serve ------------------------------------------------------------------------


class Exec(Exception):
    """os.execve, caught: what serve would have become."""

    def __init__(self, path: str, argv: list[str], environ: dict[str, str]) -> None:
        super().__init__(path)
        self.argv, self.environ = argv, environ


def _serve(monkeypatch: pytest.MonkeyPatch, *argv: str) -> tuple[Exec, str]:
    def execve(path: str, args: list[str], env: dict[str, str]) -> None:
        raise Exec(path, args, env)

    monkeypatch.setattr(os, "execve", execve)
    err = io.StringIO()
    with pytest.raises(Exec) as became:
        main(["serve", *argv], stdout=io.StringIO(), stderr=err)
    return became.value, err.getvalue()


def test_serve_becomes_gunicorn_with_the_deployment_settings_on_the_data_folder(
    tmp_path: Path, environ: Any
) -> None:
    became, said = _serve(environ, "--data", str(tmp_path / "data"), "--port", "8123",
                          "--workers", "3")  # fmt: skip
    assert became.argv[1:] == [
        "-m", "gunicorn", "-c", str(resources.DEPLOY / "gunicorn.conf.py"),
        "referee.web:create_app()",
    ]  # fmt: skip
    assert became.environ["RUMMY_INSTANCE_PATH"] == str(tmp_path / "data")
    assert became.environ["GUNICORN_BIND"] == "127.0.0.1:8123"
    assert became.environ["GUNICORN_WORKERS"] == "3"
    assert "TRUSTED_HOSTS" not in became.environ  # the default: this machine's own names
    # The schema is made once, before gunicorn forks its workers.
    assert (tmp_path / "data" / "rummy.sqlite3").stat().st_size > 0
    assert f"data in {tmp_path / 'data'}" in said


def test_serve_on_an_address_answers_to_it_and_on_every_interface_says_how(
    tmp_path: Path, environ: Any
) -> None:
    became, _ = _serve(environ, "--data", str(tmp_path), "--host", "192.168.1.20")
    assert became.environ["TRUSTED_HOSTS"] == "localhost,127.0.0.1,192.168.1.20"
    assert became.environ["GUNICORN_BIND"] == "192.168.1.20:8000"
    became, said = _serve(environ, "--data", str(tmp_path), "--host", "::")
    assert became.environ["GUNICORN_BIND"] == "[::]:8000"
    assert "TRUSTED_HOSTS" not in became.environ and "set TRUSTED_HOSTS" in said
    environ.setenv("SERVER_NAME", "rummy.example.org")
    became, said = _serve(environ, "--data", str(tmp_path), "--host", "0.0.0.0")
    assert "TRUSTED_HOSTS" not in became.environ and "TRUSTED_HOSTS" not in said


def test_serve_raises_the_open_files_limit_for_its_streams(tmp_path: Path, environ: Any) -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))
    try:
        _, said = _serve(environ, "--data", str(tmp_path))
        raised = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        assert raised == hard  # gunicorn, exec'd next, inherits it
        assert ("open-files limit is" in said) == (hard < 4096)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_serve_refuses_no_workers(tmp_path: Path, environ: Any, capsys: Any) -> None:
    assert main(["serve", "--data", str(tmp_path), "--workers", "0"]) == 2
    assert "--workers must be 1 or more" in capsys.readouterr().err
    assert not (tmp_path / "rummy.sqlite3").exists()


def test_the_stream_limits_are_whole_numbers(environ: Any) -> None:
    read = settings.from_environment({"LIVE_STREAMS_PER_ADDRESS": " 5 ", "LIVE_STREAMS_MAX": "0"})
    assert read["LIVE_STREAMS_PER_ADDRESS"] == 5 and read["LIVE_STREAMS_MAX"] == 0
    for wrong in ("-1", "2.5", "many", "٣", "1" * 10):
        with pytest.raises(SettingError, match="LIVE_STREAMS_MAX must be a whole number"):
            settings.from_environment({"LIVE_STREAMS_MAX": wrong})


def test_serve_lan_listens_on_the_lan_address_answers_to_it_and_shows_the_phones_the_way(
    tmp_path: Path, environ: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`scripts/serve --lan` (README): the phones at the table open the address it prints, or
    scan its QR code; HTTP is enough for all but offline use and installing."""
    monkeypatch.setattr(reach, "lan_address", lambda: "192.168.1.20")
    became, said = _serve(environ, "--data", str(tmp_path), "--lan", "--port", "5000")
    assert became.environ["GUNICORN_BIND"] == "192.168.1.20:5000"
    assert became.environ["TRUSTED_HOSTS"] == "localhost,127.0.0.1,192.168.1.20"
    assert "phones on this network open http://192.168.1.20:5000/" in said
    code = [line for line in said.splitlines() if line and set(line) <= set("█▀▄ ")]
    assert len(code) > 10 and len({len(line) for line in code}) == 1  # a square of blocks
    assert "offline" in said and "HTTPS" in said and "docs/DEPLOY.md" in said
    with pytest.raises(SystemExit):  # one address: --lan or --host
        main(["serve", "--lan", "--host", "0.0.0.0"], stderr=io.StringIO())


def test_serve_lan_without_a_network_says_so(
    tmp_path: Path, environ: Any, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    for found in ("", "127.0.1.1"):  # no route out; only the loopback
        monkeypatch.setattr(reach, "_outward_address", lambda found=found: found)
        assert main(["serve", "--data", str(tmp_path), "--lan"]) == 2
        assert "no address in a local network" in capsys.readouterr().err


def test_the_database_password_is_kept_apart_from_the_url(tmp_path: Path) -> None:
    """The official postgres image and the app read one secret file (compose.yaml): the
    password goes into DATABASE_URL however it is spelt."""
    secret = tmp_path / "postgres_password"
    secret.write_text("s3cr:et/@pw%\n")
    environ = {"DATABASE_URL": "postgresql://rummy@db:5432/rummy",
               "DATABASE_PASSWORD_FILE": str(secret)}  # fmt: skip
    url = make_url(settings.database_url(environ, str(tmp_path)))
    assert (url.username, url.password, url.host, url.database) == (
        "rummy", "s3cr:et/@pw%", "db", "rummy"
    )  # fmt: skip
    plain = {"DATABASE_URL": "postgres://rummy@db/rummy", "DATABASE_PASSWORD": "pw"}
    assert make_url(settings.database_url(plain, str(tmp_path))).password == "pw"
    refusals = [
        ({"DATABASE_PASSWORD": "pw"}, "DATABASE_URL is not"),
        ({"DATABASE_URL": "postgresql://rummy:old@db/rummy", "DATABASE_PASSWORD": "pw"},
         "holds a password"),
        ({"DATABASE_URL": "not a url", "DATABASE_PASSWORD": "pw"}, "not a database URL"),
        ({**environ, "DATABASE_PASSWORD": "pw"}, "both set"),
    ]  # fmt: skip
    for given, said in refusals:
        with pytest.raises(SettingError, match=said):
            settings.database_url(given, str(tmp_path))
