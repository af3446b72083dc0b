"""The rules at a real table on the pages: /referee with a game's shoe, the last discard and the
timing question (asked only where it matters); the round form's whole deal and stock."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.engine.game import Game, SeatResult
from referee.web.games import service
from referee.web.games.links import edit_url


def verdict_of(html: str) -> str:
    match = re.search(r'<section id="verdict".*?</section>', html, re.S)
    section = match.group(0) if match else html
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", section))).strip()


def get(client: FlaskClient, **query: str) -> tuple[int, str]:
    response = client.get("/referee", query_string=query)
    return response.status_code, response.get_data(as_text=True)


def stored_game(
    app: Flask,
    variant: str,
    players: list[str],
    rounds: int = 0,
    house_rules: dict[str, Any] | None = None,
) -> str:
    game = Game.start(variant, players, house_rules=house_rules)
    with app.test_request_context("/"):
        created = service.create(game, lang="en")
        assert isinstance(created, service.Created)
        for number in range(1, rounds + 1):
            results = [SeatResult(went_out=True)] + [SeatResult(penalty=20)] * (len(players) - 1)
            typed = service.Typed.read(results)
            saved = service.enter_round(created.stored.id, number, typed, version=None)
            assert isinstance(saved, service.Saved)
    return created.stored.id


# -- /referee ------------------------------------------------------------------------------------


def test_referee_page_judges_by_the_games_shoe(app: Flask, client: FlaskClient) -> None:
    """?game= feeds the verdicts, not only the card picker: four players play two decks."""
    game_id = stored_game(app, "contract", ["Ann", "Bo", "Cy", "Di"])
    _, html = get(client, game=game_id, cards="7H 7H 7H")
    assert "Not a valid meld." in verdict_of(html)
    assert "only 2 of them" in verdict_of(html)
    _, html = get(client, cards="7H 7H 7H")
    assert "Valid: this is a set." in verdict_of(html)
    _, html = get(client, game=game_id, check="solve", round="1", hand="7H 7H 7H KC KD KS")
    assert "This hand cannot come from this game's cards." in verdict_of(html)


@pytest.mark.parametrize(
    ("check", "query", "valid"),
    [
        # The game's own rule (two jokers a meld) holds under a check's other house rule ...
        ("meld", {"cards": "5S JK JK", "aces": "low_only"}, True),
        # ... and a check's rule goes over the game's, rule by rule.
        ("meld", {"cards": "5S JK JK", "max_jokers_per_meld": "1"}, False),
        ("meld", {"cards": "JD QD KD AD"}, True),
        ("meld", {"cards": "JD QD KD AD", "aces": "low_only"}, False),
        # The game's round (the first: two sets of three) and its table's shoe.
        ("contract", {"melds": "5S JK JK | 9H 9D 9C"}, True),
        ("contract", {"melds": "5S JK JK | 9H 9D 9C", "max_jokers_per_meld": "1"}, False),
    ],
)
def test_the_page_and_the_api_judge_a_games_check_alike(
    app: Flask, client: FlaskClient, check: str, query: dict[str, str], valid: bool
) -> None:
    """One reader of a check's table (refereeing/tables.py): the game's house rules, the
    check's over them (merged), the game's round and table size, on both channels."""
    game_id = stored_game(
        app, "shanghai", ["Ann", "Bo", "Cy", "Di"], house_rules={"max_jokers_per_meld": 2}
    )
    status, html = get(client, game=game_id, check=check, **query)
    assert status == 200
    words = verdict_of(html)
    assert words.startswith("✓") is valid, words
    body: dict[str, Any] = {"game": game_id}
    rules = {name: value for name, value in query.items() if name not in ("cards", "melds")}
    if rules:
        body["house_rules"] = {
            name: int(value) if value.isdigit() else value for name, value in rules.items()
        }
    if check == "meld":
        body["cards"] = query["cards"]
    else:
        body["melds"] = [meld.strip() for meld in query["melds"].split("|")]
    answer = client.post(f"/api/v1/{check}", json=body)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["valid"] is valid


def test_referee_page_asks_when_the_contract_went_down_only_where_it_matters(
    client: FlaskClient,
) -> None:
    question = "When did your own contract go down?"
    _, html = get(client, check="layoff", variant="contract")
    assert question in html and 'name="contract_down"' in html
    _, html = get(client, check="layoff", variant="rummy")
    assert question not in html  # rummy lays off any time
    _, html = get(client, check="swap", variant="contract")
    assert question not in html  # any player swaps a run's joker on their turn
    _, html = get(client, check="swap", variant="shanghai")
    assert question in html
    _, html = get(client, check="meld")
    assert question not in html


def test_referee_page_states_the_condition_until_the_question_is_answered(
    client: FlaskClient,
) -> None:
    lay_off = {"check": "layoff", "variant": "contract", "meld": "4C 5C 6C 7C", "cards": "8C"}
    _, html = get(client, **lay_off)
    assert "Valid once your contract is down, from your next turn." in verdict_of(html)
    _, html = get(client, **lay_off, contract_down="this_turn")
    words = verdict_of(html)
    assert "These cards fit the meld, but may not be laid off yet." in words
    assert "Lay-offs start on your next turn" in words
    assert re.search(r'value="this_turn" checked', html)
    _, html = get(client, **lay_off, contract_down="earlier_turn")
    assert "Valid: the cards may be laid off" in verdict_of(html)
    assert "Valid once" not in verdict_of(html)
    share = re.search(r'href="([^"]*)" data-ref-share', html)
    assert share is not None and "contract_down=earlier_turn" in unescape(share.group(1))
    _, html = get(client, **lay_off, contract_down="this_turn", lang="de")
    assert "dürfen aber noch nicht angelegt werden" in verdict_of(html)
    assert "Wann hast du deinen eigenen Kontrakt ausgelegt?" in html


def test_referee_page_zioncheck_swap_says_the_joker_is_used_at_once(client: FlaskClient) -> None:
    swap = {"check": "swap", "variant": "zioncheck-nl", "meld": "5H JK 7H", "card": "6H"}
    _, html = get(client, **swap, contract_down="earlier_turn")
    assert "The joker you take must be laid down again in the same turn." in verdict_of(html)
    _, html = get(client, **swap, contract_down="this_turn")
    assert "The card fits, but the joker may not be swapped yet." in verdict_of(html)


def test_referee_page_asks_for_the_last_discard_when_going_out(client: FlaskClient) -> None:
    # Whole hands (10 dealt + 1 drawn): 11 cards in two sets, or 10 and the last discard.
    contract: dict[str, Any] = {"check": "contract", "round": "1", "melds": "7H 7S 7D\nKC KD KS"}
    _, html = get(client, **contract)
    assert 'name="discard"' not in html
    eleven = {**contract, "melds": "7H 7S 7D 7C 7H 7S\nKC KD KS KH KC"}
    _, html = get(client, **eleven, going_out="1")
    assert 'name="discard"' in html
    assert "Going out in this round ends with a discard" in verdict_of(html)
    ten = {**contract, "melds": "7H 7S 7D 7C 7H\nKC KD KS KH KC"}
    _, html = get(client, **ten, going_out="1", discard="2C")
    assert "and the player goes out" in verdict_of(html)
    last = {"check": "contract", "round": "7", "going_out": "1"}
    last["melds"] = "5H 6H 7H 8H 9H\n5S 6S 7S 8S\n9D 10D JD QD"
    _, html = get(client, **last)
    assert 'name="discard"' not in html  # the last round has no discard to ask about
    status, html = get(client, **contract, going_out="1", discard="2C 3C")
    assert status == 400 and "Last discard" in html


def test_referee_page_declared_jokers(client: FlaskClient) -> None:
    _, html = get(client, variant="zioncheck-nl", cards="5H 6H 7H JK")
    assert "Say which card the joker stands for, like JK=4♥" in verdict_of(html)
    _, html = get(client, variant="zioncheck-nl", cards="5H 6H 7H JK", lang="nl")
    assert "Zeg voor welke kaart de joker staat" in verdict_of(html)


# -- the round form ------------------------------------------------------------------------------


def _start(client: FlaskClient, names: list[str], variant: str = "contract", **extra: str) -> str:
    data: dict[str, Any] = {"variant": variant, "first_dealer": "0", "lang": "en", "start": "1"}
    for i, name in enumerate(names):
        data[f"players-{i}"] = name
    data.update(extra)
    response = client.post("/", data=data)
    assert response.status_code == 303, response.data[:2000]
    return response.headers["Location"]


def test_round_form_offers_the_stock_running_out_only_where_it_can(client: FlaskClient) -> None:
    contract = client.get(_start(client, ["Ann", "Bo", "Cy"])).get_data(as_text=True)
    assert "Nobody went out: the stock ran out twice, everyone scores their hand" in contract
    rummy = client.get(_start(client, ["Ann", "Bo"], "rummy")).get_data(as_text=True)
    assert 'value="none"' not in rummy and "stock ran out" not in rummy
    game = Game.start("contract", ["Ann", "Bo", "Cy"], house_rules={"stock_reshuffles": 0})
    with client.application.test_request_context("/"):
        created = service.create(game, lang="en")
        assert isinstance(created, service.Created)
        url = edit_url(created.stored.id, created.token)
    page = client.get(url).get_data(as_text=True)
    assert "Nobody went out: the stock ran out, everyone scores their hand" in page


def test_start_form_offers_the_last_discard_as_a_choice(client: FlaskClient) -> None:
    page = client.get("/?rules=open&variant=shanghai").get_data(as_text=True)
    select = re.search(r'<select[^>]*name="hr_going_out_discard".*?</select>', page, re.S)
    assert select is not None
    options = re.findall(r'<option([^>]*)value="(\w+)"([^>]*)>([^<]*)<', select.group(0))
    assert [(value, label) for _, value, _, label in options] == [
        ("required", "required"),
        ("either", "either way"),
        ("forbidden", "not allowed"),
    ]
    assert any(
        "selected" in before + after and value == "either" for before, value, after, _ in options
    )
    assert "Last discard when going out" in page


def test_round_form_refuses_a_round_seven_hand_below_the_whole_deal(client: FlaskClient) -> None:
    location = _start(client, ["Ann", "Bo", "Cy"])
    for number in range(1, 7):
        data = {"version": str(number), "round": str(number), "went_out": "0"}
        data.update({"seats-1-penalty": str(20 + 5 * number), "seats-2-penalty": "25"})
        assert client.post(location + "/rounds", data=data).status_code == 303
    data = {"version": "7", "round": "7", "went_out": "0"}
    data.update({"seats-1-penalty": "5", "seats-2-penalty": "60"})
    response = client.post(location + "/rounds", data=data)
    assert response.status_code == 400
    page = unescape(response.get_data(as_text=True))
    assert "so Bo still holds all 12 cards: at least 60 points, not 5." in page
    assert 'value="5"' in page  # what was typed stays
