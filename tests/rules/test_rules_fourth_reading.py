"""RULES.md, "Decided in the fourth reading of the seeds": one test per line, from real hands.

Each name reads `test_<rule>_<case>`: the whole hand going out (never shorter than dealt + drawn),
two sets of one rank (house rule `distinct_set_ranks`), Shanghai's buy limit per player, buys
written down, `JK` in every notation, the table's size on /referee, `can_meet_contract` for
rummy, a table of unknown size, the presets' open points said as ours, a buy limit of 0,
buying as an optional house rule, zioncheck-nl's rediscard, sets of exactly 3 and the French
participle; each through the channels that show it (the engine, the API, /referee, a check that
names a game, the command line, the rule page and card, in six languages). Last, the wrong
sentences the issue quotes, held off every variant's page and card in six languages, with and
without the house rules concerned.
"""

from __future__ import annotations

import io
import json
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, render_template
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# The API's and the command line's callers the third reading's tests use (its app and client,
# `web` and `http`, are conftest's).
from test_rules_third_reading import cli, codes, melds, post

from referee.engine.cards import JOKER, Card, Rank, Suit, full_deck, parse_card, parse_cards
from referee.engine.contracts import check_contract
from referee.engine.errors import RefereeError
from referee.engine.game import Game, SeatResult
from referee.engine.house_rules import get_variant
from referee.engine.melds import MeldKind
from referee.engine.scoring import least_whole_hand, max_hand_size
from referee.engine.solver import solve
from referee.engine.variants import VARIANTS, Variant
from referee.web.printing.sheets import game_sheet
from referee.web.vocabulary.house_rules import table_rules
from referee.web.vocabulary.rulebook import Rulebook

CONTRACT = get_variant("contract")
ZIONCHECK = get_variant("zioncheck-nl")
FRUSTRATION = get_variant("frustration")
DISTINCT = get_variant("contract", {"distinct_set_ranks": True})
LANGUAGES = ("en", "de", "nl", "pt", "fr", "es")

# Seed 000's round 1 (two sets of 3) laid down with a discard: 7 cards, not a whole hand of 11.
ROUND_ONE_SEVEN = ["7H 7S 7D", "KC KD KS"]
# A whole hand of round 1: two sets of five and a discard, 11 cards (10 dealt + 1 drawn).
ROUND_ONE_TEN = ["7H 7S 7D 7C 7H", "KC KD KS KH KC"]
# Seed 000: round 7 is three runs of 4 (12 cards), and the 13th extends one of them.
ROUND_SEVEN_TWELVE = ["4H 5H 6H 7H", "4S 5S 6S 7S", "4D 5D 6D 7D"]
ROUND_SEVEN_THIRTEEN = ["4H 5H 6H 7H 8H", "4S 5S 6S 7S", "4D 5D 6D 7D"]
# Two separate sets of sevens (seed 000, "zwei separate Drilling-Gruppen"): two decks have 8.
TWO_SETS_OF_SEVENS = ["7H 7S 7D", "7C 7H 7S"]


def refused(variant: Variant, number: int, hand: list[str], **kwargs: Any) -> RefereeError:
    with pytest.raises(RefereeError) as error:
        check_contract(melds(*hand), variant, number, going_out=True, **kwargs)
    return error.value


def page_text(http: FlaskClient, **query: str) -> tuple[int, str]:
    response = http.get("/referee", query_string=query)
    return response.status_code, unescape(response.get_data(as_text=True))


