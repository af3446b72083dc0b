"""Words for the games' own refusals; the engine's codes are said by `referee.web.messages`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask_babel import gettext, ngettext

from referee.web.messages import describe, player_label

from .store import GameError

Message = Callable[[Mapping[str, Any]], str]

# Each takes the prepared params (names already filled in for seats).
_MESSAGES: dict[str, Message] = {
    "game_not_found": lambda p: gettext("There is no game at this address."),
    "stale_version": lambda p: gettext(
        "Someone else changed this game while you were typing. Your entries are kept: "
        "check what changed, then save again."
    ),
    "not_a_number": lambda p: gettext("“%(value)s” is not a whole number.", value=p["value"]),
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
    "too_many_buys": lambda p: ngettext(
        "%(player)s bought %(buys)s times, but only %(num)s buy per round is allowed.",
        "%(player)s bought %(buys)s times, but only %(num)s buys per round are allowed.",
        p["limit"],
        player=p["player"],
        buys=p["buys"],
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
    "hand_too_big": lambda p: ngettext(
        "%(player)s: %(count)s cards is more than a hand can hold at the end of this round "
        "(at most %(num)s card).",
        "%(player)s: %(count)s cards is more than a hand can hold at the end of this round "
        "(at most %(num)s cards).",
        p["max"],
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
    "bad_import": lambda p: gettext(
        "This is not a game export of Rummy Referee (a .json file saved from a game page)."
    ),
    "mark_who_went_out": lambda p: gettext(
        "Mark who went out, or that nobody did because the stock ran out."
    ),
    "check_fields": lambda p: gettext("Please check the marked numbers: they cannot be right."),
    "missing_token": lambda p: gettext("Changing a game needs its edit link (its edit token)."),
}

# Codes whose sentence does not name the player it is about: the name goes in front.
_PREFIX_PLAYER = {"bad_card", "too_many_cards", "card_not_in_shoe", "too_many_copies", "bad_input"}


def game_error_text(error: GameError, players: Sequence[str] | None = None) -> str:
    """The refusal in words, in the current locale."""
    params: dict[str, Any] = dict(error.params)
    if error.player is not None:
        params.setdefault("player", error.player)
    return error_text(error.code, params, players, player=error.player)


def error_text(
    code: str,
    params: Mapping[str, Any],
    players: Sequence[str] | None = None,
    *,
    player: int | None = None,
) -> str:
    message = _MESSAGES.get(code)
    if message is None:
        text = describe(code, params, players=players)
        if player is not None and code in _PREFIX_PLAYER:
            return gettext(
                "%(player)s: %(message)s", player=player_label(player, players), message=text
            )
        return text
    prepared = dict(params)
    if "player" in prepared:
        prepared["player"] = player_label(prepared["player"], players)
    return message(prepared)


def known_codes() -> frozenset[str]:
    return frozenset(_MESSAGES)
