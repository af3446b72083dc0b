"""The games' codes in words: starting a game, its rounds, corrections and undo (the engine's
`Game` refusals and what the games feature adds: a game not found, a stale version, tokens,
idempotency keys, an import), registered with `vocabulary.messages` beside the service."""

from __future__ import annotations

from flask_babel import gettext, ngettext

from referee.web.vocabulary.messages import Message, plural_count, register
from referee.web.vocabulary.words import times_text

SENTENCES: dict[str, Message] = {
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
        times=times_text(plural_count(p["buys"])),
        limit=times_text(plural_count(p["limit"])),
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
        plural_count(p["min"]),
        player=p["player"],
        count=p["count"],
    ),
    "hand_too_big": lambda p: ngettext(
        "%(player)s: %(count)s cards is more than a hand can hold at the end of this round "
        "(at most %(num)s card).",
        "%(player)s: %(count)s cards is more than a hand can hold at the end of this round "
        "(at most %(num)s cards).",
        plural_count(p["max"]),
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
}

#: Codes whose sentence names the player itself.
NAMING_THE_PLAYER = (
    "duplicate_result",
    "missing_result",
    "too_many_buys",
    "out_with_cards",
    "no_penalty",
    "penalty_mismatch",
    "hand_too_big",
    "hand_too_small",
)

register(SENTENCES, naming_the_player=NAMING_THE_PLAYER)