def new_game(client: FlaskClient, variant: str, players: list[str], **house: Any) -> Any:
    body: dict[str, Any] = {"variant": variant, "players": players}
    if house:
        body["house_rules"] = house
    answer = client.post("/api/v1/games", json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


# -- A whole hand going out is never shorter than a hand can be ---------------------------------


def test_whole_hand_round_one_two_sets_and_a_discard_are_hand_too_short() -> None:
    error = refused(CONTRACT, 1, ROUND_ONE_SEVEN, discard=parse_card("2C"))
    assert (error.code, error.params) == ("hand_too_short", {"least": 11, "count": 7})
    two_c = parse_card("2C")
    assert check_contract(melds(*ROUND_ONE_TEN), CONTRACT, 1, going_out=True, discard=two_c).valid
    # Not going out, the same two sets are a contract laid down: a verdict, and a valid one.
    assert check_contract(melds(*ROUND_ONE_SEVEN), CONTRACT, 1).valid


def test_whole_hand_round_seven_needs_thirteen() -> None:
    error = refused(CONTRACT, 7, ROUND_SEVEN_TWELVE)
    assert error.params == {"least": 13, "count": 12}
    assert check_contract(melds(*ROUND_SEVEN_THIRTEEN), CONTRACT, 7, going_out=True).valid


def test_whole_hand_is_checked_with_too_many_cards_before_any_meld() -> None:
    wrong = ["7H 8S 2D", "KC"]  # no set at all: still a hand too short, said first
    assert refused(CONTRACT, 1, wrong, discard=parse_card("2C")).code == "hand_too_short"
    assert least_whole_hand(CONTRACT, 1) == 11 == max_hand_size(CONTRACT, 1)


def test_whole_hand_buys_and_several_cards_taken_only_make_it_longer() -> None:
    """Frustration buys, zioncheck-nl takes several discards: the least hand is still 10 + 1."""
    assert least_whole_hand(FRUSTRATION, 1) == 11 < max_hand_size(FRUSTRATION, 1) == 17
    assert least_whole_hand(ZIONCHECK, 4) == 11 < max_hand_size(ZIONCHECK, 4) == 30
    assert refused(FRUSTRATION, 1, ROUND_ONE_SEVEN, discard=parse_card("2C")).params == {
        "least": 11,
        "count": 7,
    }


def test_whole_hand_where_none_goes_out_in_one_turn_the_answer_says_lay_offs() -> None:
    """zioncheck-nl's first deal: two sets of at most 4 and a discard are 9 cards of 11."""
    error = refused(ZIONCHECK, 1, ["7H 7S 7D 7C", "KC KD KS KH"], discard=parse_card("2C"))
    assert error.params == {"least": 11, "count": 9, "most": 9}
    # Its fourth deal can: three sets of 4 are 12 cards.
    assert check_contract(
        melds("7H 7S 7D 7C", "KC KD KS KH", "9C 9D 9S 9H"), ZIONCHECK, 4, going_out=True
    ).valid
    # House rule max_set_size=3: contract's round 4 (three sets) is 9 cards and a discard.
    three = get_variant("contract", {"max_set_size": 3})
    error = refused(three, 4, ["7H 7S 7D", "KC KD KS", "9C 9D 9S"], discard=parse_card("2C"))
    assert error.params == {"least": 11, "count": 10, "most": 10}


def test_whole_hand_earlier_melds_are_no_part_of_it() -> None:
    """What lies on the table from before is a lay-off's question, not a whole hand's."""
    from referee.engine.layoffs import check_layoff
    from referee.engine.variants import ContractDown

    assert check_contract(melds(*ROUND_SEVEN_TWELVE[:2]), CONTRACT, 3).valid
    down = ContractDown.EARLIER_TURN
    assert check_layoff(
        parse_cards("7H 7S 7D"), parse_cards("7C"), CONTRACT, contract_down=down
    ).valid


whole_hands = st.lists(st.sampled_from([*full_deck(), JOKER]), min_size=1, max_size=20)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([v for v in VARIANTS.values() if v.has_contracts]),
    st.integers(1, 7),
    whole_hands,
    st.booleans(),
)
def test_whole_hand_property_shorter_than_dealt_and_drawn_is_always_refused(
    variant: Variant, number: int, cards: list[Card], discard: bool
) -> None:
    """Whatever the melds, a whole hand of fewer cards than dealt + drawn is `hand_too_short`,
    and one of at least that many is never refused for its length (up to the longest hand)."""
    if number > (variant.rounds or 0):
        return
    hand = [cards[:3], cards[3:]] if len(cards) > 3 else [cards]
    last = cards[-1] if discard else None
    count = len(cards) + (last is not None)
    least, most = least_whole_hand(variant, number), max_hand_size(variant, number)
    if count < least:
        with pytest.raises(RefereeError) as error:
            check_contract(hand, variant, number, going_out=True, discard=last)
        assert error.value.code == "hand_too_short" and error.value.params["least"] == least
    elif count <= most:
        check_contract(hand, variant, number, going_out=True, discard=last)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "A whole hand going out holds at least 11 cards here"),
        ("de", "Eine ganze Hand beim Hinausgehen hat hier mindestens 11 Karten"),
        ("nl", "Een hele hand bij het uitgaan heeft hier minstens 11 kaarten"),
        ("pt", "Uma mão inteira ao bater tem aqui pelo menos 11 cartas"),
        ("fr", "Une main entière qui sort compte ici au moins 11 cartes"),
        ("es", "Una mano entera al cerrar tiene aquí al menos 11 cartas"),
    ],
)
def test_whole_hand_is_a_400_naming_the_least_hand_in_every_language(
    http: FlaskClient, lang: str, said: str
) -> None:
    body = {"variant": "contract", "round": 1, "melds": ROUND_ONE_SEVEN, "going_out": True}
    error = post(http, "contract", {**body, "discard": "2C", "lang": lang}, 400)["error"]
    assert (error["code"], error["least"]) == ("hand_too_short", 11)
    assert error["message"].startswith(said) and "7" in error["message"]


def test_whole_hand_needing_lay_offs_is_said_so_in_the_api(http: FlaskClient) -> None:
    body = {
        "variant": "zioncheck-nl",
        "round": 1,
        "melds": ["7H 7S 7D 7C", "KC KD KS KH"],
        "discard": "2C",
        "going_out": True,
    }
    message = post(http, "contract", body, 400)["error"]["message"]
    assert "hold at most 9 cards: going out needs lay-offs as well" in message
    german = post(http, "contract", {**body, "lang": "de"}, 400)["error"]["message"]
    assert "Zum Hinausgehen musst du auch anlegen" in german


def test_whole_hand_on_the_referee_page(http: FlaskClient) -> None:
    query = {
        "check": "contract",
        "variant": "contract",
        "round": "7",
        "melds": "\n".join(ROUND_SEVEN_TWELVE),
        "going_out": "1",
    }
    status, text = page_text(http, **query)
    assert status == 400
    assert "holds at least 13 cards here (the cards dealt and the card drawn); this one has 12" in (
        text
    )
    assert "the player goes out" not in text
    status, text = page_text(http, **{**query, "melds": "\n".join(ROUND_SEVEN_THIRTEEN)})
    assert status == 200 and "is met and the player goes out" in text


def test_whole_hand_in_a_check_that_names_a_game(client: FlaskClient) -> None:
    """A game's round and table: round 1 of this game asks 11 cards of a whole hand."""
    game = new_game(client, "contract", ["Ann", "Bo", "Cy", "Di"])
    body = {"game": game["id"], "melds": ROUND_ONE_SEVEN, "going_out": True, "discard": "2C"}
    error = post(client, "contract", body, 400)["error"]
    assert (error["code"], error["least"]) == ("hand_too_short", 11)
    whole = {**body, "melds": ROUND_ONE_TEN}
    assert post(client, "contract", whole)["valid"] is True
    query = {"check": "contract", "game": game["id"], "going_out": "1", "discard": "2C"}
    status, text = page_text(client, **query, melds="\n".join(ROUND_ONE_SEVEN))
    assert status == 400 and "holds at least 11 cards here" in text


