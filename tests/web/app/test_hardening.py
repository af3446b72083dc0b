"""What an attack on the running app found (issue 12), each fixed and held by a test: no 500s
for odd input, CSV cells that cannot run as formulas, links only on a configured host, no
token in the session cookie, in a cache or in a log, and names that cannot hide or turn."""

from __future__ import annotations

import base64
import csv
import io
import json
import logging
import zlib
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Final

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.engine.names import clean_name, name_key, read_names
from referee.web import create_app
from referee.web.core.spreadsheets import csv_cell
from referee.web.plumbing import hosting
from referee.web.plumbing.database import database
from referee.web.plumbing.hosting import RedactingFilter, redact

PLAYERS = ["Ann", "Bo", "Cy"]


def _new_app(tmp_path: Path, **config: Any) -> Flask:
    instance = tmp_path / "instance"
    app = create_app(
        {"SECRET_KEY": "hardening", "DATABASE_URL": f"sqlite:///{instance / 'db.sqlite3'}",
         "WTF_CSRF_ENABLED": False, **config},
        instance_path=str(instance),
    )  # fmt: skip
    app.config["PROPAGATE_EXCEPTIONS"] = False  # a crash is the 500 a user would see
    return app


@pytest.fixture
def probed(tmp_path: Path) -> Any:
    app = _new_app(tmp_path)
    yield app.test_client()
    database(app).dispose()


def _start(client: FlaskClient, players: list[str] = PLAYERS, variant: str = "contract") -> str:
    """A game started from the page; its edit page's path."""
    data = {"variant": variant, "lang": "en", "start": "1", "first_dealer": "0"}
    data.update({f"players-{i}": name for i, name in enumerate(players)})
    answer = client.post("/", data=data)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:500]
    return str(answer.headers["Location"])


def _created(client: FlaskClient, players: list[str] = PLAYERS) -> dict[str, Any]:
    answer = client.post("/api/v1/games", json={"variant": "contract", "players": players})
    assert answer.status_code == 201, answer.get_json()
    return dict(answer.get_json())


# -- no 500s -----------------------------------------------------------------------------------


#: What a query parameter may hold that no reader expects.
_ODD_VALUES: Final = (
    "%00", "9" * 400, "1e9", "-0", "٣", "１", " 3 ", "[]", "{}", "\u202e2", "x" * 5000,
)  # fmt: skip


def test_every_parameter_of_the_drills_call_is_read_without_a_500(probed: FlaskClient) -> None:
    """GET /api/v1/drills (issue 32): each parameter with each odd value, the others good, is
    a pack or a 400 in the API's error shape naming the field, in the language asked."""
    good = {"variant": "contract", "kind": "meld", "level": "2", "count": "3", "seed": "7",
            "players": "4", "house_rules": "{}", "lang": "de"}  # fmt: skip
    for name in good:
        for value in _ODD_VALUES:
            answer = probed.get("/api/v1/drills", query_string={**good, name: value})
            assert answer.status_code in (200, 400), (name, value, answer.status_code)
            assert answer.is_json, (name, value)
            if answer.status_code == 400:
                error = answer.get_json()["error"]
                assert error["message"] and error.get("field") == name, (name, value, error)


@pytest.mark.parametrize("body", [b"[" * 1500 + b"]" * 1500, b'{"a":' * 3000 + b"1" + b"}" * 3000])
def test_json_nested_deeper_than_the_parser_goes_is_a_400(probed: FlaskClient, body: bytes) -> None:
    game = _created(probed)
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    for url, headers in (
        ("/api/v1/games", {}),
        (f"/api/v1/games/{game['id']}/rounds", auth),
        ("/api/v1/meld", {}),
    ):
        answer = probed.post(url, data=body, content_type="application/json", headers=headers)
        assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "bad_json"
    page = probed.post("/games/import", data={"text": body.decode()})
    assert page.status_code == 400 and "not a game export" in page.get_data(as_text=True)


