"""The referee page (/referee): each check as a plain GET, its verdict, its errors, its partial."""

from __future__ import annotations

import json
import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask, render_template_string
from flask.testing import FlaskClient

from referee.engine.cards import LOCAL_RANK_LETTERS
from referee.engine.languages import LANGUAGES
from referee.web.refereeing.checks import split_melds
from referee.web.vocabulary.picker import card_picker_setup

HTMX = {"HX-Request": "true", "HX-Target": "verdict"}


def verdict_of(html: str) -> str:
    """The verdict section's words, tags stripped."""
    match = re.search(r'<section id="verdict".*?</section>', html, re.S)
    section = match.group(0) if match else html
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", section))).strip()


def field_errors(html: str) -> str:
    """The messages shown under the fields."""
    found = re.findall(r'<ul class="field-errors"[^>]*>(.*?)</ul>', html, re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", " ".join(found)))).strip()


def get(client: FlaskClient, **query: str) -> tuple[int, str]:
    response = client.get("/referee", query_string=query)
    return response.status_code, response.get_data(as_text=True)


# -- the page and its tabs ------------------------------------------------------------------


def test_the_page_opens_on_the_meld_check_with_every_tab(client: FlaskClient) -> None:
    status, html = get(client)
    assert status == 200
    assert 'name="cards"' in html and "data-card-picker" in html
    for check in ("meld", "contract", "layoff", "swap", "solve"):
        assert f"check={check}" in html
    assert "Enter the cards: the verdict appears here." in html
    # The form is a GET: its URL is the check, and it works without JavaScript.
    assert re.search(r'<form id="referee-form"[^>]*method="get"', html)


def test_tabs_keep_the_game_at_hand(client: FlaskClient) -> None:
    rules = json.dumps({"max_jokers_per_meld": 2})  # Shanghai's own is 1
    _, html = get(client, variant="shanghai", round="3", house_rules=rules)
    tab = re.search(r'href="([^"]*check=layoff[^"]*)"', html)
    assert tab is not None
    query = parse_qs(urlsplit(unescape(tab.group(1))).query)
    assert query["variant"] == ["shanghai"] and query["round"] == ["3"]
    assert json.loads(query["house_rules"][0]) == {"max_jokers_per_meld": 2}


# -- one meld -------------------------------------------------------------------------------


def test_a_run_with_a_joker_says_what_the_joker_stands_for(client: FlaskClient) -> None:
    status, html = get(client, cards="7H 9H JK")
    text = verdict_of(html)
    assert status == 200
    assert "Valid: this is a run." in text
    assert "The joker stands for 8♥." in text


def test_an_ambiguous_joker_gives_every_reading(client: FlaskClient) -> None:
    _, html = get(client, cards="7H 8H JK")
    text = verdict_of(html)
    assert "The joker stands for 6♥." in text
    assert "It could also be read: The joker stands for 9♥." in text


def test_a_broken_run_says_why_and_points_at_the_card(client: FlaskClient) -> None:
    _, html = get(client, cards="7H 8H 8H 9H", variant="contract")
    text = verdict_of(html)
    assert "Not a valid meld." in text
    assert "A run holds each rank once; this one has the rank 8 twice." in text
    flagged = re.findall(r'<li class="card suit-h ref-flagged">([^<]*)', html)
    assert flagged == ["8♥", "8♥"]


def test_around_the_corner_is_not_a_run(client: FlaskClient) -> None:
    _, html = get(client, cards="KS AS 2S")
    assert "around the corner" in verdict_of(html)


def test_german_letters_are_read_and_answered_in_german(client: FlaskClient) -> None:
    _, html = get(client, cards="D♣ D♥ D♠", lang="de")
    text = verdict_of(html)
    assert "Gültig: Das ist ein Satz." in text
    assert "D♣" in text and "Q♣" not in text


def test_a_link_in_german_notation_reads_the_same_in_english(client: FlaskClient) -> None:
    # A German table shares the link; an English phone opens it: same cards, English letters.
    _, html = get(client, cards="D♣ D♥ D♠", notation="de", lang="en")
    assert "Valid: this is a set." in verdict_of(html)
    assert re.search(r'<textarea[^>]*name="cards"[^>]*>Q♣ Q♥ Q♠</textarea>', html)


def test_the_shoe_limits_copies_of_a_card(client: FlaskClient) -> None:
    # Contract Rummy's biggest shoe (7-8 players) has three decks.
    _, html = get(client, cards="7H 7H 7H 7H", variant="contract")
    text = verdict_of(html)
    assert "Not a valid meld." in text
    assert "7♥ is here four times, but the game has only 3 of them." in text


def test_jokers_in_plain_rummy_are_a_verdict_not_an_error(client: FlaskClient) -> None:
    status, html = get(client, cards="7H 8H JK", variant="rummy")
    assert status == 200
    assert "This game is played without jokers." in verdict_of(html)


def test_house_rules_from_the_query_change_the_verdict(client: FlaskClient) -> None:
    _, plain = get(client, cards="7H JK JK 10H")
    assert "Valid: this is a run." in verdict_of(plain)
    rules = json.dumps({"max_jokers_per_meld": 1})
    _, ruled = get(client, cards="7H JK JK 10H", house_rules=rules)
    assert "A meld may hold at most 1 joker here; this one has 2." in verdict_of(ruled)
    assert "House rules in force (1)" in ruled


# -- a contract -----------------------------------------------------------------------------


def test_round_one_two_sets(client: FlaskClient) -> None:
    _, html = get(client, check="contract", round="1", melds="7H 7S 7D\nQH QS JK")
    text = verdict_of(html)
    assert "Valid: the contract 2 sets of 3 is met." in text
    assert "Meld 2: set" in text and "The joker stands for Q" in text


def test_a_wrong_contract_says_what_it_asks_for(client: FlaskClient) -> None:
    _, html = get(client, check="contract", round="2", melds="7H 7S 7D | QH QS QD")
    text = verdict_of(html)
    assert "The contract 1 set of 3 and 1 run of 4 is not met." in text
    assert "The contract asks for 1 set and 1 run; these melds are 2 sets." in text


def test_the_last_round_is_laid_down_only_by_going_out(client: FlaskClient) -> None:
    melds = "3H 4H 5H 6H 7H\n3S 4S 5S 6S\n8C 9C 10C JC"  # 12 dealt + 1 drawn
    _, held = get(client, check="contract", round="7", melds=melds)
    assert "laid down only by going out" in verdict_of(held)
    _, out = get(client, check="contract", round="7", melds=melds, going_out="1")
    text = verdict_of(out)
    assert "Valid: the contract 3 runs of 4 is met and the player goes out." in text


def test_a_bad_meld_in_a_contract_is_named_by_its_place(client: FlaskClient) -> None:
    _, html = get(client, check="contract", round="1", melds="7H 7S 7D\nQH KS 2C")
    assert re.search(r"Meld 2\s*✗", verdict_of(html))


def test_rummy_has_no_contract(client: FlaskClient) -> None:
    status, html = get(client, check="contract", variant="rummy", melds="7H 8H 9H")
    assert status == 400
    assert "Rummy has no contracts" in verdict_of(html)


# -- lay-offs and joker swaps ---------------------------------------------------------------


def test_laying_off_at_the_end_of_a_run(client: FlaskClient) -> None:
    _, html = get(client, check="layoff", meld="7H 8H 9H", cards="10H")
    text = verdict_of(html)
    assert "Valid: the cards may be laid off; the run stays a run." in text
    assert "7♥ 8♥ 9♥ 10♥" in text


def test_a_layoff_that_does_not_fit(client: FlaskClient) -> None:
    _, html = get(client, check="layoff", meld="7H 8H 9H", cards="QS")
    assert "These cards cannot be laid off on this meld." in verdict_of(html)


def test_a_layoff_onto_something_that_is_no_meld(client: FlaskClient) -> None:
    _, html = get(client, check="layoff", meld="7H 9S", cards="8H")
    assert "is not a valid meld, so nothing can be laid off" in verdict_of(html)


def test_a_joker_swap_frees_the_joker(client: FlaskClient) -> None:
    _, html = get(client, check="swap", meld="7H JK 9H", card="8H")
    text = verdict_of(html)
    assert "Valid: 8♥ takes the joker's place." in text
    assert "The joker stood for 8♥ and goes to the player's hand." in text


def test_a_swap_with_the_wrong_card(client: FlaskClient) -> None:
    _, html = get(client, check="swap", meld="7H JK 9H", card="8S")
    text = verdict_of(html)
    assert "This joker swap is not allowed." in text
    assert "8♠ is not the card the joker stands for." in text


def test_jokers_in_dutch_sets_are_dead(client: FlaskClient) -> None:
    _, html = get(client, check="swap", variant="zioncheck-nl", meld="7H 7S JK=7D", card="7D")
    assert "Jokers in a set are dead" in verdict_of(html)


def test_a_swap_takes_one_card(client: FlaskClient) -> None:
    status, html = get(client, check="swap", meld="7H JK 9H", card="8H 8S")
    assert status == 400
    assert "could not be read" in field_errors(html)
    assert "Nothing was checked yet" in verdict_of(html)


# -- the solver -----------------------------------------------------------------------------


def test_the_solver_lays_down_the_contract_and_counts_what_is_left(client: FlaskClient) -> None:
    _, html = get(client, check="solve", round="1", hand="7H 7S 7D QH QS JK 2C")
    text = verdict_of(html)
    assert "Yes: this hand can lay down 2 sets of 3; 5 points stay in the hand." in text
    assert "Left in the hand: 5 points 2♣" in text


def test_the_solver_says_when_the_contract_cannot_be_met(client: FlaskClient) -> None:
    _, html = get(client, check="solve", round="3", hand="7H 7S 7D QH QS JK 2C")
    text = verdict_of(html)
    assert "Not yet: this hand cannot lay down 2 runs of 4." in text
    assert "Left in the hand: 55 points" in text


def test_the_solver_names_the_cards_missing_for_the_nearest_contract(
    client: FlaskClient,
) -> None:
    _, html = get(client, check="solve", round="1", hand="7H 7S 7D QH QS 2C", lang="de")
    text = verdict_of(html)
    assert "Noch nicht: Diese Hand kann 2 Sätze zu 3 nicht auslegen." in text
    assert re.search(r"Es fehlen für die nächste Lösung\s*D♣", text)


def test_the_solver_in_the_last_round_says_going_out(client: FlaskClient) -> None:
    hand = "3H 4H 5H 6H 3S 4S 5S 6S 8C 9C 10C JC"
    _, html = get(client, check="solve", round="7", hand=hand)
    assert "with no card left: it can go out." in verdict_of(html)


def test_the_solver_for_plain_rummy_leaves_the_least(client: FlaskClient) -> None:
    # The worked example of seed 002: hearts 4-5-6-7 and three nines, the 2 of clubs left.
    _, html = get(client, check="solve", variant="rummy", hand="4H 5H 6H 7H 9S 9D 9C 2C")
    text = verdict_of(html)
    assert "Lay these down: 2 points stay in the hand." in text


def test_the_solver_refuses_a_hand_longer_than_the_round_allows(client: FlaskClient) -> None:
    """RULES.md "Hand sizes": round 1 of contract holds at most 11 cards; 12 are a 400 that
    says so in the page's language, and the hand typed stays in its field."""
    hand = "7H 7S 7D QH QS JK 2C 3C 4C 5C 6C 8D"
    status, html = get(client, check="solve", round="1", hand=hand, lang="nl")
    assert status == 400
    assert "Een hand kan hier hoogstens 11 kaarten hebben" in unescape(html)
    assert hand in unescape(html)


def test_the_solver_says_when_its_budget_ran_out(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.engine import solver

    monkeypatch.setattr(solver, "DEFAULT_BUDGET", solver.Budget(steps=40))
    _, html = get(client, check="solve", round="1", hand="7H 7S 7D QH QS JK 2C 2D 2S 9H 9D")
    assert "the search stopped at its limit" in verdict_of(html)


# -- bad input: a 4xx with words, never a 500, and what was typed stays ---------------------


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "“XX” is not a card."),
        ("de", "„XX“"),
        ("nl", "XX"),
        ("pt", "XX"),
        ("fr", "XX"),
        ("es", "XX"),
    ],
)
def test_an_unreadable_card_is_a_400_in_the_tables_language(
    client: FlaskClient, lang: str, message: str
) -> None:
    status, html = get(client, cards="7H XX 9H", lang=lang)
    assert status == 400
    text = field_errors(html)
    assert message in text
    assert re.search(
        r'<textarea[^>]*name="cards"[^>]*aria-invalid="true"[^>]*>7H XX 9H</textarea>', html
    )
    english = field_errors(get(client, cards="7H XX 9H", lang="en")[1])
    assert (text == english) == (lang == "en")


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ({"variant": "nope", "cards": "7H 8H 9H"}, "There is no variant called “nope”."),
        ({"check": "contract", "round": "9", "melds": "7H 7S 7D"}, "Round 9 does not exist"),
        ({"check": "contract", "round": "x", "melds": "7H 7S 7D"}, "Round x does not exist"),
        ({"house_rules": "{not json", "cards": "7H 8H 9H"}, "House rules must be an object"),
        ({"house_rules": '{"aces": 3}', "cards": "7H 8H 9H"}, "The house rule “aces” cannot be 3"),
        ({"house_rules": '{"colour": 1}', "cards": "7H 8H 9H"}, "no house rule called “colour”"),
        ({"cards": "7H " * 201}, "too many cards"),
        ({"check": "contract", "melds": "7H\n" * 13}, "too many melds"),
    ],
)
def test_bad_input_is_a_400_with_a_reason(
    client: FlaskClient, query: dict[str, str], words: str
) -> None:
    status, html = get(client, **query)
    assert status == 400
    assert words in unescape(html)


