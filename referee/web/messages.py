"""Engine and web codes become sentences here, and only here: every code of every feature.

`describe(code, params)` turns a `RefereeError`, a `Violation` or a game's `Reason` into a
sentence in the current locale; the words inside it (cards, contracts, players) come from
`referee.web.words`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l

from referee.engine.errors import ALL_CODES, RefereeError, Violation
from referee.engine.game import Reason

from .words import (
    card_label,
    cards_or,
    house_rule_label,
    joker_notation,
    meld_kind_label,
    melds_count_text,
    player_label,
    players_label,
    rank_label,
    suit_name,
    times_text,
    variant_name,
)

_EXPECTED: Final[Mapping[str, Any]] = {
    "integer": _l("a whole number"),
    "boolean": _l("true or false"),
    "string": _l("text"),
    "cards": _l("cards as text or a list of texts"),
    "melds": _l("a list of melds"),
    "object": _l("an object"),
    "contract_down": _l("“no”, “this_turn” or “earlier_turn”"),
    "card": _l("one card"),
}

Message = Callable[[dict[str, Any]], str]


def _num(value: Any) -> int:
    """The number that picks the plural form."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, Sequence) and not isinstance(value, str):
        return len(value)
    try:
        return int(value)
    except (TypeError, ValueError):
        return 2


def _bad_input(p: dict[str, Any]) -> str:
    if p.get("field"):
        return gettext("“%(field)s” could not be read.", **p)
    return gettext("That input could not be read.")


def _bad_house_rule(p: dict[str, Any]) -> str:
    if p.get("low") is not None and p.get("high") is not None:
        return gettext(
            "The house rule “%(rule)s” must be between %(low)s and %(high)s, not %(value)s.", **p
        )
    if p.get("rule") == "house_rules":
        return gettext("House rules must be an object of names and values.")
    return gettext("The house rule “%(rule)s” cannot be %(value)s.", **p)


def _bad_round(p: dict[str, Any]) -> str:
    if not p.get("rounds"):
        return gettext("Round %(round)s does not exist: rounds are counted from 1.", **p)
    return gettext("Round %(round)s does not exist: this game has rounds 1 to %(rounds)s.", **p)


def _run_gap(p: dict[str, Any]) -> str:
    missing = p["missing_count"]
    if p.get("jokers_count") in (None, 0):
        return ngettext(
            "The run has a gap of %(num)d card and no joker to fill it.",
            "The run has gaps of %(num)d cards and no joker to fill them.",
            missing,
        )
    return ngettext(
        "The run is missing %(num)d card more than its jokers can fill.",
        "The run is missing %(num)d cards more than its jokers can fill.",
        missing,
    )


def _wrong_sets_and_runs(p: dict[str, Any]) -> str:
    return gettext("The contract asks for %(wanted)s; these melds are %(got)s.", **p)


def _too_many_cards(p: Mapping[str, Any]) -> str:
    if "count" in p:  # a hand longer than the round allows (RULES.md "Hand sizes")
        return ngettext(
            "A hand can hold at most %(num)d card here (the cards dealt, the card drawn and "
            "what buying brings); this one has %(count)d.",
            "A hand can hold at most %(num)d cards here (the cards dealt, the card drawn and "
            "what buying brings); this one has %(count)d.",
            _num(p["limit"]),
            count=_num(p["count"]),
        )
    return ngettext(
        "That is too many cards: at most %(num)d at once.",
        "That is too many cards: at most %(num)d at once.",
        _num(p["limit"]),
    )


def _hand_too_short(p: Mapping[str, Any]) -> str:
    """A whole hand going out shorter than the cards dealt and the one drawn (RULES.md, fourth
    reading); where even the contract's melds and a discard hold fewer, going out needs
    lay-offs, and the sentence says so."""
    said = ngettext(
        "A whole hand going out holds at least %(num)d card here (the cards dealt and the card "
        "drawn); this one has %(count)d.",
        "A whole hand going out holds at least %(num)d cards here (the cards dealt and the card "
        "drawn); this one has %(count)d.",
        _num(p["least"]),
        count=_num(p["count"]),
    )
    if "most" not in p:
        return said
    return ngettext(
        "%(said)s In this round the contract’s melds and a discard hold at most %(num)d card: "
        "going out needs lay-offs as well.",
        "%(said)s In this round the contract’s melds and a discard hold at most %(num)d cards: "
        "going out needs lay-offs as well.",
        _num(p["most"]),
        said=said,
    )