def test_whole_hand_on_the_command_line() -> None:
    status, _, err = cli("contract", "--round", "7", "--going-out", *ROUND_SEVEN_TWELVE)
    assert status == 2 and "holds at least 13 cards here" in err and "12" in err
    assert cli("contract", "--round", "7", "--going-out", *ROUND_SEVEN_THIRTEEN)[0] == 0
    status, out, _ = cli(
        "contract", "--round", "1", "--going-out", "--discard", "2C", "--json", *ROUND_ONE_SEVEN
    )
    assert status == 2 and json.loads(out)["error"]["least"] == 11


# -- Two sets of one rank in one contract are legal; house rule distinct_set_ranks ------------


def test_two_sets_of_one_rank_are_allowed_by_default() -> None:
    assert check_contract(melds(*TWO_SETS_OF_SEVENS), CONTRACT, 1).valid
    # Round 5 too: two sets and a run.
    assert check_contract(melds(*TWO_SETS_OF_SEVENS, "4C 5C 6C 7C"), CONTRACT, 5).valid


def test_two_sets_of_one_rank_distinct_set_ranks_forbids_them() -> None:
    verdict = check_contract(melds(*TWO_SETS_OF_SEVENS), DISTINCT, 1)
    assert codes(verdict) == ["sets_same_rank"]
    assert verdict.violations[0].params == {"rank": "7"} and verdict.violations[0].meld == 1
    assert check_contract(melds("7H 7S 7D", "KC KD KS"), DISTINCT, 1).valid
    # A joker's set is the rank it stands for.
    assert codes(check_contract(melds("7H 7S 7D", "7C JK 7S"), DISTINCT, 1)) == ["sets_same_rank"]


def test_two_sets_of_one_rank_the_solver_keeps_to_the_house_rule() -> None:
    hand = parse_cards("7H 7S 7D 7C 7H 7S KD 2C 4H 9S 9D")
    free = solve(hand, CONTRACT, 1)
    assert free.can_meet_contract and {r.rank for r in free.melds} == {Rank.SEVEN}
    held = solve(hand, DISTINCT, 1, nearest=True)
    assert not held.can_meet_contract and held.missing == (Card(Rank.NINE, Suit.CLUBS),)
    met = solve(parse_cards("7H 7S 7D 7C 9H 9S KD 9C"), DISTINCT, 1)
    assert met.can_meet_contract and {r.rank for r in met.melds} == {Rank.SEVEN, Rank.NINE}


small_hands = st.lists(
    st.sampled_from(
        [Card(rank, suit) for rank in (Rank.SEVEN, Rank.NINE, Rank.KING) for suit in Suit] + [JOKER]
    ),
    min_size=6,
    max_size=12,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_hands, st.sampled_from([1, 4, 5]))
def test_two_sets_of_one_rank_property_the_solvers_contract_passes_the_check(
    hand: list[Card], number: int
) -> None:
    """Fuzz: whatever the hand, what the solver lays down under `distinct_set_ranks` is a
    contract check_contract takes, its sets all of different ranks."""
    solution = solve(hand, DISTINCT, number)
    if not solution.can_meet_contract:
        return
    sets = [r.rank for r in solution.melds if r.kind is MeldKind.SET]
    assert len(sets) == len(set(sets))
    laid = [list(r.cards) for r in solution.melds]
    assert check_contract(laid, DISTINCT, number, undeclared_ok=True).valid


def test_two_sets_of_one_rank_through_the_api_the_page_and_the_command_line(
    http: FlaskClient,
) -> None:
    body = {"variant": "contract", "round": 1, "melds": TWO_SETS_OF_SEVENS}
    assert post(http, "contract", body)["valid"] is True
    house = {**body, "house_rules": {"distinct_set_ranks": True}, "lang": "fr"}
    errors = post(http, "contract", house)["errors"]
    assert [(e["code"], e["meld"]) for e in errors] == [("sets_same_rank", 1)]
    assert "règle maison « Séries de valeurs différentes »" in errors[0]["message"]
    query = {"check": "contract", "round": "1", "melds": "\n".join(TWO_SETS_OF_SEVENS)}
    assert "Valid: the contract 2 sets of 3 is met." in page_text(http, **query)[1]
    _, text = page_text(http, **query, distinct_set_ranks="true")
    assert "Two sets of the contract have the same rank, 7" in text
    args = ("contract", "--round", "1", *TWO_SETS_OF_SEVENS)
    assert cli(*args)[0] == 0
    status, out, _ = cli(*args, "--house-rule", "distinct_set_ranks=true")
    assert status == 1 and "each set needs a rank of its own" in out


def test_two_sets_of_one_rank_a_game_that_plays_the_house_rule(client: FlaskClient) -> None:
    game = new_game(client, "contract", ["Ann", "Bo", "Cy"], distinct_set_ranks=True)
    body = {"game": game["id"], "melds": TWO_SETS_OF_SEVENS}
    assert [e["code"] for e in post(client, "contract", body)["errors"]] == ["sets_same_rank"]
    _, text = page_text(client, check="contract", game=game["id"], melds="7H 7S 7D\n7C 7H 7S")
    assert "each set needs a rank of its own" in text