def test_an_unknown_game_is_a_404_that_still_checks(client: FlaskClient) -> None:
    status, html = get(client, game="no-such-game", cards="7H 7S 7D")
    assert status == 404
    assert "That game was not found." in html
    assert "Valid: this is a set." in verdict_of(html)


def test_nonsense_check_and_notation_fall_back(client: FlaskClient) -> None:
    status, html = get(client, check="<script>", notation="xx", cards="7H 8H 9H")
    assert status == 200 and "Valid: this is a run." in verdict_of(html)


def test_a_half_filled_lay_off_waits_for_the_rest(client: FlaskClient) -> None:
    status, html = get(client, check="layoff", meld="7H 8H 9H")
    assert status == 200
    assert "the verdict appears here" in verdict_of(html)


# -- htmx and shareable links ---------------------------------------------------------------


def test_htmx_gets_only_the_verdict(client: FlaskClient) -> None:
    response = client.get("/referee", query_string={"cards": "7H 8H 9H"}, headers=HTMX)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<html" not in html and "<form" not in html
    assert "Valid: this is a run." in html
    assert {"HX-Request", "HX-Target"} <= set(response.vary)
    full = client.get("/referee", query_string={"cards": "7H 8H 9H"})
    assert "HX-Request" in full.vary and "<form" in full.get_data(as_text=True)


