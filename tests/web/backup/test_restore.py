"""`rummy-referee restore` refuses what it cannot give back (issue 23, item 4): a revision it
does not know, rows the database refuses (a bad date, the same key twice, a row pointing at
nothing), JSON nested without end, and rows the database takes but no page could read (results
that are not results, a variant it does not know). Each is said in words with a non-zero exit,
and nothing is restored: the database is as empty as before, and a good backup then restores.
The file is read as a stream, whatever its layout."""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import inspect
from test_backup import _empty_database, _play, _state

from referee.cli import main
from referee.web import create_app
from referee.web.backup.archive import BackupError, restore
from referee.web.backup.reader import MAX_DEPTH, BackupReader
from referee.web.plumbing.database import database, make_engine


@pytest.fixture
def backup(app: Flask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A backup of three played games and a club with a game, as a document to spoil."""
    client = app.test_client()
    _play(client)
    club = client.post("/api/v1/clubs", json={"name": "Thursdays"}).get_json()
    auth = {"Authorization": f"Bearer {club['edit_token']}"}
    body = {"variant": "contract", "players": ["Ann", "Bo", "Cy"], "club": club["id"]}
    filed = client.post("/api/v1/games", headers=auth, json=body)
    assert filed.status_code == 201, filed.get_json()
    assert client.get(f"/clubs/{club['id']}").status_code == 200  # the board is kept
    path = tmp_path / "good.json"
    monkeypatch.setenv("DATABASE_URL", str(app.config["DATABASE_URL"]))
    monkeypatch.setenv("SECRET_KEY", "restore test")
    assert main(["backup", str(path)]) == 0
    document: dict[str, Any] = json.loads(path.read_text())
    assert document["tables"]["clubs"]["rows"][0][
        document["tables"]["clubs"]["columns"].index("board")
    ]
    return document


def _rows(document: dict[str, Any], table: str) -> list[dict[str, Any]]:
    """The table's rows as dicts that write through to the document."""
    columns = document["tables"][table]["columns"]
    return [_RowView(columns, row) for row in document["tables"][table]["rows"]]


class _RowView(dict):  # type: ignore[type-arg]
    def __init__(self, columns: list[str], row: list[Any]) -> None:
        super().__init__(zip(columns, row, strict=True))
        self._columns, self._row = columns, row

    def __setitem__(self, key: str, value: Any) -> None:
        super().__setitem__(key, value)
        self._row[self._columns.index(key)] = value


def _spoil_revision(doc: dict[str, Any]) -> None:
    doc["schema_revision"] = "9999_from_the_future"


def _spoil_date(doc: dict[str, Any]) -> None:
    _rows(doc, "games")[1]["created_at"] = "last Tuesday"


def _spoil_key(doc: dict[str, Any]) -> None:
    rows = doc["tables"]["games"]["rows"]
    rows.append(list(rows[0]))


def _spoil_reference(doc: dict[str, Any]) -> None:
    _rows(doc, "game_rounds")[0]["game_id"] = "n0SuchGame000000000000"


def _spoil_results(doc: dict[str, Any]) -> None:
    _rows(doc, "game_rounds")[0]["results"] = "garbage"


def _spoil_variant(doc: dict[str, Any]) -> None:
    _rows(doc, "games")[0]["variant"] = "poker"


def _spoil_number(doc: dict[str, Any]) -> None:
    _rows(doc, "games")[0]["version"] = "seven"


def _spoil_language(doc: dict[str, Any]) -> None:
    _rows(doc, "games")[0]["lang"] = "xx"


def _spoil_board(doc: dict[str, Any]) -> None:
    _rows(doc, "clubs")[0]["board"] = {"views": "none"}


def _spoil_seats(doc: dict[str, Any]) -> None:
    round_ = _rows(doc, "game_rounds")[0]
    round_["results"] = round_["results"][:-1]


# -- issue 34: files the database takes but the app never writes ----------------------------------


def _spoil_round_number(doc: dict[str, Any]) -> None:
    _rows(doc, "game_rounds")[0]["number"] = 10**15


def _spoil_round_gap(doc: dict[str, Any]) -> None:
    _rows(doc, "game_rounds")[0]["number"] = 40


def _spoil_version(doc: dict[str, Any]) -> None:
    _rows(doc, "games")[0]["version"] = 2**62


def _spoil_players(doc: dict[str, Any]) -> None:
    games = _rows(doc, "games")
    games[0]["players"] = "".join(games[0]["players"])


def _kept_answer(doc: dict[str, Any], **answer: Any) -> None:
    game_id = _rows(doc, "games")[0]["id"]
    row = {"game_id": game_id, "key": "k-34", "fingerprint": "0" * 64, "status": 200,
           "content_type": None, "body": None, "location": None,
           "created_at": "2026-12-01T10:00:00+00:00", **answer}  # fmt: skip
    table = doc["tables"]["game_requests"]
    table["rows"].append([row[column] for column in table["columns"]])


def _spoil_answer_status(doc: dict[str, Any]) -> None:
    _kept_answer(doc, status=999, content_type="text/html", body="<script>alert(1)</script>")


def _spoil_answer_html(doc: dict[str, Any]) -> None:
    _kept_answer(doc, content_type="text/html", body="<script>alert(1)</script>")


def _spoil_answer_redirect(doc: dict[str, Any]) -> None:
    _kept_answer(doc, status=303, location="//evil.example/games")


SPOILED: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "round number": (_spoil_round_number, "game_rounds, row 1: number is 1000000000000000, out"),
    "round gap": (_spoil_round_gap, "its rounds are numbered"),
    "version": (_spoil_version, "games, row 1: version is 4611686018427387904, out of its"),
    "players as text": (_spoil_players, "are not a list of names"),
    "answer status": (_spoil_answer_status, "has the status 999, not one this app answers"),
    "answer html": (_spoil_answer_html, "is 'text/html', not JSON"),
    "answer redirect": (_spoil_answer_redirect, "is a redirect off the site"),
    "revision": (_spoil_revision, "schema revision '9999_from_the_future', which this version"),
    "date": (_spoil_date, 'games, row 2: created_at is "last Tuesday", not a date and time'),
    "key": (_spoil_key, "games, row 5: the same key as an earlier row"),
    "reference": (_spoil_reference, "game_rounds, row 1: refers to a row the backup does not have"),
    "number": (_spoil_number, 'games, row 1: version is "seven", not a whole number'),
    "results": (_spoil_results, "cannot be read back, nothing was restored"),
    "variant": (_spoil_variant, "unknown_variant"),
    "language": (_spoil_language, "its language 'xx' is not one of en, de, nl, pt, fr, es"),
    "board": (_spoil_board, "club "),
    "seats": (_spoil_seats, "round 1 has 2 results for 3 players"),
}