@pytest.mark.parametrize(
    ("lang", "shared", "distinct"),
    [
        (
            "en",
            "Two sets of one contract may share a rank, unless the table agrees otherwise "
            "(house rule “Sets of different ranks”).",
            "The sets of one contract must all be of different ranks.",
        ),
        (
            "de",
            "Zwei Sätze eines Kontrakts dürfen denselben Wert haben, sofern der Tisch nichts "
            "anderes vereinbart (Hausregel „Sätze verschiedener Werte“).",
            "Die Sätze eines Kontrakts müssen alle verschiedene Werte haben.",
        ),
        (
            "nl",
            "Twee sets van één contract mogen dezelfde waarde hebben, tenzij de tafel iets "
            "anders afspreekt (huisregel „Sets van verschillende waarde”).",
            "De sets van één contract moeten allemaal een andere waarde hebben.",
        ),
        (
            "pt",
            "Duas trincas de um contrato podem ter o mesmo valor, a não ser que a mesa combine "
            "outra coisa (regra da casa “Trincas de valores diferentes”).",
            "As trincas de um contrato precisam ser todas de valores diferentes.",
        ),
        (
            "fr",
            "Deux séries d’un même contrat peuvent avoir la même valeur, sauf si la table en "
            "convient autrement (règle maison « Séries de valeurs différentes »).",
            "Les séries d’un même contrat doivent toutes être de valeurs différentes.",
        ),
        (
            "es",
            "Dos tríos de un contrato pueden tener el mismo valor, salvo que la mesa acuerde "
            "otra cosa (regla de la casa «Tríos de valores distintos»).",
            "Los tríos de un contrato deben ser todos de valores distintos.",
        ),
    ],
)
def test_two_sets_of_one_rank_the_card_says_which(
    book: Any, lang: str, shared: str, distinct: str
) -> None:
    assert shared in full_text(book("contract", lang))
    changed = full_text(book("contract", lang, distinct_set_ranks=True))
    assert distinct in changed and shared not in changed
    # One deck and one joker: two sets of one rank cannot be made, so nothing is said.
    assert shared not in full_text(book("zioncheck-nl", lang))


def test_two_sets_of_one_rank_the_house_rule_reaches_every_form_and_list(
    client: FlaskClient,
) -> None:
    """GET /api/v1/variants and the start form's house rules name it, in six languages; a game
    started by the form plays it, and a backup gives it back (see the backup test below)."""
    labels = {
        "en": "Sets of different ranks",
        "de": "Sätze verschiedener Werte",
        "nl": "Sets van verschillende waarde",
        "pt": "Trincas de valores diferentes",
        "fr": "Séries de valeurs différentes",
        "es": "Tríos de valores distintos",
    }
    for lang, label in labels.items():
        listed = client.get(f"/api/v1/variants?lang={lang}").get_json()
        rule = listed["house_rules"]["distinct_set_ranks"]
        assert (rule["kind"], rule["label"]) == ("bool", label) and rule["help"]
        assert all(v["house_rules"]["distinct_set_ranks"] is False for v in listed["variants"])
        opened = unescape(client.get(f"/?rules=open&lang={lang}").get_data(as_text=True))
        assert 'name="hr_distinct_set_ranks"' in opened and label in opened
    document = client.get("/api/v1/openapi.json").get_json()
    assert "null" in json.dumps(document["components"]["schemas"]["SolveAnswer"])


# -- Shanghai's buy limit is per player per round (our reading) --------------------------------


def test_shanghai_buy_limit_is_per_player_per_round() -> None:
    names = ["Ann", "Bo", "Cy"]
    game = Game.start("shanghai", names)
    three_each = [SeatResult(went_out=True)] + [SeatResult(penalty=40, buys=3)] * 2
    assert game.enter_round(1, three_each).game.rounds[0].results[1].buys == 3
    assert not game.can_enter_round(1, [SeatResult(went_out=True, buys=4)] * 1 + three_each[1:])


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "The rule text says only “at most 3 buys per round”: per player is our reading"),
        ("de", "Der Regeltext sagt nur „höchstens 3 Käufe pro Runde“: „pro Spieler“ ist unsere"),
        ("nl", "De spelregel zegt alleen „hoogstens 3 keer kopen per ronde”: per speler is onze"),
        ("pt", "A regra escrita diz só “no máximo 3 compras por rodada”: por jogador é a nossa"),
        ("fr", "La règle écrite dit seulement « au plus 3 achats par manche » : par joueur"),
        ("es", "El reglamento dice solo «como máximo 3 compras por ronda»: por jugador es nuestra"),
    ],
)
def test_shanghai_buy_limit_the_card_says_it_is_our_reading(
    book: Any, lang: str, said: str
) -> None:
    assert said in full_text(book("shanghai", lang))
    assert said not in full_text(book("shanghai", lang, buy_limit=2))  # the table's own


# -- Buys written down do not bound a hand: the buy limit does -----------------------------------


def test_buys_written_down_do_not_bound_a_hand(client: FlaskClient) -> None:
    """200 points need 14 cards in round 1: only a buyer holds them. Frustration buys, so the
    penalty stands with no buy written; contract does not, so there it is impossible."""
    names = ["Ann", "Bo", "Cy"]
    results = [SeatResult(went_out=True), SeatResult(penalty=200), SeatResult(penalty=10)]
    assert Game.start("frustration", names).can_enter_round(1, results)
    assert not Game.start("contract", names).can_enter_round(1, results)
    game = new_game(client, "frustration", names)
    body = {
        "round": 1,
        "results": [
            {"player": "Ann", "went_out": True},
            {"player": "Bo", "penalty": 200},
            {"player": "Cy", "penalty": 10},
        ],
    }
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    answer = client.post(f"/api/v1/games/{game['id']}/rounds", json=body, headers=auth)
    assert answer.status_code == 200 and answer.get_json()["totals"]["Bo"] == 200