class _Forms(HTMLParser):
    """Every form of a page: action, method and its fields with their values."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append({"action": a.get("action", ""), "method": a.get("method", "get"),
                               "fields": {}, "numbers": []})  # fmt: skip
        elif not self.forms or not a.get("name"):
            return
        elif tag == "input" and a.get("type") not in ("submit", "button", "radio", "checkbox"):
            self.forms[-1]["fields"][a["name"]] = a.get("value", "")
            if a.get("inputmode") == "numeric" or a.get("type") == "number":
                self.forms[-1]["numbers"].append(a["name"])
        elif tag == "input" and "checked" in a:
            self.forms[-1]["fields"][a["name"]] = a.get("value", "on")
        elif tag in ("select", "textarea"):
            self.forms[-1]["fields"].setdefault(a["name"], "")
            self._select = a["name"] if tag == "select" else None
        elif (
            tag == "option"
            and self._select
            and ("selected" in a or not self.forms[-1]["fields"].get(self._select))
        ):
            self.forms[-1]["fields"][self._select] = a.get("value", "")


def test_a_400_digit_number_in_every_number_field_of_every_page_is_a_400(
    probed: FlaskClient,
) -> None:
    edit = _start(probed)
    for number in (1, 2):
        data = {"version": str(number), "round": str(number), "went_out": "0",
                "seats-1-penalty": str(20 + 5 * number), "seats-2-penalty": "30"}  # fmt: skip
        assert probed.post(f"{edit}/rounds", data=data).status_code == 303
    frustration = _start(probed, ["Di", "Ed", "Flo"], variant="frustration")
    pages = ["/?rules=open", "/?rules=open&variant=frustration", edit, f"{edit}/rounds/1",
             frustration, "/referee", "/rules/contract"]  # fmt: skip
    tried = 0
    for page in pages:
        parser = _Forms()
        parser.feed(probed.get(page).get_data(as_text=True))
        for form in parser.forms:
            if not form["numbers"]:
                continue
            # Every number field of the form at once: each reads its own 400 digits.
            fields = {**form["fields"], **dict.fromkeys(form["numbers"], "9" * 400)}
            action = form["action"] or page
            if form["method"].lower() == "post":
                fields.setdefault("start", "1")
                answer = probed.post(action, data=fields)
            else:
                answer = probed.get(action, query_string=fields)
            assert answer.status_code == 400, (page, action, answer.status_code)
            tried += len(form["numbers"])
    assert tried >= 30  # house rules, classes, penalties, buys, sheets...


@pytest.mark.parametrize(
    "query",
    [
        "min_players=8",
        "min_players=8&max_players=8",
        "min_players=3&max_players=3",
        "max_players=3",
        'house_rules={"min_players": 8, "max_players": 8}',
    ],
)
def test_a_house_rule_that_fixes_the_table_size_is_a_page_and_a_card(
    probed: FlaskClient, query: str
) -> None:
    assert probed.get(f"/rules/contract?{query}").status_code == 200
    for path in ("/rules/shanghai", "/rules/rummy", "/referee?variant=contract&check=meld"):
        assert probed.get(f"{path}&{query}" if "?" in path else f"{path}?{query}").status_code in (
            200,
            400,  # a table size the variant cannot have: said, not a crash
        )
    sheet = probed.get(f"/sheets/contract.pdf?{query}&players=")
    assert sheet.status_code in (200, 400)


def test_the_rule_card_of_a_table_of_exactly_eight(probed: FlaskClient) -> None:
    card = probed.get("/rules/contract.pdf?min_players=8&max_players=8")
    assert card.status_code == 200 and card.data.startswith(b"%PDF")


@pytest.mark.parametrize(
    ("query", "kept"),
    [
        ("_method=POST", "_method=POST"),
        ("_scheme=javascript&_external=1", "_scheme=javascript&_external=1"),
        ("_anchor=x%22%3E&lang=de", "_anchor=x%22%3E&lang=de"),
        ("", None),
    ],
)
def test_the_alias_redirect_carries_the_query_along_and_is_never_shaped_by_it(
    probed: FlaskClient, query: str, kept: str | None
) -> None:
    answer = probed.get(f"/rules/zioncheck?{query}" if query else "/rules/zioncheck")
    assert answer.status_code == 301
    location = answer.headers["Location"]
    assert location == (f"/rules/contract?{kept}" if kept else "/rules/contract")
    assert "#" not in location and "javascript:" not in location


@pytest.mark.parametrize(
    "contracts", [{"²": "2 sets"}, {"7": "9" * 5000 + " runs"}, {"1": "2 sets of ٣"}]
)
def test_a_contract_table_with_odd_digits_is_a_400_everywhere(
    probed: FlaskClient, contracts: dict[str, str]
) -> None:
    rules = json.dumps({"contracts": contracts})
    assert probed.get("/rules/contract", query_string={"house_rules": rules}).status_code == 400
    meld = {"variant": "contract", "cards": "7H 7S 7D", "house_rules": {"contracts": contracts}}
    answer = probed.post("/api/v1/meld", json=meld)
    assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "bad_house_rule"
    game = {"variant": "contract", "players": PLAYERS, "house_rules": {"contracts": contracts}}
    created = probed.post("/api/v1/games", json=game)
    assert created.status_code == 400


def test_a_nul_in_a_game_id_is_a_404_on_every_database(
    app: Flask, database_url: str, client: FlaskClient
) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False
    game = _created(client)
    bad = game["id"][:10] + "%00" + game["id"][11:]
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    token = game["edit_token"]
    for method, path in (
        ("GET", f"/api/v1/games/{bad}"),
        ("POST", f"/api/v1/games/{bad}/rounds"),
        ("PUT", f"/api/v1/games/{bad}/rounds/1"),
        ("POST", f"/api/v1/games/{bad}/undo"),
        ("GET", f"/games/{bad}"),
        ("GET", f"/games/{bad}/live"),
        ("GET", f"/games/{bad}/stream"),
        ("GET", f"/games/{bad}.csv"),
        ("GET", f"/games/{bad}.json"),
        ("GET", f"/games/{bad}/qr.svg"),
        ("GET", f"/games/{bad}/sheet.pdf"),
        ("GET", f"/games/{bad}/edit/{token}"),
        ("GET", f"/games/{game['id']}/edit/{token[:5]}%00{token[6:]}"),
        ("POST", f"/games/{bad}/edit/{token}/rounds"),
        ("GET", f"/referee?game={bad}"),
    ):
        answer = client.open(path, method=method, json={"round": 1, "results": []}, headers=auth)
        assert answer.status_code in (400, 403, 404), (method, path, answer.status_code)


def test_a_nul_in_a_club_id_is_a_404_on_every_database(
    app: Flask, database_url: str, client: FlaskClient
) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = False
    club = client.post("/api/v1/clubs", json={"name": "Thursdays"}).get_json()
    bad = club["id"][:10] + "%00" + club["id"][11:]
    token = club["edit_token"]
    auth = {"Authorization": f"Bearer {token}"}
    for method, path in (
        ("GET", f"/api/v1/clubs/{bad}"),
        ("GET", f"/api/v1/clubs/{bad}/stats"),
        ("GET", f"/clubs/{bad}"),
        ("GET", f"/clubs/{bad}.json"),
        ("GET", f"/clubs/{bad}.csv"),
        ("GET", f"/clubs/{bad}/qr.svg"),
        ("GET", f"/clubs/{bad}/sheet"),
        ("GET", f"/clubs/{bad}/stream"),
        ("GET", f"/clubs/{bad}/edit/{token}"),
        ("GET", f"/clubs/{club['id']}/edit/{token[:5]}%00{token[6:]}"),
        ("POST", f"/clubs/{bad}/edit/{token}/games"),
        ("POST", f"/clubs/{bad}/edit/{token}/rematch"),
    ):
        answer = client.open(path, method=method, json={"variant": "contract"}, headers=auth)
        assert answer.status_code in (400, 403, 404, 405), (method, path, answer.status_code)


# -- CSV -------------------------------------------------------------------------------------


def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(probed: FlaskClient) -> None:
    names = ["=HYPERLINK(1)", "+Bo", "-Cy", "@Di"]
    game = _created(probed, names)
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    results = [{"player": names[0], "went_out": True}] + [
        {"player": name, "penalty": 10} for name in names[1:]
    ]
    probed.post(f"/api/v1/games/{game['id']}/rounds", json={"round": 1, "results": results},
                headers=auth)  # fmt: skip
    rows = list(csv.reader(io.StringIO(probed.get(f"/games/{game['id']}.csv").get_data(True))))
    assert rows[0][4:8] == ["'=HYPERLINK(1)", "'+Bo", "'-Cy", "'@Di"]
    assert rows[1][3] == "'=HYPERLINK(1)"  # who went out
    assert rows[1][4:8] == ["0", "10", "10", "10"]  # numbers stay numbers
    for cell in ("\tx", "\rx", "=1+1"):
        assert csv_cell(cell).startswith("'")
    assert csv_cell(-5) == -5 and csv_cell("Ann") == "Ann"


#: The formula starts of a fullwidth (East Asian) keyboard and their small forms: a
#: spreadsheet folds each to the plain one and runs the cell.
WIDE_FORMULAS: Final = ["＝HYPERLINK(1)", "＋Bo", "－Cy", "＠Di", "﹦Ed", "﹢Flo", "﹣Gus", "﹫Hal"]


def _csv(client: FlaskClient, path: str) -> list[list[str]]:
    answer = client.get(path)
    assert answer.status_code == 200, path
    return list(csv.reader(io.StringIO(answer.get_data(as_text=True))))


def test_fullwidth_formula_characters_are_neutralised_in_every_csv(probed: FlaskClient) -> None:
    """Issue 34: a fullwidth ＝ started a cell unescaped. A club's game, the club's CSV and a
    club night's CSV, each naming the same players."""
    club = probed.post("/api/v1/clubs", json={"name": "＝Thursdays"}).get_json()
    auth = {"Authorization": f"Bearer {club['edit_token']}"}
    names = WIDE_FORMULAS[:4]
    new_game = {"variant": "contract", "players": names, "club": club["id"]}
    game = probed.post("/api/v1/games", json=new_game, headers=auth).get_json()
    results = [{"player": names[0], "went_out": True}] + [
        {"player": name, "penalty": 10} for name in names[1:]
    ]
    probed.post(f"/api/v1/games/{game['id']}/rounds", json={"round": 1, "results": results},
                headers={"Authorization": f"Bearer {game['edit_token']}"})  # fmt: skip
    events = f"/api/v1/clubs/{club['id']}/events"
    evening = probed.post(events, json={"name": "＠Night", "variant": "contract"},
                          headers=auth).get_json()  # fmt: skip
    probed.post(f"{events}/{evening['id']}/players", json={"names": WIDE_FORMULAS}, headers=auth)
    drawn = probed.post(f"{events}/{evening['id']}/series", json={"series": 1, "start": False},
                        headers=auth)  # fmt: skip
    assert drawn.status_code == 200, drawn.get_json()
    cells = [
        cell
        for path in (
            f"/games/{game['id']}.csv",
            f"/clubs/{club['id']}.csv",
            f"/clubs/{club['id']}/events/{evening['id']}.csv",
        )
        for row in _csv(probed, path)
        for cell in row
    ]
    wide = [cell for cell in cells if cell.lstrip("'")[:1] in set("＝＋－＠﹦﹢﹣﹫")]
    assert {cell.lstrip("'") for cell in wide} >= set(WIDE_FORMULAS)
    assert all(cell.startswith("'") for cell in wide), wide
    for cell in (" =1", "\u3000＝1", "\nx"):
        assert csv_cell(cell).startswith("'")
    assert csv_cell("Ｚoë") == "Ｚoë"