def test_htmx_errors_come_back_in_the_verdict(client: FlaskClient) -> None:
    response = client.get("/referee", query_string={"cards": "7H ZZ"}, headers=HTMX)
    assert response.status_code == 400
    assert "“ZZ” is not a card." in unescape(response.get_data(as_text=True))


def test_the_link_to_a_check_reproduces_it(client: FlaskClient) -> None:
    _, html = get(
        client,
        check="contract",
        round="7",
        melds="3H 4H 5H 6H 7H\n3S 4S 5S 6S\n8C 9C 10C JC",
        going_out="1",
        lang="de",
    )
    link = re.search(r'<a href="([^"]+)" data-ref-share>', html)
    assert link is not None
    url = urlsplit(unescape(link.group(1)))
    assert url.path == "/referee"
    again = client.get(f"{url.path}?{url.query}")
    assert verdict_of(again.get_data(as_text=True)) == verdict_of(html)
    assert "Gültig" in verdict_of(html)


def test_the_game_at_hand_sets_variant_round_and_shoe(app: Flask, client: FlaskClient) -> None:
    from referee.engine.game import Game, SeatResult
    from referee.web.games import service

    game = Game.start("zioncheck-nl", ["Ann", "Bo", "Cy"], house_rules={"max_set_size": 3})
    results = [SeatResult(went_out=True), SeatResult(penalty=25), SeatResult(penalty=10)]
    with app.test_request_context("/"):
        created = service.create(game, lang="en")
        assert isinstance(created, service.Created)
        typed = service.Typed.read(results)
        saved = service.enter_round(created.stored.id, 1, typed, version=game.version)
        assert isinstance(saved, service.Saved)
    game_id = created.stored.id
    status, html = get(client, game=game_id, check="solve")
    assert status == 200
    assert re.search(r'<option value="zioncheck-nl" selected', html)
    assert re.search(r'<option value="2" selected', html)  # the round to be played next
    assert "Game of Ann, Bo, Cy" in html
    # Three players of the Dutch rules: one deck and one joker.
    assert 'data-decks="1"' in html and 'data-jokers="1"' in html
    # The game's house rules hold: at most 3 in a set.
    _, verdict = get(client, game=game_id, cards="7H 7S 7D 7C")
    assert "A set holds at most 3 cards here; this one has 4." in verdict_of(verdict)
    # An explicit variant in the query wins over the game's.
    _, html = get(client, game=game_id, variant="contract", cards="7H 7S 7D 7C")
    assert "Valid: this is a set." in verdict_of(html)