# -- JK is always the joker, Dutch included ---------------------------------------------------


def test_jk_is_always_the_joker_dutch_too(http: FlaskClient) -> None:
    assert parse_card("JK", "nl") == JOKER
    assert parse_card("BK", "nl") == Card(Rank.JACK, Suit.CLUBS)  # boer van klaveren
    assert parse_card("JR", "nl") == Card(Rank.JACK, Suit.DIAMONDS)  # J is read everywhere
    assert parse_card("JK=BK", "nl").stands_for == Card(Rank.JACK, Suit.CLUBS)
    answer = post(http, "meld", {"variant": "contract", "cards": "BK BR JK", "lang": "nl"})
    assert (answer["valid"], answer["kind"], answer["cards"]) == (True, "set", ["JC", "JD", "JK"])
    _, text = page_text(http, check="meld", lang="nl")
    assert "JK is altijd de joker; de boer van klaveren is BK." in text
    _, english = page_text(http, check="meld", lang="en")
    assert "JK is always the joker" not in english  # no clash to explain there
    spec = (Path(__file__).resolve().parents[2] / "docs" / "SPEC.md").read_text()
    assert "`JK` is the joker in every notation, Dutch included" in spec


# -- /referee takes the table's size -----------------------------------------------------------


def test_referee_page_players_fix_the_shoe_and_say_it_under_the_verdict(http: FlaskClient) -> None:
    query = {"check": "meld", "variant": "contract", "cards": "7H 7H 7H"}
    status, text = page_text(http, **query)
    assert status == 200 and "✓ Valid" in text
    assert (
        "Judged by the largest shoe of 3 to 8 players (3 decks, 6 jokers), as the players at "
        "the table were not given." in text
    )
    status, text = page_text(http, **query, players="4")
    assert status == 200 and "✗ Not valid" in text and "only 2" in text
    assert "Judged by the shoe of a table of 4 (2 decks, 4 jokers)." in text
    assert 'name="players"' in text and 'value="4"' in text


def test_referee_page_players_stay_in_the_address(http: FlaskClient) -> None:
    query = {"check": "meld", "variant": "contract", "cards": "7H 7H 7H", "players": "5"}
    _, html = page_text(http, **query)
    share = re.search(r'<a href="([^"]+)" data-ref-share>', html)
    assert share is not None and "players=5" in share.group(1)
    tabs = re.findall(r'<a href="(/referee\?check=[^"]+)"', html)
    assert len(tabs) == 5 and all("players=5" in tab for tab in tabs)
    again = http.get(share.group(1).replace("http://localhost", ""))
    assert "a table of 5 (3 decks, 6 jokers)" in unescape(again.get_data(as_text=True))


def test_referee_page_players_a_size_the_rules_do_not_allow_is_said_and_kept(
    http: FlaskClient,
) -> None:
    for typed in ("9", "two", "²"):
        status, text = page_text(http, check="meld", cards="7H 7S 7D", players=typed)
        assert status == 400, typed
        assert f'value="{typed}"' in text and "7H 7S 7D" in text  # nothing typed is lost
        assert 'aria-invalid="true"' in text and 'id="players-errors"' in text
    _, text = page_text(http, check="meld", cards="7H 7S 7D", players="9")
    assert "This game is for 3 to 8 players, not 9." in text


def test_referee_page_players_of_an_open_game_and_over_it(client: FlaskClient) -> None:
    game = new_game(client, "contract", ["Ann", "Bo", "Cy", "Di", "Ed"])
    _, text = page_text(client, check="meld", game=game["id"], cards="7H 7H 7H")
    assert "Leave empty for this game's table of 5." in text
    assert "a table of 5 (3 decks, 6 jokers)" in text and "✓ Valid" in text
    _, text = page_text(client, check="meld", game=game["id"], cards="7H 7H 7H", players="3")
    assert "a table of 3 (2 decks, 4 jokers)" in text and "✗ Not valid" in text


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(max_size=12), st.sampled_from(["meld", "contract", "solve"]))
def test_referee_page_players_fuzz_never_a_500(http: FlaskClient, typed: str, check: str) -> None:
    response = http.get(
        "/referee", query_string={"check": check, "players": typed, "cards": "7H 7S 7D"}
    )
    assert response.status_code in (200, 400)


# -- can_meet_contract is null for rummy ------------------------------------------------------


def test_can_meet_contract_is_null_for_rummy(http: FlaskClient) -> None:
    body = {"variant": "rummy", "hand": "4H 5H 6H 9C 9D KS 2C 9S"}
    answer = post(http, "solve", body)
    assert answer["can_meet_contract"] is None and answer["leftover_penalty"] == 12
    assert post(http, "solve", {**body, "hand": "2C 5D KS"})["can_meet_contract"] is None
    contract = post(http, "solve", {"variant": "contract", "round": 1, "hand": "2C 5D KS"})
    assert contract["can_meet_contract"] is False
    status, out, _ = cli("solve", "--variant", "rummy", "--json", "2C", "5D", "KS")
    assert status == 0 and json.loads(out)["can_meet_contract"] is None
    spec = (Path(__file__).resolve().parents[2] / "docs" / "SPEC.md").read_text()
    assert "answers `can_meet_contract: null`" in spec


# -- A table of unknown size takes the largest shoe of the player range in force ---------------