# -- hosts, proxies, cookies -----------------------------------------------------------------


def test_an_untrusted_host_is_refused_and_links_never_take_it(tmp_path: Path) -> None:
    app = _new_app(tmp_path)
    client = app.test_client()
    assert client.get("/healthz", headers={"Host": "evil.example"}).status_code == 400
    answer = client.post("/api/v1/games", json={"variant": "contract", "players": PLAYERS},
                         headers={"Host": "evil.example"})  # fmt: skip
    assert answer.status_code == 400 and b"evil" not in answer.data
    assert answer.get_json()["error"]["code"] == "bad_request"  # JSON, as every API answer
    game = client.post("/api/v1/games", json={"variant": "contract", "players": PLAYERS})
    assert game.get_json()["edit_url"].startswith("http://localhost/games/")
    database(app).dispose()


def test_links_and_qr_codes_come_from_server_name(tmp_path: Path) -> None:
    app = _new_app(tmp_path, SERVER_NAME="rummy.example.org", PREFERRED_URL_SCHEME="https")
    client = app.test_client()
    headers = {"Host": "rummy.example.org"}
    game = client.post("/api/v1/games", json={"variant": "contract", "players": PLAYERS},
                       headers=headers).get_json()  # fmt: skip
    assert game["view_url"] == f"https://rummy.example.org/games/{game['id']}"
    assert game["edit_url"].startswith("https://rummy.example.org/games/")
    qr = client.get(f"/games/{game['id']}/qr.svg", headers=headers)
    assert qr.status_code == 200
    # Another name for the same server is refused, not written into links.
    assert client.get("/healthz", headers={"Host": "other.example"}).status_code == 400
    database(app).dispose()


