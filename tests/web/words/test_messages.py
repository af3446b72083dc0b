"""Every engine code and house rule has words, in all six languages, with nothing left unfilled."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask_babel import force_locale

from referee.engine.errors import ALL_CODES
from referee.web.vocabulary.messages import describe, message_codes, register, web_codes

ROOT = Path(__file__).resolve().parents[3]
LANGUAGES = ("en", "de", "nl", "pt", "fr", "es")
OTHER_LANGUAGES = LANGUAGES[1:]
PLACEHOLDER = re.compile(r"%\(|%[sd]\b|\{\w*\}")

# Plausible params for every code, as the engine and the API raise them.
SAMPLES: dict[str, dict[str, Any]] = {
    "bad_input": {"field": "cards"},
    "bad_card": {"token": "ZZ"},
    "too_many_cards": {"limit": 200},
    "hand_too_short": {"least": 11, "count": 9, "most": 9},
    "unknown_variant": {"variant": "poker"},
    "bad_house_rule": {"rule": "max_jokers_per_meld", "value": 99, "low": 0, "high": 12},
    "unknown_house_rule": {"rule": "wild_twos"},
    "deal_length": {"rounds": 7, "deal": 5},
    "bad_round": {"round": 9, "rounds": 7},
    "bad_players": {"players": 9, "min_players": 3, "max_players": 8},
    "no_contract": {"variant": "rummy"},
    "two_players_out": {"players": [0, 2]},
    "no_player_out": {},
    "rummy_needs_going_out": {"player": 1},
    "impossible_penalty": {"player": 1, "penalty": 3},
    "too_few_cards": {"count": 2, "min": 3},
    "not_same_rank_or_suit": {},
    "set_ranks_differ": {},
    "run_suits_differ": {},
    "set_too_large": {"count": 5, "max": 4},
    "set_suits_repeat": {"suit": "H"},
    "run_ranks_repeat": {"rank": "Q"},
    "run_gap": {"missing": 2, "jokers": 0},
    "run_around_the_corner": {},
    "run_too_long": {"count": 15, "max": 14},
    "ace_low_only": {},
    "no_natural_card": {"min": 1},
    "too_many_jokers": {"count": 2, "max": 1},
    "jokers_not_allowed": {},
    "joker_declaration_mismatch": {"joker": "JK=7H"},
    "too_many_copies": {"card": "QC", "count": 3, "max": 2},
    "wrong_sets_and_runs": {"sets": 2, "runs": 1, "got_sets": 3, "got_runs": 0},
    "runs_same_suit_and_start": {"suit": "S", "start": "4"},
    "runs_same_suit": {"suit": "D"},
    "sets_same_rank": {"rank": "7"},
    "last_round_goes_out": {},
    "layoff_changes_meld": {},
    "nothing_to_lay_off": {},
    "joker_swap_not_allowed": {"kind": "run"},
    "joker_swap_in_set": {},
    "no_joker_to_swap": {},
    "swap_card_does_not_fit": {"card": "8H"},
    "bad_json": {},
    "not_an_object": {},
    "missing_field": {"field": "variant"},
    "wrong_type": {"field": "round", "expected": "integer"},
    "bad_language": {"lang": "xx"},
    "too_many_melds": {"limit": 20},
    "too_many_entries": {"field": "players", "limit": 8},
    "payload_too_large": {"limit": 65536},
    "house_rule_syntax": {"input": "jokers"},
    "not_a_number": {"value": "²"},
    "out_of_range": {"value": 12345, "low": 0, "high": 9999},
    # a game
    "empty_name": {},
    "name_too_long": {"name": "Annemarie", "max": 24},
    "duplicate_name": {"name": "Ann"},
    "unknown_player": {"name": "Zed"},
    "duplicate_result": {"player": 1},
    "missing_result": {"player": 2},
    "rummy_not_in_variant": {},
    "buying_off": {},
    "too_many_buys": {"player": 1, "buys": 4, "limit": 3},
    "out_with_cards": {"player": 0},
    "no_penalty": {"player": 2},
    "penalty_mismatch": {"player": 1, "penalty": 20, "cards_penalty": 25},
    "hand_too_big": {"player": 1, "count": 40, "max": 14},
    "game_finished": {},
    "round_out_of_order": {"round": 3, "expected": 2},
    "no_such_round": {"round": 4},
    "nothing_changed": {"round": 2},
    "ends_game_early": {"round": 3},
    "nothing_to_undo": {},
    "not_the_last_change": {"round": 2},
    "nothing_to_restore": {},
    "cannot_restore": {"round": 4},
    "game_not_found": {},
    "stale_version": {"version": 3, "current": 4},
    "missing_token": {},
    "bad_token": {},
    "bad_idempotency_key": {},
    "idempotency_key_reused": {},
    "bad_import": {},
    "mark_who_went_out": {},
    # the rules at a real table: the shoe, going out, timing, declared jokers, the whole deal
    "penalty_below_whole_hand": {"player": 1, "penalty": 5, "least": 60, "cards": 12},
    "hand_too_small": {"player": 2, "count": 3, "min": 12},
    "joker_not_declared": {"options": ["4H", "8H"]},
    "contract_run_too_short": {"count": 3, "size": 4},
    "contract_set_too_short": {"count": 3, "size": 4},
    "going_out_needs_discard": {},
    "going_out_no_discard": {"card": "KD"},
    "last_round_no_discard": {"card": "KD"},
    "discard_taken_this_turn": {"card": "4C"},
    "layoff_before_contract": {},
    "layoff_same_turn_as_contract": {},
    "swap_before_contract": {},
    "swap_same_turn_as_contract": {},
    "swap_from_own_meld": {},
    "once_contract_down": {},
    "once_contract_down_next_turn": {},
    "swap_use_joker_this_turn": {},
    "swap_from_another_players_meld": {},
    "discard_needs_going_out": {},
    "game_variant_differs": {"variant": "shanghai", "game_variant": "contract"},
    # clubs
    "club_not_found": {},
    "missing_club_token": {},
    "bad_club_token": {},
    "empty_club_name": {},
    "club_name_too_long": {"max": 40},
    "too_many_members": {"max": 60},
    "no_game_to_rematch": {},
    "bad_club_import": {},
    "bad_club_game": {"game": 3, "reason": "There is no variant called “poker”."},
    "same_as_previous_round": {"round": 4, "previous": 3},
    "choose_first_dealer": {},
    # club nights
    "event_not_found": {},
    "stale_event_version": {"version": 4, "current": 6},
    "bad_event_date": {"date": "7.3.25"},
    "no_names": {},
    "one_name_at_a_time": {},
    "no_such_seating_rule": {},
    "swap_two_players": {},
    "bad_event_file": {},
    "bad_series_count": {"series": 0, "min": 1, "max": 12},
    "bad_table_size": {"size": 2, "min": 3, "max": 5},
    "table_sizes_out_of_order": {"smallest": 5, "preferred": 4, "largest": 5},
    "table_size_not_in_variant": {"size": 5, "min_players": 2, "max_players": 4},
    "bad_series_rounds": {"rounds": 9, "max": 7},
    "unknown_draw_method": {"method": "swiss"},
    "bad_seed": {"seed": "-1", "max": 999999},
    "unknown_drill_kind": {"kind": "poker", "kinds": "meld, contract, value"},
    "bad_drill_level": {"level": 9},
    "bad_drill_count": {"count": 51, "max": 50},
    "no_drills_of_kind": {"kind": "swap", "variant": "rummy"},
    "too_few_drills": {"count": 24},
    "no_answer_chosen": {"field": "answer"},
    "points_not_a_number": {"field": "answer"},
    "no_melds_typed": {"field": "melds"},
    "unknown_scheme": {"scheme": "elo"},
    "bad_place_points": {"size": 4},
    "place_points_not_descending": {"size": 4},
    "bad_bonus": {"max": 8},
    "bonus_not_descending": {},
    "bad_tie_breaks": {"allowed": ["points", "points_per_round", "tables_won"]},
    "no_series_left": {"series": 4},
    "already_checked_in": {"name": "Ann"},
    "already_left": {"name": "Ann"},
    "seated_in_next_series": {"name": "Ann", "series": 2, "table": 3},
    "check_in_closed": {},
    "no_check_in_to_undo": {"name": "Ann"},
    "not_your_check_in": {},
    "too_few_players": {"players": 0, "min": 3},
    "too_many_players": {"players": 101, "max": 100},
    "players_cannot_be_split": {"players": 7},
    "all_series_drawn": {"series": 4},
    "series_already_drawn": {"series": 1, "expected": 2},
    "series_out_of_order": {"series": 3, "expected": 2},
    "series_still_playing": {"series": 1, "tables": [2, 4]},
    "no_standings_yet": {},
    "not_the_newest_series": {"series": 1},
    "series_started": {"series": 2},
    "no_such_series": {"series": 5},
    "no_such_table": {"series": 1, "table": 9},
    "not_seated": {"name": "Rex", "series": 2},
    "same_player": {"name": "Ann"},
    "same_table": {"table": 2},
    "already_at_table": {"name": "Rex", "table": 2},
    "move_names_a_table": {},
    "table_too_small": {"table": 1, "size": 3},
    "table_too_large": {"table": 4, "size": 5},
    "series_closed": {"series": 1, "next": 2},
    "series_not_closed": {"series": 2},
    "series_already_reopened": {"series": 1},
    "series_not_reopened": {"series": 1},
    "series_reopened": {"series": 1},
    "bad_series_minutes": {"minutes": -5, "min": 5, "max": 240},
    "unknown_clock_rule": {"rule": "sudden_death"},
    "series_has_no_clock": {"series": 1},
    "clock_already_paused": {"series": 1},
    "clock_not_paused": {"series": 1},
    "clock_ran_out": {"series": 1},
    "bad_extra_minutes": {"minutes": -5, "max": 60},
    "too_many_extra_minutes": {"table": 2, "max": 240},
    "table_already_finishing": {"table": 2},
    "series_time_up": {"series": 1, "rounds": 3},
    "game_already_attached": {"series": 1, "table": 2},
    "bad_result": {"seats": 4},
    "too_many_rounds": {"rounds": 9, "max": 7},
    "no_rounds_played": {"table": 3},
    "game_seats_differ": {"series": 1, "table": 2},
    "game_rules_differ": {"series": 1, "table": 2},
    "bad_seating_rule": {},
    "too_many_seating_rules": {"rules": 21, "max": 20},
    "rule_names_a_stranger": {"name": "Ann"},
    "apart_from_themself": {"name": "Ann"},
    "together_with_themself": {"name": "Ann"},
    "fixed_table_out_of_range": {"name": "Ann", "table": 9, "max": 4},
    "seating_rule_twice": {"name": "Ann"},
    "rules_contradict": {"first": "Ann", "second": "Bo"},
    "two_fixed_tables": {"name": "Ann", "table": 2},
    # a club's seasons
    "season_not_found": {},
    "stale_season_version": {"version": 2, "current": 3},
    "bad_season_date": {"date": "1.9.26"},
    "not_a_season_evening": {"event": "['abc']"},
    "empty_season_name": {},
    "season_name_too_long": {"max": 64},
    "season_ends_before_start": {"starts": "2026-09-01", "ends": "2026-08-01"},
    "season_without_evenings": {},
    "season_without_results": {},
    "season_too_long_for_games": {"max": 366},
    "too_many_season_evenings": {"max": 120},
    "unknown_season_rule": {"rule": "most"},
    "bad_best_evenings": {"value": 5, "evenings": 3},
    "bad_min_evenings": {"value": 0, "evenings": 3},
}


@pytest.fixture(scope="module")
def app() -> Flask:
    from referee.web import create_app

    return create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": "sqlite://"})


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    with app.test_request_context("/"):
        yield


def words(lang: str, function: Any, *args: Any, **kwargs: Any) -> str:
    with force_locale(lang):
        return str(function(*args, **kwargs))


@pytest.mark.usefixtures("app")  # the app imports every feature, and so its codes' sentences
def test_every_engine_code_has_a_message() -> None:
    assert message_codes() >= ALL_CODES
    assert web_codes() and not web_codes() & ALL_CODES


def test_a_code_has_one_sentence_whoever_registers_it() -> None:
    # Each feature registers its codes beside its service; a second sentence is a mistake.
    with pytest.raises(ValueError, match="bad_card"):
        register({"bad_card": lambda p: "another sentence"})
    with pytest.raises(ValueError, match="game_not_found"):
        from referee.web.games import messages

        register({"game_not_found": lambda p: "another sentence"})
    register(messages.SENTENCES)  # the same sentences again: nothing changes


@pytest.mark.usefixtures("app")
def test_every_code_has_a_sample_here() -> None:
    # A new engine code fails here until it has a sample (and so a translated sentence).
    assert set(SAMPLES) == message_codes()


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize("code", sorted(SAMPLES))
def test_each_code_is_a_full_sentence_in_every_language(code: str) -> None:
    english = words("en", describe, code, SAMPLES[code])
    fallbacks = {words(lang, describe, "bad_results", {}) for lang in LANGUAGES}
    fallbacks |= {words(lang, describe, "no_such_code_at_all", {}) for lang in LANGUAGES}
    for lang in LANGUAGES:
        text = words(lang, describe, code, SAMPLES[code])
        assert text.strip(), (lang, code)
        assert not PLACEHOLDER.search(text), (lang, code, text)
        assert "?" not in text.replace("“May I?”", ""), (lang, code, text)
        if code != "bad_results":
            assert text not in fallbacks, (lang, code, text)
        if lang != "en":
            assert text != english, (lang, code, text)


@pytest.mark.usefixtures("ctx")
def test_params_are_filled_in_the_local_notation() -> None:
    assert words("de", describe, "swap_card_does_not_fit", {"card": "QC"}).startswith("D♣ ")
    assert words("nl", describe, "swap_card_does_not_fit", {"card": "KH"}).startswith("H♥ ")
    assert words("en", describe, "swap_card_does_not_fit", {"card": "10S"}).startswith("10♠ ")
    assert "Herz" in words("de", describe, "set_suits_repeat", {"suit": "H"})
    assert "copas" in words("pt", describe, "runs_same_suit", {"suit": "H"})
    assert "Rommé" in words("de", describe, "no_contract", {"variant": "rummy"})
    text = words("en", describe, "bad_card", {"token": "11X"})
    assert "“11X”" in text


@pytest.mark.usefixtures("ctx")
def test_seats_become_the_names_the_caller_passes() -> None:
    names = ["Ann", "Bo", "Cy"]
    text = words("en", describe, "two_players_out", {"players": [0, 2]}, players=names)
    assert "Ann and Cy" in text
    assert words("de", describe, "rummy_needs_going_out", {"player": 1}, players=names).startswith(
        "Bo "
    )
    # Without names a seat is counted from 1, as people count.
    assert "player 2" in words("en", describe, "impossible_penalty", {"player": 1, "penalty": 3})
    assert "Spieler 2" in words("de", describe, "impossible_penalty", {"player": 1, "penalty": 3})


@pytest.mark.usefixtures("ctx")
def test_plural_forms_follow_the_number() -> None:
    one = words("en", describe, "too_few_cards", {"count": 0, "min": 1})
    three = words("en", describe, "too_few_cards", {"count": 2, "min": 3})
    assert "at least 1 card;" in one
    assert "at least 3 cards;" in three
    assert "1 Karte;" in words("de", describe, "too_few_cards", {"count": 0, "min": 1})
    assert "3 Karten;" in words("de", describe, "too_few_cards", {"count": 2, "min": 3})


@pytest.mark.usefixtures("ctx")
def test_unexpected_params_still_give_a_sentence() -> None:
    # The engine may grow params; a missing one must not break a page or the API.
    for code in sorted(SAMPLES):
        text = words("fr", describe, code, {})
        assert text and not PLACEHOLDER.search(text), code
    assert words("en", describe, "run_gap", {"missing": "x", "jokers": None})


def test_an_app_context_with_a_forced_locale_is_enough(app: Flask) -> None:
    # The command line has an app but no request: it forces the locale.
    with app.app_context():
        with force_locale("en"):
            assert describe("bad_card", {"token": "X"}).startswith("“X”")
        with force_locale("nl"):
            assert describe("bad_card", {"token": "X"}).startswith("„X”")


def test_catalogs_are_complete_and_in_step_with_the_sources(tmp_path: Path) -> None:
    """Every string in the api area's sources is in each catalog, translated, not fuzzy."""
    subprocess.run(
        ["scripts/i18n", "extract", "api"],
        cwd=ROOT,
        check=True,
        env={"I18N_POT_DIR": str(tmp_path), "PATH": f"{ROOT / '.venv' / 'bin'}:/usr/bin:/bin"},
    )
    with (tmp_path / "api.pot").open("rb") as pot:
        wanted = {m.id for m in read_po(pot) if m.id}
    assert len(wanted) > 100
    for lang in LANGUAGES:
        path = ROOT / "translations" / "api" / lang / "LC_MESSAGES" / "messages.po"
        with path.open("rb") as po:
            catalog = read_po(po, locale=lang)
        have = {m.id: m for m in catalog if m.id}
        assert wanted <= set(have), (lang, sorted(map(str, wanted - set(have)))[:5])
        for msgid in wanted:
            message = have[msgid]
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            assert all(strings), (lang, msgid)
            assert not message.fuzzy, (lang, msgid)