def test_unknown_table_size_the_variants_own_range_or_the_house_rules(http: FlaskClient) -> None:
    eight = get_variant("zioncheck-nl", {"max_players": 8})
    assert (ZIONCHECK.max_decks, ZIONCHECK.max_jokers) == (1, 1)
    assert (eight.max_decks, eight.max_jokers) == (2, 2)
    jacks = ["BK BR BH", "BK BR BS"]  # two sets of jacks: the jack of clubs and diamonds twice
    body = {"variant": "zioncheck-nl", "round": 1, "melds": jacks, "lang": "nl"}
    assert [e["code"] for e in post(http, "contract", body)["errors"]] == ["too_many_copies"] * 2
    house = {**body, "house_rules": {"max_players": 8}}
    assert post(http, "contract", house)["valid"] is True
    assert post(http, "contract", {**house, "players": 4})["valid"] is False
    args = ("contract", "--variant", "zioncheck-nl", "--lang", "nl", "--round", "1", *jacks)
    assert cli(*args)[0] == 1
    assert cli(*args, "--house-rule", "max_players=8")[0] == 0
    _, text = page_text(
        http,
        check="contract",
        variant="zioncheck-nl",
        max_players="8",
        notation="nl",
        melds="\n".join(jacks),
    )
    assert "Judged by the largest shoe of 3 to 8 players (2 decks, 2 jokers)" in text


# -- Presets the seeds leave open are said as ours ---------------------------------------------


def full_text(rulebook: Rulebook) -> str:
    parts = [*rulebook.facts, rulebook.goal, *rulebook.turn_steps, *rulebook.brief]
    parts += [e.caption for e in rulebook.meld_examples]
    parts += [row.note for row in (*rulebook.contract_rows, *rulebook.shoe_rows)]
    parts += [p for section in rulebook.sections for p in section.paragraphs]
    parts += [f"{label}: {value}" for label, value in rulebook.house_rules]
    return " ".join(parts)


OURS = {
    "progressive": "The rule texts do not list this game's contracts: the contracts table is our "
    "choice; a table may set its own (house rule “Contracts”).",
    "joker-rummy": "The rule texts say only “sometimes 6 or 8 jokers”: how many at which table "
    "is our choice; a table may choose otherwise (house rule “Decks and jokers”).",
    "contract": "For 7–8 players the rule texts say three or four decks and 6 to 8 jokers: we "
    "deal 3 decks and 6 jokers; a table may choose otherwise (house rule “Decks and jokers”).",
}


def test_presets_the_seeds_leave_open_are_said_as_ours(book: Any) -> None:
    for variant_id, said in OURS.items():
        assert said in full_text(book(variant_id)), variant_id
    assert "we deal 3 decks and 8 jokers" in full_text(book("joker-rummy"))
    assert OURS["contract"] in full_text(book("frustration"))  # its shoe is contract's
    for variant_id in ("shanghai", "zioncheck-nl", "rummy"):
        assert "our choice" not in full_text(book(variant_id)), variant_id
    # Once the table sets its own, the card no longer calls it ours.
    contracts = ["2 sets of 3"] * 7
    assert "our choice" not in full_text(book("progressive", contracts=contracts, shoe=SHOE))
    assert "our choice" not in full_text(book("joker-rummy", shoe=SHOE))


SHOE = [{"min_players": 3, "max_players": 8, "decks": 4, "jokers": 8}]


@pytest.mark.parametrize(
    ("lang", "choice", "dealt"),
    [
        ("de", "unsere Wahl", "Wir spielen mit 3 Kartenspielen und 6 Jokern"),
        ("nl", "onze keuze", "wij spelen met 3 kaartspellen en 6 jokers"),
        ("pt", "escolha nossa", "nós jogamos com 3 baralhos e 6 Coringas"),
        ("fr", "notre choix", "nous jouons avec 3 jeux et 6 jokers"),
        ("es", "elección nuestra", "nosotros jugamos con 3 barajas y 6 comodines"),
    ],
)
def test_presets_the_seeds_leave_open_are_said_as_ours_in_every_language(
    book: Any, lang: str, choice: str, dealt: str
) -> None:
    for variant_id in ("progressive", "joker-rummy"):
        assert choice in full_text(book(variant_id, lang)), variant_id
    assert dealt in full_text(book("contract", lang))


# -- A buy limit of 0 is no buying, everywhere -------------------------------------------------


def test_buy_limit_zero_is_no_buying_on_the_card(book: Any) -> None:
    limit_zero = full_text(book("contract", buying=True, buy_limit=0))
    assert "at most 0" not in limit_zero and "Buying is on" not in limit_zero
    assert "optional house rule (“Buying”) that this table does not play" in limit_zero
    assert "Buys per round: 0: no buying" in limit_zero
    shanghai = full_text(book("shanghai", buy_limit=0))
    assert "These rules allow buying, but this table has agreed not to buy" in shanghai
    assert "at most 0" not in shanghai and "Buying is on" not in shanghai


def test_buy_limit_zero_the_round_form_asks_no_buys(client: FlaskClient) -> None:
    game = new_game(client, "contract", ["Ann", "Bo", "Cy"], buying=True, buy_limit=0)
    page = unescape(client.get(game["edit_url"].replace("http://localhost", "")).text)
    assert 'name="seats-1-buys"' not in page and "Buying is on" not in page
    assert "0: no buying" in page  # the house rules in force
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    results: list[dict[str, Any]] = [
        {"player": "Ann", "went_out": True},
        {"player": "Bo", "penalty": 20, "buys": 1},
        {"player": "Cy", "penalty": 10},
    ]
    body = {"round": 1, "results": results}
    answer = client.post(f"/api/v1/games/{game['id']}/rounds", json=body, headers=auth)
    assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "buying_off"
    results[1].pop("buys")
    saved = client.post(f"/api/v1/games/{game['id']}/rounds", json=body, headers=auth)
    assert saved.status_code == 200
    shanghai = new_game(client, "shanghai", ["Ann", "Bo", "Cy"])
    page = client.get(shanghai["edit_url"].replace("http://localhost", "")).text
    assert 'name="seats-1-buys"' in page  # a table that buys is still asked