# -- the card picker ------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_picker_writes_the_letters_the_parser_reads(app: Flask, lang: str) -> None:
    with app.test_request_context(f"/?lang={lang}"):
        setup = card_picker_setup(lang, decks=3, jokers=6)
    local = json.loads(setup.ranks_json)
    assert {k: v for k, v in local.items()} == {
        letter: rank.letter for letter, rank in LOCAL_RANK_LETTERS[lang].items()
    }
    keys = [card for suit in setup.suits for row in suit.rows for card in row]
    assert len(keys) == 52 and len({k.code for k in keys}) == 52
    assert [len(row) for row in setup.suits[0].rows] == [7, 6]
    from referee.engine.cards import parse_card

    for key in keys:
        assert str(parse_card(key.text, lang)) == key.code


def test_the_picker_macro_renders_a_plain_field_and_a_hidden_grid(app: Flask) -> None:
    source = (
        '{% from "_card_picker.html" import card_picker %}'
        '{{ card_picker("left", value="D♣ 7H", label="Cards left", decks=1, jokers=0,'
        ' errors=["bad"]) }}'
    )
    with app.test_request_context("/?lang=de"):
        html = render_template_string(source)
    assert re.search(r'<textarea[^>]*id="left"[^>]*name="left"[^>]*>D♣ 7H</textarea>', html)
    assert 'aria-invalid="true"' in html and 'id="left-errors"' in html
    assert re.search(r'class="cp-pad" data-cp-pad hidden', html)
    assert 'data-card="JK"' not in html  # no jokers in this game
    assert 'aria-label="D, Kreuz-Dame"' in html
    assert html.count('class="cp-key') == 52