def _restore_file(
    path: Path, url: str, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> tuple[int, str]:
    monkeypatch.setenv("DATABASE_URL", url)
    capsys.readouterr()
    code = main(["restore", str(path)])
    return code, capsys.readouterr().err


def _table_names(url: str) -> list[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return sorted(inspect(conn).get_table_names())
    finally:
        engine.dispose()


def _tables_with_rows(url: str) -> list[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            names = inspect(conn).get_table_names()
            return [
                n for n in names if conn.exec_driver_sql(f'SELECT count(*) FROM "{n}"').scalar()
            ]
    finally:
        engine.dispose()


@pytest.mark.parametrize("target", ["sqlite", "postgresql"])
def test_a_spoiled_backup_is_refused_in_words_and_restores_nothing(
    backup: dict[str, Any],
    target: str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    capsys: Any,
) -> None:
    url = _empty_database(target, tmp_path, request)  # one database for every try: none stays
    for spoil, (spoiler, said) in sorted(SPOILED.items()):
        document = copy.deepcopy(backup)
        spoiler(document)
        bad = tmp_path / f"{spoil}.json"
        bad.write_text(json.dumps(document))
        code, err = _restore_file(bad, url, monkeypatch, capsys)
        assert code == 2, (spoil, err)
        assert said in err and "Traceback" not in err, (spoil, err)
        assert _table_names(url) == [], spoil  # nothing kept, not even the schema

    good = tmp_path / "good.json"
    good.write_text(json.dumps(backup))
    code, err = _restore_file(good, url, monkeypatch, capsys)  # the same database takes a good one
    assert code == 0, err


def test_json_nested_without_end_is_refused_quickly_and_in_little_memory(
    backup: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    text = json.dumps(backup)
    marker = json.dumps(_rows(backup, "game_rounds")[0]["results"])
    deep = text.replace(marker, "[" * 200_000 + "]" * 200_000, 1)
    path = tmp_path / "deep.json"
    path.write_text(deep)
    code, err = _restore_file(path, f"sqlite:///{tmp_path / 'deep.sqlite3'}", monkeypatch, capsys)
    assert code == 2 and f"nests deeper than {MAX_DEPTH} levels" in err, err


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("{not json", "the file is not JSON"),
        ('{"format": "rummy-referee-backup", "format_version": 1, "schema_revision": "0003", '
         '"tables": {"games": {"columns": ["id"], "rows": [["a"]', "the file ends before"),
        ("[1, 2]", "not a Rummy Referee backup"),
        ('{"format": "rummy-referee-backup", "format_version": 1, "schema_revision": "0003"}',
         "the backup has no tables"),
        ('{"format": "rummy-referee-backup", "format_version": 1, "schema_revision": "0003", '
         '"tables": {"games": {"rows": [], "columns": ["id"]}}}', "rows before its columns"),
        ('{"format": "rummy-referee-backup", "format_version": 1, "schema_revision": "0003", '
         '"tables": {}} trailing', "after the backup"),
        ('{"format": "rummy-referee-backup", "format_version": 1, "schema_revision": "0003", '
         '"tables": {"poker_hands": {"columns": ["id"], "rows": []}}}', "'poker_hands' is not in"),
    ],
)  # fmt: skip
def test_a_file_that_is_no_backup_is_said_so(tmp_path: Path, text: str, said: str) -> None:
    with pytest.raises(BackupError, match=said):
        restore(f"sqlite:///{tmp_path / 'db.sqlite3'}", io.BytesIO(text.encode()))


def test_a_database_with_rows_is_never_migrated_down(
    backup: dict[str, Any], app: Flask, tmp_path: Path
) -> None:
    """An older backup into a database that has clubs: refused before any migration, so the
    clubs' tables (newer than that revision) and their rows are still there."""
    backup["schema_revision"] = "0002"
    del backup["tables"]["clubs"], backup["tables"]["club_members"], backup["tables"]["club_games"]
    url = str(app.config["DATABASE_URL"])
    with pytest.raises(BackupError, match="not empty"):
        restore(url, io.BytesIO(json.dumps(backup).encode()))
    assert {"clubs", "club_members", "club_games"} <= set(_tables_with_rows(url))


def test_any_layout_of_the_same_document_restores_the_same(
    backup: dict[str, Any], app: Flask, tmp_path: Path, restored_apps: list[Flask]
) -> None:
    """Indented, a value a line (as `jq .` writes it), the backup reads the same."""
    ids = [row["id"] for row in _rows(backup, "games")]
    before = {game_id: _state(app, game_id) for game_id in ids}
    body = json.dumps(backup, indent=2)
    url = f"sqlite:///{tmp_path / 'indented.sqlite3'}"
    counts = restore(url, io.BytesIO(body.encode()))
    assert counts["games"] == len(ids)
    restored = create_app({"SECRET_KEY": "x", "DATABASE_URL": url, "TESTING": True},
                          instance_path=str(tmp_path / "indented"))  # fmt: skip
    restored_apps.append(restored)
    assert {game_id: _state(restored, game_id) for game_id in ids} == before


def test_a_round_todays_rules_refuse_restores_with_a_warning(
    backup: dict[str, Any], tmp_path: Path
) -> None:
    first = _rows(backup, "game_rounds")[0]  # the first round of a game that has rounds
    first["results"] = [{"went_out": True, "penalty": 0}] * len(first["results"])  # all out
    warned: list[str] = []
    url = f"sqlite:///{tmp_path / 'warned.sqlite3'}"
    restore(url, io.BytesIO(json.dumps(backup).encode()), warn=warned.append)
    assert len(warned) == 1, warned
    assert warned[0].startswith(f"game {first['game_id']}, round 1: today's rules")


def test_the_reader_holds_one_row_at_a_time() -> None:
    """Rows are built as they are taken: a reader that met row 2 has not read row 3."""
    head = '{"format": "rummy-referee-backup", "tables": {"t": {"columns": ["a"], "rows": ['
    source = io.BytesIO((head + "[1],\n[2],\n" + "[3]," * 100_000 + "[4]]}}}").encode())
    reader = BackupReader(source)
    assert reader.head()["format"] == "rummy-referee-backup"
    name, columns, rows = next(reader.tables())
    assert (name, columns, next(rows), next(rows)) == ("t", ["a"], [1], [2])
    assert source.tell() < 200_000  # read in chunks, not whole


@pytest.fixture
def restored_apps() -> Any:
    apps: list[Flask] = []
    yield apps
    for app in apps:
        database(app).dispose()