def test_buy_limit_zero_the_sheet_has_no_buys(web: Flask) -> None:
    game = Game.start("contract", ["Ann", "Bo", "Cy"], house_rules={"buying": True, "buy_limit": 0})
    played = game.enter_round(
        1, [SeatResult(went_out=True), SeatResult(penalty=20), SeatResult(penalty=10)]
    ).game
    with web.test_request_context("/?lang=en"):
        sheet = game_sheet(played, "en", "a4")
    assert sheet.rows[0].buys == []
    buying = Game.start("frustration", ["Ann", "Bo", "Cy"])
    one = [SeatResult(went_out=True), SeatResult(penalty=20, buys=1), SeatResult(penalty=10)]
    with web.test_request_context("/?lang=en"):
        assert game_sheet(buying.enter_round(1, one).game, "en", "a4").rows[0].buys[1] == "1 buy"


# -- Buying is an optional house rule --------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "is an optional house rule (“Buying”) that this table does not play"),
        ("de", "ist eine optionale Hausregel („Kaufen“), die dieser Tisch nicht spielt"),
        ("nl", "is een optionele huisregel („Kopen”) die deze tafel niet speelt"),
        ("pt", "é uma regra opcional da casa (“Compra”) que esta mesa não joga"),
        ("fr", "est une règle maison facultative (« Achat ») que cette table ne joue pas"),
        ("es", "es una regla de la casa opcional («Compra») que esta mesa no juega"),
    ],
)
def test_buying_is_an_optional_house_rule_this_table_does_not_play(
    book: Any, lang: str, said: str
) -> None:
    for variant_id in ("contract", "progressive", "short", "zioncheck-nl"):
        assert said in full_text(book(variant_id, lang)), variant_id
    agreed = full_text(book("frustration", lang, buying=False))
    assert said not in agreed  # frustration buys by its own rule: the table agreed not to
    assert said not in full_text(book("contract", lang, buying=True))


# -- zioncheck-nl's rediscard, sets of exactly 3, the French participle ---------------------


def test_zioncheck_rediscard_the_short_turn_says_it_as_seed_001(book: Any) -> None:
    steps = book("zioncheck-nl").turn_steps
    assert steps[-1] == (
        "Discard one card face up: not a single card you took from the discard pile; of "
        "several taken, one may go back."
    )
    assert (
        book("zioncheck-nl", "nl")
        .turn_steps[-1]
        .endswith("van meerdere gepakte kaarten mag er één terug.")
    )
    taken = [parse_card("4C"), parse_card("9S")]
    hand = melds("7H 7S 7D 7C", "9C 9D 9S 9H", "KC KD KS")
    assert check_contract(
        hand, ZIONCHECK, 4, going_out=True, discard=taken[0], from_discard_pile=taken
    ).valid


@pytest.mark.parametrize(
    ("lang", "caption", "paragraph"),
    [
        ("en", "Set: exactly 3 cards of one rank", "A set is exactly 3 cards of the same rank."),
        ("de", "Satz: genau 3 Karten eines Werts", "Ein Satz besteht aus genau 3 Karten"),
        ("nl", "Set: precies 3 kaarten van één waarde", "Een set bestaat uit precies 3 kaarten"),
        ("pt", "Trinca: exatamente 3 cartas do mesmo valor", "Uma trinca são exatamente 3"),
        ("fr", "Série : exactement 3 cartes de même valeur", "ce sont exactement 3 cartes"),
        ("es", "Trío: exactamente 3 cartas del mismo valor", "Un trío son exactamente 3 cartas"),
    ],
)
def test_max_set_size_three_is_exactly_three(
    book: Any, lang: str, caption: str, paragraph: str
) -> None:
    rulebook = book("contract", lang, max_set_size=3)
    assert rulebook.meld_examples[0].caption.startswith(caption)
    assert paragraph in full_text(rulebook)
    # zioncheck-nl's own limit (3 to 4) is a range, as it was.
    assert "3" in book("zioncheck-nl", lang).meld_examples[0].caption


def test_french_last_round_participle_agrees_with_suites(book: Any) -> None:
    row = book("contract", "fr").contract_rows[6]
    assert (row.cells[1], row.note) == ("3 suites de 4", "posées seulement en sortant")
    assert book("contract", "pt").contract_rows[6].note == "só se baixam ao bater"
    single = book("contract", "fr", contracts={"7": "1 run of 13"}).contract_rows[6]
    assert (single.cells[1], single.note) == ("1 suite de 13", "posée seulement en sortant")


# -- A game that plays the new house rules is backed up and restored whole ---------------------