def test_melds_are_split_by_lines_or_bars() -> None:
    assert split_melds("7H 7S 7D\n\n QH QS JK | 2C 3C 4C\r\n") == [
        "7H 7S 7D",
        "QH QS JK",
        "2C 3C 4C",
    ]


# -- the page and the API agree -------------------------------------------------------------

AGREEMENT_CASES = [
    ("meld", {"cards": "7H 8H JK"}),
    ("meld", {"cards": "7H 8H 8H 9H"}),
    ("meld", {"cards": "KS AS 2S"}),
    ("meld", {"cards": "7H 7S 7D 7C 7H", "variant": "zioncheck-nl"}),
    ("contract", {"round": "2", "melds": "7H 7S 7D\nQH QS QD"}),
    ("contract", {"round": "7", "melds": "3H 4H 5H 6H\n3S 4S 5S 6S\n8C 9C 10C JC"}),
    ("layoff", {"meld": "7H 8H 9H", "cards": "QS"}),
    ("swap", {"meld": "7H JK 9H", "card": "8S"}),
    ("swap", {"meld": "7H 7S JK", "card": "7D", "variant": "zioncheck-nl"}),
]


@pytest.mark.parametrize(("check", "fields"), AGREEMENT_CASES)
@pytest.mark.parametrize("lang", ["en", "pt"])
def test_the_page_says_what_the_api_says(
    app: Flask, client: FlaskClient, check: str, fields: dict[str, str], lang: str
) -> None:
    from referee.engine.cards import parse_cards
    from referee.engine.contracts import check_contract
    from referee.engine.house_rules import get_variant
    from referee.engine.layoffs import check_joker_swap, check_layoff
    from referee.engine.melds import check_meld
    from referee.web.refereeing import verdicts

    variant = get_variant(fields.get("variant", "contract"))
    with app.test_request_context(f"/?lang={lang}"):
        if check == "meld":
            answer = verdicts.meld_answer(check_meld(parse_cards(fields["cards"]), variant))
        elif check == "contract":
            melds = [parse_cards(m) for m in split_melds(fields["melds"])]
            answer = verdicts.contract_answer(check_contract(melds, variant, int(fields["round"])))
        elif check == "layoff":
            verdict = check_layoff(
                parse_cards(fields["meld"]), parse_cards(fields["cards"]), variant
            )
            answer = verdicts.layoff_answer(verdict)
        else:
            meld, card = parse_cards(fields["meld"]), parse_cards(fields["card"])[0]
            answer = verdicts.swap_answer(check_joker_swap(meld, card, variant))
    _, html = get(client, check=check, lang=lang, **fields)
    text = verdict_of(html)
    assert f'data-valid="{str(answer["valid"]).lower()}"' in html
    for error in answer["errors"]:
        assert error["message"] in text