_MESSAGES: Final[Mapping[str, Message]] = {
    # -- input errors --
    "bad_input": _bad_input,
    "bad_card": lambda p: gettext(
        "“%(token)s” is not a card. Write a rank and a suit, like 10H, Q♠ or JK.", **p
    ),
    "too_many_cards": _too_many_cards,
    "hand_too_short": _hand_too_short,
    "unknown_variant": lambda p: gettext("There is no variant called “%(variant)s”.", **p),
    "bad_house_rule": _bad_house_rule,
    "unknown_house_rule": lambda p: gettext("There is no house rule called “%(rule)s”.", **p),
    "deal_length": lambda p: gettext(
        "The deal lists %(deal)s rounds but the contracts %(rounds)s; they must match.", **p
    ),
    "bad_round": _bad_round,
    "no_contract": lambda p: gettext(
        "%(variant)s has no contracts: any sets and runs may be laid down at any time.", **p
    ),
    "bad_players": lambda p: gettext(
        "This game is for %(min_players)s to %(max_players)s players, not %(players)s.", **p
    ),
    "two_players_out": lambda p: gettext(
        "Only one player can go out in a round, but %(players)s are marked as out.", **p
    ),
    "no_player_out": lambda p: gettext(
        "In this game a round ends when someone goes out: mark who went out."
    ),
    "rummy_needs_going_out": lambda p: gettext(
        "%(player)s can only score a rummy by going out.", **p
    ),
    "impossible_penalty": lambda p: gettext(
        "No hand %(player)s could hold at the end of this round is worth %(penalty)s points.",
        **p,
    ),
    "penalty_below_whole_hand": lambda p: gettext(
        "Nothing is laid down before going out in this round, so %(player)s still holds all "
        "%(cards)s cards: at least %(least)s points, not %(penalty)s.",
        **p,
    ),
    # -- a single meld --
    "too_few_cards": lambda p: ngettext(
        "A meld needs at least %(num)d card; this one has %(count)s.",
        "A meld needs at least %(num)d cards; this one has %(count)s.",
        _num(p["min"]),
        count=p["count"],
    ),
    "not_same_rank_or_suit": lambda p: gettext(
        "These cards are neither one rank (a set) nor one suit in order (a run)."
    ),
    "set_ranks_differ": lambda p: gettext("The cards of a set must all be of one rank."),
    "run_suits_differ": lambda p: gettext("The cards of a run must all be of one suit."),
    "set_too_large": lambda p: ngettext(
        "A set holds at most %(num)d card here; this one has %(count)s.",
        "A set holds at most %(num)d cards here; this one has %(count)s.",
        _num(p["max"]),
        count=p["count"],
    ),
    "set_suits_repeat": lambda p: gettext(
        "The cards of a set must all differ in suit here; this one has more than one card "
        "of %(suit)s.",
        **p,
    ),
    "run_ranks_repeat": lambda p: gettext(
        "A run holds each rank once; this one has the rank %(rank)s twice.", **p
    ),
    "run_gap": _run_gap,
    "run_around_the_corner": lambda p: gettext(
        "A run may not go around the corner from king over ace to two (K-A-2)."
    ),
    "run_too_long": lambda p: ngettext(
        "A run holds at most %(num)d card; this one has %(count)s.",
        "A run holds at most %(num)d cards; this one has %(count)s.",
        _num(p["max"]),
        count=p["count"],
    ),
    "ace_low_only": lambda p: gettext(
        "In this game the ace is low only: A-2-3 is a run, Q-K-A is not."
    ),
    "no_natural_card": lambda p: ngettext(
        "Every meld needs at least %(num)d card that is not a joker.",
        "Every meld needs at least %(num)d cards that are not jokers.",
        _num(p["min"]),
    ),
    "too_many_jokers": lambda p: ngettext(
        "A meld may hold at most %(num)d joker here; this one has %(count)s.",
        "A meld may hold at most %(num)d jokers here; this one has %(count)s.",
        _num(p["max"]),
        count=p["count"],
    ),
    "jokers_not_allowed": lambda p: gettext("This game is played without jokers."),
    "joker_declaration_mismatch": lambda p: gettext(
        "The joker declared as %(joker)s does not fit this meld.", **p
    ),
    "joker_not_declared": lambda p: gettext(
        "Say which card the joker stands for, like %(example)s: here it could be %(options)s.",
        **p,
    ),
    "too_many_copies": lambda p: ngettext(
        "%(card)s is here %(times)s, but the game has only %(num)d of it.",
        "%(card)s is here %(times)s, but the game has only %(num)d of them.",
        _num(p["max"]),
        card=p["card"],
        times=times_text(_num(p["count"])),
    ),
    # -- a contract --
    "wrong_sets_and_runs": _wrong_sets_and_runs,
    "contract_run_too_short": lambda p: ngettext(
        "This contract needs runs of %(num)d card; this one has %(count)s.",
        "This contract needs runs of %(num)d cards; this one has %(count)s.",
        _num(p["size"]),
        count=p["count"],
    ),
    "contract_set_too_short": lambda p: ngettext(
        "This contract needs sets of %(num)d card; this one has %(count)s.",
        "This contract needs sets of %(num)d cards; this one has %(count)s.",
        _num(p["size"]),
        count=p["count"],
    ),
    "runs_same_suit_and_start": lambda p: gettext(
        "Two runs of the contract are both in %(suit)s and both start at %(start)s; they must "
        "differ in suit or starting card.",
        **p,
    ),
    "runs_same_suit": lambda p: gettext(
        "Two runs of the contract are both in %(suit)s; each run needs a suit of its own.", **p
    ),
    "sets_same_rank": lambda p: gettext(
        "Two sets of the contract have the same rank, %(rank)s; at this table each set needs a "
        "rank of its own (house rule “%(name)s”).",
        name=house_rule_label("distinct_set_ranks"),
        **p,
    ),
    "last_round_goes_out": lambda p: gettext(
        "In the last round the contract is laid down only by going out: the whole hand at "
        "once, with no card left over."
    ),
    # -- going out --
    "going_out_needs_discard": lambda p: gettext(
        "Going out in this round ends with a discard: name the card discarded last."
    ),
    "going_out_no_discard": lambda p: gettext(
        "Here you go out without a discard: every card is melded or laid off, %(card)s too.", **p
    ),
    "last_round_no_discard": lambda p: gettext(
        "In the last round you go out without a discard: the whole hand is melded, %(card)s too.",
        **p,
    ),
    "discard_taken_this_turn": lambda p: gettext(
        "%(card)s was taken from the discard pile this turn: it may not be discarded again.",
        **p,
    ),
    # -- lay-offs and joker swaps --
    "nothing_to_lay_off": lambda p: gettext("Name at least one card to lay off."),
    "layoff_changes_meld": lambda p: gettext(
        "These cards do not extend this meld: it would no longer be the same set or run."
    ),
    "joker_swap_not_allowed": lambda p: gettext(
        "In this game a joker may not be swapped out of this meld (%(kind)s).", **p
    ),
    "joker_swap_in_set": lambda p: gettext("Jokers in a set are dead: they cannot be swapped."),
    "no_joker_to_swap": lambda p: gettext("There is no joker in this meld to swap."),
    "swap_card_does_not_fit": lambda p: gettext(
        "%(card)s is not the card the joker stands for.", **p
    ),
    "layoff_before_contract": lambda p: gettext(
        "You may lay off only once your own contract is down."
    ),
    "layoff_same_turn_as_contract": lambda p: gettext(
        "Lay-offs start on your next turn, not in the turn your contract goes down."
    ),
    "swap_before_contract": lambda p: gettext(
        "You may swap a joker only once your own contract is down."
    ),
    "swap_same_turn_as_contract": lambda p: gettext(
        "You may swap a joker only from the turn after your contract went down."
    ),
    "swap_from_own_meld": lambda p: gettext(
        "A joker may be swapped only out of another player's meld, not out of your own."
    ),
    # -- what a valid lay-off or swap waits for --
    "once_contract_down": lambda p: gettext(
        "Valid once your contract is down, in that same turn too."
    ),
    "once_contract_down_next_turn": lambda p: gettext(
        "Valid once your contract is down, from your next turn."
    ),
    "swap_use_joker_this_turn": lambda p: gettext(
        "The joker you take must be laid down again in the same turn."
    ),
    "swap_from_another_players_meld": lambda p: gettext(
        "Valid only if the meld is another player's, not your own."
    ),
    # -- a game: starting it, its rounds, corrections and undo --
    "empty_name": lambda p: gettext("Every player needs a name."),
    "name_too_long": lambda p: gettext("A name may have at most %(max)s characters.", max=p["max"]),
    "duplicate_name": lambda p: gettext(
        "Two players are called “%(name)s”: give them different names.", name=p["name"]
    ),
    "unknown_player": lambda p: gettext(
        "There is no player called “%(name)s” in this game.", name=p["name"]
    ),
    "duplicate_result": lambda p: gettext(
        "%(player)s has two results in this round.", player=p["player"]
    ),
    "missing_result": lambda p: gettext(
        "%(player)s has no result in this round.", player=p["player"]
    ),
    "rummy_not_in_variant": lambda p: gettext("This variant has no double score for a rummy."),
    "buying_off": lambda p: gettext("Buying is not played in this game."),
    "too_many_buys": lambda p: gettext(
        "%(player)s bought %(times)s, but may buy at most %(limit)s per round.",
        player=p["player"],
        times=times_text(_num(p["buys"])),
        limit=times_text(_num(p["limit"])),
    ),
    "out_with_cards": lambda p: gettext(
        "%(player)s went out, so no cards are left in that hand.", player=p["player"]
    ),
    "no_penalty": lambda p: gettext(
        "Enter what is left in %(player)s’s hand, or mark who went out.", player=p["player"]
    ),
    "penalty_mismatch": lambda p: gettext(
        "%(player)s: the cards add up to %(cards_penalty)s, not %(penalty)s.",
        player=p["player"],
        cards_penalty=p["cards_penalty"],
        penalty=p["penalty"],
    ),
    "hand_too_small": lambda p: ngettext(
        "%(player)s: nothing is laid down before going out in this round, so the hand still "
        "holds at least %(num)s card, not %(count)s.",
        "%(player)s: nothing is laid down before going out in this round, so the hand still "
        "holds at least %(num)s cards, not %(count)s.",
        _num(p["min"]),
        player=p["player"],
        count=p["count"],
    ),
    "hand_too_big": lambda p: ngettext(
        "%(player)s: %(count)s cards is more than a hand can hold at the end of this round "
        "(at most %(num)s card).",
        "%(player)s: %(count)s cards is more than a hand can hold at the end of this round "
        "(at most %(num)s cards).",
        _num(p["max"]),
        player=p["player"],
        count=p["count"],
    ),
    "game_finished": lambda p: gettext("The game is over: no more rounds can be entered."),
    "round_out_of_order": lambda p: gettext(
        "Round %(round)s cannot be entered now: the next round is round %(expected)s.",
        round=p["round"],
        expected=p["expected"],
    ),
    "no_such_round": lambda p: gettext(
        "Round %(round)s has not been entered yet.", round=p["round"]
    ),
    "nothing_changed": lambda p: gettext(
        "Round %(round)s already has exactly these results.", round=p["round"]
    ),
    "ends_game_early": lambda p: gettext(
        "With this correction the game would already end after round %(round)s, "
        "but later rounds were played. Correct the later rounds first.",
        round=p["round"],
    ),
    "nothing_to_undo": lambda p: gettext("There is nothing left to undo."),
    "not_the_last_change": lambda p: gettext(
        "Only the newest change can be undone; the change to round %(round)s is not the newest.",
        round=p["round"],
    ),
    "nothing_to_restore": lambda p: gettext(
        "There is nothing to restore: only an undo can be taken back, right after it."
    ),
    "cannot_restore": lambda p: gettext(
        "Round %(round)s was changed after it was undone, so it cannot be restored.",
        round=p["round"],
    ),
    "game_not_found": lambda p: gettext("There is no game at this address."),
    "stale_version": lambda p: gettext(
        "Someone else changed this game while you were typing. Your entries are kept: "
        "check what changed, then save again."
    ),
    "missing_token": lambda p: gettext("Changing a game needs its edit link (its edit token)."),
    "bad_idempotency_key": lambda p: gettext(
        "An Idempotency-Key is 8 to 64 letters, digits or signs, like a UUID."
    ),
    "idempotency_key_reused": lambda p: gettext(
        "This Idempotency-Key was sent before with another request to this game: "
        "a new request needs a new key."
    ),
    "bad_token": lambda p: gettext(
        "This is not the game's edit token: changing a game needs its edit link."
    ),
    "bad_import": lambda p: gettext(
        "This is not a game export of Rummy Referee (a .json file saved from a game page)."
    ),
    # -- clubs --
    "club_not_found": lambda p: gettext("There is no club at this address."),
    "missing_club_token": lambda p: gettext(
        "Starting a club’s game needs the club’s edit link (its edit token)."
    ),
    "bad_club_token": lambda p: gettext(
        "This is not the club’s edit token: starting its games needs the club’s edit link."
    ),
    "empty_club_name": lambda p: gettext("The club needs a name."),
    "club_name_too_long": lambda p: gettext(
        "A club’s name may have at most %(max)s characters.", max=p["max"]
    ),
    "too_many_members": lambda p: gettext(
        "A club has room for %(max)s members: this game would make it more.", max=p["max"]
    ),
    "no_game_to_rematch": lambda p: gettext("The club has no game to play again yet."),
    "bad_club_import": lambda p: gettext(
        "This is not a club export of Rummy Referee (a .json file saved from a club page)."
    ),
    "bad_club_game": lambda p: gettext(
        "Game %(game)s of the club file cannot be read: %(reason)s",
        game=p["game"],
        reason=p["reason"],
    ),
    # -- club nights --
    "event_not_found": lambda p: gettext("There is no club night at this address."),
    "stale_event_version": lambda p: gettext(
        "The evening changed on another phone meanwhile (it is at version %(current)s, this "
        "page showed %(version)s): look at it again, then do it once more.",
        **p,
    ),
    "bad_event_date": lambda p: gettext("“%(date)s” is not a date: write it as 2025-03-07.", **p),
    "no_names": lambda p: gettext("Name at least one player."),
    "one_name_at_a_time": lambda p: gettext("One player leaves at a time: name one."),
    "swap_two_players": lambda p: gettext("A swap names two players, one at each table."),
    "move_names_a_table": lambda p: gettext(
        "A move names one player (“name”) and the table they go to (“table”)."
    ),
    "bad_event_file": lambda p: gettext(
        "This is not a club night saved by Rummy Referee (a .json file from an evening’s page)."
    ),
    "bad_series_count": lambda p: gettext(
        "An evening has %(min)s to %(max)s series, not %(series)s.", **p
    ),
    "bad_table_size": lambda p: gettext(
        "A table seats %(min)s to %(max)s players, not %(size)s.", **p
    ),
    "table_sizes_out_of_order": lambda p: gettext(
        "The table sizes must go smallest (%(smallest)s), preferred (%(preferred)s), largest "
        "(%(largest)s), each at least the one before.",
        **p,
    ),
    "table_size_not_in_variant": lambda p: gettext(
        "This variant is played by %(min_players)s to %(max_players)s players: no table of "
        "%(size)s.",
        **p,
    ),
    "bad_series_rounds": lambda p: gettext(
        "A series of rounds has 1 to %(max)s rounds, not %(rounds)s.", **p
    ),
    "unknown_draw_method": lambda p: gettext(
        "“%(method)s” is no way to draw: mix, standings or random.", **p
    ),
    "bad_seed": lambda p: gettext("A seed is a whole number from 0 to %(max)s.", **p),
    # -- drills (the trainer) --
    "unknown_drill_kind": lambda p: gettext(
        "There is no drill called “%(kind)s”; ask for one of %(kinds)s.", **p
    ),
    "bad_drill_level": lambda p: gettext("A level is 1, 2 or 3, not %(level)s.", **p),
    "bad_drill_count": lambda p: gettext("A pack holds 1 to %(max)s drills, not %(count)s.", **p),
    "no_drills_of_kind": lambda p: gettext(
        "%(variant)s has no joker swaps to practise: none of its jokers may be swapped.", **p
    ),
    "too_few_drills": lambda p: gettext(
        "This table has only %(count)s different questions of this kind: ask for fewer.", **p
    ),
    "unknown_scheme": lambda p: gettext(
        "“%(scheme)s” is no tournament scheme: romme, placement or points.", **p
    ),
    "bad_place_points": lambda p: gettext(
        "A table of %(size)s needs whole place points, one for each place.", **p
    ),
    "place_points_not_descending": lambda p: gettext(
        "At a table of %(size)s a better place must earn at least the points of a worse one.",
        **p,
    ),
    "bad_bonus": lambda p: gettext(
        "The bonus is at most %(max)s steps, each two whole numbers: points left, bonus.", **p
    ),
    "bonus_not_descending": lambda p: gettext(
        "The bonus must be larger the fewer points are left."
    ),
    "bad_tie_breaks": lambda p: gettext("Ties can only be broken by: %(allowed)s.", **p),
    "no_series_left": lambda p: gettext(
        "All %(series)s series are drawn: nobody can join the evening now.", **p
    ),
    "already_checked_in": lambda p: gettext("%(name)s is already checked in.", **p),
    "already_left": lambda p: gettext("%(name)s has already left.", **p),
    "seated_in_next_series": lambda p: gettext(
        "%(name)s sits at table %(table)s of series %(series)s, drawn and not started: swap "
        "them out or draw the series again first.",
        **p,
    ),
    "too_few_players": lambda p: gettext(
        "Drawing needs at least %(min)s players; %(players)s are checked in for this series.",
        **p,
    ),
    "too_many_players": lambda p: gettext("An evening seats at most %(max)s players.", **p),
    "players_cannot_be_split": lambda p: gettext(
        "%(players)s players cannot be split into tables of these sizes: check one in or let "
        "one leave.",
        **p,
    ),
    "all_series_drawn": lambda p: gettext("All %(series)s series are drawn.", **p),
    "series_already_drawn": lambda p: gettext(
        "Series %(series)s is already drawn (on another phone, perhaps): here it is.", **p
    ),
    "series_out_of_order": lambda p: gettext(
        "The next series to draw is series %(expected)s, not %(series)s.", **p
    ),
    "series_still_playing": lambda p: gettext(
        "Series %(series)s is still being played at table %(tables)s: the next series is drawn "
        "once every table has finished.",
        **p,
    ),
    "no_standings_yet": lambda p: gettext(
        "The first series cannot be drawn by standings: there are none yet."
    ),
    "not_the_newest_series": lambda p: gettext(
        "Only the newest series can be drawn again, not series %(series)s.", **p
    ),
    "series_started": lambda p: gettext("Series %(series)s has started: its seats are fixed.", **p),
    "no_such_series": lambda p: gettext("There is no series %(series)s yet.", **p),
    "no_such_table": lambda p: gettext("Series %(series)s has no table %(table)s.", **p),
    "not_seated": lambda p: gettext("%(name)s has no seat in series %(series)s.", **p),
    "same_player": lambda p: gettext(
        "Swap two different players, not %(name)s with themself.", **p
    ),
    "same_table": lambda p: gettext(
        "Both sit at table %(table)s: a swap moves two players between tables.", **p
    ),
    "already_at_table": lambda p: gettext("%(name)s already sits at table %(table)s.", **p),
    "table_too_small": lambda p: gettext(
        "Table %(table)s would have fewer than %(size)s players left: move someone else there "
        "first, or swap two players.",
        **p,
    ),
    "table_too_large": lambda p: gettext(
        "Table %(table)s already seats %(size)s players, the most this evening allows: swap "
        "two players instead.",
        **p,
    ),
    "series_closed": lambda p: gettext(
        "Series %(series)s is over and series %(next)s is drawn: its results stand. The host "
        "can reopen it on the evening's page.",
        **p,
    ),
    "series_not_closed": lambda p: gettext(
        "Series %(series)s is still open: only a series the next draw has fixed is reopened.",
        **p,
    ),
    "series_already_reopened": lambda p: gettext("Series %(series)s is already reopened.", **p),
    "series_not_reopened": lambda p: gettext(
        "Series %(series)s is not reopened: there is nothing to close.", **p
    ),
    "series_reopened": lambda p: gettext(
        "Series %(series)s is reopened: close it again before the next series is drawn.", **p
    ),
    "game_already_attached": lambda p: gettext(
        "Table %(table)s of series %(series)s already has its game.", **p
    ),
    "bad_result": lambda p: ngettext(
        "A table's result has one total for its %(num)d seat.",
        "A table's result has one total for each of its %(num)d seats.",
        _num(p["seats"]),
    ),
    "too_many_rounds": lambda p: gettext(
        "A table of this evening plays at most %(max)s rounds, not %(rounds)s.", **p
    ),
    "no_rounds_played": lambda p: gettext(
        "Table %(table)s cannot have finished without a round played.", **p
    ),
    "game_seats_differ": lambda p: gettext(
        "That game's players are not those of table %(table)s in series %(series)s.", **p
    ),
    "game_rules_differ": lambda p: gettext(
        "That game is not played by the evening's rules (table %(table)s, series %(series)s).",
        **p,
    ),
    "mark_who_went_out": lambda p: gettext(
        "Mark who went out, or that nobody did because the stock ran out."
    ),
    "same_as_previous_round": lambda p: gettext(
        "Round %(round)s scores exactly as round %(previous)s did. If the table really played "
        "it that way, save it again.",
        round=p["round"],
        previous=p["previous"],
    ),
    "choose_first_dealer": lambda p: gettext("Choose who deals first."),
    # -- numbers as typed --
    "not_a_number": lambda p: gettext("“%(value)s” is not a whole number.", value=p["value"]),
    "out_of_range": lambda p: gettext("%(value)s is not between %(low)s and %(high)s.", **p),
    # -- the API and the command line --
    "bad_json": lambda p: gettext("The request body is not valid JSON."),
    "not_an_object": lambda p: gettext(
        'The request body must be a JSON object, like {"variant": "contract"}.'
    ),
    "missing_field": lambda p: gettext("“%(field)s” is missing.", **p),
    "wrong_type": lambda p: gettext("“%(field)s” must be %(expected)s.", **p),
    "bad_language": lambda p: gettext(
        "“%(lang)s” is not a language we speak; use en, de, nl, pt, fr or es.", **p
    ),
    "too_many_melds": lambda p: ngettext(
        "That is too many melds: at most %(num)d at once.",
        "That is too many melds: at most %(num)d at once.",
        _num(p["limit"]),
    ),
    "too_many_entries": lambda p: ngettext(
        "“%(field)s” may hold at most %(num)d entry.",
        "“%(field)s” may hold at most %(num)d entries.",
        _num(p["limit"]),
        field=p["field"],
    ),
    "house_rule_syntax": lambda p: gettext(
        "Write a house rule as name=value, like max_jokers_per_meld=2, not “%(input)s”.", **p
    ),
    "payload_too_large": lambda p: gettext(
        "The request is too large: at most %(limit)s bytes.", **p
    ),
    "discard_needs_going_out": lambda p: gettext(
        "A last discard is given only when going out (“going_out”: true)."
    ),
    "game_variant_differs": lambda p: gettext(
        "That game is played as %(game_variant)s, not %(variant)s: leave “variant” out or "
        "name the game’s.",
        **p,
    ),
}

