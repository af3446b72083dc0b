"""The games pages: start, enter rounds by form, refusals, 409 keeping the input, live polling."""

from __future__ import annotations

import gzip
import re
from html import unescape
from typing import Any

import brotli
from flask.testing import FlaskClient

from referee.web.games import queries


def _stored(game_id: str) -> queries.StoredGame:
    """The game kept under `game_id`, which must be there."""
    found = queries.load(game_id)
    assert found is not None, game_id
    return found


def _start(client: FlaskClient, names: list[str], variant: str = "contract", **extra: str) -> str:
    data: dict[str, Any] = {"variant": variant, "first_dealer": "0", "lang": "en", "start": "1"}
    for i, name in enumerate(names):
        data[f"players-{i}"] = name
    data.update(extra)
    response = client.post("/", data=data)
    assert response.status_code == 303, response.data[:2000]
    return response.headers["Location"]


def _round_data(version: int, number: int, out: str, **fields: str) -> dict[str, str]:
    return {"version": str(version), "round": str(number), "went_out": out, **fields}


def test_index_offers_every_variant_and_the_house_rules(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    for variant in ("contract", "shanghai", "zioncheck-nl", "rummy", "frustration", "short"):
        assert f'value="{variant}"' in page
    # The house rules are drawn only for a table that opens them: a link, htmx or a button.
    assert 'name="hr_buying"' not in page and 'name="show_rules"' in page
    opened = client.get("/?rules=open").get_data(as_text=True)
    assert 'name="hr_buying"' in opened and 'name="contracts-6-runs"' in opened
    partial = client.get(
        "/?variant=rummy&rules_shown=1", headers={"HX-Request": "true", "HX-Target": "house-rules"}
    )
    assert partial.get_data(as_text=True).lstrip().startswith('<div id="house-rules"')
    assert 'name="hr_target"' in partial.get_data(as_text=True)
    assert 'name="contracts-0-sets"' not in partial.get_data(as_text=True)


def test_opening_the_house_rules_without_javascript_keeps_the_names(client: FlaskClient) -> None:
    data = {"variant": "shanghai", "players-0": "Ann", "players-1": "Bo", "show_rules": "1"}
    page = client.post("/", data=data).get_data(as_text=True)
    assert 'value="Ann"' in page and 'value="Bo"' in page
    assert 'name="hr_buying"' in page and 'name="rules_shown"' in page


def _form_defaults(html: str) -> dict[str, str]:
    """What a browser would post from the start form as the page shows it."""
    data: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", html):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if not name or name.group(1) == "csrf_token":
            continue
        if 'type="checkbox"' in tag:
            if " checked" in tag:
                data[name.group(1)] = "y"
        elif value:
            data[name.group(1)] = value.group(1)
    for select in re.findall(r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', html, re.S):
        chosen = re.search(
            r'<option selected value="([^"]*)"|<option value="([^"]*)" selected', select[1]
        )
        if chosen:
            data[select[0]] = chosen.group(1) or chosen.group(2)
    return data


def test_start_with_a_custom_contract_table(client: FlaskClient) -> None:
    data = _form_defaults(client.get("/?rules=open").get_data(as_text=True))
    assert data["rules_shown"] == "1" and data["hr_last_round_goes_out"] == "y"
    data.update({"contracts-6-sets": "0", "contracts-6-runs": "4", "contracts-6-run_size": "3"})
    data = {k: v for k, v in data.items() if not k.startswith("players-")}
    location = _start(client, ["Ann", "Bo", "Cy"], **data)
    game_id = location.split("/")[2]
    with client.application.test_request_context("/"):
        game = _stored(game_id).game
    assert str(game.variant.contracts[6]) == "4 runs of 3"
    assert game.variant.last_round_goes_out and len(game.variant.contracts) == 7
    assert set(game.house_rules) == {"contracts", "deal"}
    page = client.get(location.replace("/edit/", "/edit/"))  # the edit page shows it
    assert "house rule" in page.get_data(as_text=True)


def test_a_round_by_form_number_cards_and_classes(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"])
    page = client.get(location).get_data(as_text=True)
    assert "2 sets of 3" in page and "Enter round 1" in page
    # Bo counted by class: 2 low (5) + 1 ace (15) = 25; Cy by cards
    data = _round_data(1, 1, "0", **{
        "seats-1-classes-0": "2", "seats-1-classes-2": "1", "seats-2-cards": "7h qs jk",
    })  # fmt: skip
    response = client.post(location + "/rounds", data=data)
    assert response.status_code == 303
    page = client.get(location).get_data(as_text=True)
    assert "Enter round 2" in page and ">25<" in page and ">30<" in page


def test_refusals_on_the_page_keep_the_input_and_speak_german(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"])
    data = _round_data(1, 1, "0", **{"seats-1-penalty": "7", "seats-2-penalty": "12345"})
    response = client.post(location + "/rounds?lang=de", data=data)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert 'value="7"' in page and 'value="12345"' in page  # nothing typed is lost
    assert "Bo" in page and "Runde" in page
    nobody = client.post(location + "/rounds", data=_round_data(1, 1, ""))
    assert nobody.status_code == 400 and "Mark who went out" in nobody.get_data(as_text=True)


def test_a_stale_form_gets_409_with_what_changed(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"])
    first = _round_data(1, 1, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "30"})
    assert client.post(location + "/rounds", data=first).status_code == 303
    second = _round_data(1, 2, "1", **{"seats-0-penalty": "45", "seats-2-penalty": "10"})
    response = client.post(location + "/rounds", data=second)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Round 1 entered" in page and 'value="45"' in page
    assert 'name="version" type="hidden" value="2"' in page


def test_view_link_cannot_edit_and_names_are_escaped(client: FlaskClient) -> None:
    location = _start(client, ["<b>Ann</b>", "Bo", "Cy"])
    game_id = location.split("/")[2]
    view = client.get(f"/games/{game_id}")
    assert view.status_code == 200
    body = view.get_data(as_text=True)
    assert "<b>Ann</b>" not in body and "&lt;b&gt;Ann&lt;/b&gt;" in body
    assert 'name="went_out"' not in body
    assert "script-src 'self'" in view.headers["Content-Security-Policy"]
    assert client.post(f"/games/{game_id}/edit/wrong-token/rounds", data={}).status_code == 403
    assert client.get(f"/games/{game_id}/edit/wrong-token").status_code == 403
    assert client.get("/games/nope-nope-nope-nope-nope").status_code == 404


def test_live_partial_polls_cheaply(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"])
    game_id = location.split("/")[2]
    hx = {"HX-Request": "true"}
    assert client.get(f"/games/{game_id}/live?since=1", headers=hx).status_code == 204
    client.post(
        location + "/rounds",
        data=_round_data(1, 1, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "30"}),
    )
    fresh = client.get(f"/games/{game_id}/live?since=1", headers=hx)
    assert fresh.status_code == 200 and "since=2" in fresh.get_data(as_text=True)
    etag = fresh.headers["ETag"]
    assert client.get(f"/games/{game_id}/live", headers={"If-None-Match": etag}).status_code == 304


def test_correct_and_undo_by_form(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"])
    client.post(
        location + "/rounds",
        data=_round_data(1, 1, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "30"}),
    )
    form = client.get(location + "/rounds/1").get_data(as_text=True)
    assert 'value="25"' in form
    fixed = _round_data(2, 1, "0", **{"seats-1-penalty": "40", "seats-2-penalty": "30"})
    assert client.post(location + "/rounds/1", data=fixed).status_code == 303
    page = client.get(location).get_data(as_text=True)
    assert ">40<" in page and "Round 1 corrected" in page
    assert client.post(location + "/undo", data={"version": "3"}).status_code == 303
    page = client.get(location).get_data(as_text=True)
    assert ">25<" in page and ">40<" not in page


def test_exports_and_import(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"])
    game_id = location.split("/")[2]
    client.post(
        location + "/rounds",
        data=_round_data(1, 1, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "30"}),
    )
    csv_text = client.get(f"/games/{game_id}.csv").get_data(as_text=True)
    assert csv_text.splitlines()[0] == "round,contract,dealer,went_out,Ann,Bo,Cy"
    exported = client.get(f"/games/{game_id}.json").get_data(as_text=True)
    answer = client.post("/games/import", data={"text": exported})
    assert answer.status_code == 303 and game_id not in answer.headers["Location"]
    bad = client.post("/games/import", data={"text": "{not json"})
    assert bad.status_code == 400 and "not a game export" in bad.get_data(as_text=True)
    qr = client.get(f"/games/{game_id}/qr.svg")
    assert qr.mimetype == "image/svg+xml" and b"<svg" in qr.data


def test_recent_games_on_the_index(client: FlaskClient) -> None:
    _start(client, ["Ann", "Bo", "Cy"])
    page = client.get("/").get_data(as_text=True)
    assert "Resume a game" in page and "<bdi>Ann</bdi>, <bdi>Bo</bdi>, <bdi>Cy</bdi>" in page


def test_first_load_of_a_game_page_is_under_60_kb_transferred(client: FlaskClient) -> None:
    """HTML + every stylesheet and script it links, for 8 players, as the app sends them."""
    location = _start(client, [f"Player{i}" for i in range(8)])
    browser = {"Accept-Encoding": "gzip, deflate, br"}
    html = client.get(location, headers=browser)
    assert html.headers["Content-Encoding"] in ("br", "gzip")
    sent = [len(html.data)]
    page = gzip.decompress(html.data) if html.headers["Content-Encoding"] == "gzip" else None
    text = (page or brotli.decompress(html.data)).decode()
    for asset in re.findall(r'(?:href|src)="(/static/[^"]+)"', text):
        response = client.get(asset, headers=browser)
        sent.append(len(response.data))
        response.close()
    print(f"first load of an 8-player edit page: {sum(sent)} bytes transferred")
    assert sum(sent) < 60 * 1024


def test_a_stale_new_round_stays_on_its_round_beside_the_one_saved(client: FlaskClient) -> None:
    # Two phones both typed round 1: the second sees both entries of round 1 side by side, its
    # own kept in a form that corrects round 1 (not rolled into round 2); saving it is a choice.
    location = _start(client, ["Ann", "Bo", "Cy"])
    first = _round_data(1, 1, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "30"})
    assert client.post(location + "/rounds", data=first).status_code == 303
    mine = _round_data(1, 1, "1", **{"seats-0-penalty": "45", "seats-2-penalty": "10"})
    response = client.post(location + "/rounds", data=mine)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Round 1 was saved on another phone" in page
    rows = re.findall(
        r"<tr[^>]*><th scope=\"row\"><bdi>(\w+)</bdi></th><td>([^<]+)</td>\s*<td>([^<]+)", page
    )
    assert rows == [("Ann", "out", "45"), ("Bo", "25", "out"), ("Cy", "30", "10")]
    assert "Correct round 1" in page and "Save mine instead" in page
    assert 'action="' + location + '/rounds/1#round-form"' in page
    assert re.search(r'name="seats-0-penalty"[^>]*value="45"', page)  # nothing typed is lost
    assert 'name="version" type="hidden" value="2"' in page
    assert "Keep the saved one" in page
    again = _form_values(page)
    assert client.post(location + "/rounds/1", data=again).status_code == 303
    with client.application.test_request_context("/"):
        game = _stored(location.split("/")[2]).game
    assert [r.scores for r in game.rounds] == [(45, 0, 10)]


def test_a_stale_new_round_saved_the_same_way_is_simply_saved(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"])
    first = _round_data(1, 1, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "30"})
    assert client.post(location + "/rounds", data=first).status_code == 303
    assert client.post(location + "/rounds", data=first).status_code == 303  # the same, again
    with client.application.test_request_context("/"):
        assert len(_stored(location.split("/")[2]).game.rounds) == 1


def test_a_stale_new_round_nobody_saved_stays_the_round_to_enter(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"])
    first = _round_data(1, 1, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "30"})
    client.post(location + "/rounds", data=first)
    fixed = _round_data(2, 1, "0", **{"seats-1-penalty": "35", "seats-2-penalty": "30"})
    assert client.post(location + "/rounds/1", data=fixed).status_code == 303
    mine = _round_data(2, 2, "1", **{"seats-0-penalty": "45", "seats-2-penalty": "10"})
    response = client.post(location + "/rounds", data=mine)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Enter round 2" in page and "Round 1 corrected (<bdi>Bo</bdi> 25→35)" in page
    assert 'name="version" type="hidden" value="3"' in page
    assert client.post(location + "/rounds", data=_form_values(page)).status_code == 303


def test_a_stale_correction_keeps_only_what_this_phone_changed(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"])
    first = _round_data(1, 1, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "30"})
    client.post(location + "/rounds", data=first)
    # Phone A corrects Bo; phone B, still on version 2, corrects Cy.
    a = _round_data(2, 1, "0", **{"seats-1-penalty": "35", "seats-2-penalty": "30"})
    assert client.post(location + "/rounds/1", data=a).status_code == 303
    b = _round_data(2, 1, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "45"})
    response = client.post(location + "/rounds/1", data=b)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    rows = re.findall(
        r"<tr[^>]*><th scope=\"row\"><bdi>(\w+)</bdi></th><td>([^<]+)</td>\s*<td>([^<]+)", page
    )
    assert rows == [("Ann", "out", "out"), ("Bo", "35", "25"), ("Cy", "30", "45")]
    # Bo's 25 was not typed on phone B: saving again must not put it back.
    assert re.search(r'name="seats-1-penalty"[^>]*value="35"', page)
    assert re.search(r'name="seats-2-penalty"[^>]*value="45"', page)
    assert 'name="version" type="hidden" value="3"' in page


def test_switching_variant_without_javascript_shows_its_own_rules(client: FlaskClient) -> None:
    data = _form_defaults(client.get("/?rules=open").get_data(as_text=True))
    assert data.get("hr_target", "") == ""  # contract plays no target
    data.update({"variant": "rummy", "load_variant": "1"})
    page = client.post("/", data=data).get_data(as_text=True)
    shown = _form_defaults(page)
    assert shown["hr_target"] == "100" and shown["points-0"] == "1"  # rummy: ace 1, to 100
    shown = {k: v for k, v in shown.items() if not k.startswith("players-")}
    location = _start(client, ["You", "Ada", "Bo"], **shown)
    game_id = location.split("/")[2]
    with client.application.test_request_context("/"):
        game = _stored(game_id).game
    assert game.house_rules == {} and game.variant.target == 100


def test_form_endpoints_never_answer_500(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"])
    first = _round_data(1, 1, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "30"})
    client.post(location + "/rounds", data=first)
    weird = ["²", "٣", "99999999999999999999", "9" * 400, "-1", "", "abc", "\x00"]
    for value in weird:
        for field in ("version", "round", "went_out", "seats-1-penalty", "seats-1-buys"):
            data = _round_data(2, 2, "0", **{"seats-1-penalty": "25", "seats-2-penalty": "30"})
            data[field] = value
            assert client.post(location + "/rounds", data=data).status_code < 500, (field, value)
        assert client.post(location + "/undo", data={"version": value}).status_code < 500
    # a correction of a round not entered yet is not there, whatever the number
    for number in (2, 7, 99999999999999999999):
        data = _round_data(2, number, "0", **{"seats-1-penalty": "5", "seats-2-penalty": "5"})
        assert client.post(location + f"/rounds/{number}", data=data).status_code == 404


def test_number_fields_of_the_start_form_never_answer_500(client: FlaskClient) -> None:
    for field in ("hr_target", "hr_buy_limit", "contracts-0-sets", "shoe-0-decks", "points-3"):
        for value in ("9" * 400, "²", "-5"):
            data = {"variant": "contract", "players-0": "Ann", "players-1": "Bo"}
            data.update({"players-2": "Cy", "start": "1", "rules_shown": "1", field: value})
            answer = client.post("/", data=data)
            assert answer.status_code == 400, (field, value)
            assert f'value="{value}"' in answer.get_data(as_text=True)  # what was typed stays


def test_the_first_dealer_is_the_name_in_the_chosen_seat(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "", "Cy", "Dee"], first_dealer="2")  # the 3rd seat: Cy
    game_id = location.split("/")[2]
    with client.application.test_request_context("/"):
        game = _stored(game_id).game
    assert game.players == ("Ann", "Cy", "Dee") and game.first_dealer == 1
    # An empty seat chosen (a page the names were typed on after): asked again, by name
    data = {"variant": "contract", "first_dealer": "5", "lang": "en", "start": "1"}
    data.update({"players-0": "Ann", "players-1": "Bo", "players-2": "Cy"})
    page = client.post("/", data=data)
    text = page.get_data(as_text=True)
    assert page.status_code == 400 and "Choose who deals first." in text
    assert re.findall(r'name="first_dealer" value="(\d)"[^>]*> <span><bdi>(\w+)', text) == [
        ("0", "Ann"), ("1", "Bo"), ("2", "Cy")
    ]  # fmt: skip


def test_a_stale_correction_takes_the_other_phones_going_out(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"])
    first = _round_data(1, 1, "0", **{"seats-1-penalty": "20", "seats-2-penalty": "10"})
    assert client.post(location + "/rounds", data=first).status_code == 303
    # Phone B: Bo went out, not Ann (who had 15 left).
    theirs = _round_data(2, 1, "1", **{"seats-0-penalty": "15", "seats-2-penalty": "10"})
    assert client.post(location + "/rounds/1", data=theirs).status_code == 303
    # Phone A, still on version 2, changes only Cy's 10 to 25.
    mine = _round_data(2, 1, "0", **{"seats-1-penalty": "20", "seats-2-penalty": "25"})
    answer = client.post(location + "/rounds/1", data=mine)
    assert answer.status_code == 409
    page = answer.get_data(as_text=True)
    assert re.search(r'name="went_out" value="1" checked', page)  # Bo out, as B saved
    assert re.search(r'name="seats-0-penalty"[^>]*value="15"', page)  # Ann's 15 from B
    assert re.search(r'name="seats-2-penalty"[^>]*value="25"', page)  # A's own change kept
    again = _form_values(page)
    assert client.post(location + "/rounds/1", data=again).status_code == 303
    with client.application.test_request_context("/"):
        game = _stored(location.split("/")[2]).game
    assert game.rounds[0].scores == (15, 0, 25)


def test_a_round_entered_by_cards_is_corrected_by_its_cards(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"])
    data = _round_data(1, 1, "0", **{"seats-1-cards": "QS 5H", "seats-2-penalty": "10"})
    assert client.post(location + "/rounds", data=data).status_code == 303
    page = client.get(location + "/rounds/1").get_data(as_text=True)
    assert re.search(r'name="seats-1-cards"[^>]*>QS 5H<|value="QS 5H"', page)
    assert not re.search(r'name="seats-1-penalty"[^>]*value="15"', page)
    fixed = _form_values(page)
    fixed["seats-1-cards"] = "5H"
    assert client.post(location + "/rounds/1", data=fixed).status_code == 303
    with client.application.test_request_context("/"):
        game = _stored(location.split("/")[2]).game
    assert game.rounds[0].scores == (0, 5, 10)


def _form_values(html: str) -> dict[str, str]:
    """What the round form on a page would post as it stands."""
    form = html[html.index('<form class="form round-form"') :]
    form = form[: form.index("</form>")]
    data: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if not name:
            continue
        if 'type="radio"' in tag or 'type="checkbox"' in tag:
            if " checked" in tag:
                data[name.group(1)] = value.group(1) if value else "y"
        else:
            data[name.group(1)] = value.group(1) if value else ""
    for name, text in re.findall(r'<textarea[^>]*name="([^"]+)"[^>]*>([^<]*)</textarea>', form):
        data[name] = unescape(text.strip())
    return data


def test_nothing_is_written_while_a_game_is_read(client: FlaskClient) -> None:
    """Every GET of the games (pages, the polled table, files, QR codes, the API) only reads:
    nothing derived is kept on the way, whatever the game's history."""
    from sqlalchemy import event

    from referee.web.plumbing.database import database

    location = _start(client, ["Ann", "Bo", "Cy"])
    for number in (1, 2):
        points = {"seats-1-penalty": str(20 + 5 * number), "seats-2-penalty": "30"}
        data = _round_data(number, number, "0", **points)
        assert client.post(location + "/rounds", data=data).status_code == 303
    client.post(location + "/undo", data={"version": "3"})
    game_id, token = location.split("/")[2], location.split("/")[4]
    values = {"game_id": game_id, "token": token, "number": 1}
    app = client.application
    reads = sorted(
        rule.rule
        for rule in app.url_map.iter_rules()
        if (rule.endpoint.startswith(("games.", "games_api.")) or "game_id" in rule.arguments)
        and "GET" in (rule.methods or ())
        and set(rule.arguments) <= set(values)
    )
    assert "/games/<game_id>/sheet.pdf" in reads and len(reads) >= 12
    writes: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().split()[0].upper() in ("INSERT", "UPDATE", "DELETE", "REPLACE"):
            writes.append(statement)

    engine = database(app).engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        for rule in reads:
            path = rule
            for name, value in values.items():
                path = re.sub(rf"<(?:[a-z]+:)?{name}>", str(value), path)
            assert client.get(path).status_code in (200, 204), path
    finally:
        event.remove(engine, "before_cursor_execute", note)
    assert writes == []