def test_house_rules_of_the_fourth_reading_survive_a_backup_and_restore(
    app: Flask, tmp_path: Path
) -> None:
    from referee.web.backup.archive import dump, restore
    from referee.web.plumbing.database import database

    client = app.test_client()
    games = [
        new_game(client, "zioncheck-nl", ["A", "B", "C", "D", "E", "F"], max_players=8),
        new_game(client, "contract", ["Ann", "Bo", "Cy"], distinct_set_ranks=True),
        new_game(client, "shanghai", ["Ann", "Bo", "Cy"], buy_limit=0, max_set_size=3),
    ]
    for game in games:
        names = client.get(f"/api/v1/games/{game['id']}").get_json()["players"]
        results = [{"player": names[0], "went_out": True}] + [
            {"player": name, "penalty": 25} for name in names[1:]
        ]
        auth = {"Authorization": f"Bearer {game['edit_token']}"}
        saved = client.post(
            f"/api/v1/games/{game['id']}/rounds",
            json={"round": 1, "results": results},
            headers=auth,
        )
        assert saved.status_code == 200, saved.get_json()
    before = {g["id"]: client.get(f"/api/v1/games/{g['id']}").get_json() for g in games}
    out = io.StringIO()
    dump(database(app).engine, out)
    url = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    restore(url, io.BytesIO(out.getvalue().encode()))
    from referee.web import create_app

    restored = create_app(
        {"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": url},
        instance_path=str(tmp_path / "restored"),
    )
    try:
        again = restored.test_client()
        after = {g["id"]: again.get(f"/api/v1/games/{g['id']}").get_json() for g in games}
        assert after == before
        with restored.test_request_context("/"):
            from referee.web.games import queries

            kept = [queries.load(g["id"]) for g in games]
        assert [k.game.house_rules for k in kept if k is not None] == [
            {"max_players": 8},
            {"distinct_set_ranks": True},
            {"buy_limit": 0, "max_set_size": 3},
        ]
        body = {"game": games[1]["id"], "round": 1, "melds": TWO_SETS_OF_SEVENS}
        assert post(again, "contract", body)["errors"][0]["code"] == "sets_same_rank"
    finally:
        database(restored).dispose()


# -- Done when: none of the wrong sentences on any page or card --------------------------------

# The sentences the issue quotes, as each language said them before (a regex each).
WRONG = {
    "en": [r"at most 0\b", r"No buying:", r"not the card you took", r"\b3 to 3\b"],
    "de": [r"höchstens 0\b", r"Kein Kaufen:", r"nicht die Karte, die du", r"\b3 bis 3\b"],
    "nl": [r"hoogstens 0\b", r"Geen kopen:", r"niet de kaart die je", r"\b3 tot 3\b"],
    "pt": [r"no máximo 0\b", r"Sem compra:", r"não a que você pegou", r"\b3 a 3\b"],
    "fr": [
        *(r"au plus 0\b", r"Pas d’achat :", r"pas celle que vous", r"\b3 à 3\b"),
        r"\bposé seulement en sortant",
    ],
    "es": [r"como máximo 0\b", r"Sin compra:", r"no la que tomaste", r"\b3 a 3\b"],
}
HOUSE_RULES_CONCERNED: list[dict[str, Any]] = [
    {},
    {"buying": True, "buy_limit": 0},
    {"buying": False},
    {"max_set_size": 3},
    {"distinct_set_ranks": True},
]


def _wrong_in(text: str, lang: str) -> list[str]:
    return [pattern for pattern in WRONG[lang] if re.search(pattern, text)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_done_when_no_page_or_card_carries_a_wrong_sentence(
    web: Flask, http: FlaskClient, book: Any, lang: str
) -> None:
    """Every variant, with and without the house rules concerned: the card's words (the
    rulebook), the rule page, and the HTML the PDF is printed from."""
    found = {}
    for variant_id in VARIANTS:
        for house in HOUSE_RULES_CONCERNED:
            rulebook = book(variant_id, lang, **house)
            found[variant_id, "words", str(house)] = _wrong_in(full_text(rulebook), lang)
            query = {"lang": lang, **({"house_rules": json.dumps(house)} if house else {})}
            page = http.get(f"/rules/{variant_id}", query_string=query)
            assert page.status_code == 200
            text = unescape(page.get_data(as_text=True))
            found[variant_id, "page", str(house)] = _wrong_in(text, lang)
            with web.test_request_context(f"/rules/{variant_id}.pdf?lang={lang}"):
                printed = render_template(
                    "printing/rules.html",
                    book=rulebook,
                    for_print=True,
                    paper="a4",
                    fit=0,
                    pdf_subject="",
                    table_query=table_rules(variant_id, house or None).query(),
                )
            found[variant_id, "print", str(house)] = _wrong_in(unescape(printed), lang)
    assert {where: wrong for where, wrong in found.items() if wrong} == {}


# Rule cards as PDFs with the house rules concerned: one a language, the variants and the house
# rules turning through them (the HTML they are printed from is checked for every one above, and
# every variant x language without house rules is a PDF in test_printing_matrix).
CARDS = [
    ("contract", "en", {"buying": True, "buy_limit": 0}),
    ("shanghai", "de", {"buying": False}),
    ("zioncheck-nl", "nl", {"max_set_size": 3}),
    ("progressive", "pt", {"distinct_set_ranks": True}),
    ("frustration", "fr", {"buy_limit": 0}),
    ("joker-rummy", "es", {"max_set_size": 3, "distinct_set_ranks": True}),
]


@pytest.mark.parametrize(("variant_id", "lang", "house"), CARDS, ids=lambda x: str(x))
def test_done_when_no_rule_card_pdf_carries_a_wrong_sentence(
    web: Flask, variant_id: str, lang: str, house: dict[str, Any]
) -> None:
    from test_printing_matrix import _text_by_page

    from referee.web.printing.pdfs import render_rule_card

    with web.test_request_context(f"/rules/{variant_id}.pdf?lang={lang}"):
        built = render_rule_card(table_rules(variant_id, house), lang, "a4")
    assert built.pages == 2
    text = " ".join(" ".join(page.split()) for page in _text_by_page(built.body))
    assert _wrong_in(text, lang) == []