WEB_CODES: Final = frozenset(
    {
        # request bodies
        "bad_json",
        "not_an_object",
        "missing_field",
        "wrong_type",
        "bad_language",
        "too_many_melds",
        "too_many_entries",
        "payload_too_large",
        "house_rule_syntax",
        "discard_needs_going_out",
        "game_variant_differs",
        # numbers as typed
        "not_a_number",
        "out_of_range",
        # games kept by the web layer
        "game_not_found",
        "stale_version",
        "missing_token",
        "bad_token",
        "bad_idempotency_key",
        "idempotency_key_reused",
        "bad_import",
        "duplicate_result",
        "missing_result",
        "mark_who_went_out",
        # clubs
        "club_not_found",
        "missing_club_token",
        "bad_club_token",
        "empty_club_name",
        "club_name_too_long",
        "too_many_members",
        "no_game_to_rematch",
        "bad_club_import",
        "bad_club_game",
        "same_as_previous_round",
        "choose_first_dealer",
        # club nights
        "event_not_found",
        "stale_event_version",
        "bad_event_date",
        "no_names",
        "one_name_at_a_time",
        "swap_two_players",
        "move_names_a_table",
        "bad_event_file",
    }
)
"""Codes the web layer adds to the engine's (bad request bodies, games as stored)."""

