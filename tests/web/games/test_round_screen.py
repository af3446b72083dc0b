"""The round screen's server side: problems said at once where they are fixed, a repeated round
asked about, undo and restore by form, a rematch, the first dealer as a second step, the game's
language on every page of the game, the correction's way back, the theme switch."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import event

from referee.web.games import queries
from referee.web.games.presenting import SHORT_NAME_LETTERS, short_names
from referee.web.plumbing.database import database


def _stored(game_id: str) -> queries.StoredGame:
    """The game kept under `game_id`, which must be there."""
    found = queries.load(game_id)
    assert found is not None, game_id
    return found


def _start(client: FlaskClient, names: list[str], **extra: Any) -> str:
    body = {"variant": "contract", "players": names, **extra}
    created = client.post("/api/v1/games", json=body).get_json()
    return str(created["edit_url"]).split("://", 1)[1].split("/", 1)[1].join(["/", ""])


def _round(version: int, number: int, out: str, **fields: str) -> dict[str, str]:
    return {"version": str(version), "round": str(number), "went_out": out, **fields}


def _game(client: FlaskClient, location: str) -> Any:
    with client.application.test_request_context("/"):
        return _stored(location.split("/")[2]).game


def test_every_problem_at_once_under_its_field_and_in_the_summary(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy", "Di"])
    data = _round(1, 1, "", **{"seats-1-penalty": "abc", "seats-2-cards": "7H ZZ"})
    answer = client.post(location + "/rounds", data=data)
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    summary = page[
        page.index('id="error-summary"') : page.index("</div>", page.index('id="error-summary"'))
    ]
    links = re.findall(r'<a href="#([^"]+)">([^<]+)</a>', summary)
    assert [target for target, _ in links] == [
        "went-out-0",
        "seat-0-penalty",
        "seat-1-penalty",
        "seats-2-cards",
        "seat-3-penalty",
    ]  # in the order of the page: the round first, then seat by seat
    texts = dict(links)
    assert "Mark who went out" in texts["went-out-0"]
    assert texts["seat-1-penalty"].startswith("Bo: ") and "whole number" in texts["seat-1-penalty"]
    assert texts["seats-2-cards"].startswith("Cy: ") and "ZZ" in texts["seats-2-cards"]
    # each under its player: the points in the row, the cards under the cards (shown open)
    assert re.search(r'id="seat-1-problems"><li>Bo: ', page)
    assert re.search(r'aria-describedby="seat-1-problems" aria-invalid="true"', page)
    assert re.search(r'id="seat-2-hand"[^>]* open>', page)
    assert re.search(r'id="seats-2-cards-errors">\s*<li>Cy: ', page)
    assert 'value="abc"' in page and "7H ZZ" in page  # nothing typed is lost


def test_a_round_that_scores_as_the_one_before_asks_first(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"])
    first = _round(1, 1, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "30"})
    assert client.post(location + "/rounds", data=first).status_code == 303
    again = _round(2, 2, "0", **{"seats-1-penalty": "25", "seats-2-cards": "10H 10S QD"})
    answer = client.post(location + "/rounds", data=again)
    assert answer.status_code == 400
    page = answer.get_data(as_text=True)
    assert "Round 2 scores exactly as round 1 did" in page
    assert re.search(r'id="same-again" name="same_again" value="y"', page)
    assert len(_game(client, location).rounds) == 1
    assert client.post(location + "/rounds", data={**again, "same_again": "y"}).status_code == 303
    assert [r.scores for r in _game(client, location).rounds] == [(0, 25, 30), (0, 25, 30)]
    # The first round sent again (a retry) is no repeat of anything: it was saved already
    assert client.post(location + "/rounds", data=first).status_code == 303
    assert len(_game(client, location).rounds) == 2
    # A correction is what the table means: never asked about, even like the round before
    fixed = _round(3, 2, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "30"})
    assert client.post(location + "/rounds/2", data=fixed).status_code == 303


def test_undo_asks_and_restore_puts_it_back(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"])
    first = _round(1, 1, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "30"})
    client.post(location + "/rounds", data=first)
    page = client.get(location).get_data(as_text=True)
    assert '<details class="undo" id="undo">' in page
    assert '<p class="undo-question">Undo round 1?</p>' in page
    assert "Round 1 entered (<bdi>Ann</bdi> out, <bdi>Bo</bdi> 25, <bdi>Cy</bdi> 30)" in page
    assert 'id="restore"' not in page
    answer = client.post(location + "/undo", data={"version": "2"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith("#changes")
    page = client.get(location).get_data(as_text=True)
    assert (
        "Undone: round 1 taken back (<bdi>Ann</bdi> out, <bdi>Bo</bdi> 25, <bdi>Cy</bdi> 30)"
        in page
    )
    assert ">Restore round 1</button>" in page and 'id="undo"' not in page
    assert client.post(location + "/restore", data={"version": "2"}).status_code == 409  # stale
    assert client.post(location + "/restore", data={"version": "3"}).status_code == 303
    page = client.get(location).get_data(as_text=True)
    assert (
        "Restored: round 1 (<bdi>Ann</bdi> out, <bdi>Bo</bdi> 25, <bdi>Cy</bdi> 30)" in page
        and 'id="restore"' not in page
    )
    assert "Undo restoring round 1?" in page
    assert [r.scores for r in _game(client, location).rounds] == [(0, 25, 30)]
    nothing = client.post(location + "/restore", data={"version": "4"})
    assert nothing.status_code == 400 and "nothing to restore" in nothing.get_data(as_text=True)


def test_a_rematch_starts_the_same_table_with_the_next_dealer(client: FlaskClient) -> None:
    options = {"first_dealer": "Bo", "lang": "de", "house_rules": {"buying": True}}
    location = _start(client, ["Ann", "Bo", "Cy"], **options)
    game_id = location.split("/")[2]
    for number in range(1, 8):
        data = _round(
            number,
            number,
            "0",
            **{"seats-1-penalty": "60", "seats-2-penalty": str(60 + 5 * number)},
        )
        assert client.post(location + "/rounds", data=data).status_code == 303
    view = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert f'action="/games/{game_id}/rematch"' in view  # offered at the end only
    answer = client.post(f"/games/{game_id}/rematch")
    assert answer.status_code == 303 and game_id not in answer.headers["Location"]
    again = _game(client, answer.headers["Location"])
    assert again.players == ("Ann", "Bo", "Cy") and again.first_dealer == 2  # after Bo: Cy
    assert again.house_rules == {"buying": True} and again.rounds == ()
    with client.application.test_request_context("/"):
        assert _stored(answer.headers["Location"].split("/")[2]).lang == "de"
    assert client.post("/games/nope-nope-nope-nope-nope/rematch").status_code == 404


def test_without_a_script_the_first_dealer_is_asked_once_the_names_are_in(
    client: FlaskClient,
) -> None:
    page = client.get("/").get_data(as_text=True)
    assert re.search(r'<div class="field js-only">.*?<select[^>]*disabled', page, re.S)
    data = {"variant": "contract", "lang": "en", "start": "1"}
    data.update({"players-0": "Ann", "players-1": "", "players-2": "Cy", "players-3": "Di"})
    second = client.post("/", data=data)
    text = second.get_data(as_text=True)
    assert second.status_code == 200 and "Who deals first?" in text
    assert re.findall(r'name="first_dealer" value="(\d)"[^>]*> <span><bdi>(\w+)', text) == [
        ("0", "Ann"),
        ("2", "Cy"),
        ("3", "Di"),
    ]
    assert 'value="Cy"' in text  # the names stay as typed
    answer = client.post("/", data={**data, "first_dealer": "3"})
    assert answer.status_code == 303
    assert _game(client, answer.headers["Location"]).first_dealer == 2  # Di, third at the table


def test_the_games_language_for_a_phone_that_chose_none(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"], lang="de")
    game_id = location.split("/")[2]
    english = {"Accept-Language": "en-US,en;q=0.9"}
    for path in (location, f"/games/{game_id}", location + "/live", f"/games/{game_id}/live"):
        page = client.get(path, headers=english).get_data(as_text=True)
        assert "Punkte" in page, path
    assert '<html lang="de"' in client.get(location, headers=english).get_data(as_text=True)
    sheet = client.get(f"/games/{game_id}/sheet.pdf", headers=english)
    assert "-de-" in sheet.headers["Content-Disposition"]
    first = _round(1, 1, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "30"})
    client.post(location + "/rounds", data=first)
    exported = client.get(f"/games/{game_id}.csv", headers=english).get_data(as_text=True)
    assert "2 Sätze zu 3" in exported
    # The API keeps its own default, English
    answer = client.get(f"/api/v1/games/{game_id}", headers=english).get_json()
    assert answer["rounds"][0]["contract"] == "2 sets of 3"
    # A phone that chose English (its cookie, or ?lang) keeps its choice
    assert "Scores" in client.get(f"/games/{game_id}?lang=en").get_data(as_text=True)
    assert "Scores" in client.get(f"/games/{game_id}").get_data(as_text=True)  # the cookie now
    # Starting a game does not choose for the phone that starts it
    fresh = client.application.test_client()
    data = {"variant": "contract", "lang": "nl", "start": "1", "first_dealer": "0"}
    data.update({"players-0": "Ann", "players-1": "Bo", "players-2": "Cy"})
    started = fresh.post("/", data=data, headers=english)
    assert fresh.get_cookie("lang") is None
    assert "Ronde 1 invoeren" in fresh.get(started.headers["Location"], headers=english).get_data(
        as_text=True
    )
    assert "New game" in fresh.get("/", headers=english).get_data(as_text=True)


def test_a_correction_goes_back_to_the_game(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"])
    first = _round(1, 1, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "30"})
    client.post(location + "/rounds", data=first)
    fixed = _round(2, 1, "0", **{"seats-1-penalty": "35", "seats-2-penalty": "30"})
    plain = client.post(location + "/rounds/1", data=fixed)
    assert plain.status_code == 303 and plain.headers["Location"] == location + "#scores"
    fixed = _round(3, 1, "0", **{"seats-1-penalty": "40", "seats-2-penalty": "30"})
    boosted = client.post(location + "/rounds/1", data=fixed, headers={"HX-Request": "true"})
    assert boosted.status_code == 204 and boosted.headers["HX-Redirect"] == location + "#scores"


def test_polling_brings_the_pinned_head_and_the_rounds_facts(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"])
    first = _round(1, 1, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "30"})
    client.post(location + "/rounds", data=first)
    polled = client.get(location + "/live?since=1", headers={"HX-Request": "true"})
    page = polled.get_data(as_text=True)
    assert '<header class="game-head" id="game-head" hx-swap-oob="true">' in page
    assert 'id="deal-facts" aria-label="The round to play" hx-swap-oob="true"' in page
    assert "Round 2 of 7" in page and "<bdi>Bo</bdi> deals" in page


def test_eight_players_get_short_names_in_the_table_and_full_ones_for_screen_readers(
    client: FlaskClient,
) -> None:
    names = ["Annemarie", "Annabel", "Bartholomeus", "Christabella", "Dominique", "Ed", "Fi", "Gus"]
    location = _start(client, names)
    data = _round(1, 1, "0", **{f"seats-{s}-penalty": "5" for s in range(1, 8)})
    client.post(location + "/rounds", data=data)
    page = client.get(location).get_data(as_text=True)
    head = page[page.index("<thead>") : page.index("</thead>")]
    assert (
        '<span class="name-short" aria-hidden="true"><bdi>An1</bdi></span>'
        '<span class="name-full"><bdi>Annemarie</bdi>' in head
    )
    assert '<span class="name-short" aria-hidden="true"><bdi>An2</bdi></span>' in head
    assert '<span class="name-short" aria-hidden="true"><bdi>Bar</bdi></span>' in head
    assert (
        '<span class="name-full"><bdi>Ed</bdi></span>' in head
        and 'name-short" aria-hidden="true"><bdi>Ed<' not in head
    )
    assert 'class="score-table many"' in page


@pytest.mark.parametrize(
    ("players", "shorts"),
    [
        # the start of a name: its first word, or as many letters of it as the column holds
        (["Anne-Marie K", "Bartholomeus", "Christabella", "Dominique L."],
         ["Anne", "Barth", "Chris", "Domin"]),
        # two players share a start: initials
        (["Bonifacio Ro", "Bonifacio Jo", "Diederik Jan", "Diederik Piet"],
         ["BR", "BJ", "DJ", "DP"]),
        (["Jo Ann", "Jo Beth", "Jo"], ["JA", "JB", "Jo"]),
        (["Anne-Marie K", "Anne Bakker", "Cy"], ["AMK", "AB", "Cy"]),
        # one-word names that share a start: the start and the seat
        (["Christabella", "Christopher", "Ann", "Bo"], ["Chri1", "Chri2", "Ann", "Bo"]),
        (["Anne", "Anna", "An2", "Bo", "Cy", "Di", "Ed", "Fi"],
         ["An1", "#2", "#3", "Bo", "Cy", "Di", "Ed", "Fi"]),
        # two players: ten letters
        (["Bartholomeus", "Ann"], ["Bartholome", "Ann"]),
    ],
)  # fmt: skip
def test_short_names_are_the_start_of_a_name_or_initials_where_two_share_it(
    players: list[str], shorts: list[str]
) -> None:
    assert short_names(players) == shorts


@given(
    st.lists(
        st.text(min_size=1, max_size=24).map(str.strip).filter(bool),
        min_size=2,
        max_size=8,
        unique_by=str.casefold,
    )
)
def test_short_names_tell_every_player_apart_and_fit_the_column(players: list[str]) -> None:
    shorts = short_names(players)
    assert len({short.casefold() for short in shorts}) == len(players)
    assert all(0 < len(short) <= SHORT_NAME_LETTERS.get(len(players), 3) for short in shorts)


def test_the_contract_table_reads_row_by_row_to_a_screen_reader(client: FlaskClient) -> None:
    page = client.get("/?rules=open").get_data(as_text=True)
    labels = re.findall(r'aria-label="(Round \d+: [^"]+)"[^>]*name="contracts-0-', page)
    assert labels == [
        "Round 1: sets",
        "Round 1: cards in a set",
        "Round 1: runs",
        "Round 1: cards in a run",
        "Round 1: cards dealt",
    ]
    assert 'aria-label="Round 7: runs"' in page


def test_the_theme_switch_remembers_the_choice(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<html lang="en">' in page and 'content="light dark"' in page
    answer = client.get("/theme/dark?next=/referee")
    assert answer.status_code == 303 and answer.headers["Location"] == "/referee"
    cookie = client.get_cookie("theme")
    assert cookie is not None and cookie.value == "dark"
    page = client.get("/").get_data(as_text=True)
    assert '<html lang="en" data-theme="dark">' in page and 'content="dark"' in page
    client.get("/theme/auto")
    assert client.get_cookie("theme") is None
    assert client.get("/theme/purple").status_code == 404
    assert client.get("/theme/dark?next=https://elsewhere.example/").headers["Location"] == "/"


JSON = {"Accept": "application/json"}


def test_a_round_form_asked_for_json_says_its_refusal_as_the_api_does(
    client: FlaskClient,
) -> None:
    """What the offline outbox asks for: a refusal's reasons as JSON (`error`, `errors`, each
    with its message, player and field), a save as a plain form's (on to the game's page)."""
    location = _start(client, ["Ann", "Bo", "Cy"])
    bad = _round(1, 1, "", **{"seats-1-penalty": "abc", "seats-2-cards": "7H ZZ"})
    answer = client.post(location + "/rounds", data=bad, headers=JSON)
    assert answer.status_code == 400 and answer.mimetype == "application/json"
    errors = answer.get_json()["errors"]
    assert answer.get_json()["error"] == errors[0]
    assert [(e["code"], e.get("player"), e.get("field")) for e in errors] == [
        ("mark_who_went_out", None, "went_out"),  # in the order of the page, as its summary
        ("no_penalty", "Ann", "penalty"),
        ("bad_input", "Bo", "penalty"),  # the field's own error: "abc" is no number
        ("bad_card", "Cy", "cards"),
    ]
    assert all(e["message"] for e in errors) and "ZZ" in errors[-1]["message"]
    first = _round(1, 1, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "30"})
    saved = client.post(location + "/rounds", data=first, headers=JSON)
    assert saved.status_code == 303 and saved.headers["Location"].endswith(location)
    # Another phone's entry of the same round, from the version before: the round is taken.
    other = _round(1, 1, "1", **{"seats-0-penalty": "15", "seats-2-penalty": "30"})
    stale = client.post(location + "/rounds", data=other, headers=JSON)
    assert stale.status_code == 409
    assert stale.get_json()["error"]["message"] == "Round 1 was saved on another phone"
    # Nothing to restore, and a page that is not the game's: JSON too.
    nothing = client.post(location + "/restore", data={"version": "2"}, headers=JSON)
    assert nothing.status_code == 400
    assert nothing.get_json()["error"]["code"] == "nothing_to_restore"
    wrong = client.post(location.replace("/edit/", "/edit/x") + "/rounds", data=first, headers=JSON)
    assert wrong.status_code == 403 and wrong.get_json()["error"]["code"] == "forbidden"
    # Without asking, the same refusal is the round screen.
    assert client.post(location + "/restore", data={"version": "2"}).mimetype == "text/html"


def test_the_large_text_switch_is_kept_like_the_theme(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert "data-text" not in page.split(">", 2)[1] and "/text/large?next=/" in page
    answer = client.get("/text/large?next=/referee")
    assert answer.status_code == 303 and answer.headers["Location"] == "/referee"
    cookie = client.get_cookie("text")
    assert cookie is not None and cookie.value == "large"
    page = client.get("/rules").get_data(as_text=True)
    assert '<html lang="en" data-text="large">' in page and "/text/normal?next=/rules" in page
    client.get("/theme/dark")
    assert '<html lang="en" data-theme="dark" data-text="large">' in client.get("/").text
    client.get("/text/normal")
    assert client.get_cookie("text") is None
    assert client.get("/text/huge").status_code == 404
    assert client.get("/text/large?next=//elsewhere.example/").headers["Location"] == "/"


# -- what one round save costs the database ----------------------------------------------------


def _statements_of(client: FlaskClient, send: Any) -> list[str]:
    """The SQL statements run while `send()` posts (SQLAlchemy's before_cursor_execute)."""
    with client.application.app_context():
        engine = database().engine
    seen: list[str] = []

    def _count(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(engine, "before_cursor_execute", _count)
    try:
        send()
    finally:
        event.remove(engine, "before_cursor_execute", _count)
    return seen


def test_a_round_save_reads_the_game_once(client: FlaskClient) -> None:
    """Issue 30: the access check loads the game, the service writes from it (its version read
    again under the row's lock) and answers the game the step made: the game's row and rounds
    are read once. Before, three times (and the version and token on their own): 18 statements,
    BEGINs counted; now 11."""
    location = _start(client, ["Ann", "Bo", "Cy"])
    data = _round(1, 1, "0", **{"seats-1-penalty": "10", "seats-2-penalty": "20"})
    answer: list[Any] = []
    statements = _statements_of(
        client, lambda: answer.append(client.post(location + "/rounds", data=data))
    )
    assert answer[0].status_code == 303
    reads = [s for s in statements if s.startswith("SELECT") and "FROM game_rounds" in s]
    assert len(reads) == 1, statements
    assert len([s for s in statements if "newest.version" in s]) == 1  # the game's row
    assert len(statements) == 11, statements
    assert _game(client, location).rounds[0].scores == (0, 10, 20)


def test_a_round_sent_to_the_api_reads_the_game_once_too(client: FlaskClient) -> None:
    """The API's token check loads the game the service writes from (16 statements before
    issue 30, the game read three times; 11 now)."""
    game = client.post("/api/v1/games", json={"variant": "contract", "players": ["A", "B", "C"]})
    created = game.get_json()
    results = [
        {"player": "A", "went_out": True},
        {"player": "B", "penalty": 10},
        {"player": "C", "penalty": 20},
    ]
    body = {"version": 1, "round": 1, "results": results}
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    answer: list[Any] = []
    url = f"/api/v1/games/{created['id']}/rounds"
    statements = _statements_of(
        client, lambda: answer.append(client.post(url, json=body, headers=auth))
    )
    assert answer[0].status_code == 200, answer[0].get_json()
    assert answer[0].get_json()["version"] == 2
    assert len([s for s in statements if "FROM game_rounds" in s]) == 1, statements
    assert len([s for s in statements if "newest.version" in s]) == 1