def test_trusted_hosts_from_the_environment(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("TRUSTED_HOSTS", "rummy.lan, .club.example")
    app = _new_app(tmp_path)
    client = app.test_client()
    assert client.get("/healthz", headers={"Host": "rummy.lan:5000"}).status_code == 200
    assert client.get("/healthz", headers={"Host": "cards.club.example"}).status_code == 200
    assert client.get("/healthz", headers={"Host": "localhost"}).status_code == 400
    database(app).dispose()


def test_behind_a_tls_proxy_links_are_https_and_cookies_secure(tmp_path: Path) -> None:
    app = _new_app(tmp_path, PROXY_FIX=1, TRUSTED_HOSTS=["rummy.lan"])
    client = app.test_client()
    proxied = {"Host": "rummy.lan", "X-Forwarded-Proto": "https", "X-Forwarded-For": "10.0.0.9"}
    game = client.post("/api/v1/games", json={"variant": "contract", "players": PLAYERS},
                       headers=proxied).get_json()  # fmt: skip
    assert game["edit_url"].startswith("https://rummy.lan/")
    page = client.get(game["edit_url"].removeprefix("https://rummy.lan"), headers=proxied)
    assert "Secure" in page.headers["Set-Cookie"]
    plain = app.test_client().get("/", headers={"Host": "rummy.lan"})
    assert "Secure" not in plain.headers.get("Set-Cookie", "")
    database(app).dispose()


#: A client that reaches gunicorn directly, not through the proxy on this machine.
ELSEWHERE: Final = {"REMOTE_ADDR": "203.0.113.5"}


@pytest.mark.parametrize(
    "prefix", ["//evil.example", "/\\evil.example", "https://evil.example", "/a/../..", "/%2e%2e"]
)
def test_a_forwarded_prefix_is_a_plain_path_or_a_400(tmp_path: Path, prefix: str) -> None:
    """Issue 34: `X-Forwarded-Prefix: //evil.example` sent every redirect and link off-site."""
    app = _new_app(tmp_path, PROXY_FIX=1)
    client = app.test_client()
    # From the proxy's address (this machine): refused, never a link.
    answer = client.get("/rules/zioncheck", headers={"X-Forwarded-Prefix": prefix})
    assert answer.status_code == 400 and b"evil" not in answer.data
    assert "Location" not in answer.headers
    # From anywhere else the header is not the proxy's: dropped, the site served at its top.
    direct = client.get("/rules/zioncheck", headers={"X-Forwarded-Prefix": prefix},
                        environ_base=ELSEWHERE)  # fmt: skip
    assert (direct.status_code, direct.headers["Location"]) == (301, "/rules/contract")
    page = client.get("/", headers={"X-Forwarded-Prefix": prefix}, environ_base=ELSEWHERE)
    assert page.status_code == 200 and "evil" not in page.text
    # The proxy's own prefix is still carried into every link.
    kept = client.get("/rules/zioncheck", headers={"X-Forwarded-Prefix": "/rummy"})
    assert kept.headers["Location"] == "/rummy/rules/contract"
    database(app).dispose()


def test_only_the_proxys_address_may_name_the_client(tmp_path: Path) -> None:
    """Issue 34: a forged X-Forwarded-For escaped the rate limits. Reaching gunicorn directly,
    the header is dropped; through the proxy, only the address it appended counts."""
    app = _new_app(tmp_path, PROXY_FIX=1, RATELIMIT_ENABLED=True, RATELIMIT_SOLVE="2 per minute")
    client = app.test_client()
    solve = {"variant": "contract", "round": 1, "hand": "7H 7S 7D KC KD KS 2C 9H"}
    statuses = [
        client.post("/api/v1/solve", json=solve, headers={"X-Forwarded-For": f"10.0.0.{n}"},
                    environ_base=ELSEWHERE).status_code
        for n in range(4)
    ]  # fmt: skip
    assert statuses == [200, 200, 429, 429]
    # Through nginx, which appends the address it sees to whatever the client sent.
    statuses = [
        client.post("/api/v1/solve", json=solve,
                    headers={"X-Forwarded-For": f"10.0.0.{n}, 198.51.100.7"}).status_code
        for n in range(4)
    ]  # fmt: skip
    assert statuses == [200, 200, 429, 429]
    # Another proxy address is trusted only when FORWARDED_ALLOW_IPS names it.
    other = _new_app(tmp_path / "other", PROXY_FIX=1, FORWARDED_ALLOW_IPS="10.1.0.0/16")
    game = {"variant": "contract", "players": PLAYERS}
    for address, scheme in (("10.1.2.3", "https"), ("127.0.0.1", "http")):
        made = other.test_client().post("/api/v1/games", json=game,
                                        headers={"X-Forwarded-Proto": "https"},
                                        environ_base={"REMOTE_ADDR": address})  # fmt: skip
        assert made.get_json()["edit_url"].startswith(f"{scheme}://localhost/"), address
    database(app).dispose()
    database(other).dispose()


def test_the_proxys_addresses_are_read_from_the_environment() -> None:
    found = hosting.settings_from_environment({"FORWARDED_ALLOW_IPS": " 127.0.0.1, 10.0.0.0/8 "})
    assert found["FORWARDED_ALLOW_IPS"] == "127.0.0.1,10.0.0.0/8"
    with pytest.raises(ValueError, match="FORWARDED_ALLOW_IPS"):
        hosting.settings_from_environment({"FORWARDED_ALLOW_IPS": "nginx.local"})


# -- tokens: not in the cookie, not in a cache, not in a log ---------------------------------


def _session_of(client: FlaskClient) -> str:
    cookie = client.get_cookie("session")
    assert cookie is not None
    payload = cookie.value.split(".")[0]
    compressed = payload.startswith(".") or cookie.value.startswith(".")
    data = cookie.value.lstrip(".").split(".")[0]
    raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    return (zlib.decompress(raw) if compressed else raw).decode()


def test_the_session_cookie_keeps_no_edit_token_in_clear(probed: FlaskClient) -> None:
    edit = _start(probed)
    token = edit.rsplit("/", 1)[-1]
    assert probed.get(edit).status_code == 200
    decoded = _session_of(probed)
    assert "recent" in decoded and token not in decoded
    index = probed.get("/").get_data(as_text=True)
    assert edit in index  # the phone still resumes its game by the edit link


def test_an_older_session_with_tokens_in_clear_is_sealed_on_first_read(
    probed: FlaskClient,
) -> None:
    game = _created(probed)
    with probed.session_transaction() as session:
        session["recent_games"] = [[game["id"], game["edit_token"]]]
    assert f"/edit/{game['edit_token']}" in probed.get("/").get_data(as_text=True)
    assert game["edit_token"] not in _session_of(probed)


def test_anything_that_holds_a_token_is_never_stored_by_a_cache(probed: FlaskClient) -> None:
    edit = _start(probed)
    game_id = edit.split("/")[2]
    for path in (edit, f"{edit}/live", f"{edit}/qr.svg", "/"):
        answer = probed.get(path)
        assert answer.headers["Cache-Control"] == "no-store", path
    created = probed.post("/api/v1/games", json={"variant": "contract", "players": PLAYERS})
    assert created.headers["Cache-Control"] == "no-store"
    token = edit.rsplit("/", 1)[-1]
    read = probed.get(f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    assert read.headers["Cache-Control"] == "no-store"
    fresh = _new_app(Path(probed.application.instance_path).parent / "other").test_client()
    view = fresh.get(f"/games/{game_id}")  # a view link: nothing secret
    assert view.headers.get("Cache-Control") != "no-store"


def test_a_clubs_edit_link_is_never_stored_by_a_cache(probed: FlaskClient) -> None:
    club = probed.post("/api/v1/clubs", json={"name": "Thursdays"}).get_json()
    assert club["edit_url"].endswith(club["edit_token"])
    edit = f"/clubs/{club['id']}/edit/{club['edit_token']}"
    for path in (edit, f"{edit}/qr.svg"):
        assert probed.get(path).headers["Cache-Control"] == "no-store", path
    stats = probed.get(
        f"/api/v1/clubs/{club['id']}/stats",
        headers={"Authorization": f"Bearer {club['edit_token']}"},
    )
    assert stats.headers["Cache-Control"] == "no-store"


def test_logs_never_show_a_token() -> None:
    line = '"GET /games/abc/edit/s3cr3t-T0ken_x/rounds/2?x=1 HTTP/1.1" 200 "https://h/games/abc/edit/s3cr3t-T0ken_x"'
    assert "s3cr3t" not in redact(line)
    assert redact("/games/abc/edit/tok") == "/games/abc/edit/***"
    assert redact("Authorization: Bearer abc.def") == "Authorization: Bearer ***"
    args = ("127.0.0.1", "GET /games/a/edit/tok HTTP/1.1", "200")
    record = logging.LogRecord("werkzeug", logging.INFO, "", 0, '%s - "%s" %s', args, None)
    assert RedactingFilter().filter(record)
    assert "tok" not in record.getMessage() and "/edit/***" in record.getMessage()


def test_the_error_log_of_a_crash_shows_no_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app = _new_app(tmp_path)

    @app.get("/games/<game_id>/edit/<token>/boom")
    def boom(game_id: str, token: str) -> str:
        raise RuntimeError("boom")

    with caplog.at_level(logging.ERROR):
        assert app.test_client().get("/games/g/edit/SECRETTOKEN/boom").status_code == 500
    assert caplog.records and "SECRETTOKEN" not in caplog.text
    database(app).dispose()


# -- names ---------------------------------------------------------------------------------------


def test_names_lose_controls_zero_width_and_direction_overrides() -> None:
    assert clean_name("An\u200bn\u202e") == "Ann"
    assert clean_name("Bo\x00\x07 \t Cy") == "Bo Cy"
    assert clean_name("\u2066\u200b\u202d") == ""  # nothing visible: an empty name
    assert (
        clean_name("👨\u200d👩\u200d👧") == "👨\u200d👩\u200d👧"
    )  # a family emoji keeps its joiners
    names, reasons = read_names(["\u202eAnn", "\u200b"])
    assert names[0] == "Ann" and [r.code for r in reasons] == ["empty_name"]


def test_names_are_compared_nfkc_normalised_and_case_folded() -> None:
    assert name_key("Ａｎｎ") == name_key("ANN") == name_key("ann") == name_key("An\u200dn")
    assert name_key("Straße") == name_key("STRASSE")
    _, reasons = read_names(["Ann", "ＡＮＮ"])
    assert [r.code for r in reasons] == ["duplicate_name"]
    _, reasons = read_names(["Zoë", "Zoe\u0308"])  # the same letters, composed or not
    assert [r.code for r in reasons] == ["duplicate_name"]


def test_names_are_isolated_in_html(probed: FlaskClient) -> None:
    edit = _start(probed, ["שרה", "Bo", "Cy"])
    page = probed.get(edit).get_data(as_text=True)
    assert "<bdi>שרה</bdi>" in page
    assert "<bdi><script>" not in page
    hostile = _start(probed, ["<b>x</b>", "Bo", "Cy"])
    text = probed.get(hostile).get_data(as_text=True)
    assert "<bdi>&lt;b&gt;x&lt;/b&gt;</bdi>" in text


# -- issue 23: redirects, encoded paths, names ---------------------------------------------------


@pytest.mark.parametrize("switch", ["/theme/dark", "/theme/auto", "/lang/de"])
@pytest.mark.parametrize(
    ("referrer", "nexts"),
    [
        ("http://localhost//evil.example/x", ""),
        ("http://localhost/\\evil.example/x", ""),
        ("http://evil.example/games", ""),
        ("", "//evil.example/x"),
        ("", "/\t/evil.example/x"),
        ("", "/\\evil.example"),
        ("", "https://evil.example/"),
    ],
)
def test_the_switches_never_send_a_phone_to_another_site(
    probed: FlaskClient, switch: str, referrer: str, nexts: str
) -> None:
    headers = {"Referer": referrer} if referrer else {}
    query = {"next": nexts} if nexts else {}
    answer = probed.get(switch, headers=headers, query_string=query)
    assert answer.status_code == 303 and answer.headers["Location"] == "/"


def test_the_switches_go_back_to_the_page_they_were_pressed_on(probed: FlaskClient) -> None:
    back = probed.get("/theme/dark", headers={"Referer": "http://localhost/rules/contract?x=1"})
    assert back.headers["Location"] == "/rules/contract?x=1"
    assert probed.get("/lang/nl?next=/referee").headers["Location"] == "/referee"


def test_one_name_rule_for_games_and_clubs(probed: FlaskClient) -> None:
    """A family emoji (zero-width joiners) is a name in a game and in a club alike."""
    family = "👨\u200d👩\u200d👧"
    club = probed.post("/api/v1/clubs", json={"name": "Sundays"}).get_json()
    auth = {"Authorization": f"Bearer {club['edit_token']}"}
    body = {"variant": "contract", "players": [family, "Bo", "Cy"], "club": club["id"]}
    filed = probed.post("/api/v1/games", json=body, headers=auth)
    assert filed.status_code == 201, filed.get_json()
    assert filed.get_json()["players"][0] == family
    alone = probed.post(
        "/api/v1/games", json={"variant": "contract", "players": [family, "B", "C"]}
    )
    assert alone.status_code == 201
    members = probed.get(f"/api/v1/clubs/{club['id']}").get_json()["members"]
    assert family in [m if isinstance(m, str) else m["name"] for m in members]


@pytest.mark.parametrize("spelt", ["%65dit/", "edit%2F", "%2Fedit%2F", "ed%69t/"])
def test_an_edit_link_spelt_with_escapes_is_a_404_and_its_token_stays_out_of_the_log(
    tmp_path: Path, spelt: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Sent as a browser or a script sends it (the test client decodes paths before the app
    sees them): the development server's own request line, its own log."""
    import http.client
    import threading

    from werkzeug.serving import make_server

    app = _new_app(tmp_path)
    game = _created(app.test_client())
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with caplog.at_level(logging.INFO, logger="werkzeug"):
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            path = f"/games/{game['id']}/{spelt}{game['edit_token']}"
            connection.request("GET", path, headers={"Host": "localhost"})
            assert connection.getresponse().status == 404
            connection.request("GET", f"/games/{game['id']}/edit/{game['edit_token']}",
                               headers={"Host": "localhost"})  # fmt: skip
            assert connection.getresponse().status == 200  # the one spelling still opens it
            connection.close()
    finally:
        server.shutdown()
        database(app).dispose()
    assert game["edit_token"] not in caplog.text and "***" in caplog.text


# -- the live streams -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "last_event_id", ["", "abc", "-1", "1e9", "9" * 400, "\u0661", "3.5", " 2 ", "0x10"]
)
def test_a_stream_takes_any_last_event_id_and_answers_the_version_now(
    tmp_path: Path, last_event_id: str
) -> None:
    """A browser sends back whatever id it was given, a proxy or a script anything: what is not
    a version the stream knows is treated as none, never a 500, and the first event is the
    game's version now."""
    app = _new_app(tmp_path, LIVE_LIFETIME_SECONDS=0.3, LIVE_HEARTBEAT_SECONDS=0.1)
    client = app.test_client()
    game = _created(client)
    answer = client.get(f"/games/{game['id']}/stream", headers={"Last-Event-ID": last_event_id})
    assert answer.status_code == 200 and answer.mimetype == "text/event-stream"
    body = answer.get_data(as_text=True)
    assert f"id: {game['version']}\n" in body, body