MESSAGE_CODES: Final = frozenset(_MESSAGES)

#: Params that are words: each shown the way the table says it (``D♣`` in German).
_WORDS: Final[Mapping[str, Callable[[Any], str]]] = {
    "card": card_label,
    "joker": card_label,
    "suit": suit_name,
    "rank": rank_label,
    "start": rank_label,
    "kind": meld_kind_label,
    "rule": str,
}

#: Codes whose sentence names the player; any other said of one player gets the name in front.
_NAMES_THE_PLAYER: Final = frozenset(
    {
        "duplicate_result",
        "missing_result",
        "too_many_buys",
        "out_with_cards",
        "no_penalty",
        "penalty_mismatch",
        "hand_too_big",
        "rummy_needs_going_out",
        "impossible_penalty",
        "penalty_below_whole_hand",
        "hand_too_small",
    }
)


class _Params(dict[str, Any]):
    """Parameters for `%` formatting: a parameter the engine left out shows as "?"."""

    def __missing__(self, key: str) -> str:
        return "?"


def _word(code: str, key: str, value: Any, players: Sequence[str] | None) -> Any:
    if key in _WORDS:
        return _WORDS[key](value)
    if key == "player":
        return player_label(value, players)
    if key == "players" and code == "two_players_out":
        return players_label(value, players)
    if key in ("variant", "game_variant") and code in (
        "no_contract",
        "game_variant_differs",
        "no_drills_of_kind",
    ):
        return variant_name(value)
    if key in ("tables", "allowed") and isinstance(value, list | tuple):
        return ", ".join(str(item) for item in value)
    if key == "options":
        return cards_or(value)
    if key == "expected":
        expected = _EXPECTED.get(str(value))
        return str(expected) if expected is not None else str(value)
    if key == "value" and value is None:
        return gettext("empty")
    return value


def _prepared(code: str, params: Mapping[str, Any], players: Sequence[str] | None) -> _Params:
    out = _Params({key: _word(code, key, value, players) for key, value in params.items()})
    if code == "run_gap":
        out["missing_count"] = _num(params.get("missing", 1))
        jokers = params.get("jokers")
        out["jokers_count"] = None if jokers is None else _num(jokers)
    if code == "joker_not_declared":
        options = params.get("options") or ["8H"]
        out["example"] = joker_notation(options[0])
    if code == "wrong_sets_and_runs":
        out["wanted"] = melds_count_text(_num(params.get("sets", 0)), _num(params.get("runs", 0)))
        out["got"] = melds_count_text(
            _num(params.get("got_sets", 0)), _num(params.get("got_runs", 0))
        )
    return out


def describe(
    code: str, params: Mapping[str, Any] | None = None, *, players: Sequence[str] | None = None
) -> str:
    """The sentence for an engine or web code, in the current locale, with its params filled.

    Card params read ``D♣`` in German; seats become `players[seat]` when names are given.
    """
    message = _MESSAGES.get(code)
    prepared = _prepared(code, params or {}, players)
    if message is not None:
        try:
            text = message(prepared)
        except (KeyError, TypeError, ValueError):
            text = None  # params of an unexpected shape: the plain sentence below
        # gettext leaves the placeholders alone when it is given no params at all.
        if text is not None and "%(" not in text:
            return text
    if code in ALL_CODES or message is not None:
        return gettext("That breaks a rule of the game.")
    return gettext("Something in that request is not right.")


def describe_error(error: RefereeError | Violation, *, players: Sequence[str] | None = None) -> str:
    """`describe` for an engine error or violation object."""
    return describe(error.code, error.params, players=players)


def describe_reason(reason: Reason, players: Sequence[str] | None = None) -> str:
    """A game's reason in words, naming the player it is about: "Bo: “x” is not a card"."""
    params = dict(reason.params)
    if reason.field is not None:
        params.setdefault("field", reason.field)  # "“players” may hold at most 8 entries"
    if reason.player is None:
        return describe(reason.code, params, players=players)
    params.setdefault("player", reason.player)
    text = describe(reason.code, params, players=players)
    if reason.code in _NAMES_THE_PLAYER:
        return text
    name = player_label(reason.player, players)
    return gettext("%(player)s: %(message)s", player=name, message=text)
